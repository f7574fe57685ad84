"""Architecture kept honest: only the loader touches pandas, only the renderer ReportLab, one Jinja environment."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "generator"


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def modules():
    return [p for p in PACKAGE.rglob("*.py")]


def test_only_the_loader_imports_pandas():
    assert {p.relative_to(PACKAGE).as_posix() for p in modules() if "pandas" in imports(p)} == {
        "load.py"
    }


def test_only_the_renderer_imports_reportlab():
    users = {p.relative_to(PACKAGE).as_posix() for p in modules() if "reportlab" in imports(p)}
    assert users and all(u.startswith("render/") for u in users), users


def test_one_place_builds_the_jinja_environment():
    users = [
        p.relative_to(PACKAGE).as_posix()
        for p in modules()
        if "Environment(" in p.read_text(encoding="utf-8")
    ]
    assert users == ["layout/templates.py"]


def test_rules_package_runs_without_reportlab():
    for p in (PACKAGE / "rules").rglob("*.py"):
        assert "reportlab" not in imports(p)


def test_every_module_says_what_it_does():
    for p in modules():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        if p.name != "__init__.py":
            assert ast.get_docstring(tree), p
