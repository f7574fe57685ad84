"""The games the rules engine can play, by game id: one module each, keeping the contract in
rules/contract.py (`GameRules`: prepare, new_state, OPTIONS, BRANCHES…; its states `GameState`).

To add a game: a module here named after the game's folder under cards/, and one line below.
"""

from __future__ import annotations

from ..contract import GameRules
from . import fudaraku, nyanbaa, rumbling_seed

REGISTRY: dict[str, GameRules] = {
    "fudaraku": fudaraku,  # type: ignore[dict-item]  (a module satisfies the protocol)
    "rumbling_seed": rumbling_seed,  # type: ignore[dict-item]
    "nyanbaa": nyanbaa,  # type: ignore[dict-item]
}
