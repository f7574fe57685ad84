"""Strategy probes: each simple policy a rules module names (STRATEGIES: "always chant", "take
the largest pile") played in every seat in turn against a field of other players (skilled
ones by default); the report says which beat the field and by how much.

A policy that beats skilled players is a dominant strategy a designer wants to know about; one
that loses badly is a trap for new players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import engine, simulate
from .simulate import Batch
from .statistics import wilson

FIELD = "ismcts:50"  # the players a probe meets unless told otherwise


@dataclass
class Probe:
    """A strategy played in one seat against random play, and how often it won."""

    name: str
    what: str
    won: int  # games the probe's seat won alone
    games: int  # finished games
    players: int
    stopped: bool = False  # Ctrl-C: the games finished so far

    @property
    def rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def fair(self) -> float:
        return 1 / self.players

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.won, self.games)

    @property
    def verdict(self) -> str:
        low, high = self.interval
        if low > self.fair:
            return f"beats the field by {100 * (self.rate - self.fair):.0f} points"
        if high < self.fair:
            return f"loses to the field by {100 * (self.fair - self.rate):.0f} points"
        return "no clear difference from the field"


def run(
    module,
    data,
    players: int,
    field: tuple[str, ...],
    games: int,
    seed: int,
    options: dict[str, str],
    progress: Callable[[int, int], None] | None = None,
) -> list[Probe]:
    """`games` per strategy, spread over the seats; `field` the kinds of the other seats."""
    names = list(module.STRATEGIES)
    per_seat = max(1, games // players)
    batches, owner = [], []
    for i, name in enumerate(names):
        for seat in range(players):
            kinds = tuple(f"probe:{name}" if s == seat else field[s] for s in range(players))
            at = engine.derive_seed(seed, 2_000_000 + i * players + seat)
            batches.append(Batch(players, per_seat, at, dict(options), kinds))
            owner.append((name, seat))
    won = dict.fromkeys(names, 0)
    finished = dict.fromkeys(names, 0)
    stopped: list[bool] = []
    runs = simulate.run_batches(module, data, batches, progress=progress)
    for index, part in simulate.until_interrupted(runs, stopped):
        name, seat = owner[index]
        for row in part:
            if row[1]:  # finished
                finished[name] += 1
                won[name] += row[7] == (seat,)
    return [
        Probe(name, module.STRATEGIES[name][0], won[name], finished[name], players, bool(stopped))
        for name in names
        if finished[name] or not stopped
    ]


def markdown(title: str, probes: list[Probe], field: tuple[str, ...], games: int) -> str:
    out = [
        f"# {title} — strategy probes, {probes[0].players if probes else 0} players",
        "",
        f"Each strategy plays {games} games, in every seat in turn, against "
        f"{', '.join(sorted(set(field)))} players. Fair share: "
        f"{probes[0].fair:.0%}."
        if probes
        else "No strategies.",
        "",
    ]
    if any(p.stopped for p in probes):
        out += ["**Stopped by the user: a partial report** of the games finished so far.", ""]
    out += [
        "| strategy | what it does | wins | of games | rate | 95 % interval | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for p in probes:
        low, high = p.interval
        out.append(
            f"| {p.name} | {p.what} | {p.won} | {p.games} | {p.rate:.0%} | "
            f"{low:.0%}–{high:.0%} | {p.verdict} |"
        )
    return "\n".join(out) + "\n"


def to_json(probes: list[Probe], field: tuple[str, ...], games: int) -> dict:
    return {
        "field": list(field),
        "games": games,
        "probes": [
            {
                "name": p.name,
                "what": p.what,
                "won": p.won,
                "games": p.games,
                "rate": p.rate,
                "fair": p.fair,
                "interval": list(p.interval),
                "verdict": p.verdict,
            }
            for p in probes
        ],
    }
