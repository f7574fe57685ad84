"""The designer's chosen readings (game.toml [readings]): check and simulate play them by
default, list the points still open, keep the literal reading's failures in sight as warnings,
and --strict fails until every point is chosen. Played on the frozen 補陀落渡海しよう！, whose
literal reading never ends."""

from __future__ import annotations

import json

from conftest import rule_check, run

GAME = "cards/fudaraku/game.toml"


def _choose(root, text: str) -> None:
    path = root / GAME
    path.write_text(path.read_text(encoding="utf-8") + f"\n[readings]\n{text}\n", "utf-8")


def test_the_literal_reading_fails_until_a_reading_is_chosen(engine_project):
    literal = rule_check(engine_project, "fudaraku")
    assert "error: 4 players, 200 random playouts: 200 of 200 games reach a dead end" in literal
    assert "open point 'end': eliminated players pass every turn" in literal
    _choose(engine_project, 'end = "active_hands"')
    chosen = rule_check(engine_project, "fudaraku")
    assert "error:" not in chosen, chosen
    assert (
        "warning: 4 players, 200 random playouts: 200 of 200 games reach a dead end: no player "
        "can act and the game has not ended (reading end=all_hands) — the literal reading; "
        "game.toml [readings] plays end=active_hands; replay: pnp simulate fudaraku --players 4 "
        "--option end=all_hands --replay" in chosen
    )
    assert "open point 'end'" not in chosen  # chosen, so no longer open
    line = next(
        n
        for n, text in enumerate(
            (engine_project / "cards/fudaraku/rules.md").read_text("utf-8").splitlines(), 1
        )
        if "好きな１枚を選んで、それを伏せて" in text
    )
    assert (
        f"cards/fudaraku/rules.md:{line}: notice: open point 'facedown': no rule uses the "
        "face-down card; played as facedown=unused, the literal reading (choose in game.toml "
        "[readings]: unused | virtue)" in chosen
    )


def test_strict_fails_while_points_are_open_and_passes_when_all_are_chosen(engine_project):
    _choose(engine_project, 'end = "active_hands"')
    # --no-play runs no project code: the points are not even read
    assert "open point" not in rule_check(engine_project, "fudaraku", play=False, code=False)
    strict = rule_check(engine_project, "fudaraku", play=False, strict=True)
    assert "warning: open point 'field_scope'" in strict
    for name, value in (
        ("field_scope", "round"),
        ("round_minimum", "off_suit"),
        ("facedown", "unused"),
        ("lead_tie", "first"),
    ):
        path = engine_project / GAME
        path.write_text(path.read_text("utf-8") + f'{name} = "{value}"\n', "utf-8")
    assert "open point" not in rule_check(engine_project, "fudaraku", play=False, strict=True)


def test_a_reading_the_module_lacks_is_an_error_at_its_line(engine_project):
    _choose(engine_project, 'end = "sometimes"\nspeed = "fast"')
    lines = (engine_project / GAME).read_text("utf-8").splitlines()
    end_line = 1 + lines.index('end = "sometimes"')
    result = rule_check(engine_project, "fudaraku", play=False)
    assert (
        f"{GAME}:{end_line}:readings.end: error: [readings] end = 'sometimes' is not one of its "
        "readings (all_hands, active_hands)" in result
    )
    assert (
        f"{GAME}:{end_line + 1}:readings.speed: error: [readings] speed: the rules module has no "
        "such open point (its points: end, facedown, field_scope, lead_tie, round_minimum)"
        in result
    )
    simulated = run("simulate", "fudaraku", "--project", str(engine_project), "--games", "5")
    assert simulated.exit_code == 1 and "readings.end: error:" in simulated.output
    broken = engine_project / GAME
    broken.write_text(broken.read_text("utf-8").replace('"sometimes"', "3"), "utf-8")
    result = run("check", "fudaraku", "--no-play", "--project", str(engine_project))
    assert result.exit_code == 1
    assert f"{GAME}:{end_line}:readings.end: error: [readings] end must be" in result.output


def test_simulate_plays_the_chosen_readings_unless_told_otherwise(engine_project, tmp_path):
    _choose(engine_project, 'end = "active_hands"')
    base = ("simulate", "fudaraku", "--project", str(engine_project), "--games", "40")
    result = run(*base, "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "out/fudaraku/simulation-3p.json").read_text("utf-8"))
    assert stats["options"]["end"] == "active_hands" and stats["finished"] == 40
    result = run(*base, "--option", "end=all_hands", "--out", str(tmp_path / "out"))
    stats = json.loads((tmp_path / "out/fudaraku/simulation-3p.json").read_text("utf-8"))
    assert stats["options"]["end"] == "all_hands" and stats["dead_ends"] == 40
    # its replay commands name the reading that differs from what simulate plays by default
    assert "--option end=all_hands --replay" in result.output
