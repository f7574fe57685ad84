"""The figures of a batch of playouts as plain data: `Stats` counted from the playouts'
summaries one by one (a list or a stream), Wilson intervals, and the JSON the report files
carry."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .findings import Finding


@dataclass
class Stats:
    """The figures of a batch of playouts at one player count and readings."""

    game: str
    players: int
    games: int
    seed: int
    kinds: tuple[str, ...]
    options: dict[str, str]
    finished: int = 0
    dead_ends: int = 0
    capped: int = 0
    first_dead_end: int | None = None
    first_capped: int | None = None
    wins: list[int] = field(default_factory=list)  # per seat, after tie-breakers
    win_ci: list[tuple[float, float]] = field(default_factory=list)
    no_winner: int = 0
    tied_before: int = 0
    tied_after: int = 0
    score_mean: list[float] = field(default_factory=list)
    winning_scores: dict[int, int] = field(default_factory=dict)  # score -> games
    lengths: dict[int, int] = field(default_factory=dict)  # decisions -> games
    rounds: dict[int, int] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)  # total fires
    counter_games: dict[str, int] = field(default_factory=dict)  # games in which it fired
    first_seen: dict[str, int] = field(default_factory=dict)  # counter -> a seed showing it
    skill: dict | None = None
    alternatives: list[dict] = field(
        default_factory=list
    )  # other readings of the options behind errors
    margins: dict[int, int] = field(default_factory=dict)  # winner's lead over second -> games
    # faction (tribe, element…) -> [finished games it played, games it won alone]
    factions: dict[str, list[int]] = field(default_factory=dict)
    # faction -> finished games it played from each seat: whether factions and seats (pick
    # order) are confounded
    faction_seats: dict[str, list[int]] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)  # action type -> times taken
    action_games: dict[str, int] = field(default_factory=dict)  # action type -> games
    # action type -> games in which varied players (every kind of action, see engine) took it
    coverage: dict[str, int] = field(default_factory=dict)
    coverage_games: int = 0
    planned: int = 0  # the games asked for; more than `games` when stopped
    stopped: bool = False  # by Ctrl-C: a partial report of the games finished
    # the readings `pnp simulate` plays when no --option is given: the module's literal ones
    # with the designer's game.toml [readings] over them (replay commands name the others)
    base: dict[str, str] = field(default_factory=dict)

    @property
    def completion(self) -> float:
        return self.finished / self.games if self.games else 0.0


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % interval for a rate of k in n (Wilson score): sound for small n and rates near 0/1."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def share_p(k: int, n: int, expected: float) -> float:
    """Two-sided p-value of k in n against a fair rate `expected` (the normal approximation
    of the binomial, with the continuity correction): how often chance alone would stray this
    far from the fair share."""
    if n == 0 or not 0 < expected < 1:
        return 1.0
    sd = math.sqrt(n * expected * (1 - expected))
    z = max(0.0, abs(k - n * expected) - 0.5) / sd
    return math.erfc(z / math.sqrt(2))


def smallest_difference(n: int, expected: float) -> float:
    """The smallest gap from a fair rate `expected` that n games show more often than not (95 %
    confidence, 80 % power: (1.96 + 0.84) standard errors): a claim about a smaller gap is
    one the sample cannot make."""
    if n == 0:
        return 1.0
    return (1.96 + 0.84) * math.sqrt(expected * (1 - expected) / n)


def holm(pvalues: list[float], alpha: float = 0.05) -> list[bool]:
    """Which of several tests stand after Holm's correction at `alpha` (family-wise): the
    smallest p against alpha/m, the next against alpha/(m-1)…, stopping at the first that
    fails."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    kept = [False] * len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (len(pvalues) - rank):
            break
        kept[i] = True
    return kept


def seat_tests(st: Stats) -> list[tuple[int, float]]:
    """Each seat against its fair share over the games one seat won: (seat, p-value)."""
    decided = st.finished - st.tied_after - st.no_winner
    if st.players < 2 or not decided:
        return []
    return [(seat, share_p(st.wins[seat], decided, 1 / st.players)) for seat in range(st.players)]


def faction_confound(st: Stats) -> tuple[str, int, float] | None:
    """The faction most unevenly spread over the seats, when that is more than chance (each
    faction's share of games from each seat against 1/players, Holm-corrected over all of
    them): (faction, seat, its share from that seat); None when factions and seats are not
    confounded. Picking in turn does that: the first seat takes the best faction, so the
    faction's wins include the seat's."""
    cells = [
        (name, seat, n, sum(seats))
        for name, seats in sorted(st.faction_seats.items())
        for seat, n in enumerate(seats)
        if sum(seats)
    ]
    if st.players < 2 or not cells:
        return None
    kept = holm([share_p(n, total, 1 / st.players) for _, _, n, total in cells], 0.01)
    skewed = [(abs(c[2] / c[3] - 1 / st.players), c) for c, k in zip(cells, kept) if k]
    if not skewed:
        return None
    name, seat, n, total = max(skewed)[1]
    return name, seat, n / total


def statistics(
    game_id: str, players: int, seed: int, options: dict, kinds: tuple, rows: Iterable[tuple]
) -> Stats:
    """The statistics of playout summaries, taken one by one (a list or a stream)."""
    st = Stats(game_id, players, 0, seed, kinds, dict(options), wins=[0] * players)
    totals = [0] * players
    for row in rows:
        s, finished, dead, capped, steps, rounds, scores, winners, tied, counters, acts = row[:11]
        factions = row[11]
        st.games += 1
        for name, n in acts:
            st.actions[name] = st.actions.get(name, 0) + n
            st.action_games[name] = st.action_games.get(name, 0) + 1
            st.first_seen.setdefault("action:" + name, s)
        st.lengths[steps] = st.lengths.get(steps, 0) + 1
        st.rounds[rounds] = st.rounds.get(rounds, 0) + 1
        for name, n in counters:
            st.counters[name] = st.counters.get(name, 0) + n
            if n:
                st.counter_games[name] = st.counter_games.get(name, 0) + 1
                st.first_seen.setdefault(name, s)
        if dead:
            st.dead_ends += 1
            st.first_dead_end = st.first_dead_end if st.first_dead_end is not None else s
        if capped:
            st.capped += 1
            st.first_capped = st.first_capped if st.first_capped is not None else s
        if not finished:
            continue
        st.finished += 1
        for i, v in enumerate(scores):
            totals[i] += v
        if len(scores) > 1:
            first, second = sorted(scores, reverse=True)[:2]
            st.margins[first - second] = st.margins.get(first - second, 0) + 1
        for seat, name in enumerate(factions):
            games_won = st.factions.setdefault(name, [0, 0])
            games_won[0] += 1
            games_won[1] += winners == (seat,)
            seats = st.faction_seats.setdefault(name, [0] * st.players)
            seats[seat] += 1
        if tied:
            st.tied_before += 1
        if not winners:
            st.no_winner += 1
            continue
        if len(winners) > 1:
            st.tied_after += 1
        else:
            st.wins[winners[0]] += 1
        # the winners' score, shared winners' too (a game of ties only said 0)
        top = scores[winners[0]]
        st.winning_scores[top] = st.winning_scores.get(top, 0) + 1
    st.win_ci = [wilson(w, st.finished) for w in st.wins]
    st.score_mean = [t / st.finished if st.finished else 0.0 for t in totals]
    return st


def to_json(st: Stats, found: list[Finding]) -> dict:
    data = asdict(st)
    data["completion"] = st.completion
    data["findings"] = [
        {
            **{k: v for k, v in asdict(f).items() if k not in ("fields", "in_check", "local")},
            "message": f.text,
        }
        for f in found
    ]
    return data
