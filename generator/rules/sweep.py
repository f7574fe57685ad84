"""A sweep: the grid of readings × player counts × player kinds, every cell a batch of playouts,
run through one pool of workers (rules/simulate.run_batches) and put side by side in one
report — which readings make the game end, and how fair and decisive each one is.

Each cell has its own seed, derived from the sweep's seed and the cell's place in the grid, and
its own replay command, so any cell and any game in it can be played again alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from ..i18n import _, ngettext
from . import engine, simulate
from .findings import SEAT, Finding, findings
from .report import by_kind, mean, replay_command
from .simulate import Batch
from .statistics import Stats, holm, seat_tests, statistics


@dataclass
class Cell:
    """One cell of a sweep: the readings it plays and what its playouts showed."""

    readings: dict[str, str]  # the readings this cell varies (the rest as the base)
    players: int
    kinds: tuple[str, ...]
    seed: int
    stats: Stats | None = None
    found: list[Finding] = field(default_factory=list)
    fixed: dict[str, str] = field(default_factory=dict)  # readings the sweep held (--option)
    # the sweep's seat comparisons: (tests, warnings before the correction, warnings kept)
    seats: tuple[int, int, int] = (0, 0, 0)

    def command(self, game: str, games: int) -> str:
        """The command that plays this cell again, alone."""
        kinds = set(self.kinds)
        shown = next(iter(kinds)) if len(kinds) == 1 else ",".join(self.kinds)
        who = "" if kinds == {"random"} else f" --players-kind {shown}"
        options = "".join(f" --option {k}={v}" for k, v in {**self.fixed, **self.readings}.items())
        return (
            f"pnp simulate {game} --players {self.players}{who}{options} --games {games} "
            f"--seed {self.seed}"
        )

    @property
    def label(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.readings.items()) or "—"
        return f"{shown}; {self.players}p; {','.join(sorted(set(self.kinds)))}"


def grid(
    sweep: dict[str, list[str]],
    players: list[int],
    kinds: list[tuple[str, ...]],
    seed: int,
) -> list[Cell]:
    """Every combination, readings varying slowest; cell i plays from derive_seed(seed, i)."""
    names = list(sweep)
    cells = []
    for values in itertools.product(*(sweep[n] for n in names)):
        for n in players:
            for k in kinds:
                cells.append(Cell(dict(zip(names, values)), n, k, 0))
    for i, cell in enumerate(cells):
        cell.seed = engine.derive_seed(seed, 1_000_000 + i)
    return cells


def run(
    module,
    data,
    cells: list[Cell],
    base: dict[str, str],
    games: int,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Cell]:
    """Every cell's playouts through one pool; statistics and findings per cell."""
    options = [engine.resolve_options(module.OPTIONS, {**base, **c.readings}) for c in cells]
    batches = [Batch(c.players, games, c.seed, options[i], c.kinds) for i, c in enumerate(cells)]
    parts: list[list[tuple]] = [[] for _ in cells]
    stopped: list[bool] = []
    runs = simulate.run_batches(module, data, batches, workers=workers, progress=progress)
    for index, part in simulate.until_interrupted(runs, stopped):
        parts[index].extend(part)
    played = []
    for i, cell in enumerate(cells):
        if stopped and not parts[i]:
            continue  # Ctrl-C: the cells played so far, the last one perhaps in part
        st = statistics(module.GAME_ID, cell.players, cell.seed, options[i], cell.kinds, parts[i])
        st.base = dict(engine.resolve_options(module.OPTIONS, base))
        st.planned, st.stopped = games, bool(stopped)
        cell.stats = st
        cell.found = findings(module, st)
        played.append(cell)
    correct_seats(played)
    return played


def correct_seats(cells: list[Cell], alpha: float = 0.05) -> None:
    """A seat warning of one cell among many is kept only if it stands after Holm's correction
    over every seat of every cell: a sweep of 12 cells × 4 seats would otherwise show one or
    two seats 'unfair' by chance alone."""
    tests = [(c, seat, p) for c in cells for seat, p in seat_tests(c.stats)]
    kept = holm([p for _c, _s, p in tests], alpha)
    standing = {(id(c), seat) for (c, seat, _p), k in zip(tests, kept) if k}
    before = sum(1 for c in cells for f in c.found if f.key == SEAT)
    for c in cells:
        c.found = [f for f in c.found if f.key != SEAT or (id(c), f.fields["seat"] - 1) in standing]
    after = sum(1 for c in cells for f in c.found if f.key == SEAT)
    for c in cells:
        c.seats = (len(tests), before, after)


def spread(st: Stats) -> float:
    """The gap between the seats that win most and least often, as a share of finished games."""
    if not st.finished:
        return 0.0
    rates = [w / st.finished for w in st.wins]
    return max(rates) - min(rates)


def markdown(title: str, module, cells: list[Cell], games: int, seed: int) -> str:
    names = list(cells[0].readings) if cells else []
    out = [
        "# "
        + _(
            "{title} — sweep of {n} cells, {games} games each",
            title=title,
            n=len(cells),
            games=games,
        ),
        "",
        _(
            "Seed {seed}; each cell's own seed is in its replay command. Readings swept: {names}.",
            seed=seed,
            names=", ".join(names) or _("none"),
        ),
        "",
    ]
    tests, before, after = cells[0].seats if cells else (0, 0, 0)
    if tests:
        out += [
            _(
                "Seat warnings are corrected for the {tests} seat comparisons of the sweep (Holm, "
                "5 % family-wise): {after} of {before} stand.",
                tests=tests,
                after=after,
                before=before,
            ),
            "",
        ]
    if any(c.stats.stopped for c in cells):
        out += [
            _(
                "**Stopped by the user: a partial report** of the cells played so far (the last "
                "perhaps in part)."
            ),
            "",
        ]
    out += [
        _(
            "| readings | players | kinds | completed | dead ends | never end | seat spread | "
            "ties after | winner's lead | decisions | findings |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        st = c.stats
        shown = ", ".join(f"{k}={v}" for k, v in c.readings.items()) or "—"
        levels = [f.severity for f in c.found]
        said = ", ".join(
            ngettext("{n} error", "{n} errors", levels.count(level))
            if level == "error"
            else ngettext("{n} warning", "{n} warnings", levels.count(level))
            for level in ("error", "warning")
            if level in levels
        )
        out.append(
            f"| {shown} | {c.players} | {','.join(c.kinds)} | "
            f"{st.finished}/{st.games} ({st.completion:.0%}) | {st.dead_ends} | {st.capped} | "
            f"{spread(st):.0%} | {st.tied_after} | {mean(st.margins):.1f} | "
            f"{mean(st.lengths):.1f} | {said or _('none')} |"
        )
    out += ["", "## " + _("Each cell"), ""]
    for c in cells:
        st = c.stats
        out += [f"### {c.label}", ""]
        out.append(
            _("Play this cell again: {command}", command=f"`{c.command(module.GAME_ID, games)}`")
        )
        out.append("")
        for kind, won, total, (low, high) in by_kind(st):
            out.append(
                "- "
                + _(
                    "{kind}: {won} of {total} seat-games won ({low}–{high})",
                    kind=kind,
                    won=won,
                    total=total,
                    low=f"{low:.0%}",
                    high=f"{high:.0%}",
                )
            )
        for f in c.found:
            if f.severity in ("error", "warning"):
                text = f.said()
                if f.seed is not None:
                    command = f"`{replay_command(module.GAME_ID, st, f.seed, module)}`"
                    text += " — " + _("replay: {command}", command=command)
                out.append(f"- **{_(f.severity)}** {text}")
        out.append("")
    return "\n".join(out) + "\n"


def to_json(cells: list[Cell], games: int, seed: int) -> dict:
    tests, before, after = cells[0].seats if cells else (0, 0, 0)
    return {
        "seed": seed,
        "games": games,
        "seat_correction": {
            "method": "holm",
            "alpha": 0.05,
            "tests": tests,
            "warnings": before,
            "kept": after,
        },
        "cells": [
            {
                "readings": c.readings,
                "players": c.players,
                "kinds": list(c.kinds),
                "seed": c.seed,
                "completion": c.stats.completion,
                "seat_spread": spread(c.stats),
                "mean_lead": mean(c.stats.margins),
                "mean_decisions": mean(c.stats.lengths),
                "stats": asdict(c.stats),
                "findings": [
                    {
                        **{k: v for k, v in asdict(f).items() if k not in ("fields", "local")},
                        "message": f.text,
                    }
                    for f in c.found
                ],
            }
            for c in cells
        ],
    }
