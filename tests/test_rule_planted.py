"""A game no test was written for (tests/fixtures/planted: きのこ狩り, as `pnp new --rules` made
it), with eight problems planted in its Japanese rules: `pnp check` names each with the
sentence it read, the finding goes once the cause is fixed, and comes back when the same
problem is written in other words."""

from __future__ import annotations

import pytest

from conftest import edit, kinoko_check, make_fixture_project, rule_check, run

RULES = "cards/kinoko/rules.md"


found = kinoko_check


# (what is planted, the finding's words, the fix, the same problem written otherwise)
PLANTED = [
    (
        "an uneven deal in prose",
        "5 players: the 36 きのこカード deal 7 each with 1 left over; the rules say "
        "「カードをよく混ぜ、プレイヤー全員に均等に配り切ります。」",
        ("均等に配り切ります。", "７枚ずつ配ります。残りのカードは使いません。"),
        ("プレイヤー全員に均等に配り切ります。", "すべてのカードを手札として全員に配ります。"),
    ),
    (
        "an undefined term",
        "the rules name 「胞子トークン」, which is no component of this game",
        ("胞子トークンを１つ受け取ります。", "得点ボードの自分の駒を１つ進めます。"),
        ("胞子トークンを", "胞子マーカーを"),
    ),
    (
        "a count the data contradicts",
        "the rules say きのこカード ４０枚, but the data has 36",
        ("（全４０枚）", "（全３６枚）"),
        ("きのこカード（全４０枚）", "きのこカード 全４０枚"),
    ),
    (
        "an end no deck can reach",
        "can never happen: no 色 has 10 きのこカード (the data's color: 赤 9, 青 9, 黄 9, 緑 9)",
        ("１０枚以上", "５枚以上"),
        ("同じ色のカードを１０枚以上集めたら", "同じ色のカードが１０枚以上そろったら"),
    ),
    (
        "a win with no tie-break",
        "names the winner by the most or the fewest, but no rule says who wins when two are level",
        ("最も多いプレイヤーの勝ちです。", "最も多いプレイヤーの勝ちです。同点なら引き分けです。"),
        (
            "出したカードの数字の合計が最も多いプレイヤーの勝ちです。",
            "合計がいちばん高い人が勝者です。",
        ),
    ),
    (
        "a repeated heading number",
        "「3. ゲームの流れ」 is numbered 3 after 「3. 準備」",
        ("## 3. ゲームの流れ", "## 4. ゲームの流れ"),
        ("## 3. ゲームの流れ", "## 3. 手番"),
    ),
    (
        "a limit said two ways",
        "say two things: 1 at most, then 2",
        ("同じ数字のカードなら", "ただし、同じ数字のカードなら"),
        ("１回の手番で出せるカードは１枚だけです。", "手番ごとに出せるのは１枚までです。"),
    ),
    (
        "a setup element nothing uses",
        "setup puts out 「得点ボード」, but no rule after setup uses it",
        ("胞子トークンを１つ受け取ります。", "得点ボードの自分の駒を１つ進めます。"),
        ("場の中央に得点ボードを置きます。", "得点ボードを場の中央に用意します。"),
    ),
]


def test_check_names_every_planted_problem_with_its_sentence(planted):
    said = found(planted)
    missing = [what for what, words, _fix, _other in PLANTED if words not in said]
    assert not missing, said
    assert (
        f"{RULES}:34: warning: 「出したカードの数字の合計が最も多いプレイヤーの勝ちです。」" in said
    )


@pytest.mark.parametrize(
    "what, words, fix, other", PLANTED, ids=[p[0].replace(" ", "-") for p in PLANTED]
)
def test_a_finding_goes_with_its_cause_and_comes_back_in_other_words(
    planted, what, words, fix, other
):
    edit(planted, RULES, *fix)
    assert words.split("; the rules say")[0] not in found(planted), what
    edit(planted, RULES, fix[1], fix[0])
    edit(planted, RULES, *other)
    again = found(planted)
    key = {
        "an uneven deal in prose": "deal 7 each with 1 left over",
        "an undefined term": "the rules name 「胞子マーカー」",
        "a count the data contradicts": "but the data has 36",
        "an end no deck can reach": "can never happen: no 色 has 10",
        "a win with no tie-break": "「合計がいちばん高い人が勝者です。」 names the winner",
        "a repeated heading number": "「3. 手番」 is numbered 3 after 「3. 準備」",
        "a limit said two ways": "「手番ごとに出せるのは１枚までです。」",
        "a setup element nothing uses": "setup puts out 「得点ボード」",
    }[what]
    assert key in again, again


def test_an_open_point_whose_sentence_changed_asks_if_it_is_still_open(tmp_path):
    """The tricks module declares who leads later rounds open, quoting a sentence: once that
    sentence is reworded, the notice that quoted it is gone and the module is asked again."""
    root = make_fixture_project("tricks", tmp_path)
    rules = "cards/tricks/rules.md"
    said = rule_check(root, "tricks", play=False)
    assert "open point 'next_lead': the rules never say who leads" in said
    edit(root, rules, "最年少のプレイヤーが最初のカードを出します。", "最年少の人から始めます。")
    said = rule_check(root, "tricks", play=False)
    assert "open point 'next_lead': the rules never say" not in said
    line = next(
        n
        for n, text in enumerate(
            (root / "cards/tricks/rules.py").read_text("utf-8").splitlines(), 1
        )
        if '"next_lead"' in text
    )
    assert (
        f"cards/tricks/rules.py:{line}: warning: open point 'next_lead': the rules no longer say "
        "「最初のラウンドは、最年少のプレイヤーが最初のカードを出します。」"
    ) in said


def test_a_floor_that_rises_with_the_round_past_the_highest_card(planted):
    """1–9 in each colour, the deck dealt out: 3 players hold 12 cards, so a card at least the
    round's number runs out after round 9; 「以下」 asks nothing the deck cannot give."""
    rule = "出すカードは”現在のラウンド数”以上の数字でなければなりません。"
    edit(planted, RULES, "手番のプレイヤーは手札からカードを出します。", rule)
    assert (
        f"{RULES}:24: warning: 「{rule}」 rises with the round, but no きのこカード has a number "
        "above 9: from round 10 on, none meets it; with 3 players a hand holds up to 12 cards"
    ) in found(planted)
    edit(planted, RULES, "ラウンド数”以上", "ラウンド数”以下")
    assert "rises with the round" not in found(planted)


def test_a_limit_is_held_to_its_own_part_of_the_game(planted):
    """Setup may do more of an action than a turn allows: 「２枚出して」 in 準備 is no
    contradiction of the turn's 「１枚だけ」."""
    edit(planted, RULES, "同じ数字のカードなら２枚を同時に出すことができます。\n", "")
    assert "say two things" not in found(planted)
    setup = "場の中央に得点ボードを置きます。"
    edit(planted, RULES, setup, setup + "各プレイヤーは手札からカードを２枚出して場に置きます。")
    assert "say two things" not in found(planted)


def test_a_modules_own_words_are_said_in_japanese_from_the_games_texts_file(tmp_path):
    """tricks' rules.py writes its open point and what it counts in English; the game's
    texts.ja.toml says them in Japanese under --lang ja, and a name it misspells is named."""
    root = make_fixture_project("tricks", tmp_path)
    texts = root / "cards/tricks/texts.ja.toml"
    texts.write_text(
        "[open_points]\n"
        'next_lead = "２ラウンド目からの最初の手番が誰か書かれていない"\n\n'
        "[branches]\n"
        'renounce = "リードと同じ色を出せないプレイヤーがいる"\n'
        'renounse = "つづりの違う名前"\n',
        encoding="utf-8",
    )
    english = run("check", "tricks", "--project", str(root))
    assert "the rules never say who leads the second" in english.output
    assert "２ラウンド目から" not in english.output and "texts.ja.toml" not in english.output
    said = run("--lang", "ja", "check", "tricks", "--project", str(root)).output
    assert "未決の点 'next_lead': ２ラウンド目からの最初の手番が誰か書かれていない" in said
    assert "リードと同じ色を出せないプレイヤーがいる" in said
    assert "the rules never say who leads" not in said and "could not follow" not in said
    assert "cards/tricks/texts.ja.toml:6:branches.renounse: 警告:" in said and "renounce" in said
