#!/usr/bin/env python3
"""Set-up and run in one step: `python3 tasks.py build` or `python3 tasks.py test`.

Creates `.venv/` beside this file on first use and installs the project into it (again only
when pyproject.toml changes), so a fresh machine needs nothing but Python 3.11+.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"


def ensure_env() -> None:
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want and PY.exists():
        return
    if not PY.exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing the project and its test tools into .venv ...", flush=True)
    subprocess.run([str(PY), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([str(PY), "-m", "pip", "install", "-q", "-e", f"{ROOT}[test]"], check=True)
    STAMP.write_text(want)


BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def ensure_browser() -> None:
    """The `pnp serve` test drives a real headless browser. Where none is installed and this
    is a Debian-like machine run as root (a CI container), install Debian's chromium, best
    effort: without it that test is skipped, nothing fails."""
    import shutil

    if any(shutil.which(b) for b in BROWSERS) or not shutil.which("apt-get"):
        return
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        print("no chromium: the browser test of `pnp serve` will be skipped", flush=True)
        return
    print("installing chromium for the browser test (apt-get) ...", flush=True)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    try:
        subprocess.run(["apt-get", "update", "-qq"], timeout=300, **quiet)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "chromium"], timeout=900, env=env, **quiet
        )
    except (OSError, subprocess.TimeoutExpired):
        pass
    if not any(shutil.which(b) for b in BROWSERS):
        print("chromium could not be installed: the browser test will be skipped", flush=True)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {
        "build",
        "test",
        "lint",
        "check",
        "simulate",
        "bench",
        "shell",
        "i18n",
    }:
        print(__doc__)
        print(
            "commands: build [GAME...] | check [GAME...] | simulate GAME [...] | "
            "test [pytest args] | lint | bench | i18n"
        )
        return 2
    ensure_env()
    cmd, rest = argv[0], argv[1:]
    os.chdir(ROOT)
    if cmd in {"build", "check", "simulate"}:
        return subprocess.call([str(PY), "-m", "generator", cmd, *rest])
    if cmd == "test":
        ensure_browser()
        # Lint and format first (seconds), then the tests; either failing fails the command.
        paths = ["generator", "tests", "benchmarks", "tasks.py"]
        lint = subprocess.call([str(PY), "-m", "ruff", "check", *paths])
        lint |= subprocess.call([str(PY), "-m", "ruff", "format", "--check", "--quiet", *paths])
        if lint:
            print("ruff found problems: `python3 tasks.py lint` fixes what it can", flush=True)
        return subprocess.call([str(PY), "-m", "pytest", *rest]) or lint
    if cmd == "lint":
        paths = ["generator", "tests", "benchmarks", "tasks.py"]
        fixed = subprocess.call([str(PY), "-m", "ruff", "check", "--fix", *paths])
        return subprocess.call([str(PY), "-m", "ruff", "format", *paths]) or fixed
    if cmd == "i18n":  # after changing a message: merge it into the catalog, then translate it
        return subprocess.call([str(PY), str(ROOT / "tests" / "catalog.py"), *rest])
    if cmd == "bench":
        return subprocess.call(
            [str(PY), str(ROOT / "benchmarks" / "bench_build.py"), *rest]
        ) or subprocess.call([str(PY), str(ROOT / "benchmarks" / "bench_engine.py")])
    return subprocess.call([str(PY), *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
