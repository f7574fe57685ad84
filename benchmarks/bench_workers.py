"""Benchmark: `pnp simulate --games N` on one worker process and on two, the whole batch as
simulate reports it (the playouts, the skill signal, coverage and the other readings behind
each error). Best of --repeat, the two alternating; compare the ratio (issue 35's target: two
workers at least 1.85× one). Plays the shipped games' own rules modules (trusted for this run).
Not a test: prints figures.
Usage: python benchmarks/bench_workers.py [--games N] [--repeat R] [--game ID]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["PNP_TRUST_CODE"] = "1"  # the repository's own games

from generator import pipeline  # noqa: E402
from generator.problems import Problems  # noqa: E402
from generator.project import find_project  # noqa: E402
from generator.rules import modules, running, simulate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--game", default="fudaraku")
    args = ap.parse_args()
    game = pipeline.load(find_project(ROOT), args.game, Problems())
    module = running.rules_module(game)
    data = modules.guarded(module, module.prepare, game)
    players = game.manifest.players[0]
    options = running.readings(module, running.chosen(game, module))
    kinds = ("random",) * players
    best: dict[int, float] = {}
    for _ in range(args.repeat):
        for workers in (1, 2):
            start = time.perf_counter()
            simulate.batch(
                module,
                data,
                players,
                options,
                kinds,
                args.games,
                1,
                True,
                base=options,
                workers=workers,
            )
            took = time.perf_counter() - start
            best[workers] = min(best.get(workers, took), took)
    print(f"{args.game}, {players} players, {args.games:,} games (best of {args.repeat}):")
    for workers, seconds in best.items():
        print(f"  {workers} worker(s): {seconds:6.2f} s")
    print(f"  two workers / one: {best[1] / best[2]:.2f}×")


if __name__ == "__main__":
    main()
