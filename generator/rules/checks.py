"""Static rules checks that need no playouts: what the deal gives each player count, against the rules' text.

Fed by the model (and the rendered rules source for quoting); returns problems only. Runs
without ReportLab.
"""
from __future__ import annotations

from ..model import Game
from ..problems import Problems
from ..rulebook import dealing, find_line


def check_dealing(game: Game, problems: Problems) -> None:
    deal = game.manifest.deal
    if not deal:
        return
    deck = game.deck(deal["component"])      # the manifest reader made sure it exists
    rule = deal.get("rule", "")
    where = game.rules_where or game.manifest.where
    line = find_line(game.rules_source or "", rule) if rule else None
    if rule and line is None:
        problems.warning(f"the [deal] rule sentence 「{rule}」 is not in the rules source", game.manifest.where)
    at = where.at(row=line) if line else where
    for d in dealing(game):
        n, each, left = d["players"], d["each"], d["left"]
        if left:
            problems.warning(
                f"{n} players: the {d['total']} {deck.component.name} deal {each} each with {left} left over; "
                f"the rules say 「{rule}」 and do not say what becomes of the card{'s' if left > 1 else ''} "
                f"left over", at)
        else:
            problems.notice(f"{n} players: the {d['total']} {deck.component.name} deal {each} each, none left over", at)


def check_rules(game: Game, problems: Problems) -> None:
    check_dealing(game, problems)

