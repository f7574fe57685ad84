"""Benchmark: rules-engine speed per game and player count, random players, invariant checks off.

Not a test: prints decisions per second and playouts per second on one core (target: at least
100k decisions/s per core). Usage: python benchmarks/bench_engine.py [--games N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator import pipeline  # noqa: E402
from generator.problems import Problems  # noqa: E402
from generator.project import find_project  # noqa: E402
from generator.rules import engine, modules  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    args = ap.parse_args()
    project = find_project(ROOT)
    print(f"{'game':<16}{'players':>8}{'playouts/s':>12}{'decisions/s':>14}{'decisions/game':>16}")
    for game_id in project.game_ids():
        game = pipeline.load(project, game_id, Problems())
        module = modules.rules_for(game)
        if module is None:
            continue
        data = module.prepare(game)
        lo, hi = game.manifest.players
        for players in range(lo, hi + 1):
            options = engine.resolve_options(module.OPTIONS, getattr(module, "BENCH_OPTIONS", {}))
            best = None
            for _ in range(3):  # best of three: the machine is shared
                steps, t0 = 0, time.perf_counter()
                for i in range(args.games):
                    steps += engine.play(
                        module, data, players, engine.derive_seed(0, i), options
                    ).steps
                dt = time.perf_counter() - t0
                best = dt if best is None or dt < best else best
            per_game = steps / args.games
            print(
                f"{game_id:<16}{players:>8}{args.games / best:>12.0f}{steps / best:>14.0f}"
                f"{per_game:>16.1f}"
            )


if __name__ == "__main__":
    main()
