"""補陀落渡海しよう！: what its rules say about setup, against what any later rule uses.

Each finding quotes the rule sentence it tests.
"""
from __future__ import annotations

from ...model import Game
from ...problems import Problems
from ...rulebook import find_line

FACEDOWN = "その後、全プレイヤーは手札から好きな１枚を選んで、それを伏せて手元に置いてください。"
LATER = ("伏せ", "伏せた")


def check_facedown_card(game: Game, problems: Problems) -> None:
    """Setup lays a card face down; does any later sentence use it?"""
    source = game.rules_source or ""
    line = find_line(source, FACEDOWN)
    if line is None:
        return
    later = "\n".join(source.splitlines()[line:])
    if not any(word in later for word in LATER):
        problems.warning(f"a setup step no rule uses: 「{FACEDOWN}」 — no later rule mentions the face-down card "
                         "(see the 'facedown' reading in pnp simulate)", (game.rules_where or game.manifest.where).at(row=line))


CHECKS = (check_facedown_card,)
