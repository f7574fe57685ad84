"""The one TOML reader (decoding, errors, where each key is written) and the kind registry."""

from __future__ import annotations

import pytest

from generator import tomlfile
from generator.kinds import KINDS
from generator.layout.plan import STRATEGIES
from generator.problems import BuildError, SourceRef

DOC = """\
# a comment with key = "not a key"
[game]
title = "試験"
players = { min = 2, max = 4 }
notes = \"\"\"
[not a table]
fake = 1
\"\"\"

[[component]]
id = "a"
points = [
  ["0mm", "0mm"],
  ["W", "H"],
]

  [component.columns]
  name = "text"

  [[component.composition.group]]
  key = ["name"]

[[component]]
id = "b"
"quoted key" = 1
dotted.inner = 2
"""


def doc():
    return tomlfile.parse(DOC, SourceRef("x.toml"))


def test_keys_tables_and_array_elements_have_their_lines():
    d = doc()
    assert d.line("game") == 2 and d.line("game", "title") == 3
    assert d.line("game", "players", "max") == 4  # inside a one-line inline table
    assert d.line("component", 0) == 10 and d.line("component", 1) == 23
    assert d.line("component", 0, "columns", "name") == 18
    assert d.line("component", 0, "composition", "group", 0, "key") == 21
    assert d.line("component", 1, "quoted key") == 25
    assert d.line("component", 1, "dotted", "inner") == 26


def test_multiline_strings_and_arrays_hide_nothing_and_invent_nothing():
    d = doc()
    assert d.line("fake") is None and d.line("not a table") is None
    assert d.line("component", 0, "points") == 12
    assert d.line("component", 1, "id") == 24


def test_at_names_line_and_key_and_falls_back_to_the_nearest_written_ancestor():
    d = doc()
    assert str(d.at("component", 1, "id")) == "x.toml:24:component.id"
    # An inherited or defaulted key: the line of its table, and the key it would have.
    assert str(d.at("component", 1, "size")) == "x.toml:23:component.size"
    assert str(d.at("nothing")) == "x.toml::nothing"


def test_syntax_error_names_line_and_column():
    with pytest.raises(BuildError) as exc:
        tomlfile.parse("[game]\ntitle = \n", SourceRef("x.toml"), "the manifest")
    (problem,) = exc.value.problems
    assert str(problem.where) == "x.toml:2:9"
    assert problem.message.startswith("cannot read the manifest: Invalid value")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932"])
def test_one_decoding_rule(tmp_path, encoding):
    path = tmp_path / "x.toml"
    path.write_bytes('[icon."星"]\nname = "ほし"\n'.encode(encoding))
    d = tomlfile.read(path, SourceRef("x.toml"))
    assert d.data == {"icon": {"星": {"name": "ほし"}}}


def test_undecodable_file_names_its_first_bad_line(tmp_path):
    path = tmp_path / "x.toml"
    path.write_bytes(b'a = 1\nb = "\x82\x20"\n')
    with pytest.raises(BuildError) as exc:
        tomlfile.read(path, SourceRef("x.toml"))
    assert str(exc.value.problems[0].where) == "x.toml:2"
    assert "neither UTF-8 nor Shift_JIS" in exc.value.problems[0].message


def test_kinds_say_what_a_component_needs():
    assert KINDS["card"].required() == {"front", "back", "data", "columns"}
    assert KINDS["token"].required() == {"front", "data", "columns"}
    assert KINDS["board"].required() == {"front"}
    # Without a named sheet, cards fill the page and tokens go on punch-out sheets.
    assert (KINDS["card"].sheet, KINDS["token"].sheet, KINDS["board"].sheet) == (
        "auto",
        "tokens",
        None,
    )
    assert {k.counter for k in KINDS.values()} == {"枚", "個"}
    assert all(k.layout in STRATEGIES for k in KINDS.values())


@pytest.mark.parametrize("key,value", [("data", '"board.csv"'), ("columns", '{ name = "text" }')])
def test_a_board_naming_a_spreadsheet_is_told_it_reads_none(kit, key, value):
    """A board is drawn by its layout alone: a spreadsheet named for it was silently ignored."""
    from conftest import edit, run

    edit(kit, "cards/kit/game.toml", 'kind = "board"\n', f'kind = "board"\n{key} = {value}\n')
    result = run("check", "--project", str(kit), "--no-play")
    assert result.exit_code == 1
    assert (
        f"cards/kit/game.toml:80:component.{key}: error: component 'board': a board is drawn by "
        f"its layout alone and reads no spreadsheet; remove '{key}'"
    ) in result.output
