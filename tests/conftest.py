"""Shared fixtures: the real project built once, and a writable copy of it for tests that edit data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

REPO = Path(__file__).resolve().parents[1]
MM = 72 / 25.4


def run(*args: str):
    """`pnp ARGS` through click's runner; returns the result (exit_code, output)."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """output/ of a clean build of the real project (A4, defaults)."""
    out = tmp_path_factory.mktemp("out")
    result = run("build", "--project", str(REPO), "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def project(tmp_path) -> Path:
    """A writable copy of the real project (cards/ and layouts/), to break or edit."""
    root = tmp_path / "proj"
    for name in ("cards", "layouts"):
        shutil.copytree(REPO / name, root / name)
    return root


def csv_path(root: Path) -> Path:
    return root / "cards" / "fudaraku" / "kleshas.csv"


def edit_csv(root: Path, fn) -> None:
    """Apply fn to the list of CSV lines (header first) and save as UTF-8."""
    path = csv_path(root)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(fn(lines)) + "\n", encoding="utf-8")
