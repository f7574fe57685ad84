"""Game-specific static checks, by game id: what the rules text says against what the data holds.

A plain dict, the one place to register a game's checks. Each check takes the model and a
`Problems` and quotes the rule sentence it tests.
"""

from __future__ import annotations

from . import fudaraku, nyanbaa, rumbling_seed

GAME_CHECKS: dict = {
    "fudaraku": fudaraku.CHECKS,
    "rumbling_seed": rumbling_seed.CHECKS,
    "nyanbaa": nyanbaa.CHECKS,
}
