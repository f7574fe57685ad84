"""What every project gets from the tool itself: the base layout, paper, card sizes, sheet
definitions and icons, shipped as package data (`generator/data/layouts/`).

A project's own `layouts/_shared/` comes first, file by file: a project that has its own
sheets.toml uses it, one that has none uses the tool's. `pnp init` copies these files into a new
project so the designer can see and change them. The tool's files are not the designer's and
are not confined to the project; messages name them `pnp:layouts/<file>`.
"""

from __future__ import annotations

from pathlib import Path

SHARED = "_shared"  # the project's folder of layouts and definitions shared by its games
DATA = Path(__file__).resolve().parent / "data"
BASE_LAYOUTS = DATA / "layouts"
SCHEMAS = DATA / "schema"  # JSON Schemas of game.toml and layouts, for editors


def _shipped(inside: str, checkout: str) -> Path:
    """Where something kept at the checkout's top is in an installed pnp: the wheel puts it
    inside the package (pyproject.toml's package-dir), a checkout has it beside the package."""
    package = Path(__file__).resolve().parent
    return package / inside if (package / inside).is_dir() else package.parent / checkout


DOCS = _shipped("docs", "docs")  # the designer's documentation, for `pnp docs`
# The shipped games, as a project holds them (cards/GAME/, layouts/GAME/): `pnp init --example`
EXAMPLES = _shipped("examples", ".")


def examples() -> list[str]:
    """The example games a project can start from."""
    cards = EXAMPLES / "cards"
    return sorted(p.name for p in cards.iterdir() if (p / "game.toml").is_file())


def shared_dirs(layouts_dir: Path) -> list[Path]:
    """Where shared files are looked for, first match wins: the project's, then the tool's."""
    return [layouts_dir / SHARED, BASE_LAYOUTS]


def shared_file(layouts_dir: Path, name: str) -> Path:
    """The project's `_shared/NAME` if it has one, else the tool's (which may not exist)."""
    own = layouts_dir / SHARED / name
    return own if own.is_file() or own.is_symlink() else BASE_LAYOUTS / name


def is_tools(path: Path) -> bool:
    """True for a file shipped with the tool (trusted, outside any project)."""
    try:
        path.resolve().relative_to(DATA)
        return True
    except ValueError:
        return False


def display(path: Path) -> str:
    """How messages name one of the tool's files."""
    return f"pnp:{path.resolve().relative_to(DATA).as_posix()}"
