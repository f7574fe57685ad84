"""Benchmark: the edit–look loop. 補陀落渡海しよう！'s 煩悩カード at 40 cards and scaled to 7,200
(the rows repeated): a cold build (no cache anywhere), a build with nothing changed, and a build
after a one-row edit (each a fresh `pnp build`): of the first 貪欲 card, which the rulebook shows
as a sample (its pages drawn again too), and of the second, as most rows are (35 of the 40: the
rulebook kept); an edit of the second rebuilt as `pnp watch` rebuilds it (in a process that has
built once: no start-up, no imports), and the plain ReportLab script
(benchmarks/plain_reportlab.py) drawing the same cards with the whole font as TrueType. Best of
--repeat, the runs alternating; compare the ratios (issue 11's targets: a one-row edit ≤ 25 %
of a cold build at 40 cards, ≤ 10 % at 7,200; 7,200 cards cold ≤ 1.5× the plain script).
Not a test: prints figures.
Usage: python benchmarks/bench_edit.py [--repeat N] [--copies 1,180]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_build import full_truetype, plain_cmd  # noqa: E402


def project(tmp: Path, copies: int, distinct: bool = False) -> Path:
    """The game with its 煩悩カード rows repeated `copies` times; `distinct`: each row's reading
    (printed as ruby over the suit) numbered, so no two cards are alike."""
    root = tmp / f"p{copies}"
    for name in ("cards", "layouts"):
        shutil.copytree(ROOT / name, root / name)
    game = root / "cards/fudaraku"
    lines = (game / "kleshas.csv").read_text("utf-8").splitlines()
    rows = lines[1:] * copies
    if distinct:
        cells = [row.split(",") for row in rows]
        rows = [",".join([c[0], f"{c[1]}{i}", *c[2:]]) for i, c in enumerate(cells)]
    (game / "kleshas.csv").write_text("\n".join([lines[0]] + rows) + "\n", "utf-8")
    manifest = game / "game.toml"
    text = manifest.read_text("utf-8").replace("copies = 1", f"copies = {copies}")
    manifest.write_text(text.replace("total = 40", f"total = {40 * copies}"), "utf-8")
    return root


def build(root: Path, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "generator", "build", "fudaraku", "--project", str(root)],
        check=True,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


# What `pnp watch` does on a save, timed in one process that has built the game once: the
# build of the edited game (every plan kept, as watch asks) and the summary of what changed.
WATCHED = """
import sys, time
from pathlib import Path
from generator import pipeline, watch
from generator.project import find_project
from generator.session import Session
root, edits = Path(sys.argv[1]), int(sys.argv[2])
project, options, session = find_project(root), pipeline.Options(reuse=False), Session()
build = lambda: pipeline.build(project, ["fudaraku"], options, session)
states = watch.snapshot(build(), root / "output")
csv, best = root / "cards/fudaraku/kleshas.csv", []
for i in range(edits):
    text = csv.read_text("utf-8")
    old, new = ("#C8323C", "#C8323E") if i % 2 == 0 else ("#C8323E", "#C8323C")
    csv.write_text(text.replace(old, new, 1), "utf-8")  # the same row each time
    start = time.perf_counter()
    after = watch.snapshot(build(), root / "output")
    watch.changes("fudaraku", states["fudaraku"], after["fudaraku"])
    best.append(time.perf_counter() - start)
    states = after
print(min(best))
"""


def watched(root: Path, env: dict, edits: int = 4) -> float:
    """The best of `edits` one-row edits rebuilt the way `pnp watch` rebuilds them."""
    done = subprocess.run(
        [sys.executable, "-c", WATCHED, str(root), str(edits)],
        check=True,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return float(done.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--copies", default="1,180")
    ap.add_argument(
        "--distinct",
        action="store_true",
        help="every card different (its reading numbered), not the 40 rows repeated",
    )
    args = ap.parse_args()
    fonts = {w: full_truetype(w) for w in ("Regular", "Bold")}
    print(
        f"{'cards':>6} {'cold s':>8} {'no change s':>12} {'one row s':>10} {'edit/cold':>10}"
        f" {'other row s':>12} {'/cold':>6}"
        f" {'watch s':>8} {'watch/cold':>11} {'plain s':>8} {'cold/plain':>11} {'paired':>8}"
    )
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        for copies in (int(c) for c in args.copies.split(",")):
            cold, same, edited, other, plain, watching = [], [], [], [], [], []
            for i in range(args.repeat):
                root = project(tmp / f"r{i}", copies, args.distinct)
                deck = f"{root / 'cards/fudaraku/kleshas.csv'}:63:88:3:3"
                start = time.perf_counter()
                subprocess.run(
                    plain_cmd(tmp / f"plain{i}.pdf", fonts, 1, deck),
                    check=True,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                plain.append(time.perf_counter() - start)
                env = dict(os.environ, PNP_CACHE_DIR=str(tmp / f"cache{copies}-{i}"))
                # Python as a designer has it: compiled modules kept (some sandboxes turn that
                # off, and every process then compiles pnp's edited modules again).
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                cold.append(build(root, env))
                same.append(build(root, env))
                csv = root / "cards/fudaraku/kleshas.csv"
                text = csv.read_text("utf-8")
                csv.write_text(text.replace("#C8323C", "#C8323D", 1), "utf-8")  # one row
                edited.append(build(root, env))
                first, rest = csv.read_text("utf-8").split("#C8323C", 1)  # the second 貪欲
                csv.write_text(f"{first}#C8323B{rest}", "utf-8")
                other.append(build(root, env))
                csv.write_text(text.replace("#C8323C", "#C8323D", 1), "utf-8")  # as it was
                build(root, env)
                watching.append(watched(root, env))
            c, s, e, b = min(cold), min(same), min(edited), min(plain)
            w, o = min(watching), min(other)
            # The plain script and the cold build run one after the other: the median of each
            # pair's ratio shrugs off a machine that slows down for a minute.
            paired = statistics.median(x / y for x, y in zip(cold, plain))
            print(
                f"{40 * copies:>6} {c:8.2f} {s:12.2f} {e:10.2f} {e / c:10.1%} {o:12.2f}"
                f" {o / c:6.1%} {w:8.3f}"
                f" {w / c:11.1%} {b:8.2f} {c / b:10.2f}x {paired:7.2f}x"
            )


if __name__ == "__main__":
    main()
