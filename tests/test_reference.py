"""The reference and the schemas say what the code reads, no more and no less: every key the
code knows is in docs/reference/ and in the JSON Schemas, every key they list is one the code
knows, every command option is documented, and every manifest and layout we ship (and what
`pnp new` writes) is valid against the schemas editors use."""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from generator import base, project
from generator.cli import main
from generator.layout import boxes

from conftest import FIXTURES, REPO, run

SCHEMA = base.DATA / "schema"
REFERENCE = REPO / "docs" / "reference"


def schema(name: str) -> dict:
    return json.loads((SCHEMA / f"{name}.schema.json").read_text("utf-8"))


def documented(page: str, section: str) -> set[str]:
    """The keys a reference page lists in the table under `## section`: rows `| `key` | …`."""
    text = (REFERENCE / page).read_text("utf-8")
    part = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+)` \|", part, re.M))


MANIFEST_TABLES = {
    "The manifest": project.TOP_KEYS,
    "[game]": project.GAME_KEYS,
    "[fonts]": project.FONT_KEYS,
    "[[component]]": project.COMPONENT_KEYS,
    "Composition": project.GROUP_KEYS | {"group"},
    "[deal]": set(project.DEAL_KEYS),
    "[setup]": project.SETUP_KEYS | {f"piles.{k}" for k in project.PILES_KEYS},
    "Editions: another language": project.EDITION_KEYS,
}


@pytest.mark.parametrize("section", sorted(MANIFEST_TABLES))
def test_every_manifest_key_is_in_the_reference_and_nothing_else(section):
    assert documented("manifest.md", section) == MANIFEST_TABLES[section]


def test_every_layout_key_is_in_the_reference_and_nothing_else():
    assert documented("layouts.md", "The file") == boxes.LAYOUT_KEYS
    every = boxes.COMMON | {k for keys in boxes.KEYS.values() for k in keys}
    assert documented("layouts.md", "Boxes") == every


def test_every_sheets_key_is_in_the_reference_and_nothing_else():
    from generator.layout import sheets

    assert documented("sheets.md", "The file") == sheets.SHEETS_KEYS
    assert documented("sheets.md", "[sheet.NAME]") == sheets.SHEET_KEYS
    shipped = tomllib.loads((base.BASE_LAYOUTS / "sheets.toml").read_text("utf-8"))
    for name, spec in shipped["sheet"].items():
        assert set(spec) <= sheets.SHEET_KEYS, name
        assert f"`{name}`" in (REFERENCE / "sheets.md").read_text("utf-8"), name


def test_the_schemas_know_the_same_keys_as_the_code():
    game = schema("game")
    assert set(game["properties"]) == project.TOP_KEYS
    assert set(game["properties"]["game"]["properties"]) == project.GAME_KEYS
    assert set(game["$defs"]["component"]["properties"]) == project.COMPONENT_KEYS
    assert set(game["$defs"]["group"]["properties"]) == project.GROUP_KEYS
    assert set(game["properties"]["deal"]["properties"]) == set(project.DEAL_KEYS)
    piles = game["properties"]["setup"]["properties"]["piles"]["properties"]
    assert set(piles) == set(project.PILES_KEYS)
    layout = schema("layout")
    assert set(layout["properties"]) == boxes.LAYOUT_KEYS
    every = boxes.COMMON | {k for keys in boxes.KEYS.values() for k in keys}
    assert set(layout["$defs"]["box"]["properties"]) == every
    assert set(layout["$defs"]["box"]["properties"]["type"]["enum"]) == set(boxes.KEYS)


def test_every_box_type_is_described_laid_out_and_drawn_in_one_list():
    """A box type is one entry of layout/boxes.TYPES; the schema editors use, the layout
    stage's work per type and the renderer's drawing per type name the same types."""
    from generator.layout import faces
    from generator.render import draw

    enum = schema("layout")["$defs"]["box"]["properties"]["type"]["enum"]
    assert set(boxes.TYPES) == set(enum) == set(draw.DRAW)
    assert set(faces.LAY_OUT) <= set(boxes.TYPES)
    assert boxes.AREA == {n for n, t in boxes.TYPES.items() if t.area}
    documented = (REPO / "docs/internals.md").read_text("utf-8")
    assert "### A new box type" in documented


def _closed_tables(node: dict, path: tuple = ()):
    """Each table of a schema that admits only its own keys, with its path of keys."""
    if node.get("additionalProperties") is False and "properties" in node:
        yield path, set(node["properties"])
    for key, sub in node.get("properties", {}).items():
        if isinstance(sub, dict):
            yield from _closed_tables(sub, (*path, key))


def test_the_code_refuses_what_the_schemas_refuse(tmp_path):
    """Editors check against the schemas, pnp against its own code, so the two must refuse
    alike: a stray key in any closed table of the manifest's [game], and a value that is not
    true or false for each of a box's flags, are errors `pnp check` names at their line."""
    from conftest import edit, make_fixture_project, run

    game = schema("game")
    tables = [p for p, _keys in _closed_tables(game["properties"]["game"], ("game",))]
    assert ("game", "players") in tables
    for path in tables:
        root = make_fixture_project("tiny", tmp_path / "-".join(path))
        header = "[" + ".".join(path) + "]"
        toml = (root / "cards/tiny/game.toml").read_text("utf-8")
        if path == ("game",):
            edit(root, "cards/tiny/game.toml", "[game]\n", "[game]\nstray = 1\n")
        else:
            key = path[-1]
            assert f"{key} = {{" in toml, header  # written inline in the fixture
            edit(root, "cards/tiny/game.toml", f"{key} = {{", f"{key} = {{ stray = 1,")
        r = run("check", "--project", str(root), "--no-play")
        assert r.exit_code == 1 and "unknown key 'stray'" in r.output, (header, r.output)
    flags = [
        k
        for k, v in schema("layout")["$defs"]["box"]["properties"].items()
        if v.get("type") == "boolean"
    ]
    assert "bleed" in flags
    for flag in flags:
        root = make_fixture_project("tiny", tmp_path / flag)
        kind = next(t for t, keys in boxes.KEYS.items() if flag in keys)
        layout = root / "layouts/tiny/card_front.toml"
        layout.write_text(
            layout.read_text("utf-8")
            + f'\n[[box]]\nname = "x"\ntype = "{kind}"\nx = "0mm"\ny = "0mm"\nw = "1mm"\n'
            + f'h = "1mm"\n{flag} = "yes"\n',
            "utf-8",
        )
        line = layout.read_text("utf-8").splitlines().index(f'{flag} = "yes"') + 1
        r = run("check", "--project", str(root), "--no-play")
        said = f"card_front.toml:{line}: error: box 'x': '{flag}' must be true or false"
        assert r.exit_code == 1 and said in r.output, (flag, r.output)


def _commands(group, prefix=""):
    """Every command by its full name ("build", "printer save"), groups' own included."""
    for name, command in group.commands.items():
        yield prefix + name, command
        if hasattr(command, "commands"):
            yield from _commands(command, f"{prefix}{name} ")


def test_every_command_option_is_in_the_reference():
    text = (REFERENCE / "commands.md").read_text("utf-8")
    for name, command in _commands(main):
        assert f"\n## pnp {name}\n" in text, name
        part = text.split(f"\n## pnp {name}\n", 1)[1].split("\n## ", 1)[0]
        for param in command.params:
            flags = [o for o in param.opts if o.startswith("--")]
            for flag in flags:
                assert f"`{flag}" in part, (name, flag)
        listed = set(re.findall(r"`(--[a-z-]+)", part))
        known = {o for p in command.params for o in p.opts if o.startswith("--")}
        assert listed <= known | {"--help"}, (name, listed - known)


def _files(pattern: str):
    roots = [
        REPO / "cards",
        REPO / "layouts",
        *FIXTURES.glob("*/cards"),
        *FIXTURES.glob("*/layouts"),
    ]
    return sorted(p for root in roots for p in root.rglob(pattern))


def _kind(path) -> str | None:
    """What a shipped TOML file is, by its name: a manifest, a rules module's texts, a layout."""
    if path.name == "game.toml":
        return "game"
    if path.name.startswith("texts.") and path.parent.parent.name == "cards":
        return "texts"
    if path.name in ("vars.toml", "icons.toml", "sheets.toml", "glossary.toml"):
        return None
    return "layout"


@pytest.mark.parametrize(
    "kind, pattern", [("game", "game.toml"), ("layout", "*.toml"), ("texts", "texts.*.toml")]
)
def test_every_shipped_file_is_valid_against_its_schema(kind, pattern):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema(kind))
    files = [p for p in _files(pattern) if _kind(p) == kind]
    assert files
    for path in files:
        errors = [e.message for e in validator.iter_errors(tomllib.loads(path.read_text("utf-8")))]
        assert not errors, (path, errors[:3])


def test_what_pnp_new_writes_is_valid_and_names_its_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    root = tmp_path / "p"
    assert run("init", str(root)).exit_code == 0
    assert run("new", "g", "--project", str(root)).exit_code == 0
    for kind, path in [
        ("game", root / "cards/g/game.toml"),
        ("layout", root / "layouts/g/card_front.toml"),
        ("layout", root / "layouts/g/card_back.toml"),
    ]:
        text = path.read_text("utf-8")
        first = text.splitlines()[0]
        assert first.startswith("#:schema ") and (path.parent / first.split()[1]).is_file()
        jsonschema.validate(tomllib.loads(text), schema(kind))
