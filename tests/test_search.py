"""The searching player (ISMCTS) through the common contract: per-seat player kinds, a search
that never touches the real game, determinized hidden cards, reproducible games, and skill."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pypdf
import pytest

from generator.rules import engine
from generator.rules.search import IsmctsPlayer, clone_state

from conftest import ENGINE, engine_rules, interruptible, make_fixture_project, run


@pytest.fixture
def tricks(tmp_path) -> Path:
    return make_fixture_project("tricks", tmp_path)


def _simulate(root: Path, out: Path, *args: str) -> dict:
    result = run("simulate", "tricks", "--project", str(root), "--out", str(out), *args)
    assert result.exit_code == 0, result.output
    return json.loads((out / "tricks/simulation-3p.json").read_text(encoding="utf-8"))


def test_a_search_player_per_seat_plays_reproducibly(tricks, tmp_path):
    args = ("--games", "12", "--players-kind", "ismcts:20,random,random")
    first = _simulate(tricks, tmp_path / "a", *args)
    again = _simulate(tricks, tmp_path / "b", *args)
    assert first["kinds"] == ["ismcts:20", "random", "random"] and first["finished"] == 12
    assert first == again


@pytest.mark.parametrize(
    "kinds,message",
    [
        ("ismcts:20,random,random,random", "--players-kind names 4 kinds for 3 players"),
        ("clever", "unknown player kind 'clever' (kinds: random, greedy, varied, ismcts, probe)"),
        ("ismcts:0", "'ismcts:0': give the search a budget, e.g. ismcts:200"),
        ("greedy:3", "unknown player kind 'greedy:3'"),
        ("ismcts:20:soon", "'ismcts:20:soon': a playout's horizon is a number of moves or 'end'"),
    ],
)
def test_a_bad_player_kind_is_named(tricks, kinds, message):
    result = run("simulate", "tricks", "--project", str(tricks), "--players-kind", kinds)
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output


def _state(game_id: str, players: int, seed: int = 5):
    from generator import pipeline
    from generator.problems import Problems
    from generator.project import find_project

    module = engine_rules(game_id)
    data = module.prepare(pipeline.load(find_project(ENGINE), game_id, Problems()))
    options = engine.resolve_options(module.OPTIONS, {})
    state = module.new_state(data, players, seed, options)
    for _ in range(4):  # past setup, into play
        state.apply(state.legal_actions()[0])
    return module, state


@pytest.mark.parametrize("game_id", ["fudaraku", "nyanbaa", "rumbling_seed"])
def test_searching_leaves_the_real_game_as_it_was(game_id):
    module, state = _state(game_id, 3)
    before = repr(sorted((k, repr(v)) for k, v in state.__dict__.items() if k != "rng"))
    draws = state.__dict__.get("rng") and state.rng.getstate()
    player = IsmctsPlayer(random.Random(1), module.STEP_CAP, iterations=25)
    action = player.choose(state, state.legal_actions())
    assert action in state.legal_actions()
    assert repr(sorted((k, repr(v)) for k, v in state.__dict__.items() if k != "rng")) == before
    if draws:
        assert state.rng.getstate() == draws  # the search drew no card from the real deck


@pytest.mark.parametrize("game_id", ["fudaraku", "nyanbaa", "rumbling_seed"])
def test_determinize_deals_anew_only_what_the_player_cannot_see(game_id):
    module, state = _state(game_id, 3)
    me = state.current_player
    copy = clone_state(state, random.Random(2))
    copy.determinize(me, random.Random(3))
    hands = getattr(state, "hands", None)
    if hands is not None:
        assert copy.hands[me] == state.hands[me]  # mine as they are
        assert [len(h) for h in copy.hands] == [len(h) for h in hands]
        others = [c for s, h in enumerate(hands) if s != me for c in h]
        assert [c for s, h in enumerate(copy.hands) if s != me for c in h] != others
    else:  # ランブリングシード: every top card shows, what lies under them does not
        assert [h[-1:] for h in copy.holes] == [h[-1:] for h in state.holes]
        assert [len(h) for h in copy.holes] == [len(h) for h in state.holes]
    copy.check_invariants()  # nothing lost or doubled


def test_the_horizon_comes_from_the_module_or_the_kind():
    module = engine_rules("nyanbaa")
    assert module.ROLLOUT_MOVES  # the game looks about a round ahead
    players = engine.make_players(module, ("ismcts:30", "ismcts:30:end", "ismcts:30:5"), 1)
    assert [p.horizon for p in players] == [module.ROLLOUT_MOVES, None, 5]
    tricks = engine_rules("fudaraku")  # no ROLLOUT_MOVES: imagined games play to the end
    assert engine.make_players(tricks, ("ismcts:30",), 1)[0].horizon is None


def test_cut_off_playouts_are_judged_by_the_estimate(monkeypatch):
    """With a horizon, imagined games stop there and ask the state for its estimate; without
    one (or without estimate()), they play to the end and never ask."""
    module, state = _state("nyanbaa", 3)
    asked = []
    real = type(state).estimate

    def counted(self):
        asked.append(self.round)
        return real(self)

    monkeypatch.setattr(type(state), "estimate", counted)
    legal = state.legal_actions()
    IsmctsPlayer(random.Random(1), module.STEP_CAP, iterations=20).choose(state, legal)
    assert asked == []
    IsmctsPlayer(random.Random(1), module.STEP_CAP, iterations=20, horizon=4).choose(state, legal)
    assert len(asked) == 20  # each imagined game cut four moves after the tree
    assert set(asked) == {state.round}  # four moves do not reach the next round


@pytest.mark.parametrize("game_id", ["nyanbaa", "rumbling_seed"])
def test_the_estimate_is_the_score_once_the_game_is_over(game_id):
    """estimate() counts what scoring would: at the end it is the score, and just before the
    last decisions that change nothing on the board it already foresees it."""
    from generator import pipeline
    from generator.problems import Problems
    from generator.project import find_project

    module = engine_rules(game_id)
    data = module.prepare(pipeline.load(find_project(ENGINE), game_id, Problems()))
    options = engine.resolve_options(module.OPTIONS, {})
    for seed in range(5):
        state = module.new_state(data, 3, seed, options)
        rng = random.Random(seed)
        foreseen = None
        while not state.is_terminal():
            legal = state.legal_actions()
            if getattr(state, "phase", "") == "carry" and foreseen is None:
                if state.round == data.get("rounds"):
                    foreseen = state.estimate()  # only carrying cards is left of the game
            state.apply(legal[rng.randrange(len(legal))])
        assert state.estimate() == state.scores()
        if game_id == "nyanbaa":
            assert foreseen == state.scores()


def test_a_kit_game_can_cut_its_imagined_games_short(tricks, tmp_path):
    """BaseState's estimate() is the score as it stands: `ismcts:N:MOVES` works for a game
    written on the kit, and the searcher that looks six moves ahead still beats random seats."""
    stats = _simulate(
        tricks, tmp_path / "out", "--games", "45", "--players-kind", "ismcts:60:6,random,random"
    )
    assert stats["kinds"] == ["ismcts:60:6", "random", "random"]
    assert stats["wins"][0] >= 20, stats["wins"]  # fair share 15


def test_base_state_estimates_by_the_score_as_it_stands(tricks, monkeypatch):
    from generator import pipeline
    from generator.problems import Problems
    from generator.project import find_project
    from generator.rules import kit, modules

    game = pipeline.load(find_project(tricks), "tricks", Problems())
    module = modules.rules_for(game)
    state = module.new_state(module.prepare(game), 3, 4, engine.resolve_options(module.OPTIONS, {}))
    state.scores_ = [3, 1, 2]
    assert state.estimate() == [3, 1, 2]  # the points as they stand
    asked = []
    monkeypatch.setattr(kit.BaseState, "estimate", lambda self: asked.append(1) or self.scores())
    legal = state.legal_actions()
    IsmctsPlayer(random.Random(1), module.STEP_CAP, iterations=10, horizon=3).choose(state, legal)
    assert len(asked) == 10


def test_the_search_beats_random_players(tricks, tmp_path):
    """A fixed set of seeded games: the searching seat wins clearly more than its fair third."""
    stats = _simulate(
        tricks, tmp_path / "out", "--games", "45", "--players-kind", "ismcts:60,random,random"
    )
    assert stats["wins"][0] >= 20, stats["wins"]  # fair share 15; random seats ~10 each


# -- sweeps --------------------------------------------------------------------------------


def test_a_sweep_puts_readings_counts_and_kinds_side_by_side(tricks, tmp_path):
    args = ["simulate", "tricks", "--project", str(tricks), "--out", str(tmp_path / "out")]
    result = run(
        *args, "--sweep", "next_lead=left,last_winner", "--players", "3,4", "--games", "40"
    )
    assert result.exit_code == 0, result.output
    assert "# みっつの色 — sweep of 4 cells, 40 games each" in result.output
    sweep = json.loads((tmp_path / "out/tricks/sweep.json").read_text(encoding="utf-8"))
    cells = sweep["cells"]
    assert [(c["readings"]["next_lead"], c["players"]) for c in cells] == [
        ("left", 3),
        ("left", 4),
        ("last_winner", 3),
        ("last_winner", 4),
    ]
    assert all(c["stats"]["finished"] == 40 for c in cells)
    # one correction over every seat of every cell (3 + 4 + 3 + 4), said in the report
    assert sweep["seat_correction"]["tests"] == 14
    assert "Seat warnings are corrected for the 14 seat comparisons of the sweep (Holm" in (
        tmp_path / "out/tricks/sweep.md"
    ).read_text(encoding="utf-8")
    pdf = pypdf.PdfReader(tmp_path / "out/tricks/sweep.pdf")
    said = "".join(page.extract_text() for page in pdf.pages)
    assert "4 cells × 40 games  seed" in said and "#1  " in said, said  # English gaps
    assert "\u3000" not in said, said
    # any cell plays again alone, from its own seed
    cell = cells[3]
    alone = run(
        *args,
        "--players",
        "4",
        "--option",
        "next_lead=last_winner",
        "--games",
        "40",
        "--seed",
        str(cell["seed"]),
        "--json",
    )
    assert alone.exit_code == 0, alone.output
    text = alone.output
    stats = json.loads(text[text.index("{") : text.rindex("}") + 1])
    assert stats["wins"] == cell["stats"]["wins"] and stats["lengths"] == cell["stats"]["lengths"]


def test_a_sweep_over_kinds_reports_each_kinds_wins(tricks, tmp_path):
    result = run(
        "simulate",
        "tricks",
        "--project",
        str(tricks),
        "--out",
        str(tmp_path / "out"),
        "--games",
        "20",
        "--players-kind",
        "random",
        "--players-kind",
        "ismcts:15,random",
    )
    assert result.exit_code == 0, result.output
    cells = json.loads((tmp_path / "out/tricks/sweep.json").read_text(encoding="utf-8"))["cells"]
    assert [c["kinds"] for c in cells] == [["random"] * 3, ["ismcts:15", "random", "random"]]
    assert "- ismcts:15:" in result.output


@pytest.mark.parametrize(
    "args,message",
    [
        (["--sweep", "speed=fast,slow"], "unknown option 'speed'"),
        (["--sweep", "next_lead=left,sideways"], "option 'next_lead' must be one of left"),
        (["--sweep", "next_lead"], "--sweep takes NAME=V1,V2…"),
        (["--sweep", "next_lead=left,last_winner", "--replay", "3"], "--replay plays one game"),
        (["--players", "3,9"], "is for 3–4 players, not 9"),
        (["--probes", "--players", "3,4"], "--probes plays one player count against one field"),
    ],
)
def test_a_bad_sweep_is_named_before_anything_is_played(tricks, args, message):
    result = run("simulate", "tricks", "--project", str(tricks), *args)
    assert result.exit_code == 1 and message in result.output, result.output


def test_a_sweep_is_the_same_in_one_process_or_a_pool():
    from generator import pipeline
    from generator.problems import Problems
    from generator.project import find_project
    from generator.rules import sweep

    module = engine_rules("fudaraku")
    data = module.prepare(pipeline.load(find_project(ENGINE), "fudaraku", Problems()))
    spec = {"end": ["all_hands", "active_hands"]}

    def cells(workers):
        grid = sweep.grid(spec, [3, 4], [("random",)], 5)
        for c in grid:
            c.kinds = ("random",) * c.players
        return sweep.run(module, data, grid, {}, 250, workers=workers)

    one, pooled = cells(1), cells(2)
    assert [c.stats.wins for c in one] == [c.stats.wins for c in pooled]
    assert [c.stats.dead_ends for c in one] == [250, 250, 0, 0]


@pytest.mark.skipif(__import__("os").name == "nt", reason="SIGINT to a child process")
def test_ctrl_c_keeps_the_games_finished_as_a_partial_report(tricks):
    import os
    import signal
    import subprocess
    import sys
    import time

    env = dict(os.environ, PYTHONUNBUFFERED="1", PNP_LANG="en")
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "simulate", "tricks", "--games", "5000000"],
        cwd=tricks,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=interruptible,
    )
    started = proc.stderr.readline()
    assert "runs the game's rules module" in started, started
    time.sleep(6)  # some tasks of games finish, even on a busy machine
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "stopped: the games finished so far are the report above" in err
    assert "Traceback" not in err
    report = (tricks / "output/tricks/simulation-3p.md").read_text(encoding="utf-8")
    assert "**Stopped by the user after " in report and " of 5000000 games" in report
    stats = json.loads((tricks / "output/tricks/simulation-3p.json").read_text(encoding="utf-8"))
    assert stats["stopped"] and 0 < stats["games"] < 5_000_000
    assert stats["finished"] == stats["games"]  # whole games only, no half-played one


# -- strategy probes -------------------------------------------------------------------------


def test_probes_say_which_strategy_beats_the_field(tricks, tmp_path):
    result = run(
        "simulate",
        "tricks",
        "--project",
        str(tricks),
        "--out",
        str(tmp_path / "out"),
        "--probes",
        "--players-kind",
        "random",
        "--games",
        "600",
    )
    assert result.exit_code == 0, result.output
    probes = json.loads((tmp_path / "out/tricks/probes.json").read_text(encoding="utf-8"))
    [low] = probes["probes"]
    assert low["name"] == "play_low" and low["games"] == 600 and probes["field"] == ["random"] * 3
    # playing the lowest card never wins a trick it could win: it loses to random players,
    # and to the greedy player it modifies, which played the same seats against the same field
    assert low["verdict"].startswith("loses to the field by"), low
    base = low["baseline"]
    assert base["kind"] == "greedy" and base["games"] == 600, base
    assert base["verdict"].startswith("loses to the greedy player it modifies by"), base
    d, lo, hi = base["difference"]
    assert hi < 0 and abs(d - (low["rate"] - base["rate"])) < 1e-9
    assert "| play_low | always play the lowest card |" in result.output
    assert "the greedy player it modifies, in the same seats" in result.output


def test_a_probe_is_also_a_player_kind(tricks, tmp_path):
    stats = _simulate(
        tricks, tmp_path / "out", "--games", "30", "--players-kind", "probe:play_low,random"
    )
    assert stats["kinds"] == ["probe:play_low", "random", "random"]
    result = run(
        "simulate", "tricks", "--project", str(tricks), "--players-kind", "probe:play_high"
    )
    assert result.exit_code == 1
    assert "'probe:play_high': the rules module names no such strategy (its STRATEGIES: " in (
        result.output
    )
