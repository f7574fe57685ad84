"""鎮守大祭 ランブリングシード: what its rules say about setup and taking, against its data.

Each finding quotes the rule sentence it tests; the model comes from the same spreadsheets that
are printed.
"""

from __future__ import annotations

from ...model import Game
from ...problems import Problems
from ...rulesource import find_rule, rule_at, rule_numbers
from ..games import rumbling_seed as rules

FACE_DOWN = "今度は裏向きで並べ"  # the setup sentence for face-down elders, found by its words
FACE_DOWN_COUNT = "{}枚"  # a count in that sentence, if the designer writes one
TAKE = "選んだのと同じ数字のミニオン／シード（属性は違っていても可）"
SEEDS = "シードは"


def check_elders_at_setup(game: Game, problems: Problems) -> None:
    """How many elders go face up is stated; how many face down may not be, but the end
    condition fixes it: one is turned up at the end of each round but the last."""
    up, last = find_rule(game, rules.FACE_UP), find_rule(game, rules.ROUNDS)
    down_rule = find_rule(game, FACE_DOWN)
    if up is None or last is None:
        return
    elders = game.deck("elder")
    rounds, face_up = last.numbers[0], up.numbers[0]
    face_down = rounds - 1  # one turned up at the end of rounds 1 to rounds-1, none left after
    stated = rule_numbers(down_rule.text, FACE_DOWN_COUNT) if down_rule else None
    if down_rule is not None and stated is None:
        problems.warning(
            "the rules do not say how many 老師カード go face down at setup "
            f"(「{down_rule.text}」); "
            f"the end condition 「{last.text}」 implies {face_down} (one turned up at the end of "
            f"each of rounds 1–{rounds - 1})",
            down_rule.where,
        )
    elif stated is not None and stated[0] != face_down:
        problems.warning(
            f"「{down_rule.text}」 puts {stated[0]} 老師カード face down, but 「{last.text}」 "
            f"turns one up at the end of each of rounds 1–{rounds - 1}: {face_down} are needed",
            down_rule.where,
        )
    used = face_up + (stated[0] if stated else face_down)
    if used > len(elders.cards):
        problems.error(
            f"setup needs {used} 老師カード ({face_up} face up + {used - face_up} face down) but "
            f"the deck has {len(elders.cards)}",
            up.where,
        )
    else:
        problems.notice(
            f"setup uses {used} of the {len(elders.cards)} 老師カード ({face_up} face up, "
            f"{used - face_up} face down); the other {len(elders.cards) - used} leave the game, "
            f"so take bonuses can only ever reach these {used}",
            up.where,
        )


def check_seed_numbers(game: Game, problems: Problems) -> None:
    """The take rule compares numbers of minions and seeds; the components give seeds none."""
    seeds = [c for c in game.deck("dragon").cards if c.fields.get("kind") == "シード"]
    numbered = [c for c in seeds if c.fields.get("number") not in (None, "")]
    if numbered:
        problems.warning(
            f"the take rule compares 「{TAKE}」, but the components give seeds an element and no "
            f"number; the data gives {len(numbered)} of {len(seeds)} seeds a number (marked "
            "provisional)",
            rule_at(game, TAKE),
        )
    else:
        problems.warning(
            f"the take rule compares 「{TAKE}」, but no seed has a number: seeds can never match",
            rule_at(game, TAKE),
        )


def check_one_per_player(game: Game, problems: Problems) -> None:
    """Every player takes a disciple and the four-god card of the same element."""
    most = game.manifest.players[1]
    disciples = {c.fields["element"] for c in game.deck("disciple").cards}
    gods = {c.fields["element"] for c in game.deck("four_god").cards}
    if len(disciples) < most:
        problems.error(
            f"{most} players need {most} 弟子カード of different elements; the data has "
            f"{len(disciples)}",
            game.deck("disciple").where,
        )
    for element in sorted(disciples - gods):
        problems.error(
            f"the 弟子 of {element} has no 四神カード of the same element",
            game.deck("four_god").where,
        )


def check_effect_keys(game: Game, problems: Problems) -> None:
    """Every elder's skill must name an effect the rules engine can run: unknown keys are not
    guessed."""
    from ..games.rumbling_seed import KNOWN_EFFECTS

    seen = set()
    for card in game.deck("elder").cards:
        key = card.fields.get("effect", "")
        if key not in KNOWN_EFFECTS and card.where.row not in seen:
            seen.add(card.where.row)
            problems.error(
                f"{card.label()}'s effect key '{key}' is not one the rules engine knows "
                f"(known: {', '.join(sorted(KNOWN_EFFECTS))})",
                card.where.at(column="effect"),
            )


CHECKS = (check_elders_at_setup, check_seed_numbers, check_one_per_player, check_effect_keys)
