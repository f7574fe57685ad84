"""Benchmark: rules-engine speed per game and player count, random players, invariant checks off.

Not a test: prints decisions per second and playouts per second on one core (issue 12's target:
at least 200k decisions/s per core). On a shared machine compare in one run: `--against REV`
plays each game's rules module as it was at git revision REV in the same process, the two
alternating, and prints the ratio. `--baseline REV` runs the whole benchmark of revision REV
(its own engine and modules, from a git worktree) and today's in turns, and with `--anchor
GAME:PLAYERS=RATE` (a figure measured for REV on another machine, e.g. the one a target was
set on) scales today's figures to that machine by the ratio of the two runs.
Usage: python benchmarks/bench_engine.py [--games N] [--against REV] [--baseline REV
[--rounds R] [--anchor GAME:PLAYERS=RATE ...]] [--search GAMES] [--sweep GAMES]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["PNP_TRUST_CODE"] = "1"  # the repository's own games

from generator import pipeline  # noqa: E402
from generator.problems import Problems  # noqa: E402
from generator.project import find_project  # noqa: E402
from generator.rules import engine, modules  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument(
        "--search",
        type=int,
        default=0,
        metavar="GAMES",
        help="also play GAMES 3-player games of ismcts:200 against two random players per "
        "game: its win rate and milliseconds a move",
    )
    ap.add_argument(
        "--sweep",
        dest="sweep_games",
        type=int,
        default=0,
        metavar="GAMES",
        help="time a sweep of ランブリングシード's 3 bonus_number readings × 3 and 4 players × "
        "GAMES random games against the same batches run one after another",
    )
    ap.add_argument(
        "--against",
        metavar="REV",
        help="also play each game's rules.py as it was at git revision REV, alternating with "
        "today's in this process: the ratio of the two is what to compare on a shared machine",
    )
    ap.add_argument(
        "--baseline",
        metavar="REV",
        help="run the benchmark of git revision REV (its engine and modules) and today's in "
        "turns, --rounds times each, and print the ratio per game and player count (use "
        "--games 300 or more: against itself this gave 1.00-1.09 at 300 games, 0.7-1.0 at 20)",
    )
    ap.add_argument("--rounds", type=int, default=4, help="with --baseline: runs of each")
    ap.add_argument(
        "--anchor",
        action="append",
        default=[],
        metavar="GAME:PLAYERS=RATE",
        help="with --baseline: decisions/s measured for REV elsewhere (e.g. nyanbaa:3=124000); "
        "today's figures are also shown scaled to that machine",
    )
    args = ap.parse_args()
    project = find_project(ROOT)
    if args.baseline:
        baseline(args.baseline, args.games, args.rounds, args.anchor)
        return
    if args.against:
        against(project, args.against, args.games)
        return
    print(f"{'game':<16}{'players':>8}{'playouts/s':>12}{'decisions/s':>14}{'decisions/game':>16}")
    for game_id, game, module in _games(project):
        data = module.prepare(game)
        lo, hi = game.manifest.players
        for players in range(lo, hi + 1):
            # best of three: the machine is shared
            steps, best = min(_playouts(module, data, players, args.games) for _ in range(3))
            per_game = steps / args.games
            print(
                f"{game_id:<16}{players:>8}{args.games / best:>12.0f}{steps / best:>14.0f}"
                f"{per_game:>16.1f}"
            )
    if args.search:
        search(project, args.search)
    if args.sweep_games:
        sweep_timing(project, args.sweep_games)


def _games(project):
    """(id, game, rules module) of each game that has a rules module."""
    for game_id in project.game_ids():
        game = pipeline.load(project, game_id, Problems())
        module = modules.rules_for(game)
        if module is not None:
            yield game_id, game, module


def _playouts(module, data, players: int, games: int) -> tuple[int, float]:
    """The decisions and seconds of `games` random playouts under the module's BENCH_OPTIONS."""
    options = engine.resolve_options(module.OPTIONS, getattr(module, "BENCH_OPTIONS", {}))
    steps, t0 = 0, time.perf_counter()
    for i in range(games):
        steps += engine.play(module, data, players, engine.derive_seed(0, i), options).steps
    return steps, time.perf_counter() - t0


def against(project, rev: str, games: int, rounds: int = 5) -> None:
    """Today's rules modules and those at `rev`, in turns, best of `rounds` each."""
    print(f"{'game':<16}{'players':>8}{rev[:12]:>14}{'today':>14}{'ratio':>8}")
    folder = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    for game_id, game, today in _games(project):
        shown = f"cards/{game_id}/rules.py"
        old = subprocess.run(["git", "show", f"{rev}:{shown}"], cwd=ROOT, capture_output=True)
        if old.returncode:
            print(f"{game_id:<16}  (no rules module at {rev})")
            continue
        path = folder / game_id / "rules.py"
        path.parent.mkdir()
        path.write_bytes(old.stdout)
        digest = hashlib.sha256(old.stdout).hexdigest()
        then = modules.load(modules.RulesRef(str(path), shown, game_id, digest))
        pair = [(m, m.prepare(game)) for m in (then, today)]
        lo, hi = game.manifest.players
        for players in range(lo, hi + 1):
            best = [0.0, 0.0]
            for r in range(rounds):
                for k in (0, 1) if r % 2 == 0 else (1, 0):
                    steps, seconds = _playouts(*pair[k], players, games)
                    best[k] = max(best[k], steps / seconds)
            print(
                f"{game_id:<16}{players:>8}{best[0]:>14.0f}{best[1]:>14.0f}"
                f"{best[1] / best[0]:>8.2f}"
            )


def _bench(root: Path, games: int) -> dict[tuple[str, int], float]:
    """Decisions/s per (game, players) of the benchmark in `root`, run as a process of its own."""
    done = subprocess.run(
        [sys.executable, "benchmarks/bench_engine.py", "--games", str(games)],
        cwd=root,
        env=dict(os.environ, PYTHONPATH=str(root)),  # that tree's own package
        capture_output=True,
        text=True,
    )
    if done.returncode:
        tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise SystemExit(f"the benchmark in {root} failed: {tail[0]}")
    rates = {}
    for line in done.stdout.splitlines():
        cells = line.split()
        if len(cells) == 5 and cells[1].isdigit():
            rates[cells[0], int(cells[1])] = float(cells[3])
    return rates


def baseline(rev: str, games: int, rounds: int, anchors: list[str]) -> None:
    """Revision `rev`'s benchmark and today's, in turns; the best of each and their ratio; with
    anchors (rev's figures measured on another machine), today's scaled to that machine by the
    geometric mean of anchor ÷ rev's best here."""
    folder = Path(tempfile.mkdtemp(prefix="pnp-baseline-")) / "tree"
    made = subprocess.run(
        ["git", "worktree", "add", "--detach", str(folder), rev],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if made.returncode:
        shutil.rmtree(folder.parent, ignore_errors=True)
        sys.exit(f"--baseline {rev}: no worktree of that revision ({made.stderr.strip()})")
    best: dict[str, dict] = {"then": {}, "today": {}}
    try:
        for r in range(rounds):
            for side in ("then", "today") if r % 2 == 0 else ("today", "then"):
                rates = _bench(folder if side == "then" else ROOT, games)
                for key, rate in rates.items():
                    best[side][key] = max(best[side].get(key, 0.0), rate)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT)
        shutil.rmtree(folder.parent, ignore_errors=True)
    given = {}
    for anchor in anchors:
        where, _eq, rate = anchor.partition("=")
        game, _colon, players = where.partition(":")
        given[game, int(players)] = float(rate)
    known = [k for k in given if k in best["then"]]
    scale = (
        math.exp(sum(math.log(given[k] / best["then"][k]) for k in known) / len(known))
        if known
        else None
    )
    head = f"{'game':<16}{'players':>8}{rev[:12]:>14}{'today':>12}{'ratio':>8}"
    print(head + (f"{'today there':>13}{'anchor':>10}" if scale else ""))
    for key in sorted(best["today"]):
        then, now = best["then"].get(key), best["today"][key]
        line = f"{key[0]:<16}{key[1]:>8}"
        line += f"{then:>14.0f}" if then else f"{'—':>14}"
        line += f"{now:>12.0f}" + (f"{now / then:>8.2f}" if then else f"{'':>8}")
        if scale:
            line += f"{now * scale:>13.0f}"
            if key in given:
                line += f"{given[key]:>10.0f} (fit {then * scale / given[key]:.2f})"
        print(line)
    if scale:
        print(f"\n{rev[:12]}: {len(known)} anchor(s); that machine ≈ {scale:.2f}× this one")


def search(project, games: int, iterations: int = 200) -> None:
    """The searching player's time per move and its wins against two random players, seat by
    seat in turn, under the designer's [readings] (where games end)."""
    from generator.rules.search import IsmctsPlayer
    from generator.rules.statistics import wilson

    clock = {"spent": 0.0, "moves": 0}
    choose = IsmctsPlayer.choose

    def timed(self, state, actions):
        t0 = time.perf_counter()
        a = choose(self, state, actions)
        if len(actions) > 1:
            clock["spent"] += time.perf_counter() - t0
            clock["moves"] += 1
        return a

    print(f"\n{'game':<16}{'ms/move':>9}{'won':>6}{'of':>5}{'rate':>8}{'interval':>16}")
    IsmctsPlayer.choose = timed
    try:
        for game_id, game, module in _games(project):
            data = module.prepare(game)
            chosen = modules.chosen_readings(game, module, Problems())
            options = engine.resolve_options(module.OPTIONS, chosen)
            clock.update(spent=0.0, moves=0)
            won = played = 0
            for i in range(games):
                seat = i % 3
                kinds = tuple(f"ismcts:{iterations}" if s == seat else "random" for s in range(3))
                r = engine.play(module, data, 3, engine.derive_seed(7, i), options, kinds)
                if r.finished:
                    played += 1
                    won += r.winners == [seat]
            low, high = wilson(won, played)
            rate = won / played if played else 0.0
            ms = 1000 * clock["spent"] / max(clock["moves"], 1)
            print(
                f"{game_id:<16}{ms:>9.1f}{won:>6}{played:>5}{rate:>8.0%}"
                f"{f'{low:.0%}–{high:.0%}':>16}"
            )
    finally:
        IsmctsPlayer.choose = choose


def sweep_timing(project, games: int) -> None:
    """One pool for the grid (a sweep) against each cell's batch run one after another."""
    from generator.rules import simulate, sweep

    game = pipeline.load(project, "rumbling_seed", Problems())
    module = modules.rules_for(game)
    data = module.prepare(game)
    spec = {"bonus_number": list(module.OPTIONS["bonus_number"].choices)}
    grid = sweep.grid(spec, [3, 4], [("random",)], 1)
    for cell in grid:
        cell.kinds = ("random",) * cell.players
    t0 = time.perf_counter()
    for cell in grid:
        options = engine.resolve_options(module.OPTIONS, cell.readings)
        simulate.run(module, data, cell.players, games, cell.seed, options, cell.kinds)
    one_by_one = time.perf_counter() - t0
    t0 = time.perf_counter()
    sweep.run(module, data, grid, {}, games)
    swept = time.perf_counter() - t0
    print(
        f"\nsweep of {len(grid)} cells × {games} games: {swept:.2f} s; one after another "
        f"{one_by_one:.2f} s; ratio {swept / one_by_one:.2f} (target ≤ 1.2)"
    )


if __name__ == "__main__":
    main()
