"""Open points the text leaves, found with no rules module (`pnp check --no-play` on
tests/fixtures/planted, きのこ狩り): a choice nobody makes, a count without a number, a card laid
face down that nothing uses, a layout with too few places, cards named by a value several
share. Each finding goes when the sentence settles it and comes back in other words."""

from __future__ import annotations

import pytest

from conftest import edit, kinoko_check, rule_check

RULES = "cards/kinoko/rules.md"
SETUP = "場の中央に得点ボードを置きます。\n"


found = kinoko_check


# (what, planted in setup, the finding's words, the fix, the same point in other words, words)
GAPS = [
    (
        "a choice with nobody to make it",
        "山札の上から２枚めくり、どちらかを場に置きます。",
        "open point: 「山札の上から２枚めくり、どちらかを場に置きます。」 leaves a choice "
        "(「どちらか」)",
        ("どちらかを", "親がどちらかを"),
        ("どちらかを場に置きます。", "任意の１枚を場に置きます。"),
        "leaves a choice (「任意の」)",
    ),
    (
        "a count without a number",
        "きのこカードを場の中央に並べます。",
        "「きのこカードを場の中央に並べます。」 puts out きのこカード but does not say how many "
        "(the deck has 36)",
        ("きのこカードを場の", "きのこカードを４枚、場の"),
        ("きのこカードを場の中央に並べます。", "次に、きのこカードを表にして森に置いてください。"),
        "「次に、きのこカードを表にして森に置いてください。」 puts out きのこカード but does not",
    ),
    (
        "a face-down card nothing uses",
        "各自、手札を１枚選んで伏せておきます。",
        "a setup step no rule uses: 「各自、手札を１枚選んで伏せておきます。」 lays something "
        "face down",
        ("だれかが同じ色", "伏せたカードは最後に公開します。だれかが同じ色"),
        ("手札を１枚選んで伏せておきます。", "手札を１枚、表を下にして自分の前に置きます。"),
        "「各自、手札を１枚、表を下にして自分の前に置きます。」 lays something face down",
    ),
    (
        "a layout with too few places",
        "きのこカードを”プレイヤー人数”枚引き、２×２（３人プレイ時は２×１）に並べます。",
        "with 3 players 3 are drawn but a 2×1 layout has 2 places",
        ("２×２（３人プレイ時は２×１）", "１×Ｎ"),
        ("”プレイヤー人数”枚引き、", "人数分引いて、"),
        "with 5 players 5 are drawn but a 2×2 layout has 4 places",
    ),
    (
        "cards named by a value several share",
        "５人プレイ時は１と２を抜き、ゲームから取り除きます。",
        "「５人プレイ時は１と２を抜き、ゲームから取り除きます。」 names 2 cards, but 8 "
        "きのこカード fit (１ 4, ２ 4)",
        ("１と２を抜き", "各色の１と２を抜き"),
        ("１と２を抜き、ゲームから取り除きます。", "１と２はゲームから除外します。"),
        "「５人プレイ時は１と２はゲームから除外します。」 names 2 cards, but 8",
    ),
]


@pytest.mark.parametrize(
    "what, plant, words, fix, other, again", GAPS, ids=[g[0].replace(" ", "-") for g in GAPS]
)
def test_an_open_point_of_the_text_follows_the_text(planted, what, plant, words, fix, other, again):
    assert words not in found(planted), what  # not there before it is planted
    edit(planted, RULES, SETUP, SETUP + plant + "\n")
    assert words in found(planted), what
    edit(planted, RULES, *fix)
    kind = {
        "a choice with nobody to make it": "leaves a choice",
        "a count without a number": "does not say how many",
        "a face-down card nothing uses": "lays something face down",
        "a layout with too few places": "are drawn but",
        "cards named by a value several share": "names 2 cards",
    }[what]
    assert kind not in found(planted), what
    edit(planted, RULES, fix[1], fix[0])
    edit(planted, RULES, *other)
    assert again in found(planted), what


def test_a_colour_names_every_card_of_it_and_is_no_open_point(planted):
    """「赤と青を抜き」 takes out every red and blue card: a group, not two cards."""
    edit(planted, RULES, SETUP, SETUP + "５人プレイ時は赤と青を抜き、ゲームから取り除きます。\n")
    assert "names 2 cards" not in found(planted)


def test_a_choice_whose_chooser_the_section_names_is_no_open_point(planted):
    """Japanese leaves out the subject a section has named: 「手番のプレイヤーは…」 opens the
    section, so 「好きな１枚を出します」 later in it has its chooser."""
    edit(
        planted,
        RULES,
        "同じ数字のカードなら",
        "好きな１枚を捨ててもかまいません。\n同じ数字のカードなら",
    )
    assert "leaves a choice" not in found(planted)
    edit(
        planted, RULES, "手番のプレイヤーは手札からカードを出します。", "手札からカードを出します。"
    )
    assert "「好きな１枚を捨ててもかまいません。」 leaves a choice (「好きな」)" in found(planted)


def test_each_open_point_says_what_the_rules_module_makes_of_it(planted):
    """With the game's module run, an open point of the text says the reading that plays it, or
    that the module decides it in its code without a reading."""
    edit(planted, RULES, SETUP, SETUP + "きのこカードを場の中央に並べます。\n")
    said = rule_check(planted, "kinoko", play=False)
    assert (
        "puts out きのこカード but does not say how many (the deck has 36); write the number, or "
        "「残り全て」 ('all the rest') — the rules module declares no reading for it"
    ) in said
    edit(
        planted,
        "cards/kinoko/rules.py",
        "OPTIONS: dict[str, Option] = {}",
        'OPTIONS: dict[str, Option] = {"forest": Option("all", {"all": "every card", "nine": '
        '"nine cards"}, "きのこカードを場の中央に並べます。", "no count")}',
    )
    said = rule_check(planted, "kinoko", play=False)
    assert "— the rules module plays it as its reading 'forest'" in said
    assert "declares no reading" not in said
    assert "the rules module" not in kinoko_check(planted)  # --no-play runs no module


def test_turning_up_cards_of_the_deck_does_not_use_a_card_laid_face_down(planted):
    """「山札から２枚めくり」 later in the rules turns up the deck, not the card setup laid face
    down: that step is still one no rule uses."""
    edit(planted, RULES, SETUP, SETUP + "各自、手札から１枚を裏にして自分の前に置きます。\n")
    edit(
        planted,
        RULES,
        "手番のプレイヤーは",
        "山札から２枚めくって場に置きます。\n手番のプレイヤーは",
    )
    assert "「各自、手札から１枚を裏にして自分の前に置きます。」 lays something face down" in (
        found(planted)
    )
