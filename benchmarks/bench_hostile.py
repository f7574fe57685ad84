"""Benchmark: time and peak memory of `pnp` on each hostile or broken project of
tests/hostile.py, at the size the fault was first seen at (the suite runs them small).

Not a test: prints a Markdown table. Each case runs in a fresh process, stopped after
--timeout seconds and held to --memory MB of address space (so a case that would take the
machine's memory stops instead); a case stopped says so. With --code DIR, the pnp of another
checkout (a git worktree of an older commit) is measured instead: the before of a table.
Usage: python benchmarks/bench_hostile.py [--timeout S] [--memory MB] [--only TEXT] [--code DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import hostile  # noqa: E402

PROBE = """
import resource, subprocess, sys
limit = int(sys.argv[2]) * 2**20
def held():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
try:
    r = subprocess.run(sys.argv[3:], capture_output=True, text=True, timeout=float(sys.argv[1]),
                       preexec_fn=held, stdin=subprocess.DEVNULL)
    lines = [l for l in (r.stdout + r.stderr).splitlines() if "error" in l or "Error" in l]
    last = f"exit {r.returncode}: " + (lines[0] if lines else "")
except subprocess.TimeoutExpired:
    last = "stopped: still running"
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(last)
"""


def measure(argv, env, cwd, timeout: float, memory: int, code: Path) -> tuple[float, float, str]:
    start = time.perf_counter()
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            str(timeout),
            str(memory),
            sys.executable,
            "-m",
            "generator",
            *argv,
        ],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **env, "PYTHONPATH": str(code), "PNP_LANG": "en"},
        check=True,
    ).stdout.splitlines()
    return time.perf_counter() - start, int(out[0]) / 1024, out[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--memory", type=int, default=4096, help="address space per case, MB")
    ap.add_argument("--only", help="cases whose name holds this text")
    ap.add_argument("--code", type=Path, default=ROOT, help="the checkout whose pnp runs")
    ap.add_argument("--small", action="store_true", help="the suite's sizes")
    args = ap.parse_args()
    print("| case | time | peak memory | result |")
    print("|---|---:|---:|---|")
    for name, build in hostile.CASES.items():
        if args.only and args.only not in name:
            continue
        with tempfile.TemporaryDirectory() as t:
            folder = Path(t)
            case = build(folder, not args.small)
            if case.unprivileged and os.geteuid() == 0:
                print(f"| {name} | | | (needs a user without root's rights) |")
                continue
            env = {"PNP_CACHE_DIR": str(folder / "cache"), **case.env}
            seconds, rss, last = measure(
                case.argv, env, folder, args.timeout, args.memory, args.code.resolve()
            )
            last = last.replace(str(folder), "…").replace("|", "\\|")[:120]
            if (folder / "MARK").exists():
                last = "THE PLANTED CODE RAN; " + last
            print(f"| {name} | {seconds:.1f} s | {rss:.0f} MB | {last} |", flush=True)
            subprocess.run(["chmod", "-R", "u+rwx", t], check=False)


if __name__ == "__main__":
    main()
