"""Architecture kept honest: import directions between stages, no cycles between packages, one
place each for spreadsheets, ReportLab and the Jinja environment."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "generator"


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (lazy imports inside functions too), as
    absolute dotted names; `from . import x` counts as importing the package and `pkg.x`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]  # the package a module's relative imports start from
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names.add(target)
            names |= {f"{target}.{a.name}" for a in node.names}
    return names


def stage(name: str) -> str | None:
    """The stage a generator module belongs to: its subpackage, or itself at the top level."""
    parts = name.split(".")
    if parts[0] != "generator" or len(parts) < 2:
        return None
    return parts[1]


def stage_imports() -> dict[str, set[str]]:
    """Stage -> the other stages and outside libraries (top-level names) its modules import."""
    edges: dict[str, set[str]] = {}
    for path in modules():
        src = stage(module_name(path))
        if src is None:
            continue
        for name in imported(path):
            dst = stage(name) if name.startswith("generator.") else name.split(".")[0]
            if dst and dst != src:
                edges.setdefault(src, set()).add(dst)
    return edges


FORBIDDEN = [
    # (importer, imported, why)
    ("rules", "render", "the rules engine runs without ReportLab"),
    ("rules", "layout", "the rules engine reads the model, not layouts"),
    ("rules", "jinja2", "rule text is read as written, not templated"),
    ("rules", "builders", "the engine returns data; builders write it"),
    ("model", "render", "the model is data"),
    ("model", "layout", "the model is data"),
    ("rulesource", "jinja2", "the rules source as data sits beside the model"),
    ("rulesource", "layout", "the rules source as data sits beside the model"),
    ("load", "render", "loading knows nothing of drawing"),
    ("validate", "render", "validating knows nothing of drawing"),
    ("render", "load", "the renderer draws a laid-out plan, not rows"),
    ("render", "validate", "the renderer draws a laid-out plan, not rows"),
    ("render", "builders", "builders call the renderer, not the other way"),
    ("render", "rules", "the renderer draws plain data; the rules package works it out"),
    ("layout", "load", "layout reads the model"),
    ("layout", "project", "layout reads the model (model.Folders says where files are)"),
    ("layout", "render", "layout measures with font metrics; it never draws"),
    ("layout", "builders", "builders read plans"),
    ("layout", "pipeline", "stages do not call the pipeline"),
    ("render", "pipeline", "stages do not call the pipeline"),
]


@pytest.mark.parametrize("importer, imported_, why", FORBIDDEN)
def test_import_direction(importer, imported_, why):
    edges = stage_imports()
    assert imported_ not in edges.get(importer, set()), f"{importer} imports {imported_}: {why}"


def test_no_cycle_between_stages():
    edges = stage_imports()
    stages = {s for s in edges} | {d for ds in edges.values() for d in ds}
    internal = {s: {d for d in edges.get(s, ()) if d in stages and d in edges} for s in stages}
    # Depth-first search for a back edge.
    colour: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        colour[node] = 1
        path.append(node)
        for nxt in sorted(internal.get(node, ())):
            if colour.get(nxt) == 1:
                cycle = path[path.index(nxt) :] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if not colour.get(nxt):
                visit(nxt)
        path.pop()
        colour[node] = 2

    for node in sorted(internal):
        if not colour.get(node):
            visit(node)


def test_the_checker_sees_a_forbidden_import(tmp_path, monkeypatch):
    """The direction test reads lazy and relative imports: a planted one is caught."""
    planted = tmp_path / "generator" / "rules"
    planted.mkdir(parents=True)
    (tmp_path / "generator" / "__init__.py").write_text("")
    (planted / "__init__.py").write_text("")
    (planted / "bad.py").write_text('"""x"""\n\n\ndef f():\n    from ..render import draw\n')
    monkeypatch.setitem(globals(), "PACKAGE", tmp_path / "generator")
    assert "render" in stage_imports()["rules"]


def test_only_the_loader_reads_spreadsheets():
    users = {
        module_name(p)
        for p in modules()
        if any(n.split(".")[0] in ("pandas", "openpyxl", "python_calamine") for n in imported(p))
    }
    assert users == {"generator.load.workbook"}


def test_only_the_renderer_imports_reportlab():
    users = {
        module_name(p) for p in modules() if any(n.startswith("reportlab") for n in imported(p))
    }
    assert users and all(u.startswith("generator.render") for u in users), users


def test_one_place_builds_the_jinja_environment():
    users = [
        p.relative_to(PACKAGE).as_posix()
        for p in modules()
        if "Environment(" in p.read_text(encoding="utf-8")
    ]
    assert users == ["layout/templates.py"]


def test_every_module_says_what_it_does():
    for p in modules():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        if p.name != "__init__.py":
            assert ast.get_docstring(tree), p


def test_every_limit_is_documented():
    from dataclasses import fields

    from generator.limits import DEFAULT

    docs = (PACKAGE.parent / "docs" / "errors.md").read_text(encoding="utf-8")
    readme = (PACKAGE.parent / "docs" / "guide.md").read_text(encoding="utf-8")  # the README's rest
    for f in fields(DEFAULT):
        assert f"`{f.name}`" in docs and f"`{f.name}`" in readme, f.name


def _foreign_names(tree: ast.AST) -> set[str]:
    """The names a file binds to something of another package's (the standard library's or a
    dependency's): `import re`, `import a.b as c`, `from PIL import Image`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if not a.name.startswith("generator"):
                    names.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and not node.level:
            if not (node.module or "").startswith("generator"):
                names |= {a.asname or a.name for a in node.names}
    return names


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def test_no_code_changes_another_packages_modules_or_classes():
    """pnp uses the standard library and its dependencies as they are: no assignment to an
    attribute of a module or class it imports (`re.compile = …`, `Image.MAX_IMAGE_PIXELS = …`),
    no setattr on one, and no object's class swapped (`obj.__class__ = …`)."""
    found = []
    for p in modules():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        foreign = _foreign_names(tree)
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = node.targets
            for target in targets:
                if isinstance(target, ast.Attribute) and (
                    _root(target) in foreign or target.attr == "__class__"
                ):
                    found.append(f"{p.relative_to(PACKAGE)}:{node.lineno}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("setattr", "delattr")
                and node.args
                and _root(node.args[0]) in foreign
            ):
                found.append(f"{p.relative_to(PACKAGE)}:{node.lineno}")
    assert found == [], found


def test_the_kinds_registry_is_the_one_list_of_kinds():
    """The component kinds `pnp new --kind` offers and game.toml's schema admits are the
    registry's (generator/kinds.py), in its order: a kind added there is offered everywhere."""
    import json

    from generator.cli.new import new
    from generator.kinds import KINDS

    offered = next(p for p in new.params if p.name == "kind").type.choices
    schema = json.loads((PACKAGE / "data/schema/game.schema.json").read_text(encoding="utf-8"))

    def enums(node):
        if isinstance(node, dict):
            if "kind" in node.get("properties", {}):
                yield node["properties"]["kind"].get("enum")
            for value in node.values():
                yield from enums(value)
        elif isinstance(node, list):
            for value in node:
                yield from enums(value)

    assert list(offered) == list(KINDS)
    assert [e for e in enums(schema) if e] == [list(KINDS)]


def _own_private_names() -> set[str]:
    """Every `_name` pnp's own code defines: module-level names, class members, attributes it
    sets (`self._x = …`, `obj._x = …`), dataclass fields."""
    names: set[str] = set()
    for p in modules():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[-1])
    return {n for n in names if n.startswith("_")}


def test_no_code_reads_another_packages_private_attributes():
    """pnp reads only the public API of the standard library and its dependencies: no
    `frame._aW`, `keep._content` or `rng._randbelow`, which a new release may rename or drop
    without a word. A `_name` pnp reads is one it defines itself."""
    own = _own_private_names()
    found = []
    for p in modules():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in own
            ):
                found.append(f"{p.relative_to(PACKAGE)}:{node.lineno}: .{node.attr}")
    assert found == [], found
