"""補陀落渡海しよう！ played by machine: transcripts, invariants, each reading, the tricky rules
by hand."""

from __future__ import annotations

import json

import pytest

from generator import pipeline
from generator.problems import Problems
from generator.project import find_project
from generator.rules import engine, simulate

from conftest import ENGINE, engine_rules, golden, rule_check, run

F = engine_rules("fudaraku")


@pytest.fixture(scope="module")
def data():
    game = pipeline.load(find_project(ENGINE), "fudaraku", Problems())
    return F.prepare(game)


def options(**given):
    return engine.resolve_options(F.OPTIONS, given)


def card(data, name):
    return data["names"].index(name)


def test_data_comes_from_the_printed_deck(data):
    assert len(data["suit"]) == 40 and data["suits"] == ["貪欲", "瞋恚", "昏沈", "掉挙", "疑"]
    assert sorted(data["number"]) == sorted(list(range(1, 9)) * 5)


def test_golden_transcript(data):
    result = engine.play(
        F, data, 4, engine.derive_seed(1, 0), options(end="active_hands"), check=True, log=True
    )
    golden("fudaraku_replay_4p.txt", "\n".join(result.log) + "\n")


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    "reading",
    [
        {},
        {"end": "active_hands"},
        {"field_scope": "game", "round_minimum": "all"},
        {"facedown": "virtue", "lead_tie": "last", "end": "active_hands"},
    ],
)
def test_invariants_hold_over_many_playouts(data, players, reading):
    opts = options(**reading)
    for i in range(150):
        r = engine.play(F, data, players, engine.derive_seed(5, i), opts, check=True)
        assert not r.capped
        if r.dead_end:
            # The only dead end: the literal end rule waits for eliminated players' hands.
            assert opts["end"] == "all_hands" and r.counters["elimination"] > 0, r.seed
        else:
            assert r.finished and len(r.scores) == players


def test_each_end_reading_does_what_it_says(data):
    literal = [engine.play(F, data, 4, engine.derive_seed(2, i), options()) for i in range(100)]
    assert sum(r.dead_end for r in literal) > 90
    fixed = [
        engine.play(F, data, 4, engine.derive_seed(2, i), options(end="active_hands"))
        for i in range(100)
    ]
    assert all(r.finished for r in fixed)


def test_facedown_virtue_adds_the_face_down_card(data):
    seed = engine.derive_seed(3, 0)
    a = engine.play(F, data, 4, seed, options(end="active_hands"))
    b = engine.play(F, data, 4, seed, options(end="active_hands", facedown="virtue"))
    # The same deal and the same choices (the reading only changes scoring).
    assert a.steps == b.steps and a.log == b.log
    assert sum(b.scores) > sum(a.scores)


def position(data, players=3, **opts):
    """A state after setup, for building positions by hand."""
    s = F.new_state(data, players, 1, options(**opts))
    s.setup = False
    s.hands = [[] for _ in range(players)]
    s.facedown = [None] * players
    s.leftover = []
    s.current_player, s.pos, s.round = 0, 0, 1
    return s


def test_same_suit_plays_any_number_other_suits_must_beat_the_field_and_the_round(data):
    s = position(data)
    s.round = 3
    s.mu = card(data, "貪欲5")
    s.field = [s.mu, card(data, "瞋恚4")]
    s.hands[0] = [card(data, "貪欲1"), card(data, "昏沈4"), card(data, "昏沈6"), card(data, "疑2")]
    s.sailed[0] = True  # sailed before: must sail
    legal = {data["names"][a] for a in s.legal_actions()}
    assert legal == {"貪欲1", "昏沈6"}  # 昏沈4 is not above 4; 疑2 is below round 3
    s2 = position(data, round_minimum="all")
    s2.round, s2.mu, s2.field = 3, s.mu, list(s.field)
    s2.hands[0], s2.sailed[0] = list(s.hands[0]), True
    assert {data["names"][a] for a in s2.legal_actions()} == {
        "昏沈6"
    }  # 貪欲1 is now below the round


def test_forced_sailor_with_nothing_legal_is_eliminated_and_passes_from_then_on(data):
    s = position(data)
    s.round = 2
    s.mu = card(data, "疑8")
    s.field = [s.mu, card(data, "貪欲8")]
    s.hands = [
        [card(data, "瞋恚3")],
        [card(data, "昏沈7"), card(data, "昏沈2")],
        [card(data, "掉挙5")],
    ]
    assert s.legal_actions() == [s.ELIMINATE]  # one card left: must sail, and 3 beats nothing
    s.apply(s.ELIMINATE)
    assert s.out[0] and s.counters["elimination"] == 1
    assert s.current_player == 1


def test_round_end_smallest_sailor_leads_and_all_chanting_passes_left(data):
    s = position(data)
    s.hands = [
        [card(data, "貪欲3"), card(data, "貪欲7")],
        [card(data, "瞋恚3"), card(data, "瞋恚8")],
        [card(data, "昏沈2"), card(data, "昏沈6")],
    ]
    s.apply(card(data, "貪欲3"))  # P1 sails: 無の境地
    s.apply(s.CHANT + card(data, "瞋恚8"))  # P2 chants
    s.apply(card(data, "昏沈6"))  # P3 sails: off-suit, above nothing, ≥ round 1
    assert s.round == 2 and s.lead == 0  # P1 played the smallest number (3 < 6)
    assert s.field == [] and s.mu is None  # the field starts afresh (default reading)
    t = position(data)
    t.hands = [
        [card(data, "貪欲3"), card(data, "貪欲7")],
        [card(data, "瞋恚3"), card(data, "瞋恚8")],
        [card(data, "昏沈2"), card(data, "昏沈6")],
    ]
    for _p, name in ((0, "貪欲7"), (1, "瞋恚8"), (2, "昏沈6")):
        t.apply(s.CHANT + card(data, name))
    assert t.lead == 1 and t.counters["all_chanted_round"] == 1


def test_lead_tie_readings(data):
    """Two sailors played the same smallest number: which one leads?"""
    for reading, lead in (("first", 0), ("last", 1)):
        s = position(data, lead_tie=reading)
        s.plays = [(0, 2), (1, 2), (2, 5)]  # (seat, number) in this round's turn order
        s._end_round()
        assert s.lead == lead


def test_hidden_cards_stay_hidden(data):
    s = F.new_state(data, 4, engine.derive_seed(9, 1), options())
    for p in range(4):
        seen = F._cards_in(s.observation(p))
        assert not seen & s.hidden_from(p)
        assert set(s.hands[p]) <= seen


def test_simulation_is_reproducible_with_or_without_a_process_pool(data):
    opts = options(end="active_hands")
    kinds = ("random",) * 4
    inline = simulate.run(F, data, 4, 500, 11, opts, kinds, workers=1)
    pooled = simulate.run(F, data, 4, 500, 11, opts, kinds, workers=2)
    assert inline == pooled


def test_simulate_command_writes_markdown_json_and_pdf(tmp_path):
    result = run(
        "simulate",
        "fudaraku",
        "--project",
        str(ENGINE),
        "--players",
        "4",
        "--games",
        "300",
        "--out",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    assert "# 補陀落渡海しよう！ — 4 players, 300 games" in result.output
    assert (
        "reach a dead end" in result.output
        and "「これを繰り返し、全ての手札が尽きたらゲームが終了します。」" in result.output
    )
    assert "| end=active_hands | 300/300 | 0 | 0 |" in result.output
    stats = json.loads((tmp_path / "fudaraku/simulation-4p.json").read_text(encoding="utf-8"))
    assert stats["games"] == 300 and stats["dead_ends"] > 250 and len(stats["wins"]) == 4
    import pypdf

    text = "".join(
        p.extract_text() for p in pypdf.PdfReader(tmp_path / "fudaraku/simulation-4p.pdf").pages
    )
    assert "補陀落渡海しよう！: simulation" in text and "dead end" in text
    # every glyph from the game's declared fonts, embedded: no fallback face (charts included)
    from pdfread import fonts

    found = fonts(tmp_path / "fudaraku/simulation-4p.pdf")
    assert found and all(f["embedded"] and "Noto" in f["name"] for f in found), found
    raw = (tmp_path / "fudaraku/simulation-4p.pdf").read_bytes()
    assert b"Helvetica" not in raw


def test_replay_prints_the_game_in_japanese():
    seed = engine.derive_seed(1, 0)
    result = run(
        "simulate",
        "fudaraku",
        "--project",
        str(ENGINE),
        "--players",
        "4",
        "--option",
        "end=active_hands",
        "--replay",
        str(seed),
    )
    assert result.exit_code == 0, result.output
    said = "cards/fudaraku/rules.py: runs the game's rules module, Python code from the project"
    assert said in result.output  # on stderr: the project's code runs
    lines = [line for line in result.output.splitlines() if line != said]
    assert lines[0].startswith("準備　P1：") and "を伏せる" in lines[0]
    assert any("（無の境地）" in line for line in lines)
    assert lines[-1].startswith("終了（ラウンド")


def test_bad_option_is_named():
    result = run("simulate", "fudaraku", "--project", str(ENGINE), "--option", "end=never")
    assert result.exit_code == 1
    assert "option 'end' must be one of all_hands, active_hands, got 'never'" in result.output
    result = run("simulate", "fudaraku", "--project", str(ENGINE), "--option", "speed=fast")
    assert "unknown option 'speed'" in result.output


def test_check_plays_the_game_and_reports_the_dead_end(engine_project):
    output = rule_check(engine_project, "fudaraku")
    assert (
        "cards/fudaraku/rules.md:84: error: 4 players, 200 random playouts: 200 of 200 games "
        "reach a dead end" in output
    )
    assert "(reading end=all_hands); replay: pnp simulate fudaraku --players 4 --replay " in output


def test_field_scope_game_keeps_the_field_and_its_mu_across_rounds(data):
    for reading, kept in (("round", False), ("game", True)):
        s = position(data, field_scope=reading)
        s.hands = [
            [card(data, "貪欲3"), card(data, "貪欲7")],
            [card(data, "瞋恚3"), card(data, "瞋恚8")],
            [card(data, "昏沈2"), card(data, "昏沈6")],
        ]
        s.apply(card(data, "貪欲3"))
        s.apply(s.CHANT + card(data, "瞋恚8"))
        s.apply(card(data, "昏沈6"))
        assert s.round == 2
        assert (s.mu == card(data, "貪欲3")) is kept and (len(s.field) == 2) is kept
        if kept:  # round 2: off-suit cards must now beat the 6 left on the field
            s.current_player = 0
            assert card(data, "貪欲7") in s.legal_actions()  # same suit as the old 無の境地


def test_simulation_outputs_are_byte_identical(tmp_path):
    for out in ("a", "b"):
        result = run(
            "simulate",
            "fudaraku",
            "--project",
            str(ENGINE),
            "--players",
            "3",
            "--games",
            "120",
            "--option",
            "end=active_hands",
            "--out",
            str(tmp_path / out),
        )
        assert result.exit_code == 0, result.output
    for name in ("simulation-3p.md", "simulation-3p.json", "simulation-3p.pdf"):
        assert (tmp_path / "a/fudaraku" / name).read_bytes() == (
            tmp_path / "b/fudaraku" / name
        ).read_bytes(), name


def test_json_flag_prints_the_statistics(tmp_path):
    result = run(
        "simulate",
        "fudaraku",
        "--project",
        str(ENGINE),
        "--players",
        "5",
        "--games",
        "50",
        "--json",
        "--option",
        "end=active_hands",
        "--out",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    text = result.output[result.output.index("{") : result.output.rindex("}") + 1]
    stats = json.loads(text)
    assert (
        stats["players"] == 5
        and stats["finished"] == 50
        and stats["options"]["end"] == "active_hands"
    )
    assert {"completion", "findings", "win_ci", "lengths", "counters", "skill"} <= set(stats)
