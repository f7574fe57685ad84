"""A game's rules module in its own folder (cards/<game>/rules.py): found without editing pnp,
run by check and simulate (which say so), never by build or check --no-play, and its mistakes
told at the designer's file and line. Played on the `tricks` fixture, a trick-taking game whose
module uses the kit's helpers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.rules import kit
from generator.rules.engine import InvariantError

from conftest import edit, make_fixture_project, run
from pdfread import all_text

RULES = "cards/tricks/rules.py"


@pytest.fixture
def tricks(tmp_path) -> Path:
    return make_fixture_project("tricks", tmp_path)


def test_check_runs_the_project_module_and_says_so(tricks):
    result = run("check", "--project", str(tricks))
    assert result.exit_code == 0, result.output
    assert (
        f"{RULES}: notice: runs the game's rules module, Python code from the project "
        "(check --no-play runs none)" in result.output
    )
    assert "3 players, 200 random playouts" in result.output  # it was played


def test_simulate_plays_the_module_with_numbers_from_the_rules_source(tricks, tmp_path):
    def simulate():
        out = str(tmp_path / "out")
        return run("simulate", "tricks", "--project", str(tricks), "--games", "60", "--out", out)

    result = simulate()
    assert result.exit_code == 0, result.output
    assert f"{RULES}: runs the game's rules module" in result.output
    stats = json.loads((tmp_path / "out/tricks/simulation-3p.json").read_text(encoding="utf-8"))
    assert stats["finished"] == 60 and stats["rounds"] == {"3": 60}
    # 6 cards each, 3 players: 6 tricks a round, 3 rounds, 3 cards a trick
    assert stats["lengths"] == {str(3 * 6 * 3): 60}
    edit(tricks, "cards/tricks/rules.md", "３ラウンド遊んだら", "２ラウンド遊んだら")
    edit(tricks, "cards/tricks/game.toml", "each = 6", "each = 5")
    edit(tricks, "cards/tricks/rules.md", "６枚ずつ", "５枚ずつ")
    result = simulate()
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "out/tricks/simulation-3p.json").read_text(encoding="utf-8"))
    assert stats["rounds"] == {"2": 60} and stats["lengths"] == {str(2 * 5 * 3): 60}


def test_a_sentence_the_module_needs_gone_is_an_error_not_a_guess(tricks):
    edit(tricks, "cards/tricks/rules.md", "３ラウンド遊んだら、", "")
    result = run("simulate", "tricks", "--project", str(tricks), "--games", "10")
    assert result.exit_code == 1
    assert "ラウンド遊んだら" in result.output and "Traceback" not in result.output


def _marker_module(tricks: Path) -> Path:
    """A rules.py that leaves a file behind when it is imported: proof that it ran."""
    marker = tricks / "ran.txt"
    path = tricks / RULES
    path.write_text(
        path.read_text(encoding="utf-8")
        + f"\nfrom pathlib import Path\n\nPath({str(marker)!r}).write_text('ran')\n",
        encoding="utf-8",
    )
    return marker


def test_no_play_and_build_run_none_of_the_project_code(tricks, tmp_path):
    marker = _marker_module(tricks)
    result = run("check", "--no-play", "--project", str(tricks))
    assert result.exit_code == 0, result.output
    assert not marker.exists() and "runs the game's rules module" not in result.output
    result = run("build", "--project", str(tricks), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert not marker.exists()
    result = run("check", "--project", str(tricks))
    assert result.exit_code == 0, result.output
    assert marker.exists()  # the proof works: check without --no-play ran it


def test_a_module_that_does_not_parse_is_named_at_its_line(tricks):
    edit(tricks, RULES, "STEP_CAP = 500", "STEP_CAP = = 500")
    line = 1 + (tricks / RULES).read_text(encoding="utf-8").splitlines().index("STEP_CAP = = 500")
    for args in (["check"], ["simulate", "tricks"]):
        result = run(*args, "--project", str(tricks))
        assert result.exit_code == 1
        assert f"{RULES}:{line}: error: the game's rules code does not parse" in result.output
        assert "Traceback" not in result.output


def test_a_module_that_raises_in_play_is_named_at_its_line_with_a_seed(tricks):
    edit(
        tricks, RULES, "        self.scores_[winner] += 1", "        self.scores_[winner] += 1 / 0"
    )
    lines = (tricks / RULES).read_text(encoding="utf-8").splitlines()
    line = 1 + lines.index("        self.scores_[winner] += 1 / 0")
    # in-process (few games) and in worker processes (many)
    for games in ("20", "800"):
        result = run("simulate", "tricks", "--project", str(tricks), "--games", games)
        assert result.exit_code == 1, result.output
        assert (
            f"{RULES}:{line}: error: the game's rules code failed in the playout of seed"
            in result.output
        )
        assert "ZeroDivisionError: division by zero" in result.output
        assert "Traceback" not in result.output
        # the replay command names the game and its players, and plays that game again
        command = re.search(r"\(replay: pnp (simulate tricks --players \d[^)]*)\)", result.output)
        assert command, result.output
        again = run(*command.group(1).split(), "--project", str(tricks))
        assert again.exit_code == 1 and "ZeroDivisionError: division by zero" in again.output
    result = run("check", "--project", str(tricks))
    assert result.exit_code == 1 and f"{RULES}:{line}: error:" in result.output


def test_a_module_missing_what_the_contract_needs_is_told_so(tricks):
    edit(tricks, RULES, "def new_state(", "def start_state(")
    result = run("simulate", "tricks", "--project", str(tricks))
    assert result.exit_code == 1
    assert (
        f"{RULES}: error: the game's rules module lacks new_state (the contract: "
        "docs/reference/rules.md)" in result.output
    )


def test_an_edited_module_is_loaded_again(tricks, tmp_path):
    """watch and serve keep running: a saved rules.py is new code, not the cached module."""
    from generator import pipeline
    from generator.problems import Problems
    from generator.project import find_project
    from generator.rules import modules

    def module():
        return modules.rules_for(pipeline.load(find_project(tricks), "tricks", Problems()))

    first = module()
    assert first is module() and first.STEP_CAP == 500
    edit(tricks, RULES, "STEP_CAP = 500", "STEP_CAP = 400")
    assert module().STEP_CAP == 400
    # a second project with a game of the same name has its own module
    other = make_fixture_project("tricks", tmp_path / "other")
    edit(other, RULES, "STEP_CAP = 500", "STEP_CAP = 300")
    again = modules.rules_for(pipeline.load(find_project(other), "tricks", Problems()))
    assert again.STEP_CAP == 300 and module().STEP_CAP == 400


def test_a_module_with_dataclasses_and_its_own_data_classes_runs_in_workers(tricks, tmp_path):
    """prepare() may return instances of the module's own classes; worker processes load the
    module before the data."""
    edit(
        tricks,
        RULES,
        "STEP_CAP = 500",
        "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Numbers:\n"
        "    rounds: int\n\n\nSTEP_CAP = 500",
    )
    edit(tricks, RULES, '"rounds": rule_number(', '"rounds_": Numbers(rule_number(')
    edit(tricks, RULES, '"rounds"),', '"rounds")),')
    edit(tricks, RULES, 'self.data["rounds"]', 'self.data["rounds_"].rounds')
    result = run(
        "simulate",
        "tricks",
        "--project",
        str(tricks),
        "--games",
        "800",
        "--out",
        str(tmp_path / "out"),
    )
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "out/tricks/simulation-3p.json").read_text(encoding="utf-8"))
    assert stats["finished"] == 800


# -- the kit's helpers ------------------------------------------------------------------------


def test_deal_goes_round_the_table_and_leaves_the_rest():
    hands, rest = kit.deal(list(range(10)), 3, 3)
    assert hands == [[0, 3, 6], [1, 4, 7], [2, 5, 8]] and rest == [9]
    hands, rest = kit.deal(list(range(10)), 4)
    assert [len(h) for h in hands] == [2, 2, 2, 2] and rest == [8, 9]
    with pytest.raises(InvariantError, match="needs 12 cards; the deck has 10"):
        kit.deal(list(range(10)), 4, 3)


def test_shuffled_is_reproducible_from_a_stream():
    a = kit.shuffled(range(20), kit.stream(7, "chance"))
    b = kit.shuffled(range(20), kit.stream(7, "chance"))
    c = kit.shuffled(range(20), kit.stream(8, "chance"))
    assert a == b and sorted(a) == list(range(20)) and a != c


def test_must_follow_and_trick_winner():
    suit = {0: "赤", 1: "赤", 2: "青", 3: "黄", 4: "青"}.__getitem__
    rank = {0: 3, 1: 7, 2: 9, 3: 1, 4: 2}.__getitem__
    assert kit.must_follow([1, 2, 3], None, suit) == [1, 2, 3]  # leading: anything
    assert kit.must_follow([1, 2, 3], 0, suit) == [1]  # red led, red in hand
    assert kit.must_follow([2, 3], 0, suit) == [2, 3]  # no red: anything
    plays = [(2, 0), (0, 2), (1, 1)]  # seat 2 leads red 3, seat 0 blue 9, seat 1 red 7
    assert kit.trick_winner(plays, suit, rank) == 1  # highest of the suit led
    assert kit.trick_winner(plays + [(3, 4)], suit, rank, trump="青") == 0  # highest trump
    assert kit.trick_winner([(0, 3), (1, 0)], suit, rank) == 0  # off-suit cannot win


def test_seats_scores_and_rankings():
    assert kit.next_seat(3, 4) == 0 and kit.seats_from(2, 4) == [2, 3, 0, 1]
    assert kit.lookup({1: 1, 3: 4, 5: 10}, 4) == 4 and kit.lookup({1: 1, 3: 4}, 0) == 0
    assert kit.ranking([3, 5, 5]) == ([1, 2], True)
    assert kit.ranking([3, 5, 5], tiebreak=[0, 1, 2]) == ([2], True)
    assert kit.ranking([3, 5, 4], lowest=True) == ([0], False)


def test_a_scoring_table_from_the_data_names_a_disagreeing_row(tricks):
    from generator import pipeline
    from generator.problems import BuildError, Problems
    from generator.project import find_project

    game = pipeline.load(find_project(tricks), "tricks", Problems())
    table = kit.score_table(game.deck("card"), "suit", "color")
    assert table == {"赤": "#C8323C", "青": "#2F5DA8", "黄": "#D9A400"}
    edit(tricks, "cards/tricks/cards.csv", "赤,2,#C8323C", "赤,2,#000000")
    game = pipeline.load(find_project(tricks), "tricks", Problems())
    with pytest.raises(BuildError) as err:
        kit.score_table(game.deck("card"), "suit", "color")
    assert str(err.value.problems[0].where) == "cards/tricks/cards.csv:3:color"


# -- the walk-through and the scaffold --------------------------------------------------------


def test_the_walk_through_on_the_reference_page_is_the_fixture_game(tricks, tmp_path):
    """docs/reference/rules.md's code blocks, put together in order, are a rules module that
    plays exactly as the fixture's own rules.py."""
    import re

    from conftest import REPO

    page = (REPO / "docs/reference/rules.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) >= 5
    args = ["simulate", "tricks", "--project", str(tricks), "--games", "50", "--json"]
    fixture = run(*args, "--out", str(tmp_path / "a"))
    assert fixture.exit_code == 0, fixture.output
    (tricks / RULES).write_text("\n\n".join(blocks), encoding="utf-8")
    page_game = run(*args, "--out", str(tmp_path / "b"))
    assert page_game.exit_code == 0, page_game.output
    a = (tmp_path / "a/tricks/simulation-3p.json").read_bytes()
    assert a == (tmp_path / "b/tricks/simulation-3p.json").read_bytes()


def test_new_rules_writes_a_module_that_plays(tmp_path):
    root = tmp_path / "proj"
    assert run("init", str(root)).exit_code == 0
    made = run("new", "solo", "--rules", "--project", str(root))
    assert made.exit_code == 0, made.output
    assert "made cards/solo/rules.py" in made.output
    result = run(
        "simulate",
        "solo",
        "--project",
        str(root),
        "--games",
        "30",
        "--json",
        "--out",
        str(tmp_path / "out"),
    )
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "out/solo/simulation-2p.json").read_text(encoding="utf-8"))
    assert stats["finished"] == 30
    # every game with a winner has a winning score, a shared win too (ties counted as 0 before)
    assert stats["tied_after"] > 0
    won = stats["finished"] - stats["no_winner"]
    assert sum(stats["winning_scores"].values()) == won
    # a module with no open points says so, in the report and its PDF (no empty table)
    report = (tmp_path / "out/solo/simulation-2p.md").read_text(encoding="utf-8")
    said = "The rules module names no point the text leaves open"
    assert said in report and "| option | value here |" not in report
    assert "; readings: none\n" in report
    assert said in all_text(tmp_path / "out/solo/simulation-2p.pdf").replace("\n", " ")
    from pdfread import drawn_text  # the heading in the messages' language, every glyph drawn

    head = drawn_text(tmp_path / "out/solo/simulation-2p.pdf", 0)
    assert "solo: simulation" in head and "2 players · 30 games" in head, head
    assert "• [warning]" in head and "・" not in head, head  # the findings' bullets
    # a game that exists gets only its rules.py, once
    assert run("new", "plain", "--project", str(root)).exit_code == 0
    assert not (root / "cards/plain/rules.py").exists()
    assert run("simulate", "plain", "--project", str(root)).exit_code == 1
    added = run("new", "plain", "--rules", "--project", str(root))
    assert added.exit_code == 0 and "made cards/plain/rules.py" in added.output
    again = run("new", "plain", "--rules", "--project", str(root))
    assert again.exit_code == 1
    assert "cards/plain/rules.py already exists; nothing written" in again.output
    # the module deals as game.toml's [deal] says, once there is one
    manifest = root / "cards/plain/game.toml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8")
        + '\n[deal]\ncomponent = "card"\neach = 1\nrule = "１枚ずつ配ります。"\n',
        encoding="utf-8",
    )
    out = tmp_path / "dealt"
    dealt = run("simulate", "plain", "--project", str(root), "--games", "10", "--out", str(out))
    assert dealt.exit_code == 0, dealt.output
    stats = json.loads((out / "plain/simulation-2p.json").read_text(encoding="utf-8"))
    assert stats["lengths"] == {"2": 10}  # one card each, two players: two plays a game
    checked = run("check", "plain", "--project", str(root))
    assert checked.exit_code == 0, checked.output
    assert "cards/plain/rules.py: notice: runs the game's rules module" in checked.output


# -- what is taken, and rules that never or always fire ---------------------------------------


def test_simulate_counts_each_kind_of_action(tricks, tmp_path):
    result = run(
        "simulate",
        "tricks",
        "--project",
        str(tricks),
        "--games",
        "40",
        "--out",
        str(tmp_path / "out"),
    )
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "out/tricks/simulation-3p.json").read_text(encoding="utf-8"))
    # 3 rounds of 6 tricks: 18 leads a game, and two more cards a trick follow or renounce
    assert stats["actions"]["lead"] == 18 * 40
    assert stats["actions"]["follow"] + stats["actions"]["renounce"] == 2 * 18 * 40
    assert stats["coverage_games"] == 40 and stats["coverage"]["lead"] == 40
    assert "| lead a trick | 40 | 720 | 40 |" in result.output


def test_varied_players_play_and_replay(tricks):
    base = ("simulate", "tricks", "--project", str(tricks), "--players-kind", "varied")
    result = run(*base, "--games", "30", "--json")
    assert result.exit_code == 0, result.output
    text = result.output
    stats = json.loads(text[text.index("{") : text.rindex("}") + 1])
    assert stats["kinds"] == ["varied"] * 3 and stats["finished"] == 30
    replay = run(*base, "--replay", "7")
    assert replay.exit_code == 0 and "P1：" in replay.output


def test_a_kind_of_action_no_player_can_take_is_a_warning(tricks):
    edit(
        tricks,
        RULES,
        '    "renounce": "play another colour',
        '    "trump": "play a trump",\n    "renounce": "play another colour',
    )
    result = run("check", "--project", str(tricks))
    assert (
        "3 players, 200 random playouts: no player can play a trump: not in 200 games, nor in "
        "100 of players trying every kind of action (a rule that never comes into play)"
        in result.output
    )
    edit(tricks, RULES, '    "trump": "play a trump",\n', "")
    assert "play a trump" not in run("check", "--project", str(tricks)).output


def test_rules_that_never_or_always_fire_are_said(tricks):
    edit(
        tricks,
        RULES,
        '    "renounce": "a player could not follow',
        '    "redeal": "a round is dealt",\n    "misdeal": "a hand is dealt twice",\n'
        '    "renounce": "a player could not follow',
    )
    edit(
        tricks,
        RULES,
        "        self.round += 1\n",
        '        self.round += 1\n        self.count("redeal")\n',
    )
    result = run("check", "--project", str(tricks)).output
    assert (
        "a round is dealt: in every one of the 200 games (a rule that always fires; in at least "
        "98% of games, 95 %)"
    ) in result
    # never in 200 games says under 3/200 (the rule of three), not never
    assert (
        "a hand is dealt twice: never, in 200 games (a rule no playout reaches; in at most 1.5% "
        "of games, 95 %)"
    ) in result


def test_a_module_without_the_optional_parts_still_simulates(tricks, tmp_path):
    """greedy_value, ACTION_TYPES, STRATEGIES, BRANCHES… are optional (the contract's page)."""
    path = tricks / RULES
    text = path.read_text(encoding="utf-8")
    start, end = text.index("ACTION_TYPES = {"), text.index("# Simple policies")
    text = text[:start] + text[end:].replace(
        'STRATEGIES = {"play_low": ("always play the lowest card", _play_low)}', ""
    )
    path.write_text(text.replace("BRANCHES = {", "_UNUSED = {"), encoding="utf-8")
    assert "def greedy_value" not in text and "ACTION_TYPES" not in text
    edit(tricks, RULES, '            self.count("renounce")', "            pass")
    result = run(
        "simulate",
        "tricks",
        "--project",
        str(tricks),
        "--games",
        "40",
        "--out",
        str(tmp_path / "out"),
    )
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "out/tricks/simulation-3p.json").read_text(encoding="utf-8"))
    assert stats["finished"] == 40 and stats["skill"]["games"] > 0  # greedy played, at random


def test_data_that_cannot_reach_the_workers_is_the_modules_error(tricks):
    edit(
        tricks,
        RULES,
        '        "rounds": rule_number(',
        '        "hint": lambda card: card,\n        "rounds": rule_number(',
    )
    result = run("simulate", "tricks", "--project", str(tricks), "--games", "20")
    assert result.exit_code == 1, result.output
    assert (
        f"{RULES}: error: prepare() returned data that cannot be sent to the worker processes"
        in result.output
    )
    assert "internal error" not in result.output


@pytest.mark.parametrize(
    "old,new,message",
    [
        ('        "left",\n', '        "nowhere",\n', "OPTIONS['next_lead'] must be an Option"),
        (
            'STRATEGIES = {"play_low": (',
            'STRATEGIES = {"play_low": ("?", 3), "x": (',
            "STRATEGIES['play_low'] must be",
        ),
        (
            'STRATEGIES = {"play_low": (',
            'ROLLOUT_MOVES = "a round"\nSTRATEGIES = {"play_low": (',
            "ROLLOUT_MOVES must be a whole number of moves above 0, or None",
        ),
    ],
)
def test_declarations_of_the_wrong_shape_are_named(tricks, old, new, message):
    edit(tricks, RULES, old, new)
    result = run("simulate", "tricks", "--project", str(tricks), "--games", "10")
    assert result.exit_code == 1 and f"{RULES}: error: {message}" in result.output, result.output
    assert "internal error" not in result.output


def test_a_solo_game_is_told_how_often_the_player_wins_not_that_its_one_seat_is_unfair(tmp_path):
    root = tmp_path / "proj"
    assert run("init", str(root)).exit_code == 0
    assert run("new", "solo", "--players", "1-1", "--rules", "--project", str(root)).exit_code == 0
    checked = run("check", "solo", "--project", str(root))
    assert checked.exit_code == 0, checked.output
    assert "seat 1 wins" not in checked.output and "fair" not in checked.output
    assert "1 player, 200 random playouts: the player wins " in checked.output
    out = tmp_path / "out"
    result = run("simulate", "solo", "--project", str(root), "--games", "40", "--out", str(out))
    assert result.exit_code == 0, result.output
    report = (out / "solo/simulation-1p.md").read_text(encoding="utf-8")
    assert "a random player wins" in report and "share would be" not in report


def duel(tmp_path, rows: str):
    """A two-player game as `pnp new --rules` makes it from a spreadsheet of `rows`."""
    root = tmp_path / "proj"
    assert run("init", str(root)).exit_code == 0
    source = tmp_path / "deck.csv"
    source.write_text(rows, encoding="utf-8")
    made = run(
        "new", "duel", "--players", "2-2", "--rules", "--from", str(source), "--project", str(root)
    )
    assert made.exit_code == 0, made.output
    return root


def test_seats_are_judged_over_the_games_one_seat_won(tmp_path):
    """A game that ties often leaves every seat below half of all finished games: not unfair.
    Seats are held to their fair share of the games one seat won; a seat that scores more for
    sitting first is still named."""
    root = duel(tmp_path, "名前,点\nA,1\nB,1\nC,2\nD,2\n")
    out = tmp_path / "out"

    def report() -> str:
        result = run(
            "simulate", "duel", "--project", str(root), "--games", "400", "--out", str(out)
        )
        assert result.exit_code == 0, result.output
        return (out / "duel/simulation-2p.md").read_text(encoding="utf-8")

    said = report()
    assert "finished games stay tied after the tie-breakers" in said  # a third of them tie
    assert "seat 1 wins" not in said and "seat 2 wins" not in said
    assert "a seat's share can be told from the fair 50% only when it differs by about" in said
    # once the rules call a tie a draw, it is a way the game ends, not a gap in its rules
    text = root / "cards/duel/rules.md"
    text.write_text(text.read_text("utf-8") + "\n同点なら引き分けです。\n", encoding="utf-8")
    drawn = report()
    assert "stay tied after the tie-breakers" not in drawn
    assert "finished games end in a draw, as the rules allow" in drawn
    # the skill signal too: over the games one seat won, against a fair half of them
    skill = said.split("## Skill signal", 1)[1].split("##", 1)[0]
    assert "games one seat won" in skill and "share would be 50.0%" in skill, skill
    rules = root / "cards/duel/rules.py"
    text = rules.read_text(encoding="utf-8")
    first = 'self.scores_[seat] += self.data["value"][card]'
    assert first in text
    rules.write_text(text.replace(first, first + " + (seat == 0)"), encoding="utf-8")
    said = report()
    assert (
        "seat 1 wins" in said and "games one seat won" in said and "more than the fair 50%" in said
    )


def test_a_replay_shows_every_hand_and_the_moves_allowed_before_each_decision(tmp_path):
    """A game as `pnp new --rules` makes it: each hand by its cards' names, then the moves."""
    root = duel(tmp_path, "名前,点\n火球,1\n氷壁,2\n風刃,3\n土盾,4\n雷槍,5\n水鏡,6\n")
    base = ("simulate", "duel", "--project", str(root), "--players", "2", "--replay", "7")
    plain = run(*base)
    shown = run(*base, "--show", "hands")
    assert plain.exit_code == 0 and shown.exit_code == 0, shown.output
    assert "　手札" not in plain.output
    lines = shown.output.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("　手札　P1［"))
    hand = lines[first].split("P1［", 1)[1].split("］", 1)[0].split("・")
    other = lines[first].split("P2［", 1)[1].split("］", 1)[0].split("・")
    assert sorted(hand + other) == sorted(["火球", "氷壁", "風刃", "土盾", "雷槍", "水鏡"])
    assert lines[first + 1].startswith("　選べる手　") and lines[first + 1].count("|") == 2
    refused = run("simulate", "duel", "--project", str(root), "--show", "hands")
    assert refused.exit_code == 1 and "--show hands shows a replay" in refused.output


def test_drawing_a_card_is_no_rule_that_a_tie_is_a_draw(tmp_path):
    """Games left tied are a warning unless the rules call a tie a draw: 'draw one card' (or
    「１枚ドローする」) does not; 'the game is a draw' does, and the warning goes."""
    root = tmp_path / "proj"
    assert run("init", str(root)).exit_code == 0
    assert run("new", "solo", "--rules", "--project", str(root)).exit_code == 0
    rules = root / "cards/solo/rules.md"
    start = "# solo\n\n## Components\n\n::: components\n\n## Playing\n\n"

    def said(text: str) -> str:
        rules.write_text(start + text + "\n", encoding="utf-8")
        checked = run("check", "solo", "--project", str(root))
        assert "Traceback" not in checked.output
        return checked.output

    for text in (
        "On your turn, play one card and draw one card.",
        "手番にカードを１枚ドローする。",
    ):
        out = said(text)
        assert "stay tied after the tie-breakers" in out and "as the rules allow" not in out, out
    out = said("On your turn, play one card. If players are level, the game is a draw.")
    assert "stay tied after the tie-breakers" not in out, out  # a way the game ends
