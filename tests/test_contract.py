"""Every registered rules module keeps the written contract (rules/contract.py)."""

from __future__ import annotations

import pytest

from generator import pipeline
from generator.problems import Problems
from generator.project import find_project
from generator.rules import engine
from generator.rules.contract import GameRules, GameState

from conftest import ENGINE, engine_rules

GAMES = ("fudaraku", "nyanbaa", "rumbling_seed")


@pytest.mark.parametrize("game_id", GAMES)
def test_module_and_state_keep_the_contract(game_id):
    module = engine_rules(game_id)
    assert isinstance(module, GameRules)
    assert module.GAME_ID == game_id
    assert all(isinstance(o, engine.Option) for o in module.OPTIONS.values())
    for name, option in module.OPTIONS.items():
        assert option.default in option.choices, name
        assert option.rule and option.why, name
    assert module.NOTABLE <= set(module.BRANCHES)
    assert set(module.EXPLAIN.values()) <= set(module.OPTIONS)
    game = pipeline.load(find_project(ENGINE), game_id, Problems())
    data = module.prepare(game)
    lo, _ = game.manifest.players
    state = module.new_state(data, lo, 1, engine.resolve_options(module.OPTIONS, {}))
    assert isinstance(state, GameState)
    assert set(state.counters) >= set(module.BRANCHES)
    actions = state.legal_actions()
    assert actions and all(isinstance(a, int) for a in actions)
    assert isinstance(module.greedy_value(state, actions[0]), (int, float))


def test_the_contract_check_can_fail():
    class NotAState:
        current_player = 0

    assert not isinstance(NotAState(), GameState)
    assert not isinstance(engine, GameRules)
