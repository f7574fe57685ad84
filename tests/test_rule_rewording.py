"""Every rules finding of the three games (as frozen in tests/fixtures/engine, which are the
shipped games' data, rules and modules) follows the text: it goes once the cause is fixed,
and comes back when the same sentence is written in other words. A finding tied to the words
of today's text would fail the second half; one that outlives its cause, the first.

Runs `pnp check`'s rules checks with the game's module (its static checks) and no playouts."""

from __future__ import annotations

import re

import pytest

from conftest import edit, rule_check

# (game, file, the finding's words, the fix, the same text in other words, the words found
# again after the rewording)
FINDINGS = [
    (
        "fudaraku",
        "rules.md",
        "3 players: the 40 煩悩カード deal 13 each with 1 left over",
        ("配って手札とします。", "配って手札とします。余ったカードは箱に戻します。"),
        [  # game.toml's [deal] quotes the sentence: a designer rewording it rewords both
            (
                "rules.md",
                "煩悩カードをよくシャッフルし、全プレイヤーに等枚数配って手札とします。",
                "煩悩カードを混ぜて、全員に同じ枚数ずつ配って手札にします。",
            ),
            (
                "game.toml",
                "煩悩カードをよくシャッフルし、全プレイヤーに等枚数配って手札とします。",
                "煩悩カードを混ぜて、全員に同じ枚数ずつ配って手札にします。",
            ),
        ],
        "deal 13 each with 1 left over; the rules say 「煩悩カードを混ぜて、",
    ),
    (
        "fudaraku",
        "rules.md",
        "a setup step no rule uses: 「その後、全プレイヤーは手札から好きな１枚を選んで、それを伏せ",
        ("## ゲームの終了", "## ゲームの終了\n\n伏せたカードは最後に【徳】に加えます。"),
        (
            "その後、全プレイヤーは手札から好きな１枚を選んで、それを伏せて手元に置いてください。",
            "続いて、各自が手札を１枚選び、裏向きにして自分の前に置きます。",
        ),
        "a setup step no rule uses: 「続いて、各自が手札を１枚選び、裏向きにして",
    ),
    (
        "fudaraku",
        "rules.md",
        "rises with the round, but no 煩悩カード has a number above 8",
        ("かつ、”現在のラウンド数”以上の数字でなければならない。", "数字の制限はない。"),
        ("”現在のラウンド数”以上の数字", "今のラウンド数以上の数字"),
        "「かつ、今のラウンド数以上の数字でなければならない。」 rises with the round",
    ),
    (
        "nyanbaa",
        "tribes.csv",
        "関西豪学連 names 「リーダーカード」, which is no component of this game",
        ("リーダーカード", "ヒーローカード"),
        ("リーダーカード", "親分カード"),
        "関西豪学連 names 「親分カード」, which is no component of this game",
    ),
    (
        "nyanbaa",
        "rules.md",
        "with 3 players 3 are drawn but a 2×1 layout has 2 places",
        ("（３人プレイ時は２×１）", "（３人プレイ時は３×１）"),
        (
            "エリアマップをよくシャッフルし、”プレイヤー人数”枚引いて、それを２×２（３人プレイ時は"
            "２×１）に表向きで並べます。",
            "エリアマップを混ぜてプレイヤーの人数分引き、２×２（３人で遊ぶ時は２×１）の形に"
            "並べます。",
        ),
        "「エリアマップを混ぜてプレイヤーの人数分引き、２×２（３人で遊ぶ時は２×１）の形に並べ"
        "ます。」: with 3 players 3 are drawn but a 2×1 layout has 2 places",
    ),
    (
        "nyanbaa",
        "rules.md",
        "names 2 cards, but 6 ナワバリカード fit (４△ 3, ３△ 3)",
        ("３人プレイ時は４△と３△を抜き、", "３人プレイ時は各スートの４△と３△を抜き（計６枚）、"),
        (
            "３人プレイ時は４△と３△を抜き、ゲームから取り除いておいてください。",
            "３人で遊ぶときは、４△と３△をゲームから除外します。",
        ),
        "「３人で遊ぶときは、４△と３△をゲームから除外します。」 names 2 cards, but 6",
    ),
    (
        "nyanbaa",
        "rules.md",
        "3 players: the worst draw of 3 maps uses most of a colour's cubes at setup",
        (
            "そこに同色のリソースを１個ずつ配置してください。",
            "そこに同色のリソースを１個ずつ配置してください。リソースが足りない場合は配置しません。",
        ),
        (
            "そこに同色のリソースを１個ずつ配置してください。",
            "そこに同じ色のキューブを１個ずつ置きます。",
        ),
        "and 「最後に、リソースが残っている（＝まだプレイヤーに占拠されていない）エリアがあれば、"
        "そこに同じ色のキューブを１個ずつ置きます。」 needs as many again",
    ),
    (
        "rumbling_seed",
        "rules.md",
        "「次に、老師カードを六芒星の内側へ、今度は裏向きで並べてください。」 puts out 老師カード "
        "but does not say how many",
        ("今度は裏向きで並べてください。", "今度は裏向きで４枚並べてください。"),
        (
            "次に、老師カードを六芒星の内側へ、今度は裏向きで並べてください。",
            "続いて、老師カードを裏にして六芒星の内側に置きます。",
        ),
        "「続いて、老師カードを裏にして六芒星の内側に置きます。」 puts out 老師カード but does not "
        "say how many",
    ),
    (
        "rumbling_seed",
        "rules.md",
        "the take rule compares 「選んだのと同じ数字のミニオン／シード（属性は違っていても可）」, "
        "but the components give seeds an element and no number",
        ("属性が等枚数ずつあります。", "属性が等枚数ずつあり、それぞれ数字を持ちます。"),
        (
            "「選んだのと同じ数字のミニオン／シード（属性は違っていても可）」",
            "「数字が選んだカードと同じミニオンかシード（属性は問わない）」",
        ),
        "the take rule compares 「数字が選んだカードと同じミニオンかシード（属性は問わない）」, "
        "but the components give seeds an element and no number",
    ),
]


def _said(root, game: str) -> str:
    said = rule_check(root, game, play=False)
    assert "Traceback" not in said and not re.search(r"rules\.py:\d+: error", said), said
    return said


@pytest.mark.parametrize(
    "game, file, words, fix, other, again",
    FINDINGS,
    ids=[f"{f[0]}-{i}" for i, f in enumerate(FINDINGS)],
)
def test_a_shipped_finding_follows_the_text(engine_project, game, file, words, fix, other, again):
    rel = f"cards/{game}/{file}"
    assert words in _said(engine_project, game)
    edit(engine_project, rel, *fix)
    fixed = _said(engine_project, game)
    assert words not in fixed, fixed
    assert "no longer say" not in fixed or "open point" in fixed, fixed
    edit(engine_project, rel, fix[1], fix[0])
    for where, old, new in other if isinstance(other, list) else [(file, *other)]:
        edit(engine_project, f"cards/{game}/{where}", old, new)
    assert again in _said(engine_project, game)


def test_a_repeated_heading_number_follows_the_text(engine_project):
    """The shipped にゃんばーわん！ numbers two phases ２ (the frozen copy has it mended)."""
    rel = "cards/nyanbaa/rules.md"
    assert "is numbered 2 after" not in _said(engine_project, "nyanbaa")
    edit(engine_project, rel, "### ３：判定フェイズ", "### ２：判定フェイズ")
    assert "「２：判定フェイズ」 is numbered 2 after 「２：メインフェイズ」" in _said(
        engine_project, "nyanbaa"
    )
    edit(engine_project, rel, "### ２：判定フェイズ", "### ２．判定")
    assert "「２．判定」 is numbered 2 after 「２：メインフェイズ」" in _said(
        engine_project, "nyanbaa"
    )


def test_a_module_check_whose_sentence_is_gone_says_so_at_the_module(engine_project):
    """Once the 3-player removal is struck from the rules, the module's check of what it leaves
    does not pass in silence: a warning at the check's line asks if it is still needed."""
    rel = "cards/nyanbaa/rules.md"
    edit(
        engine_project,
        rel,
        "３人プレイ時は４△と３△を抜き、ゲームから取り除いておいてください。",
        "",
    )
    said = _said(engine_project, "nyanbaa")
    module = (engine_project / "cards/nyanbaa/rules.py").read_text("utf-8").splitlines()
    line = next(
        n for n, t in enumerate(module, 1) if t.startswith("def check_three_player_removal(")
    )
    assert (
        f"cards/nyanbaa/rules.py:{line}: warning: check_three_player_removal reads the "
        "3-player removal from a sentence like 「３人プレイ時は４△と３△を抜き」, which the rules "
        "no longer say"
    ) in said
    assert "removing 2 cards" not in said  # nothing asserted of a text that is gone


def test_a_rule_number_the_module_can_no_longer_read_is_an_error_naming_the_sentence(
    engine_project,
):
    edit(engine_project, "cards/nyanbaa/rules.md", "１ラウンドは６トリックで構成され、", "")
    said = rule_check(engine_project, "nyanbaa", play=True)
    assert (
        "error: the rules engine reads the tricks in a round from a sentence like "
        "「１ラウンドはNトリック」, which the rules source does not say"
    ) in said


def test_module_messages_speak_japanese_from_the_games_texts(engine_project):
    """[checks] in texts.ja.toml says a module's English message in Japanese, with its fields;
    a field the English lacks is named at its line, and the English is said."""
    from generator import i18n

    (engine_project / "cards/nyanbaa/texts.ja.toml").write_text(
        '[checks]\nhand_left = "手札{hand}枚で{tricks}トリック：ラウンド終了時に{spare}枚残る"\n'
        'per_suit = "各スート{count}枚（{suits}）{nope}"\n',
        "utf-8",
    )
    i18n.use("ja")  # conftest speaks English again after the test
    said = rule_check(engine_project, "nyanbaa", play=False)
    assert "手札8枚で6トリック：ラウンド終了時に2枚残る" in said
    assert "cards/nyanbaa/texts.ja.toml:3:" in said and "nope" in said
    assert "11 ナワバリカード in each of" in said  # the English, where the translation is wrong


def test_once_the_text_settles_an_open_point_its_literal_reading_is_no_longer_played(
    engine_project,
):
    """補陀落渡海しよう！ played as game.toml chooses (end = active_hands) warns of the literal
    reading, under which no game ends. Once the designer writes the end that game.toml meant,
    the literal reading of the old words is not played again as a warning: the module is asked
    whether the point is still open."""
    manifest = engine_project / "cards/fudaraku/game.toml"
    manifest.write_text(
        manifest.read_text("utf-8") + '\n[readings]\nend = "active_hands"\n', "utf-8"
    )
    literal = "reach a dead end: no player can act and the game has not ended (reading end=all_"
    assert literal in rule_check(engine_project, "fudaraku")
    edit(
        engine_project,
        "cards/fudaraku/rules.md",
        "これを繰り返し、全ての手札が尽きたらゲームが終了します。",
        "これを繰り返し、脱落していないプレイヤー全員の手札が尽きたらゲームが終了します。",
    )
    said = rule_check(engine_project, "fudaraku")
    assert literal not in said
    assert "open point 'end': the rules no longer say" in said
