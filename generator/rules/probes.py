"""Strategy probes: each simple policy a rules module names (STRATEGIES: "always chant", "take
the largest pile") played in every seat in turn against a field of other players (skilled
ones by default); the report says which beat the field and by how much, and how each did
beside its baseline: the plain greedy player (BASELINE) in the same seats against the same
field. A strategy is a change to that player, so "never chanting loses" means something only
if greedy play itself does not lose as badly.

A policy that beats skilled players is a dominant strategy a designer wants to know about; one
that loses badly is a trap for new players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..i18n import _
from . import engine, simulate
from .simulate import Batch
from .statistics import smallest_difference, wilson

FIELD = "ismcts:50"  # the players a probe meets unless told otherwise
BASELINE = "greedy"  # the player the strategies modify (greedy_value, then their own twist)


@dataclass
class Probe:
    """A strategy played in one seat against random play, and how often it won."""

    name: str
    what: str
    won: int  # games the probe's seat won alone
    games: int  # finished games
    players: int
    stopped: bool = False  # Ctrl-C: the games finished so far
    base_won: int = 0  # the baseline player's wins in the same seats, against the same field
    base_games: int = 0

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
            return _("beats the field by {n} points", n=f"{100 * (self.rate - self.fair):.0f}")
        if high < self.fair:
            return _("loses to the field by {n} points", n=f"{100 * (self.fair - self.rate):.0f}")
        return _("no clear difference from the field")

    @property
    def base_rate(self) -> float:
        return self.base_won / self.base_games if self.base_games else 0.0

    @property
    def against_base(self) -> tuple[float, float, float]:
        """The strategy's rate less the baseline's, with its 95 % interval (normal
        approximation of the difference of two rates)."""
        d = self.rate - self.base_rate
        if not (self.games and self.base_games):
            return d, -1.0, 1.0
        var = self.rate * (1 - self.rate) / self.games
        var += self.base_rate * (1 - self.base_rate) / self.base_games
        half = 1.96 * var**0.5
        return d, d - half, d + half

    @property
    def base_verdict(self) -> str:
        d, low, high = self.against_base
        if low > 0:
            return _(
                "beats the {base} player it modifies by {n} points",
                base=BASELINE,
                n=f"{100 * d:.0f}",
            )
        if high < 0:
            return _(
                "loses to the {base} player it modifies by {n} points",
                base=BASELINE,
                n=f"{-100 * d:.0f}",
            )
        return _("no clear difference from the {base} player it modifies", base=BASELINE)

    @property
    def detectable(self) -> float:
        """The smallest difference from the baseline these games show more often than not."""
        n = min(self.games, self.base_games) or 1
        return smallest_difference(n, self.fair) * 2**0.5


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
    base = len(names)  # the baseline's seeds: after every strategy's
    for seat in range(players):
        kinds = tuple(BASELINE if s == seat else field[s] for s in range(players))
        at = engine.derive_seed(seed, 2_000_000 + base * players + seat)
        batches.append(Batch(players, per_seat, at, dict(options), kinds))
        owner.append((BASELINE, seat))
    won = dict.fromkeys([*names, BASELINE], 0)
    finished = dict.fromkeys([*names, BASELINE], 0)
    stopped: list[bool] = []
    runs = simulate.run_batches(module, data, batches, progress=progress)
    for index, part in simulate.until_interrupted(runs, stopped):
        name, seat = owner[index]
        for row in part:
            if row[1]:  # finished
                finished[name] += 1
                won[name] += row[7] == (seat,)
    return [
        Probe(
            name,
            module.STRATEGIES[name][0],
            won[name],
            finished[name],
            players,
            bool(stopped),
            won[BASELINE],
            finished[BASELINE],
        )
        for name in names
        if finished[name] or not stopped
    ]


def markdown(title: str, probes: list[Probe], field: tuple[str, ...], games: int) -> str:
    players = probes[0].players if probes else 0
    out = ["# " + _("{title} — strategy probes, {n} players", title=title, n=players), ""]
    if probes:
        p = probes[0]
        out.append(
            _(
                "Each strategy plays {games} games, in every seat in turn, against {field} "
                "players. Fair share: {fair}. Beside each, the {base} player it modifies, in the "
                "same seats against the same field: {won} wins of {of} ({rate}). A difference "
                "from it smaller than about {detectable} points is one these games cannot show.",
                games=games,
                field=", ".join(sorted(set(field))),
                fair=f"{p.fair:.0%}",
                base=BASELINE,
                won=p.base_won,
                of=p.base_games,
                rate=f"{p.base_rate:.0%}",
                detectable=f"{100 * p.detectable:.0f}",
            )
        )
    else:
        out.append(_("No strategies."))
    out.append("")
    if any(p.stopped for p in probes):
        out += [_("**Stopped by the user: a partial report** of the games finished so far."), ""]
    out += [
        _(
            "| strategy | what it does | wins | of games | rate | 95 % interval | verdict | "
            "{base} rate | beside {base} |",
            base=BASELINE,
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for p in probes:
        low, high = p.interval
        d, dlow, dhigh = p.against_base
        difference = _(
            "{d} points, 95 %: {low} to {high}",
            d=f"{100 * d:+.0f}",
            low=f"{100 * dlow:+.0f}",
            high=f"{100 * dhigh:+.0f}",
        )
        out.append(
            f"| {p.name} | {p.what} | {p.won} | {p.games} | {p.rate:.0%} | "
            f"{low:.0%}–{high:.0%} | {p.verdict} | {p.base_rate:.0%} | {p.base_verdict} "
            f"({difference}) |"
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
                "baseline": {
                    "kind": BASELINE,
                    "won": p.base_won,
                    "games": p.base_games,
                    "rate": p.base_rate,
                    "difference": list(p.against_base),
                    "verdict": p.base_verdict,
                    "detectable": p.detectable,
                },
            }
            for p in probes
        ],
    }
