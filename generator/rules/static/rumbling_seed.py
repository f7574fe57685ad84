"""鎮守大祭 ランブリングシード: what its rules say about setup and taking, against its data.

Each finding quotes the rule sentence it tests; the model comes from the same spreadsheets that
are printed.
"""

from __future__ import annotations

from ...model import Game
from ...problems import Problems
from ...rulesource import rule_at

FACE_UP = "老師カードをよくシャッフルして３枚引き、それを六芒星の内側へ表向きに並べます。"
FACE_DOWN = "次に、老師カードを六芒星の内側へ、今度は裏向きで並べてください。"
END = "また、これが５ラウンド目の終了時（裏向きの老師カードが１枚もない）であった場合もゲーム終了となります。"
TURN_UP = "そうでなければ、裏向きの老師カード１枚を表向きにし、新しいラウンドを開始してください。"
TAKE = "選んだのと同じ数字のミニオン／シード（属性は違っていても可）"
SEEDS = "シードは"


def check_elders_at_setup(game: Game, problems: Problems) -> None:
    """3 face up is stated; how many face down is not, but the end condition fixes it."""
    elders = game.deck("elder")
    rounds, face_up = 5, 3
    face_down = rounds - 1  # one turned up at the end of rounds 1-4, none left after 5
    problems.warning(
        f"the rules do not say how many 老師カード go face down at setup (「{FACE_DOWN}」); the end "
        f"condition 「{END}」 with 「{TURN_UP}」 implies {face_down} (one turned up at the end of each of "
        f"rounds 1–{rounds - 1}). The board shows {face_down} face-down slots",
        rule_at(game, FACE_DOWN),
    )
    used = face_up + face_down
    if used > len(elders.cards):
        problems.error(
            f"setup needs {used} 老師カード ({face_up} face up + {face_down} face down) but the deck "
            f"has {len(elders.cards)}",
            rule_at(game, FACE_UP),
        )
    else:
        problems.notice(
            f"setup uses {used} of the {len(elders.cards)} 老師カード ({face_up} face up, "
            f"{face_down} face down); the other {len(elders.cards) - used} leave the game, so take "
            f"bonuses can only ever reach these {used}",
            rule_at(game, FACE_UP),
        )


def check_seed_numbers(game: Game, problems: Problems) -> None:
    """The take rule compares numbers of minions and seeds; the components give seeds none."""
    seeds = [c for c in game.deck("dragon").cards if c.fields.get("kind") == "シード"]
    numbered = [c for c in seeds if c.fields.get("number") not in (None, "")]
    if numbered:
        problems.warning(
            f"the take rule compares 「{TAKE}」, but the components give seeds an element and no number; "
            f"the data gives {len(numbered)} of {len(seeds)} seeds a number (marked provisional)",
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
    """Every elder's skill must name an effect the rules engine can run: unknown keys are not guessed."""
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
