"""Changes to a layout file that keep it the designer's: comments, key order and formatting stay
(tomlkit edits the document in place), and a length keeps the unit it was written in. This is
what the layout editor of `pnp serve` writes through (issue 38), and a test can drive it alone.

Every change names the file's digest as the editor read it: a file changed since (another tab,
the designer's own editor) is refused with a message, never overwritten.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import tomlkit

from ..i18n import _
from ..output import atomic_write
from ..problems import BuildError, Problem, SourceRef, did_you_mean
from .units import UNITS

LENGTH_KEYS = ("x", "y", "w", "h")
_PLAIN = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")  # one number and its unit


class Stale(BuildError):
    """The file changed after the editor read it."""


@dataclass
class Written:
    """What a change did: the file's new digest, and what the designer should be told (an
    expression replaced by a number)."""

    digest: str
    notes: list[str] = field(default_factory=list)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def length(old: object, points: float) -> tuple[str, bool]:
    """`points` written as `old` was: in its unit when it was one number with a unit, else in
    mm; and whether an expression (`W / 2 - 10mm`) or a bare number was replaced."""
    plain = _PLAIN.match(old) if isinstance(old, str) else None
    unit = plain.group(2) if plain else "mm"
    value = round(points / UNITS[unit], 2 if unit in ("mm", "pt") else 3)
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return f"{text}{unit}", plain is None and old is not None


def change(
    path: Path, expected: str, box: str, values: dict[str, object], shown: str | None = None
) -> Written:
    """Set keys of the box named `box` in the layout file at `path`, read by the editor with
    digest `expected`. A length key (x, y, w, h) is given in points and written in the unit
    the file used; any other key is written as given. Returns the new digest."""
    shown = shown or path.name
    data = path.read_bytes()
    if digest(data) != expected:
        raise Stale(
            [
                Problem(
                    "error",
                    _(
                        "{file} changed since the editor read it (another tab or another "
                        "editor saved it); nothing written: load it again and redo the change",
                        file=shown,
                    ),
                    SourceRef(shown),
                )
            ]
        )
    document = tomlkit.parse(data.decode("utf-8"))
    table = _box(document, box, shown)
    notes = []
    for key, value in values.items():
        if key in LENGTH_KEYS:
            old = table.get(key)
            written, replaced = length(old, float(value))
            if replaced:
                notes.append(
                    _(
                        "box '{box}': {key} was {old}, now {new} (moved by hand)",
                        box=box,
                        key=key,
                        old=old,
                        new=written,
                    )
                )
            table[key] = written
        elif value is None:
            if key in table:
                del table[key]
        else:
            table[key] = value
    text = tomlkit.dumps(document).encode("utf-8")
    atomic_write(path, text)
    return Written(digest(text), notes)


def _box(document, name: str, shown: str):
    boxes = document.get("box", [])
    for table in boxes:
        if table.get("name") == name:
            return table
    names = [str(t.get("name")) for t in boxes if t.get("name") is not None]
    raise BuildError(
        [
            Problem(
                "error",
                _(
                    "no box '{name}' in {file}{hint}",
                    name=name,
                    file=shown,
                    hint=did_you_mean(name, names),
                ),
                SourceRef(shown),
            )
        ]
    )
