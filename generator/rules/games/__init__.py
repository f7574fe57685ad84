"""The games the rules engine can play, by game id: one module each, with the same small API.

new_state(data, players, seed, options) -> state with current_player, legal_actions(), apply(),
is_terminal(), scores(), winners(); prepare(game) takes the printed data from the model;
OPTIONS lists the readings of the rules; greedy_value() is the simple heuristic player.
"""

from __future__ import annotations

from . import fudaraku, nyanbaa, rumbling_seed

REGISTRY = {
    "fudaraku": fudaraku,
    "rumbling_seed": rumbling_seed,
    "nyanbaa": nyanbaa,
}
