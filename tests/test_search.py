"""The searching player (ISMCTS) through the common contract: per-seat player kinds, a search
that never touches the real game, determinized hidden cards, reproducible games, and skill."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from generator.rules import engine
from generator.rules.search import IsmctsPlayer, clone_state

from conftest import ENGINE, engine_rules, make_fixture_project, run


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
        ("ismcts:20,random", "--players-kind names 2 kinds for 3 players"),
        ("clever", "unknown player kind 'clever' (kinds: random, greedy, varied, ismcts)"),
        ("ismcts:0", "'ismcts:0': give the search a budget, e.g. ismcts:200"),
        ("greedy:3", "unknown player kind 'greedy:3'"),
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


def test_the_search_beats_random_players(tricks, tmp_path):
    """A fixed set of seeded games: the searching seat wins clearly more than its fair third."""
    stats = _simulate(
        tricks, tmp_path, "--games", "45", "--players-kind", "ismcts:60,random,random"
    )
    assert stats["wins"][0] >= 20, stats["wins"]  # fair share 15; random seats ~10 each
