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
from tomlkit.exceptions import ParseError

from ..i18n import _
from ..output import atomic_write
from ..problems import BuildError, SourceRef, did_you_mean
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
    before: str = ""  # the file as it was: what an undo writes back


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
    path: Path,
    expected: str,
    box: str,
    values: dict[str, object],
    shown: str | None = None,
    create: bool = False,
) -> Written:
    """Set keys of the box named `box` in the layout file at `path`, read by the editor with
    digest `expected`. A length key (x, y, w, h) given as a number is in points and written in
    the unit the file used; given as text (`W - 10mm`) it is written as it is; any other key is
    written as given, None taking it out. With `create`, a box this file does not write yet
    (one it inherits through `extends`) is added to it, with these keys only: an override."""

    def edit(text: str, shown: str) -> tuple[str, list[str]]:
        document = tomlkit.parse(text)
        table = _box(document, box, shown, missing_ok=create)
        if table is None:
            note = _("box '{box}' is now overridden in {file}", box=box, file=shown)
            return _appended(text, [_block(_fresh({"name": box, **values}))]), [note]
        notes = []
        for key, value in values.items():
            if key in LENGTH_KEYS and _points(key, value):
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
            elif isinstance(value, str) and "\n" in value:  # lines as lines, not \n
                table[key] = tomlkit.string(value, multiline=True)
            else:
                table[key] = value
        return tomlkit.dumps(document), notes

    return _rewrite(path, expected, shown, edit)


def add(
    path: Path,
    expected: str,
    values: dict[str, object],
    after: str | None = None,
    shown: str | None = None,
) -> Written:
    """A new box (its `name` among `values`; lengths as `change` takes them) written after the
    box named `after`, or after the last one."""

    def alter(blocks: list, shown: str) -> None:
        names = [name for name, _lines in blocks]
        if values.get("name") in names:
            raise _error(
                _("a box named '{name}' is already in {file}", name=values["name"], file=shown),
                shown,
            )
        table = _fresh(values)
        at = names.index(after) + 1 if after in names else len(blocks)
        blocks.insert(at, (table["name"], _block(table)))

    return _rewrite_boxes(path, expected, shown, alter)


def duplicate(path: Path, expected: str, box: str, name: str, shown: str | None = None) -> Written:
    """A copy of the box named `box`, named `name`, right after it (its comments not copied)."""

    def alter(blocks: list, shown: str) -> None:
        i = _index(blocks, box, shown)
        document = tomlkit.parse(_uncommented(blocks[i][1]))
        document["box"][0]["name"] = name
        blocks.insert(i + 1, (name, tomlkit.dumps(document)))

    return _rewrite_boxes(path, expected, shown, alter)


def remove(path: Path, expected: str, box: str, shown: str | None = None) -> Written:
    """The box named `box` taken out, with the comment lines written just above it."""

    def alter(blocks: list, shown: str) -> None:
        del blocks[_index(blocks, box, shown)]

    return _rewrite_boxes(path, expected, shown, alter)


def move(path: Path, expected: str, box: str, step: int, shown: str | None = None) -> Written:
    """The box named `box` drawn `step` places later (negative: earlier) in this file, its
    comments going with it: a later box is drawn over an earlier one."""

    def alter(blocks: list, shown: str) -> None:
        i = _index(blocks, box, shown)
        blocks.insert(max(0, min(len(blocks) - 1, i + step)), blocks.pop(i))

    return _rewrite_boxes(path, expected, shown, alter)


def restore(path: Path, expected: str, text: str, shown: str | None = None) -> Written:
    """The file as it was (an undo or a redo): `text` whole, when it is TOML."""

    def edit(_text: str, shown: str) -> tuple[str, list[str]]:
        try:
            tomlkit.parse(text)
        except ParseError as exc:
            raise _error(_("not TOML: {error}", error=exc), shown) from None
        return text, []

    return _rewrite(path, expected, shown, edit)


def _points(key: str, value: object) -> bool:
    """Whether `value` of `key` is a length given in points (a number), to write in a unit."""
    return key in LENGTH_KEYS and isinstance(value, (int, float)) and not isinstance(value, bool)


def _rewrite_boxes(path: Path, expected: str, shown: str | None, alter) -> Written:
    """The file with `alter(blocks, shown)` made to its list of [[box]] blocks."""

    def edit(text: str, shown: str) -> tuple[str, list[str]]:
        blocks, head = _blocks(text, shown)
        alter(blocks, shown)
        return _joined(head, blocks), []

    return _rewrite(path, expected, shown, edit)


def _rewrite(path: Path, expected: str, shown: str | None, edit) -> Written:
    """The file as `edit(text, shown)` makes it, written only if it is still as the editor read
    it (digest `expected`) and the result is TOML."""
    shown = shown or path.name
    data = path.read_bytes()
    if digest(data) != expected:
        raise Stale(
            _(
                "{file} changed since the editor read it (another tab or another "
                "editor saved it); nothing written: load it again and redo the change",
                file=shown,
            ),
            SourceRef(shown),
        )
    before = data.decode("utf-8")
    text, notes = edit(before, shown)
    tomlkit.parse(text)  # what is written is TOML, whatever the edit did
    encoded = text.encode("utf-8")
    atomic_write(path, encoded)
    return Written(digest(encoded), notes, before)


def _error(message: str, shown: str | None) -> BuildError:
    return BuildError(message, SourceRef(shown or ""))


_HEADER = re.compile(r"^\s*\[\[\s*box\s*\]\]\s*(#.*)?$")


def _blocks(text: str, shown: str | None) -> tuple[list[tuple[str, str]], str]:
    """The file cut into what comes before its boxes and each [[box]] as text, with the
    comment lines just above its header (the designer's note on it): [(name, text)], head.
    Editing the text, not the document, keeps every comment beside the box it is about."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if _HEADER.match(line)]
    tables = tomlkit.parse(text).get("box", [])
    if len(starts) != len(tables):  # a [[box]] line inside a string: not cut by lines
        raise _error(_("cannot tell the boxes of {file} apart by their lines", file=shown), shown)
    firsts = []
    for start in starts:
        while start > 0 and lines[start - 1].lstrip().startswith("#"):
            start -= 1
        firsts.append(start)
    ends = firsts[1:] + [len(lines)]
    head = "".join(lines[: firsts[0]]) if firsts else text
    blocks = [
        (str(table.get("name")), "".join(lines[a:b])) for table, a, b in zip(tables, firsts, ends)
    ]
    return blocks, head


def _fresh(values: dict) -> dict:
    """A new box's keys as written: lengths given in points in mm, None left out."""
    return {
        key: (length(None, float(value))[0] if _points(key, value) else value)
        for key, value in values.items()
        if value is not None
    }


def _no_box(name: str, names: list[str], shown: str | None) -> BuildError:
    return _error(
        _("no box '{name}' in {file}{hint}", name=name, file=shown, hint=did_you_mean(name, names)),
        shown,
    )


def _index(blocks, name: str, shown: str | None) -> int:
    names = [n for n, _text in blocks]
    if name not in names:
        raise _no_box(name, names, shown)
    return names.index(name)


def _joined(head: str, blocks: list[tuple[str, str]]) -> str:
    """Head and boxes as one text: one blank line between boxes, as a designer writes them."""
    parts = [text.rstrip("\n") + "\n" for _name, text in blocks]
    body = "\n".join(parts)
    if not head:
        return body
    return head.rstrip("\n") + "\n\n" + body if body else head


def _appended(text: str, blocks: list[str]) -> str:
    return text.rstrip("\n") + "\n\n" + "\n".join(b.rstrip("\n") + "\n" for b in blocks)


def _block(table: dict) -> str:
    """A new [[box]] as TOML text, its keys in the order given."""
    return tomlkit.dumps({"box": [table]})


def _uncommented(block: str) -> str:
    return "".join(
        line for line in block.splitlines(keepends=True) if not line.lstrip().startswith("#")
    )


def _box(document, name: str, shown: str | None, missing_ok: bool = False):
    boxes = document.get("box", [])
    for table in boxes:
        if table.get("name") == name:
            return table
    if missing_ok:
        return None
    raise _no_box(name, [str(t.get("name")) for t in boxes if t.get("name") is not None], shown)
