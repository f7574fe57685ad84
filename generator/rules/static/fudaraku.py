"""補陀落渡海しよう！: what its rules say about setup, against what any later rule uses.

Each finding quotes the rule sentence it tests.
"""

from __future__ import annotations

from ...model import Game
from ...problems import Problems
from ...rulesource import rule_ref

FACEDOWN = "その後、全プレイヤーは手札から好きな１枚を選んで、それを伏せて手元に置いてください。"
LATER = ("伏せ", "伏せた")


def check_facedown_card(game: Game, problems: Problems) -> None:
    """Setup lays a card face down; does any later sentence use it?"""
    at = rule_ref(game, FACEDOWN)
    if at is None:
        return
    later = "\n".join((game.rules_source or "").splitlines()[at.row :])
    if not any(word in later for word in LATER):
        problems.warning(
            f"a setup step no rule uses: 「{FACEDOWN}」 — no later rule mentions the face-down "
            "card (see the 'facedown' reading in pnp simulate)",
            at,
        )


CHECKS = (check_facedown_card,)
