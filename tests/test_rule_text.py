"""Generic findings from a game's rules text against its data, for any game with or without a
rules module: each is shown on the `tricks` fixture and goes away when the text is fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import edit, make_fixture_project, rule_check

RULES = "cards/tricks/rules.md"


@pytest.fixture
def tricks(tmp_path) -> Path:
    root = make_fixture_project("tricks", tmp_path)
    (root / "cards/tricks/rules.py").unlink()  # the generic findings need no rules module
    return root


def line_of(root: Path, text: str) -> int:
    lines = (root / RULES).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def found(root: Path) -> str:
    return rule_check(root, "tricks", play=False)


def test_the_fixture_as_written_raises_none_of_them(tricks):
    assert "warning" not in found(tricks), found(tricks)


def test_what_becomes_of_the_cards_a_deal_leaves(tricks):
    at = line_of(tricks, "各プレイヤーに６枚ずつ")
    assert (
        f"{RULES}:{at}: notice: 3 players: 6 each deals 18 of the 24 色カード, 6 not dealt; the "
        "rules say 「残りのカードは使いません。」" in found(tricks)
    )
    edit(tricks, RULES, "残りのカードは使いません。", "")
    result = found(tricks)
    assert (
        f"{RULES}:{at}: warning: 3 players: the 24 色カード deal 6 each with 6 left over; the "
        "rules say 「色カードをよく混ぜ、各プレイヤーに６枚ずつ配ります。」 and do not say what "
        "becomes of the cards left over" in result
    )
    assert "4 players: 6 each deals 24 of the 24 色カード" not in result  # none left: fine


def test_a_game_without_a_deal_in_game_toml_is_dealt_as_its_rules_say(tricks):
    """No [deal] in game.toml: the setup sentence that deals so many to each player is the
    deal; a count the deck cannot serve is a warning (the text read, not declared)."""
    manifest = tricks / "cards/tricks/game.toml"
    text = manifest.read_text(encoding="utf-8")
    start = text.index("[deal]")
    end = text.index("\n\n", start) if "\n\n" in text[start:] else len(text)
    manifest.write_text(text[:start] + text[end:], encoding="utf-8")
    at = line_of(tricks, "各プレイヤーに６枚ずつ")
    said = found(tricks)
    assert (
        f"{RULES}:{at}: notice: 3 players: 6 each deals 18 of the 24 色カード, 6 not dealt; the "
        "rules say 「残りのカードは使いません。」" in said
    )
    assert f"{RULES}:{at}: notice: 4 players: the 24 色カード deal 6 each, none left over" in said
    edit(tricks, RULES, "各プレイヤーに６枚ずつ", "各プレイヤーに７枚ずつ")
    said = found(tricks)
    assert (
        f"{RULES}:{at}: warning: 4 players: dealing 7 each needs 28 色カード but there are 24; "
        "the rules say 「色カードをよく混ぜ、各プレイヤーに７枚ずつ配ります。」" in said
    )
    assert "error" not in said
    # the deck's count written as the data's (as errors.md advises): still the same deal,
    # quoted as written, the rest still found
    edit(tricks, RULES, "色カードをよく混ぜ、", "色カード{{ card.count }}枚をよく混ぜ、")
    said = found(tricks)
    assert (
        "the rules say 「色カード{{ card.count }}枚をよく混ぜ、各プレイヤーに７枚ずつ配ります。」"
    ) in said
    edit(tricks, RULES, "各プレイヤーに７枚ずつ", "各プレイヤーに６枚ずつ")
    assert "6 not dealt; the rules say 「残りのカードは使いません。」" in found(tricks)
    edit(tricks, RULES, "各プレイヤーに６枚ずつ", "各プレイヤーに{{ 2 * 3 }}枚ずつ")
    assert "players:" not in found(tricks)  # how many each is the data's: no deal read
    edit(tricks, RULES, "各プレイヤーに{{ 2 * 3 }}枚ずつ", "各プレイヤーに７枚ずつ")
    edit(tricks, RULES, "各プレイヤーに７枚ずつ配ります。", "全員に配り切ります。")
    said = found(tricks)  # no count to each player, but all of the deck, evenly
    assert f"{RULES}:{at}: notice: 3 players: the 24 色カード deal 8 each, none left over" in said
    edit(tricks, RULES, "全員に配り切ります。", "全員に配ります。")
    assert "players:" not in found(tricks)  # how many is not said: no deal read


def test_a_deal_read_from_the_rules_is_of_the_deck_the_sentence_names(tricks):
    """Two decks, one named inside the other's name (カード in 初期カード): the sentence naming
    初期カード deals that deck."""
    manifest = tricks / "cards/tricks/game.toml"
    text = manifest.read_text(encoding="utf-8")
    start = text.index("[deal]")
    end = text.index("\n\n", start) if "\n\n" in text[start:] else len(text)
    extra = (
        '\n[[component]]\nid = "start"\nname = "初期色カード"\ndata = "start.csv"\n'
        'size = "poker"\nfront = "card_front"\nback = "card_back"\n\n'
        '  [component.columns]\n  suit = "text"\n  number = "int"\n'
    )
    manifest.write_text(text[:start] + text[end:] + extra, encoding="utf-8")
    rows = "suit,number\n" + "".join(f"赤,{n}\n" for n in range(1, 7))
    (tricks / "cards/tricks/start.csv").write_text(rows, encoding="utf-8")
    edit(
        tricks,
        RULES,
        "色カードをよく混ぜ、各プレイヤーに６枚ずつ",
        "初期色カードを各プレイヤーに２枚ずつ",
    )
    said = found(tricks)
    assert "4 players: dealing 2 each needs 8 初期色カード but there are 6" in said, said
    # a count after the longer name is that deck's, not the one named inside it
    edit(
        tricks,
        RULES,
        "### 色カード（２４枚）",
        "### 色カード（２４枚）\n\n### 初期色カード（６枚）",
    )
    said = found(tricks)
    assert "色カード ６枚" not in said and "初期色カード ６枚" not in said, said
    edit(tricks, RULES, "### 初期色カード（６枚）", "### 初期色カード（７枚）")
    assert "the rules say 初期色カード ７枚, but the data has 6" in found(tricks)
    # a column both decks have: a range after its name is either deck's
    edit(tricks, RULES, "次のトリックを始めます。", "次のトリックを始めます。numberは１〜６です。")
    assert "says number" not in found(tricks)
    edit(tricks, RULES, "numberは１〜６です。", "numberは１〜５です。")
    assert "says number １〜５, but number runs 1–8 in the data (色カード)" in found(tricks)


def test_names_nothing_defines(tricks):
    edit(
        tricks,
        RULES,
        "取ったトリック１つにつき１点です。",
        "取ったトリック１つにつき１点です。「切り札」を出したら、ボーナスカードを１枚得ます。",
    )
    at = line_of(tricks, "「切り札」")
    result = found(tricks)
    assert f"{RULES}:{at}: warning: the rules use 「切り札」 as a name, but nothing defines it" in (
        result
    )
    assert (
        f"{RULES}:{at}: warning: the rules name 「ボーナスカード」, which is no component of this "
        "game (色カード)" in result
    )
    # a glossary defines both
    path = tricks / RULES
    path.write_text(
        path.read_text(encoding="utf-8")
        + "\n## 用語\n\n- **切り札**：赤のカード。\n- ボーナスカード：得点を１点増やします。\n",
        encoding="utf-8",
    )
    result = found(tricks)
    assert "切り札" not in result and "ボーナスカード" not in result, result


def test_card_text_naming_the_cards_of_a_value_is_no_unknown_thing(tricks):
    """A card's text says 「赤カード」: the cards whose suit is 赤, as the rules may say it; a card
    naming 「ボーナスカード」, which nothing is, is still reported at its cell."""
    edit(tricks, "cards/tricks/game.toml", 'color = "color"', 'color = "color"\n  "効果" = "text"')
    path = tricks / "cards/tricks/cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    effects = ["効果", "赤カードを１枚引く。", "他のカードを捨てる。", "ボーナスカードを得る。"]
    lines = [f"{line},{effects[i] if i < len(effects) else ''}" for i, line in enumerate(lines)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = found(tricks)
    assert "赤カード" not in result and "他のカード" not in result, result
    assert (
        "cards/tricks/cards.csv:4:効果: warning: 赤 3 names 「ボーナスカード」, which is no "
        "component of this game (色カード)" in result
    ), result


def test_which_cards_is_no_name(tricks):
    edit(
        tricks,
        RULES,
        "残りのカードは使いません。",
        "残りのカードは使いません。各カードは１回だけ出せます。全カードを使います。",
    )
    assert "warning" not in found(tricks), found(tricks)


def test_a_component_qualified_in_quotes_is_that_component(tricks):
    """「赤い色カード」 is a 色カード, quoted or not: a designer whose component is カード calls
    them 「呪文カード」."""
    edit(
        tricks,
        RULES,
        "次のトリックを始めます。",
        "次のトリックを始めます。「赤い色カード」は強い。",
    )
    assert "warning" not in found(tricks), found(tricks)
    edit(tricks, RULES, "「赤い色カード」は強い。", "「赤い札」は強い。")
    assert "the rules use 「赤い札」 as a name, but nothing defines it" in found(tricks)


def test_a_term_the_text_defines_is_no_finding(tricks):
    edit(tricks, RULES, "取ったトリック１つにつき１点です。", "最後のトリックを「決着」とします。")
    assert "決着" not in found(tricks)
    edit(tricks, RULES, "最後のトリックを「決着」とします。", "「決着」で終わります。")
    assert "the rules use 「決着」 as a name" in found(tricks)


@pytest.mark.parametrize(
    "old,new,message",
    [
        (
            "### 色カード（２４枚）",
            "### 色カード（２５枚）",
            "the rules say 色カード ２５枚, but the data has 24",
        ),
        (
            "各色に８枚",
            "各色に９枚",
            "「色カードは赤、青、黄の各色に９枚、数字は１〜８です。」 says ９ each, but no "
            "column of 色カード has ９ cards of each value (suit: 赤 8, 青 8, 黄 8",
        ),
        (
            "数字は１〜８です",
            "数字は１〜９です",
            "「色カードは赤、青、黄の各色に８枚、数字は１〜９です。」 says １〜９, but 色カード "
            "runs number 1–8 in the data",
        ),
        (
            "各プレイヤーに６枚ずつ配ります。残りの",
            "各プレイヤーに６枚ずつ配ります。そのあと７枚ずつ配り直します。残りの",
            "「そのあと７枚ずつ配り直します。」 deals ７ each, but game.toml's [deal] deals 6",
        ),
        (  # a count right after the name: of the cards an action takes, never more than all
            "色カードをよく混ぜ、",
            "色カード３０枚をよく混ぜ、",
            "the rules say 色カード ３０枚, but the data has 24",
        ),
        (  # after a column's name, in a sentence that does not name the component
            "残りのカードは使いません。",
            "残りのカードは使いません。手札のnumberは１〜９です。",
            "「手札のnumberは１〜９です。」 says number １〜９, but number runs 1–8 in the data "
            "(色カード)",
        ),
    ],
    ids=["count", "each", "range", "per-player", "more-than-there-are", "column-range"],
)
def test_numbers_the_text_writes_against_the_data(tricks, old, new, message):
    assert message not in found(tricks)
    edit(tricks, RULES, old, new)
    at = line_of(tricks, new.split("。")[-1] or new)
    assert f"{RULES}:{at}: warning: {message}" in found(tricks), found(tricks)
    edit(tricks, RULES, new, old)
    assert "warning" not in found(tricks)


def test_a_count_of_one_kind_of_a_component_is_held_to_that_kind(tricks):
    """「赤色カード（８枚）」: the 色カード whose value is 赤, not the whole deck."""
    heading = "### 色カード（２４枚）"
    edit(tricks, RULES, heading, heading + "\n\n- 赤色カード（８枚）")
    assert "warning" not in found(tricks), found(tricks)
    edit(tricks, RULES, "- 赤色カード（８枚）", "- 赤色カード（９枚）")
    assert "the rules say 赤色カード ９枚, but the data has 8" in found(tricks)


def test_a_count_an_action_takes_after_the_name_is_no_finding(tricks):
    edit(
        tricks,
        RULES,
        "残りのカードは使いません。",
        "残りのカードは使いません。色カード２枚を捨てます。",
    )
    edit(tricks, RULES, "数字は１〜８です", "数字はnumber１〜８です")
    assert "warning" not in found(tricks), found(tricks)


def test_a_range_of_how_many_is_no_range_of_values(tricks):
    edit(
        tricks,
        RULES,
        "残りのカードは使いません。",
        "残りの色カードから１〜３枚を見てもかまいません。",
    )
    assert "warning" not in found(tricks), found(tricks)  # and the rest is said: 残り


def test_a_number_the_data_changes_is_checked_against_the_new_data(tricks):
    """No number is fixed: drop a card from the data and the written count is the finding."""
    path = tricks / "cards/tricks/cards.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(rows[:-1]) + "\n", encoding="utf-8")
    manifest = tricks / "cards/tricks/game.toml"
    text = manifest.read_text(encoding="utf-8")
    start = text.index("  [component.composition]")
    manifest.write_text(text[:start] + text[text.index("[deal]") :], encoding="utf-8")
    assert "the rules say 色カード ２４枚, but the data has 23" in found(tricks)


def test_a_component_no_rule_mentions(tricks):
    edit(tricks, RULES, "色カードをよく混ぜ、", "カードをよく混ぜ、")
    edit(tricks, RULES, "色カードは赤、", "赤、")
    edit(
        tricks,
        "cards/tricks/game.toml",
        'rule = "色カードをよく混ぜ、',
        'rule = "カードをよく混ぜ、',
    )
    at = line_of(tricks, "### 色カード")
    assert (
        f"{RULES}:{at}: warning: 色カード is a component, but no rule outside the list of "
        "components mentions it" in found(tricks)
    )


def test_a_setup_term_no_later_rule_uses(tricks):
    edit(
        tricks,
        RULES,
        "残りのカードは使いません。",
        "残りのカードは使いません。場の中央を「捨て場」とします。",
    )
    at = line_of(tricks, "「捨て場」")
    assert (
        f"{RULES}:{at}: warning: setup introduces 「捨て場」, but no rule after setup uses it"
        in found(tricks)
    )
    edit(tricks, RULES, "取ったトリック１つにつき", "取ったトリックは捨て場に置き、１つにつき")
    assert "捨て場" not in found(tricks)


def test_a_thing_counted_into_play_is_a_component_whatever_its_name_ends_with(tricks):
    deal = "色カードをよく混ぜ、各プレイヤーに６枚ずつ配ります。"
    edit(tricks, RULES, deal, deal + "ジョーカーを１枚、場の中央に置きます。")
    at = line_of(tricks, "ジョーカーを１枚")
    assert (
        f"{RULES}:{at}: warning: the rules put 「ジョーカー」 in play (「ジョーカーを１枚」), but "
        "it is no component of this game"
    ) in found(tricks)
    edit(tricks, RULES, "ジョーカーを１枚、場の中央に置きます。", "ジョーカーを１枚引きます。")
    assert "ジョーカー" not in found(tricks)  # drawn, not put in play: no claim it exists


def test_a_compound_name_is_named_whole(tricks):
    deal = "色カードをよく混ぜ、各プレイヤーに６枚ずつ配ります。"
    edit(tricks, RULES, deal, deal + "手札から切り札カードを１枚選びます。")
    said = found(tricks)
    assert "the rules name 「切り札カード」, which is no component" in said
    assert "「札カード」" not in said


def english_game(tmp_path, rows: str):
    """A game `pnp new` made from an English sheet, and what `pnp check --no-play` says of
    it with these setup rules."""
    from conftest import run

    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    source = tmp_path / "deck.csv"
    source.write_text(rows, encoding="utf-8")
    assert run("new", "deck", "--project", str(project), "--from", str(source)).exit_code == 0
    rules = project / "cards/deck/rules.md"
    start = "# deck\n\n## Components\n\n::: components\n\n## Setup\n\n"

    def said(setup: str) -> str:
        rules.write_text(start + setup + "\n", encoding="utf-8")
        return run("check", "deck", "--project", str(project), "--no-play").output

    return said


def test_an_english_component_is_mentioned_as_a_word_in_any_case_and_number(tmp_path):
    """English rules say 'Shuffle the card' of a component named 'Cards': a mention, in any
    case and either number; a text that names it nowhere, or only inside another word
    ('cardboard'), is the finding."""
    said = english_game(tmp_path, "name,copies\nScout,3\nKing,1\n")

    assert "is a component" not in said("Shuffle the CARD and deal it out.")
    assert "is a component" not in said("Each player draws three cards.")
    finding = "warning: Cards is a component, but no rule outside the list of components"
    assert finding in said("Put the cardboard box away.")
    assert finding in said("Deal everything out.")


def test_english_rules_are_held_to_the_data_as_japanese_ones_are(tmp_path):
    """The counts and the deal English rules write, against 18 cards for 2–4 players: a deck
    size the data does not have, a deal that needs more cards than there are, cards a deal
    leaves with nothing said of them; each goes when the text is mended and comes back
    written another way."""
    said = english_game(tmp_path, "name,copies\nScout,10\nKing,8\n")
    out = said("Shuffle all 20 cards and deal 5 cards to each player.")
    assert "warning: the rules say 20 Cards, but the data has 18" in out, out
    assert "4 players: dealing 5 each needs 20 Cards but there are 18" in out, out
    assert "3 players: the 18 Cards deal 5 each with 3 left over" in out, out
    assert "do not say what becomes of the cards left over" in out, out
    mended = said("Shuffle the 18 cards and deal 4 to each player. Put the rest aside.")
    assert "warning" not in mended, mended
    assert "3 players: 4 each deals 12 of the 18 Cards, 6 not dealt" in mended, mended
    again = said("Each player is dealt 6 cards from the 18 cards.")
    assert "4 players: dealing 6 each needs 24 Cards but there are 18" in again, again
    even = said("Shuffle the cards and deal them all out evenly.")
    assert "4 players: the 18 Cards deal 4 each with 2 left over" in even, even
    assert "3 players: the 18 Cards deal 6 each, none left over" in even, even
    drawn = said("Each player draws 2 cards, then shuffles a card back.")
    assert "but the data has" not in drawn, drawn  # a deal of 2, no claim of the deck's size


@pytest.mark.parametrize(
    "setup, each",
    [
        ("Each player draws 5 cards.", 5),
        ("Give each player a hand of 5 cards.", 5),
        ("Players start with 5 cards each.", 5),
        ("Each player starts the game with 5 cards.", 5),
        ("Deal everyone 5 cards.", 5),
        ("Each player receives five cards.", 5),
        ("Deal seven cards to every player.", 7),
    ],
)
def test_an_english_deal_is_read_however_setup_words_it(tmp_path, setup, each):
    """Against 18 cards for 2–4 players, the deal English setup writes in its many ways."""
    out = english_game(tmp_path, "name,copies\nScout,10\nKing,8\n")(setup)
    assert f"4 players: dealing {each} each needs {4 * each} Cards but there are 18" in out, out


def test_an_english_deal_and_its_rest_in_one_sentence(tmp_path):
    """'…; the remaining cards form the draw pile' says what becomes of the rest; the size
    of 'the 20-card deck' is held to the data."""
    said = english_game(tmp_path, "name,copies\nScout,10\nKing,8\n")
    out = said("Deal 4 cards to each player; the remaining cards form the draw pile.")
    assert "do not say what becomes" not in out, out
    assert "2 players: 4 each deals 8 of the 18 Cards, 10 not dealt" in out, out
    assert "the rules say 20 Cards, but the data has 18" in said("Shuffle the 20-card deck.")


@pytest.mark.parametrize(
    "setup,finding",
    [
        # a deck's size, written several ways (the data has 10)
        (
            "数字カードは全部で１２枚あります。",
            "the rules say 数字カード １２枚, but the data has 10",
        ),
        ("数字カードは合計１２枚です。", "the rules say 数字カード １２枚, but the data has 10"),
        (
            "１２枚の数字カードをよく混ぜます。",
            "the rules say 数字カード １２枚, but the data has 10",
        ),
        # a deal, written several ways (4 players need 12)
        ("各プレイヤーに３枚ずつ配ります。", "4 players: dealing 3 each needs 12 数字カード"),
        ("数字カードを各自に３枚配ります。", "4 players: dealing 3 each needs 12 数字カード"),
        ("１人３枚ずつ配ります。", "4 players: dealing 3 each needs 12 数字カード"),
        ("プレイヤーはそれぞれ手札として３枚を受け取ります。", "dealing 3 each needs 12"),
        ("各自、山札から３枚引きます。", "4 players: dealing 3 each needs 12 数字カード"),
        ("全員に同じ枚数ずつ配ります。", "3 players: the 10 数字カード deal 3 each with 1 left"),
    ],
)
def test_a_count_or_a_deal_is_read_however_setup_words_it(tmp_path, setup, finding):
    """With no [deal] in game.toml, the setup sentence is the deal, however it is worded; a
    count of the deck is held to the data wherever the sentence puts it."""
    root = make_fixture_project("tiny", tmp_path)
    manifest = root / "cards/tiny/game.toml"
    text = manifest.read_text("utf-8")
    manifest.write_text(text[: text.index("[deal]")], "utf-8")
    edit(root, "cards/tiny/rules.md", "数字カードをよく混ぜ、全員に同じ枚数ずつ配ります。", setup)
    said = rule_check(root, "tiny", play=False)
    assert finding in said, said
    assert "says ３ each" not in said  # 「各自に３枚」 is a deal, not a claim of 3 of each value


def tiny_ending_with(tmp_path, text: str) -> Path:
    """The tiny fixture with `text` after the rule that ends its game."""
    root = make_fixture_project("tiny", tmp_path)
    rule = "・手札がなくなったら、ゲームは終わります。"
    edit(root, "cards/tiny/rules.md", rule, f"{rule}\n{text}")
    return root


@pytest.mark.parametrize(
    "ending",
    [
        "得点が最も高いプレイヤーの勝ちです。",
        "一番多く得点したプレイヤーが勝者となります。",
        "得点が最多のプレイヤーが勝ちます。",
        "最高得点のプレイヤーの勝利です。",
    ],
)
def test_a_winner_by_the_most_with_no_tie_rule_is_found_however_worded(tmp_path, ending):
    root = tiny_ending_with(tmp_path, ending)
    finding = "names the winner by the most or the fewest, but no rule says who wins"
    assert f"「{ending}」 {finding}" in rule_check(root, "tiny", play=False)
    edit(root, "cards/tiny/rules.md", ending, ending + "同点なら引き分けです。")
    assert finding not in rule_check(root, "tiny", play=False)


def test_an_english_winner_by_the_most_with_no_tie_rule_is_found(tmp_path):
    """'the most gold wins' with nothing said of a tie; a 'draw pile' is no tie rule."""
    said = english_game(tmp_path, "name,copies\nScout,10\nKing,8\n")
    end = "When the draw pile is empty, the player with the most gold wins."
    finding = "names the winner by the most or the fewest, but no rule says who wins"
    assert f"「{end}」 {finding}" in said(end)
    assert finding not in said(end + " If two players are tied, they share the victory.")
    assert finding in said("The winner is whoever holds the fewest cards.")


def test_an_english_choice_nobody_makes_is_an_open_point(tmp_path):
    """'Either card is discarded' leaves a choice and names no one to make it; told to the
    reader, given to a player, or left to chance, it is no open point, and it comes back in
    other words."""
    said = english_game(tmp_path, "name,copies\nScout,10\nKing,8\n")
    open_point = "leaves a choice"
    rule = "Reveal the top two cards. Either card is discarded."
    assert "「Either card is discarded.」 leaves a choice (「Either」)" in said(rule)
    for settled in (
        "Reveal the top two cards. Discard either card.",
        "Reveal the top two cards. Either card is discarded by the dealer.",
        "Reveal the top two cards. Either card is discarded at random.",
        "Reveal the top two cards. The first player discards either card.",
    ):
        assert open_point not in said(settled), settled
    assert "(「Any one」)" in said("Any one card may be removed from the game.")
    assert "(「One of the」)" in said("One of the two cards is shuffled back into the deck.")


@pytest.mark.parametrize(
    "ending",
    [
        "同じ色のカードを６枚集めたプレイヤーが勝ちます。",
        "同色のカードが６枚そろったらゲームは終わります。",
        "同じ色のカードが６枚集まったら勝ちです。",
    ],
)
def test_an_end_no_deck_can_reach_is_found_however_worded(tmp_path, ending):
    """Five cards of each colour: six of one colour never happens, however it is said."""
    root = tiny_ending_with(tmp_path, ending)
    assert f"「{ending}」 can never happen: no 色 has 6 数字カード" in rule_check(
        root, "tiny", play=False
    )
    edit(root, "cards/tiny/rules.md", ending, ending.replace("６枚", "５枚"))
    assert "can never happen" not in rule_check(root, "tiny", play=False)


@pytest.mark.parametrize(
    "said",
    [
        "手番に出せるカードは１枚までです。同じ数字のカードなら２枚を同時に出せます。",
        "１回の手番で出せるのは１枚だけです。数字が同じなら２枚まで出してもかまいません。",
        "カードは一度に１枚しか出せません。同じ色のカードは２枚同時に出せます。",
    ],
)
def test_a_limit_said_two_ways_is_found_however_worded(tmp_path, said):
    """One card a turn, then two: found whether the second is itself a limit (「２枚まで」) or
    not; 「ただし」 makes it an exception."""
    root = tiny_ending_with(tmp_path, said)
    assert "say two things: 1 at most, then 2" in rule_check(root, "tiny", play=False)
    first, second = said.split("。", 1)
    edit(root, "cards/tiny/rules.md", said, f"{first}。ただし、{second}")
    assert "say two things" not in rule_check(root, "tiny", play=False)


def test_english_setup_open_points_are_found_and_settled_by_the_text(tmp_path):
    """'Lay the cards face down in a ring': how many is not said, and no later rule turns the
    hidden cards up; a number and a rule that turns one over settle both."""
    said = english_game(tmp_path, "name,copies\nScout,10\nKing,8\n")
    setup = "Lay the cards face down in a ring."
    found = said(setup)
    assert f"「{setup}」 puts out Cards but does not say how many (the deck has 18)" in found
    assert f"a setup step no rule uses: 「{setup}」 lays something face down" in found
    mended = said(
        "Lay six cards face down in a ring.\n\n## Playing\n\nOn your turn, turn one of them over."
    )
    assert "does not say how many" not in mended and "setup step no rule uses" not in mended
    pile = said("Put the cards face down as a draw pile.")
    assert "setup step no rule uses" not in pile and "does not say how many" not in pile


def test_an_english_rule_naming_a_piece_the_game_lacks_is_found(tmp_path):
    """'the Leader token' when the game has no such component and no card says Leader; a
    name on the cards ('a King card') or the component's own name is no finding."""
    said = english_game(tmp_path, "name,copies\nScout,10\nKing,8\n")
    out = said("Shuffle the cards. Put the Leader token in the middle.")
    assert "the rules name 「Leader token」, which is no component of this game (Cards)" in out
    assert "no component" not in said("Shuffle the Cards. Each player takes a King card.")
    assert "no component" not in said("Shuffle the cards. Scout cards go first.")


SUITS = "name,suit,number\n" + "".join(
    f"{s} {n},{s},{n}\n" for s in ("Red", "Blue") for n in (1, 2, 3, 4)
)


def test_english_cards_named_by_a_value_several_share_are_found(tmp_path):
    """'remove the 1 and the 2' when each suit has a 1 and a 2: two cards named, four fit;
    naming each card, every card of the value, or the total settles it; the passive voice
    says the same."""
    said = english_game(tmp_path, SUITS)
    plain = "With 4 players, remove the 1 and the 2 from the game."
    finding = f"「{plain}」 names 2 cards, but 4 Cards fit (1 2, 2 2)"
    assert finding in said(plain), said(plain)
    for settled in (
        "With 4 players, remove the Red 1 and the Red 2 from the game.",
        "With 4 players, remove the 1 of Red and the 2 of Red.",
        "With 4 players, remove all 1s and 2s.",
        "With 4 players, remove the 1 and the 2 (4 cards in all).",
        "With 4 players, remove 2 cards from the top of the deck.",
    ):
        assert "names 2 cards" not in said(settled), settled
    passive = "With 4 players, the 1 and the 2 are set aside."
    assert f"「{passive}」 names 2 cards, but 4" in said(passive)


def test_an_english_layout_with_fewer_places_than_cards_drawn_is_found(tmp_path):
    """One card per player into a 2×2 grid, 2×1 with 3 players: 2 players leave two places
    empty and 3 players have a card with no place; a layout for each count settles it."""
    said = english_game(tmp_path, SUITS)
    rule = "Draw one card per player and lay them out in a 2×2 grid (2×1 with 3 players)."
    found = said(rule)
    assert f"「{rule}」: with 3 players 3 are drawn but a 2×1 layout has 2 places" in found
    assert "with 2 players 2 are drawn but a 2×2 layout has 4 places" in found
    mended = said(
        "Draw as many cards as there are players; with 2 players, use a 2x1 row; with 3 "
        "players, a 3x1 row; with 4 players, a 2x2 grid."
    )
    assert "are drawn but" not in mended, mended


COLOURS = "name,color,number\n" + "".join(
    f"{c} {n},{c},{n}\n" for c in ("Red", "Blue", "Green") for n in range(1, 6)
)


@pytest.mark.parametrize(
    "rule",
    [
        "The first player to collect 6 cards of the same color wins.",
        "When a player has six cards of one colour, the game ends.",
    ],
)
def test_an_english_end_no_deck_can_reach_is_found(tmp_path, rule):
    """Five cards of each colour: six of one colour never happens, in digits or words; five
    does."""
    said = english_game(tmp_path, COLOURS)
    assert f"「{rule}」 can never happen: no colo" in said(rule), said(rule)
    five = rule.replace("6", "5").replace("six", "five")
    assert "can never happen" not in said(five)


def test_an_english_range_of_values_is_held_to_the_data(tmp_path):
    """'numbered 1 to 8' when the numbers run 1–5; '1 to 3 cards' and '2 to 4 players' are
    counts, no range of values."""
    said = english_game(tmp_path, COLOURS)
    rule = "Play cards numbered 1 to 8."
    assert f"「{rule}」 says 1 to 8, but Cards runs number 1–5 in the data" in said(rule)
    assert "says" not in said("Play cards numbered 1 to 5. Draw 1 to 3 cards, for 2 to 4 players.")


def test_an_english_limit_said_two_ways_is_found_unless_the_second_is_an_exception(tmp_path):
    """'play at most one card per turn', then 'you may play two': found, whether the second
    has its unit or not; 'However, …' makes it an exception; a draw of two is no play."""
    said = english_game(tmp_path, COLOURS)
    limit = "You can play at most one card per turn."
    for second in ("If both cards are red, you may play two.", "You may play 2 cards if red."):
        out = said(f"{limit} {second}")
        assert f"and 「{second}」 say two things: 1 at most, then 2" in out, out
    assert "two things" not in said(f"{limit} However, if both are red, you may play two.")
    assert "two things" not in said(f"{limit} Then draw two cards.")
    assert "two things" not in said(f"{limit} At the end, play three rounds.")
    assert "two things" not in said("Up to 4 players can play. Play 2 cards on your turn.")


@pytest.mark.parametrize(
    "tie",
    [
        "In case of a tie, the tied players share the victory.",
        "Ties are broken in favour of the youngest player.",
        "If still tied, play another round.",
    ],
)
def test_an_english_tie_rule_anywhere_settles_a_winner_by_the_most(tmp_path, tie):
    said = english_game(tmp_path, "name,copies\nScout,10\nKing,8\n")
    end = "When the hands are empty, the player with the most points wins."
    finding = "names the winner by the most or the fewest, but no rule says who wins"
    assert finding in said(f"{end}\n\n## Playing\n\nDraw a card.")
    assert finding not in said(f"{end}\n\n## Playing\n\n{tie}")
