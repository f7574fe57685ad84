"""Broken projects, each named after its defect: a clean message with its place, exit 1, no traceback."""

from __future__ import annotations

import pytest

from conftest import run

GAME = "cards/fudaraku"


def edit(root, rel, old, new, count=1):
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, count), encoding="utf-8")


DEFECTS = {
    "manifest_not_toml": (
        lambda r: edit(r, f"{GAME}/game.toml", "[game]", "[game"),
        f"{GAME}/game.toml:2:6: error: cannot read the manifest: Expected ']'",
    ),
    "manifest_without_title": (
        lambda r: edit(r, f"{GAME}/game.toml", 'title = "補陀落渡海しよう！"\n', ""),
        f"{GAME}/game.toml:2:game: error: missing key 'title' in [game]",
    ),
    "players_backwards": (
        lambda r: edit(r, f"{GAME}/game.toml", "min = 3, max = 5", "min = 5, max = 3"),
        f"{GAME}/game.toml:5:game.players: error: players: min 5 and max 3 must satisfy",
    ),
    "composition_key_not_a_column": (
        lambda r: edit(
            r, f"{GAME}/game.toml", 'key = ["suit", "number"]', 'key = ["suit", "rank"]'
        ),
        "composition key 'rank' is not one of its columns",
    ),
    "deal_names_no_component": (
        lambda r: edit(
            r, f"{GAME}/game.toml", 'component = "klesha"\nall', 'component = "kleshas"\nall'
        ),
        "[deal] component 'kleshas' is not a component of this game",
    ),
    "font_family_unknown": (
        lambda r: edit(
            r,
            f"{GAME}/game.toml",
            'body = { family = "Noto Sans CJK JP"',
            'body = { family = "Noto Sans Kanji"',
        ),
        "error: font family 'Noto Sans Kanji' not found",
    ),
    "font_weight_unknown": (
        lambda r: edit(r, f"{GAME}/game.toml", 'weight = "Bold"', 'weight = "Heavy"'),
        "error: font 'Noto Sans CJK JP' has no weight 'Heavy' (found: Bold, Regular)",
    ),
    "data_file_missing": (
        lambda r: (r / f"{GAME}/kleshas.csv").unlink(),
        f"{GAME}/kleshas.csv: error: file not found",
    ),
    "data_file_wrong_kind": (
        lambda r: edit(r, f"{GAME}/game.toml", 'data = "kleshas.csv"', 'data = "kleshas.ods"'),
        f"{GAME}/kleshas.ods: error: file not found",
    ),
    "ragged_row": (
        lambda r: edit(r, f"{GAME}/kleshas.csv", "疑,ぎ,2,#7B4F9D", "疑,ぎ,2,#7B4F9D,extra"),
        f"{GAME}/kleshas.csv:35: error: 5 cells but the header names 4 columns",
    ),
    "layout_missing": (
        lambda r: edit(r, f"{GAME}/game.toml", 'front = "klesha_front"', 'front = "klesha_face"'),
        "error: layout 'klesha_face' not found in layouts/fudaraku/ or layouts/_shared/",
    ),
    "layout_not_toml": (
        lambda r: edit(r, "layouts/fudaraku/klesha_back.toml", "[[box]]", "[[box]"),
        "layouts/fudaraku/klesha_back.toml:4:6: error: cannot read layout",
    ),
    "layout_unknown_key": (
        lambda r: edit(
            r,
            "layouts/fudaraku/klesha_back.toml",
            'radius = "2.5mm"',
            'radius = "2.5mm"\ncolour = "#FFFFFF"',
        ),
        "layouts/fudaraku/klesha_back.toml:16: error: box 'frame': unknown key 'colour' for a rect",
    ),
    "layout_geometry_templated": (
        lambda r: edit(r, "layouts/fudaraku/klesha_back.toml", 'x = "8mm"', 'x = "{{ number }}mm"'),
        "layouts/fudaraku/klesha_back.toml:22: error: box 'title': 'x' is geometry and cannot be a template",
    ),
    "layout_bad_colour": (
        lambda r: edit(
            r, "layouts/fudaraku/klesha_back.toml", 'stroke = "#C9A227"', 'stroke = "gold"'
        ),
        "box 'frame': 'stroke' must be a colour like #1F2A44 or 'none', got 'gold'",
    ),
    "layout_extends_itself": (
        lambda r: edit(
            r,
            "layouts/fudaraku/klesha_back.toml",
            'extends = "card_base"',
            'extends = "klesha_back"',
        ),
        "layout 'klesha_back' extends itself",
    ),
    "layout_unknown_font_role": (
        lambda r: edit(r, "layouts/fudaraku/klesha_back.toml", 'font = "body"', 'font = "mincho"'),
        "box 'kind': font role 'mincho' is not in the manifest's [fonts]",
    ),
    "layout_bad_when": (
        lambda r: edit(
            r,
            "layouts/fudaraku/klesha_back.toml",
            'font = "body"',
            'font = "body"\nwhen = "number >"',
        ),
        "box 'kind': 'when': template error",
    ),
    "rules_missing": (
        lambda r: (r / f"{GAME}/rules.md").unlink(),
        f"{GAME}/rules.md: error: rules source not found",
    ),
    "rules_not_utf8": (
        lambda r: (r / f"{GAME}/rules.md").write_bytes("# 補陀落".encode("utf-16")),
        f"{GAME}/rules.md:1: error: cannot read the file's text: it is neither UTF-8 nor Shift_JIS",
    ),
    "rules_unknown_directive": (
        lambda r: edit(r, f"{GAME}/rules.md", "\n::: deal\n", "\n::: dealing\n"),
        f"{GAME}/rules.md:31: error: unknown directive '::: dealing'",
    ),
    "rules_samples_unknown_column": (
        lambda r: edit(
            r, f"{GAME}/rules.md", "::: samples klesha suit", "::: samples klesha colour"
        ),
        "'::: samples klesha colour': no such printed component or column",
    ),
    "rules_template_syntax": (
        lambda r: edit(r, f"{GAME}/rules.md", "{{ players.min|zen }}", "{{ players.min|zen }"),
        f"{GAME}/rules.md:15: error: template error",
    ),
    "sheets_missing": (
        lambda r: (r / "layouts/_shared/sheets.toml").unlink(),
        "layouts/_shared/sheets.toml: error: sheet definitions not found",
    ),
    "unknown_card_size": (
        lambda r: edit(r, f"{GAME}/game.toml", 'size = "poker"', 'size = "jumbo"'),
        f"{GAME}/game.toml:14: error: unknown card size 'jumbo'",
    ),
}


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_broken_project_gets_a_clear_message(project, defect):
    breaks, message = DEFECTS[defect]
    breaks(project)
    result = run("check", "--no-play", "--project", str(project))
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_unknown_manifest_key_is_a_warning(project):
    edit(project, f"{GAME}/game.toml", 'size = "poker"', 'size = "poker"\nbleeed = "2mm"')
    result = run("check", "--no-play", "--project", str(project))
    assert result.exit_code == 0
    assert (
        f"{GAME}/game.toml:19:component.bleeed: warning: unknown key 'bleeed' in component 'klesha' "
            "is ignored"
        in result.output
    )
