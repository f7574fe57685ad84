"""The written contract of a game's rules module: what rules/engine.py, simulate.py, checks.py and
the reports may ask of it, and nothing more.

A rules module is the project's `cards/<game id>/rules.py` (loaded by rules/modules.py, which
fills the optional parts' defaults) that satisfies `GameRules`; the state its `new_state()` returns
satisfies `GameState`. The shape is OpenSpiel's: a state with a current player, the legal
actions (the only place legality lives), `apply()`, and scores at the end. Actions are small
ints and the state small lists of ints, so a playout runs at 100k+ decisions a second.

Rule numbers (cards in hand, rounds, piles, markers…) are never constants in the module: its
`prepare()` takes them from the manifest, the data or the rules source (`rulesource.rule_number`)
so that what is printed and what is played cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..model import Game
from .engine import Option


@runtime_checkable
class GameState(Protocol):
    """One game in progress. Chance and each player's choices come from separate seeded
    streams (`engine.stream(seed, "chance")`), so a seed replays a game exactly."""

    current_player: int  # the seat to act; -1 once the game is over
    round: int  # the round in progress, for statistics
    counters: dict[str, int]  # branch counters (keys of BRANCHES): how often each rule fired

    def legal_actions(self) -> list[int]:
        """Every action the current player may take; empty in a dead end (a rules hole)."""
        ...

    def apply(self, action: int) -> None:
        """Play one legal action and move on to whoever acts next."""
        ...

    def is_terminal(self) -> bool:
        """The game has ended by its rules (not by the step cap)."""
        ...

    def scores(self) -> list[int]:
        """Each seat's score at the end, before tie-breakers."""
        ...

    def winners(self) -> tuple[list[int], bool]:
        """(the winning seats after the tie-breakers, whether there was a tie before them);
        no seat: nobody wins; several: a tie the rules do not break."""
        ...

    def describe(self, action: int) -> str:
        """The action, in the designer's language, for `pnp simulate --replay`."""
        ...

    def describe_end(self) -> str:
        """How the game ended (scores, winner, or why it stopped), in the designer's language."""
        ...

    def check_invariants(self) -> None:
        """Raise engine.InvariantError if a conservation law breaks (cards lost or doubled, a
        player seeing hidden cards). Run after every step in test mode."""
        ...

    def check_end(self) -> None:
        """Raise engine.InvariantError if the final scores break a rule that can be checked
        independently of how they were computed (not by computing them again)."""
        ...


@runtime_checkable
class GameRules(Protocol):
    """A game's rules module."""

    GAME_ID: str  # the game's folder name under cards/
    STEP_CAP: int  # decisions after which a playout counts as never ending
    # Readings of the rules where the text allows more than one (or says nothing): each with
    # its default (the most literal), its choices, the sentence and what it leaves open.
    OPTIONS: dict[str, Option]
    BRANCHES: dict[str, str]  # counter name -> what it means, quoting the rule
    NOTABLE: set[str]  # counters worth a line in `pnp check` (a gap or a surprise)
    EXPLAIN: dict[
        str, str
    ]  # outcome (dead_end, capped, no_winner) -> option whose rule explains it

    def prepare(self, game: Game) -> Any:
        """What the engine needs from the printed model: the data, and every rule number from
        the manifest, the data or the rules source. Plain, picklable data (sent to workers)."""
        ...

    def new_state(self, data: Any, players: int, seed: int, options: dict[str, str]) -> GameState:
        """A game after setup, ready for the first decision."""
        ...

    def greedy_value(self, state: GameState, action: int) -> float:
        """A one-step heuristic: the greedy player takes the action of highest value."""
        ...


# Static checks a game may add (its module's CHECKS): each takes the model and a Problems.
StaticCheck = Callable[[Game, Any], None]
