"""Rule findings and rule numbers follow the rules source: fix the sentence and the finding goes;
change a number in the text and the engine plays by it. On the frozen engine fixtures."""

from __future__ import annotations

import pytest

from generator import pipeline
from generator.problems import Problems
from generator.project import find_project
from generator.rules import engine

from conftest import edit, engine_rules, rule_check, run

F = engine_rules("fudaraku")
N = engine_rules("nyanbaa")
R = engine_rules("rumbling_seed")

NYAN = "cards/nyanbaa/rules.md"
SEED = "cards/rumbling_seed/rules.md"


def load(root, game):
    problems = Problems()
    loaded = pipeline.load(find_project(root), game, problems)
    assert loaded is not None, problems.folded()
    return loaded


def test_removal_naming_two_cards_is_flagged_until_the_count_is_written(engine_project):
    assert "names 2 cards, but 6 ナワバリカード fit" in rule_check(
        engine_project, "nyanbaa", play=False
    )
    edit(engine_project, NYAN, "４△と３△を抜き、", "４△と３△を抜き（計６枚）、")
    assert "names 2 cards" not in rule_check(engine_project, "nyanbaa", play=False)


def test_map_layout_finding_follows_the_places_the_text_gives(engine_project):
    finding = "with 3 players 3 are drawn but a 2×1 layout has 2 places"
    assert finding in rule_check(engine_project, "nyanbaa", play=False)
    edit(engine_project, NYAN, "３人プレイ時は２×１", "３人プレイ時は３×１")
    assert "are drawn but" not in rule_check(engine_project, "nyanbaa", play=False)


def test_hand_against_tricks_reads_both_numbers(engine_project):
    assert "8 cards for 6 tricks: 2 left" in rule_check(engine_project, "nyanbaa", play=False)
    edit(engine_project, NYAN, "１ラウンドは６トリック", "１ラウンドは９トリック")
    assert "a hand of 8 cannot play 9 tricks" in rule_check(engine_project, "nyanbaa", play=False)


def test_markers_per_player_come_from_the_text(engine_project):
    assert "トライブマーカー, the rules give" not in rule_check(
        engine_project, "nyanbaa", play=False
    )
    edit(engine_project, NYAN, "トライブマーカー８個", "トライブマーカー７個")
    found = rule_check(engine_project, "nyanbaa", play=False)
    assert "関西豪学連: 8 トライブマーカー, the rules give each player 7" in found


def test_face_down_elders_flagged_until_the_text_gives_a_number(engine_project):
    gap = "puts out 老師カード but does not say how many"
    assert gap in rule_check(engine_project, "rumbling_seed", play=False)
    edit(engine_project, SEED, "次に、老師カードを", "次に、老師カード４枚を")
    found = rule_check(engine_project, "rumbling_seed", play=False)
    assert gap not in found and "face down, but" not in found
    edit(engine_project, SEED, "老師カード４枚を", "老師カード５枚を")
    found = rule_check(engine_project, "rumbling_seed", play=False)
    assert "puts 5 老師カード face down, but" in found and "4 are needed" in found


def test_engine_plays_the_rounds_and_tricks_the_text_gives(engine_project):
    data = N.prepare(load(engine_project, "nyanbaa"))
    assert (data["rounds"], data["tricks"], data["hand"], data["markers"]) == (3, 6, 8, 8)
    edit(engine_project, NYAN, "３ラウンドが終わると", "２ラウンドが終わると")
    edit(engine_project, NYAN, "１ラウンドは６トリック", "１ラウンドは５トリック")
    data = N.prepare(load(engine_project, "nyanbaa"))
    assert (data["rounds"], data["tricks"]) == (2, 5)
    opts = engine.resolve_options(N.OPTIONS, {})
    result = engine.play(N, data, 4, engine.derive_seed(1, 0), opts, check=True)
    assert result.finished and result.rounds == 2


def test_engine_holes_come_from_the_manifest_piles(engine_project):
    edit(engine_project, "cards/rumbling_seed/game.toml", "count = 6,", "count = 4,")
    data = R.prepare(load(engine_project, "rumbling_seed"))
    assert data["holes"] == 4
    state = R.new_state(data, 3, 1, engine.resolve_options(R.OPTIONS, {}))
    assert len(state.holes) == 4 and all(len(h) == 72 // 4 for h in state.holes)
    opts = engine.resolve_options(R.OPTIONS, {})
    for i in range(20):
        engine.play(R, data, 3, engine.derive_seed(1, i), opts, check=True)


def test_a_rule_number_the_text_no_longer_states_is_a_clear_error(engine_project):
    edit(
        engine_project,
        NYAN,
        "３ラウンドが終わるとゲームが終了します。",
        "最後のラウンドでゲームが終了します。",
    )
    found = rule_check(engine_project, "nyanbaa", play=True)
    assert (
        "error: the rules engine reads the number of rounds from a sentence like "
        "「Nラウンドが終わるとゲームが終了」" in found
    )


@pytest.mark.parametrize("game", ["fudaraku", "rumbling_seed", "nyanbaa"])
def test_every_static_finding_names_a_line_of_the_rules_or_a_file(engine_project, game):
    for line in rule_check(engine_project, game, play=False).splitlines():
        assert line.split(":", 1)[0].startswith("cards/"), line


def test_a_value_the_engine_gives_no_meaning_is_named_by_its_cell(engine_project):
    path = engine_project / "cards/nyanbaa/area_maps.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    cells = lines[1].split(",")
    cells[1] = "紫"
    lines[1] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = rule_check(engine_project, "nyanbaa", play=True)
    assert (
        "cards/nyanbaa/area_maps.csv:2:area1: error: the rules engine knows area1 赤, 青, 黄, "
        "not '紫' (card 1)" in found
    )


def test_a_larger_deck_plays_without_action_numbers_colliding(engine_project):
    """Action numbers are laid out from the deck's size, not for today's 40 cards."""
    path = engine_project / "cards/fudaraku/kleshas.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    extra = [
        f"{r.split(',')[0]},{r.split(',')[1]},{n},{r.split(',')[3]}"
        for r in rows[1::8]
        for n in range(9, 15)
    ]
    path.write_text("\n".join(rows + extra) + "\n", encoding="utf-8")
    edit(engine_project, "cards/fudaraku/game.toml", "max = 8 }", "max = 14 }")
    edit(engine_project, "cards/fudaraku/game.toml", "total = 40", "total = 70")
    data = F.prepare(load(engine_project, "fudaraku"))
    assert len(data["suit"]) == 70
    opts = engine.resolve_options(F.OPTIONS, {"end": "active_hands"})
    for i in range(30):
        result = engine.play(F, data, 4, engine.derive_seed(3, i), opts, check=True)
        assert result.finished


def test_a_sentence_players_need_outside_the_summary_is_named_until_it_is_marked_in(tiny):
    """「…ゲームが終了します。」 outside every summary part: a notice naming its line; marked
    into the summary, the notice is gone."""
    rules = tiny / "cards/tiny/rules.md"
    text = rules.read_text("utf-8")
    ending = "３ラウンドが終わるとゲームが終了します。"
    rules.write_text(text + f"\n## 終わり\n\n{ending}\n", "utf-8")
    line = len(text.splitlines()) + 4
    r = run("check", "--no-play", "--project", str(tiny))
    assert f"cards/tiny/rules.md:{line}: notice: 「{ending}」 says when something ends" in r.output
    rules.write_text(
        text + f"\n## 終わり\n\n<!-- summary: 終わり -->\n{ending}\n<!-- /summary -->\n", "utf-8"
    )
    r = run("check", "--no-play", "--project", str(tiny))
    assert f"「{ending}」" not in r.output and f"rules.md:{line + 1}: notice" not in r.output


def test_a_repeated_heading_number_is_reported_and_goes_when_fixed(tiny):
    rules = tiny / "cards/tiny/rules.md"
    text = rules.read_text("utf-8")
    rules.write_text(
        text + "\n## 流れ\n\n### １：準備\n\n本文。\n\n### １：手番\n\n本文。\n", "utf-8"
    )
    r = run("check", "--no-play", "--project", str(tiny))
    assert "「１：手番」 is numbered 1 after 「１：準備」" in r.output
    rules.write_text(
        text + "\n## 流れ\n\n### １：準備\n\n本文。\n\n### ２：手番\n\n本文。\n", "utf-8"
    )
    assert "is numbered" not in run("check", "--no-play", "--project", str(tiny)).output


def test_seed_numbers_finding_goes_when_the_text_gives_seeds_numbers(engine_project):
    said = "the take rule compares 「選んだのと同じ数字のミニオン／シード（属性は違っていても可）」"
    assert said in rule_check(engine_project, "rumbling_seed", play=False)
    edit(
        engine_project,
        SEED,
        "属性が等枚数ずつあります。",
        "属性が等枚数ずつあり、それぞれ数字を持ちます。",
    )
    assert said not in rule_check(engine_project, "rumbling_seed", play=False)


def test_setup_step_no_rule_uses_goes_when_a_rule_uses_it(engine_project):
    said = "a setup step no rule uses: 「その後、全プレイヤーは手札から好きな１枚を選んで"
    assert said in rule_check(engine_project, "fudaraku", play=False)
    path = engine_project / "cards/fudaraku/rules.md"
    path.write_text(
        path.read_text(encoding="utf-8") + "\nゲーム終了時、伏せたカードを表にします。\n",
        encoding="utf-8",
    )
    assert said not in rule_check(engine_project, "fudaraku", play=False)


def test_cube_shortage_finding_follows_the_cubes_in_the_data(engine_project):
    said = "the worst draw of 4 maps uses most of a colour's cubes at setup"
    assert said in rule_check(engine_project, "nyanbaa", play=False)
    edit(
        engine_project,
        "cards/nyanbaa/game.toml",
        "copies = 8\n  total = 24",
        "copies = 16\n  total = 48",
    )
    path = engine_project / "cards/nyanbaa/cubes.csv"
    path.write_text(path.read_text(encoding="utf-8").replace(",8\n", ",16\n"), encoding="utf-8")
    assert said not in rule_check(engine_project, "nyanbaa", play=False)


def test_unequal_suits_are_named_from_the_data(engine_project):
    found = rule_check(engine_project, "nyanbaa", play=False)
    assert "11 ナワバリカード in each of 赤、青、黄" in found
    assert "the suits hold different numbers" not in found
    manifest = engine_project / "cards/nyanbaa/game.toml"
    text = manifest.read_text(encoding="utf-8")
    start = text.index("  [component.composition]\n  total = 33")
    manifest.write_text(text[:start] + text[text.index("[[component]]", start) :], "utf-8")
    path = engine_project / "cards/nyanbaa/turf.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(rows[:-1]) + "\n", encoding="utf-8")
    found = rule_check(engine_project, "nyanbaa", play=False)
    assert "the suits hold different numbers of ナワバリカード: 赤 11、青 11、黄 10" in found
