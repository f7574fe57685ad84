"""What a game's rules module (`cards/<game>/rules.py`) imports: the contract's pieces and helpers
for what most card games share — shuffling and dealing, seats and turn order, must-follow and
trick winners, scoring tables and rankings — so that a new game's module is short.

    from generator.rules.kit import BaseState, Option, deal, must_follow, stream, trick_winner

Everything here is plain Python on small ints and lists (the engine's hot path); nothing draws,
lays out or reads files. The walk-through in docs/reference/rules.md writes a trick-taking game
with these.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..model import Card, Deck, Game
from ..problems import BuildError, Problem, Problems, SourceRef
from ..rulesource import (
    Unstated,
    dealing,
    find_rule,
    rule_at,
    rule_number,
    rule_numbers,
    rule_ref,
    stated,
)
from .engine import InvariantError, Option, known, stream
from .modules import texts_for

__all__ = [
    "BaseState",
    "BuildError",
    "Card",
    "Deck",
    "Game",
    "InvariantError",
    "Messages",
    "Option",
    "Problem",
    "Problems",
    "SourceRef",
    "deal",
    "dealing",
    "find_rule",
    "hand_size",
    "known",
    "lookup",
    "must_follow",
    "next_seat",
    "ranking",
    "rule_at",
    "rule_number",
    "rule_numbers",
    "rule_ref",
    "score_table",
    "seats_from",
    "shuffled",
    "stated",
    "stream",
    "trick_winner",
    "Unstated",
]


class Messages:
    """A module's own messages by name, written in English with {fields}; said in the language
    of messages from the game's texts file (`texts.ja.toml`: [checks] NAME = "…{field}…"), so a
    check written in English speaks Japanese under --lang ja. A module declares them once,

        MESSAGES = Messages(short="{tribe}: {have} markers, the rules give each player {want}")

    and a check says `problems.error(MESSAGES.say(game, "short", tribe=…, have=…, want=…), at)`.
    """

    def __init__(self, **english: str):
        self.english = english

    def fields(self, name: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(self.english[name]) if f}

    def say(self, game: Game, name: str, **fields: Any) -> str:
        text = texts_for(game).get("checks", {}).get(name, self.english[name])
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError):  # a translation naming another field
            return self.english[name].format(**fields)  # (check_texts names it at its line)


# -- shuffling and dealing -------------------------------------------------------------------


def shuffled(items: Iterable[Any], rng: random.Random) -> list:
    """A new list of `items` in an order drawn from `rng` (a stream of the engine, so a seed
    replays it)."""
    out = list(items)
    rng.shuffle(out)
    return out


def deal(deck: Sequence[Any], players: int, each: int | None = None) -> tuple[list[list], list]:
    """Hands of `each` cards dealt round the table from the top of `deck` (one at a time, as
    people deal), and what is left. `each=None` deals the whole deck evenly; the cards that do
    not go round evenly are left. Dealing more than the deck holds is the rules' error, raised."""
    if each is None:
        each = len(deck) // players
    if each * players > len(deck):
        raise InvariantError(
            f"dealing {each} to each of {players} players needs {each * players} cards; "
            f"the deck has {len(deck)}"
        )
    hands: list[list] = [[] for _ in range(players)]
    for i in range(each * players):
        hands[i % players].append(deck[i])
    return hands, list(deck[each * players :])


def hand_size(game: Game, players: int) -> int:
    """Cards in each hand for `players`, from the manifest's [deal] (`each`, or the whole deck
    dealt evenly): the number the rulebook prints, so what is printed and played agree."""
    for d in dealing(game):
        if d["players"] == players:
            return d["each"]
    raise BuildError(
        f"the manifest has no [deal] for {players} players (add [deal] to game.toml)",
        game.manifest.where,
    )


# -- seats and turn order --------------------------------------------------------------------


def next_seat(seat: int, players: int, step: int = 1) -> int:
    """The seat `step` places after `seat` round the table (clockwise)."""
    return (seat + step) % players


def seats_from(first: int, players: int) -> list[int]:
    """Every seat once, in turn order, starting with `first`."""
    return [(first + i) % players for i in range(players)]


# -- tricks ----------------------------------------------------------------------------------


def must_follow(hand: Sequence[int], led: int | None, suit_of: Callable[[int], Any]) -> list[int]:
    """The cards of `hand` that may be played to a trick whose lead card is `led` (None: this
    card leads): the cards of the led suit if the hand has any, else every card."""
    if led is None:
        return list(hand)
    suit = suit_of(led)
    same = [c for c in hand if suit_of(c) == suit]
    return same or list(hand)


def trick_winner(
    plays: Sequence[tuple[int, int]],
    suit_of: Callable[[int], Any],
    rank_of: Callable[[int], Any],
    trump: Any = None,
) -> int:
    """The seat that wins a trick, from its plays in order as (seat, card): the highest trump if
    any was played, else the highest card of the suit led. Equal ranks: the first played wins."""
    if not plays:
        raise InvariantError("a trick with no card played has no winner")
    led = suit_of(plays[0][1])
    best_seat, best_key = plays[0][0], None
    for seat, card in plays:
        suit = suit_of(card)
        if trump is not None and suit == trump:
            key = (2, rank_of(card))
        elif suit == led:
            key = (1, rank_of(card))
        else:
            continue
        if best_key is None or key > best_key:
            best_seat, best_key = seat, key
    return best_seat


# -- scoring ---------------------------------------------------------------------------------


def score_table(deck: Deck, key: str, value: str) -> dict:
    """A scoring table from the data: {the card's `key` column: its `value` column}, e.g. points
    per card name. Two rows with one key and different values are the data's error, named at the
    second row."""
    table: dict = {}
    for card in deck.cards:
        k, v = card.fields[key], card.fields[value]
        if k in table and table[k] != v:
            raise BuildError(
                f"{key} {k!r} scores {table[k]!r} on one row and {v!r} on this one",
                card.where.at(column=value),
            )
        table[k] = v
    return table


def lookup(table: Mapping[int, int], n: int) -> int:
    """The value of a stepped table at `n`: the entry of the largest key not above `n` (e.g.
    {1: 1, 3: 4, 5: 10} gives 4 for 3 or 4 sets), 0 below the smallest."""
    best = None
    for k in sorted(table):
        if k <= n:
            best = k
    return table[best] if best is not None else 0


def ranking(
    scores: Sequence[int], tiebreak: Sequence[int] | None = None, lowest: bool = False
) -> tuple[list[int], bool]:
    """(the winning seats, whether the best score was tied before `tiebreak`): the contract's
    `winners()`. `tiebreak` is a second number per seat (higher better), `lowest` for games
    where the fewest points win. Seats still level after the tie-break share the win."""
    sign = -1 if lowest else 1
    best = max(sign * s for s in scores)
    top = [i for i, s in enumerate(scores) if sign * s == best]
    tied = len(top) > 1
    if tied and tiebreak is not None:
        second = max(tiebreak[i] for i in top)
        top = [i for i in top if tiebreak[i] == second]
    return top, tied


# -- a state with the contract's defaults ----------------------------------------------------


class BaseState:
    """A game state with the contract's defaults: a subclass sets `players`, `current_player`
    (-1 once over) and `scores_`, and writes `legal_actions()`, `apply()` and `is_terminal()`.
    Everything else — `round`, `counters`, `winners()` (highest score), `describe()`,
    `describe_end()`, `check_invariants()`, `check_end()` — has a plain default to override."""

    def __init__(self, players: int):
        self.players = players
        self.current_player = 0
        self.round = 0
        self.counters: dict[str, int] = {}
        self.scores_ = [0] * players

    def count(self, name: str, n: int = 1) -> None:
        """A rule fired (a key of the module's BRANCHES): `simulate` reports how often."""
        self.counters[name] = self.counters.get(name, 0) + n

    def scores(self) -> list[int]:
        return list(self.scores_)

    def estimate(self) -> list[int]:
        """The points as they stand, for a search whose imagined games stop short (the module's
        ROLLOUT_MOVES); override it where the end adds bonuses."""
        return self.scores()

    def winners(self) -> tuple[list[int], bool]:
        return ranking(self.scores())

    def describe(self, action: int) -> str:
        return f"P{self.current_player + 1}: {action}"

    def describe_end(self) -> str:
        if not self.is_terminal():
            return "—"
        seats, _tied = self.winners()
        points = " ".join(f"P{i + 1}={s}" for i, s in enumerate(self.scores()))
        return f"{points}; " + "、".join(f"P{i + 1}" for i in seats)

    def is_terminal(self) -> bool:  # pragma: no cover - every game says when it ends
        raise NotImplementedError

    def check_invariants(self) -> None:
        pass

    def check_end(self) -> None:
        pass
