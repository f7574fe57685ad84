"""Decks with uneven distributions, stated whole by the composition, and what `check` says when
a card is deleted, duplicated, moved to another group, or two cards swap kinds.

On the `decks` fixture: `uno` (108 cards: four colours with one 0 and two each of 1–9, two of
each action per colour, four of each wild) and `hana` (48 cards in 12 months, each month mixing
kinds in its own counts, the whole deck 5 光 / 9 タネ / 10 短冊 / 24 カス)."""

from __future__ import annotations

import pytest

from conftest import make_fixture_project, run
from pdfread import placements


@pytest.fixture
def decks(tmp_path):
    return make_fixture_project("decks", tmp_path)


def check(root, game: str, edit=None) -> tuple[int, list[str]]:
    """Check one game after editing its cards.csv; the exit code and the error lines."""
    if edit:
        path = root / f"cards/{game}/cards.csv"
        path.write_text(edit(path.read_text("utf-8")), "utf-8")
    result = run("check", "--no-play", "--project", str(root), game)
    return result.exit_code, [line for line in result.output.splitlines() if "error" in line]


def lines(fn):
    return lambda text: "\n".join(fn(text.splitlines())) + "\n"


def test_both_decks_are_stated_whole_and_print(decks):
    assert check(decks, "uno") == (0, [])
    assert check(decks, "hana") == (0, [])
    result = run("build", "--project", str(decks))
    assert result.exit_code == 0, result.output
    uno = decks / "output/uno/cards.pdf"
    assert sum(len(placements(uno, 1 + 2 * s)) for s in range(12)) == 108


def test_a_deleted_card_is_named_with_its_column_and_value(decks):
    code, errors = check(decks, "uno", lines(lambda rows: rows[:9] + rows[10:]))  # a 赤 4
    assert code == 1
    assert errors == [
        "cards/uno/cards.csv: error: 数字カード 赤 4 has 1 of 2 copies (color '赤', number '4')",
        "cards/uno/cards.csv: error: 数字カード (kind 数字) has 75 cards, the manifest expects 76 "
        "(total at cards/uno/game.toml:38)",
        "cards/uno/cards.csv: error: 107 cards, the manifest expects 108 (total at "
        "cards/uno/game.toml:30)",
        "3 errors, 0 warnings",
    ]


def test_a_duplicated_card_is_named_at_the_row_that_was_added(decks):
    code, errors = check(decks, "uno", lines(lambda rows: rows[:5] + [rows[1]] + rows[5:]))
    assert code == 1
    assert (
        "cards/uno/cards.csv:6: error: 数字カード 赤 0 appears twice (rows 2, 6); the manifest "
        "expects 1 (color '赤', number '0')" in errors
    )


def test_a_card_moved_to_another_group_breaks_both_groups(decks):
    # Row 21, a 赤 スキップ, retyped as a 赤 5: the deck total still holds.
    code, errors = check(decks, "uno", lines(lambda r: r[:20] + ["赤,数字,5,5"] + r[21:]))
    assert code == 1
    assert errors[:4] == [
        "cards/uno/cards.csv:21: error: 数字カード 赤 5 appears three times (rows 11, 12, 21); "
        "the manifest expects 2 (color '赤', number '5')",
        "cards/uno/cards.csv: error: 数字カード (kind 数字) has 77 cards, the manifest expects 76 "
        "(total at cards/uno/game.toml:38)",
        "cards/uno/cards.csv: error: アクションカード 赤 スキップ has 1 of 2 copies (color '赤', "
        "kind 'スキップ')",
        "cards/uno/cards.csv: error: アクションカード (kind スキップ or リバース or ドロー2) "
        "has 23 cards, the manifest expects 24 (total at cards/uno/game.toml:47)",
    ]
    assert not any("108" in e for e in errors)


def test_a_card_moved_to_another_month_is_caught_by_the_groups_not_the_deck_total(decks):
    """The deck-wide key (5 光 …) still holds; the months' own counts do not."""
    code, errors = check(decks, "hana", lambda t: t.replace("1,松,松に鶴", "2,松,松に鶴"))
    assert code == 1
    assert errors[:4] == [
        "cards/hana/cards.csv: error: 1月（松） 光 is missing (kind '光')",
        "cards/hana/cards.csv: error: 1月（松） (month 1) has 3 cards, the manifest expects 4 "
        "(total at cards/hana/game.toml:40)",
        "cards/hana/cards.csv:2:kind: error: 松に鶴 is not in the composition of 2月（梅）: 'kind' "
        "must be one of タネ, 短冊, カス, got '光' (a new card? add its value to the list at "
        "cards/hana/game.toml:46)",
        "cards/hana/cards.csv: error: 2月（梅） (month 2) has 5 cards, the manifest expects 4 "
        "(total at cards/hana/game.toml:47)",
    ]


def test_the_deck_wide_key_holds_alongside_the_groups(decks):
    """A 光 retyped as タネ in its own month breaks that month and the deck's 5 光 / 9 タネ."""
    code, errors = check(decks, "hana", lambda t: t.replace("桐に鳳凰,光,20", "桐に鳳凰,カス,20"))
    assert code == 1
    assert (
        "cards/hana/cards.csv: error: 光 has 4 of 5 copies in the whole deck (kind '光')" in errors
    )


@pytest.mark.parametrize(
    "game, swap, wanted",
    [
        (
            "uno",
            lines(lambda r: r[:3] + ["赤,数字,2,1", "赤,数字,1,2"] + r[5:]),
            [
                "cards/uno/cards.csv:5:points: error: 数字 赤 1: 'points' is 2, but the other "
                "cards of kind '数字', number '1' have 1 (7 rows); 'points' follows from kind and "
                "number",
                "cards/uno/cards.csv:4:points: error: 数字 赤 2: 'points' is 1, but the other "
                "cards of kind '数字', number '2' have 2 (7 rows); 'points' follows from kind and "
                "number",
            ],
        ),
        (
            "hana",
            lambda t: t.replace("桜に赤短,短冊", "桜に赤短,タネ").replace(
                "梅に鶯,タネ", "梅に鶯,短冊"
            ),
            [
                "cards/hana/cards.csv:6:points: error: 梅に鶯: 'points' is 10, but the other cards "
                "of kind '短冊' have 5 (9 rows); 'points' follows from kind",
                "cards/hana/cards.csv:11:points: error: 桜に赤短: 'points' is 5, but the other "
                "cards of kind 'タネ' have 10 (8 rows); 'points' follows from kind",
            ],
        ),
    ],
)
def test_two_swapped_cards_are_named_by_the_column_that_follows_from_kind(
    decks, game, swap, wanted
):
    code, errors = check(decks, game, swap)
    assert code == 1
    for line in wanted:
        assert line in errors, errors


def test_a_changed_card_is_named_at_the_row_that_was_changed_not_the_last(decks):
    """梅に鶯 (row 6) retyped as 短冊: 2月 now has two 短冊 (rows 6 and 7). Row 6 is the one
    whose points disagree with its kind, so the duplicate is reported there."""
    code, errors = check(decks, "hana", lambda t: t.replace("梅に鶯,タネ", "梅に鶯,短冊"))
    assert code == 1
    assert (
        "cards/hana/cards.csv:6: error: 2月（梅） 短冊 appears twice (rows 6, 7); the manifest "
        "expects 1 (kind '短冊')" in errors
    ), errors


def test_cards_alike_are_read_once_a_group_with_their_count_in_deck_order():
    """The copies of a row and rows written alike share one fields mapping: the checks read
    each group once (its first card and count); equal fields in a mapping of their own are a
    group of their own, and a composition group's `when` still takes every card, in order."""
    from generator.model import Card, Deck, alike, freeze, of_group
    from generator.problems import SourceRef

    red, blue, twin = freeze({"c": "赤"}), freeze({"c": "青"}), freeze({"c": "赤"})
    order = [red, blue, red, twin, red]
    cards = [Card("x", i, f, SourceRef("a.csv", i + 2)) for i, f in enumerate(order)]
    assert [(card.index, n) for card, n in alike(cards)] == [(0, 3), (1, 1), (3, 1)]
    assert [(card.index, n) for card, n in alike(cards[1:2])] == [(1, 1)]
    deck = Deck(None, tuple(cards), ("c",), SourceRef("a.csv"))  # type: ignore[arg-type]
    assert deck.values("c") == ["赤", "青"]
    assert [c.index for c in of_group(deck, {"c": "赤"})] == [0, 2, 3, 4]
    assert [c.index for c in of_group(deck, {"c": ["青"]})] == [1]
    assert [c.index for c in of_group(deck, {})] == [0, 1, 2, 3, 4]
