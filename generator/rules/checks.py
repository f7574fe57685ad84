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


def check_piles(game: Game, problems: Problems) -> None:
    """[setup] piles: a deck split into equal piles, e.g. the 72 dragon-vein cards into 6 holes."""
    piles = game.manifest.setup.get("piles")
    if not piles:
        return
    try:
        deck = game.deck(piles.get("component", ""))
    except KeyError:
        problems.error(f"[setup] piles names component {piles.get('component')!r}, which is not a deck",
                       game.manifest.where)
        return
    n, rule = int(piles.get("count", 1)), piles.get("rule", "")
    total = len(deck.cards)
    line = find_line(game.rules_source or "", rule) if rule else None
    at = (game.rules_where or game.manifest.where).at(row=line) if line else game.manifest.where
    if rule and line is None:
        problems.warning(f"the [setup] piles rule sentence 「{rule}」 is not in the rules source", game.manifest.where)
    if total % n:
        problems.warning(f"the {total} {deck.component.name} do not split into {n} equal piles "
                         f"({total // n} each, {total % n} left over); the rules say 「{rule}」", at)
    else:
        problems.notice(f"the {total} {deck.component.name} split into {n} piles of {total // n}", at)


def check_provisional(game: Game, problems: Problems) -> None:
    """Every row the project filled in because the designer's text leaves it open: one notice per
    reason and component, naming each item, so the designer sees what is still theirs to write."""
    for deck in game.decks:
        if "provisional" not in deck.columns:
            continue
        by_reason: dict[str, list] = {}
        for card in deck.cards:
            reason = str(card.fields.get("provisional") or "").strip()
            if reason and card.copy == 1:
                by_reason.setdefault(reason, []).append(card)
        for reason, cards in by_reason.items():
            names = "、".join(c.label() for c in cards)
            problems.notice(f"{deck.component.name} {names}: provisional — {reason}",
                            cards[0].where.at(column="provisional"))


def check_rules(game: Game, problems: Problems) -> None:
    """The generic checks, then the game's own (registered by game id in rules/static/)."""
    from .static import GAME_CHECKS

    check_dealing(game, problems)
    check_piles(game, problems)
    check_provisional(game, problems)
    for check in GAME_CHECKS.get(game.id, ()):
        check(game, problems)

