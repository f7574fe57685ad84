"""The one TOML reader: manifests, layouts, sheet definitions, icons and vars all come through here.

One decoding rule (textfile), one error shape (`path:line:column: error: cannot read TOML: …`),
and one way to say where a key is written: `TomlDoc.at("component", 2, "size")` is the line of
that key, or of the nearest enclosing key or table that is written in the file. tomllib keeps no
positions, so a small scanner of the text records where each key and table header stands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .i18n import N_, _
from .problems import BuildError, SourceRef
from .textfile import read_text

Path_ = tuple  # a key path: names and array indices, e.g. ("component", 0, "composition", "total")


@dataclass(frozen=True)
class TomlDoc:
    """A parsed TOML file: its data, and where each key is written."""

    data: dict
    where: SourceRef  # the file
    lines: dict = field(default_factory=dict, repr=False)  # key path -> line

    def at(self, *path) -> SourceRef:
        """Where the value at `path` is written: its line (or its nearest written ancestor's) and
        its key, e.g. `cards/g/game.toml:14:component.size`."""
        key = ".".join(str(p) for p in path if isinstance(p, str))
        for n in range(len(path), 0, -1):
            line = self.lines.get(tuple(path[:n]))
            if line is not None:
                return SourceRef(self.where.file, line, key or None, self.where.sheet)
        return SourceRef(self.where.file, None, key or None, self.where.sheet)

    def line(self, *path) -> int | None:
        """The line `path` itself (not an ancestor) is written on, if it is."""
        return self.lines.get(tuple(path))


def read(path: Path, where: SourceRef, what: str = "TOML") -> TomlDoc:
    """Read and parse a TOML file; a decoding or syntax error stops the build with its line."""
    text = read_text(path, where)
    return parse(text, where, what)


# How deep arrays and tables may nest in one file: a layout needs four or five; thousands make
# the parser (and every walk over the data after it) recurse past Python's limit.
MOST_NESTED = 64


def _depth(data) -> int:
    """How deep the parsed data nests (a table of scalars: 1), walked without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value if isinstance(v, (dict, list)))
    return deepest


def _deepest_line(text: str) -> int | None:
    """The line where brackets of a value first open deeper than MOST_NESTED (for the
    message only)."""
    depth = 0
    for n, line in enumerate(text.splitlines(), start=1):
        change, peak = _depths(line)
        if depth + peak > MOST_NESTED:
            return n
        depth = max(0, depth + change)
    return None


_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def parse(text: str, where: SourceRef, what: str = "TOML") -> TomlDoc:
    """The file's data and where its keys are written."""
    import tomllib

    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = tomllib.loads(text)
        if _depth(data) > MOST_NESTED:
            raise RecursionError
    except RecursionError:  # arrays or inline tables one inside another, thousands deep
        message = _(
            "cannot read {what}: arrays or tables are nested more than {most} deep, more than "
            "any project needs",
            what=what,
            most=MOST_NESTED,
        )
        line = _deepest_line(text)
        at = SourceRef(where.file, line, None, where.sheet) if line else where
        raise BuildError(message, at) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _POSITION.search(message)
        at = where
        if found:
            message = message[: found.start()]
            at = SourceRef(where.file, int(found.group(1)), found.group(2), where.sheet)
        message = _parser_said(message)
        raise BuildError(_("cannot read {what}: {error}", what=what, error=message), at) from None
    return TomlDoc(data, where, locate(text))


# The TOML parser's own messages (Python's tomllib), in the user's language.
_PARSER_FIXED = (
    N_("Cannot overwrite a value"),
    N_("Escaped character is not a Unicode scalar value"),
    N_("Expected '=' after a key in a key/value pair"),
    N_("Expected ']' at the end of a table declaration"),
    N_("Expected ']]' at the end of an array declaration"),
    N_("Expected newline or end of document after a statement"),
    N_("Invalid date or datetime"),
    N_("Invalid hex value"),
    N_("Invalid initial character for a key part"),
    N_("Invalid statement"),
    N_("Invalid value"),
    N_("Unclosed array"),
    N_("Unclosed inline table"),
    N_("Unescaped '\\' in a string"),
    N_("Unterminated string"),
)
_PARSER_PATTERNS = (
    (re.compile(r"Cannot declare (.+) twice"), N_("Cannot declare {what} twice")),
    (re.compile(r"Cannot mutate immutable namespace (.+)"), N_("Cannot change {what} here")),
    (re.compile(r"Cannot redefine namespace (.+)"), N_("Cannot redefine {what}")),
    (re.compile(r"Duplicate inline table key (.+)"), N_("The key {what} appears twice")),
    (re.compile(r"Expected (.+)"), N_("Expected {what}")),
    (re.compile(r"Found invalid character (.+)"), N_("Invalid character {what}")),
    (re.compile(r"Illegal character (.+)"), N_("Invalid character {what}")),
)


def _parser_said(message: str) -> str:
    if message in _PARSER_FIXED:
        return _(message)
    for pattern, said in _PARSER_PATTERNS:
        found = pattern.fullmatch(message)
        if found:
            return _(said, what=found.group(1))
    return message


# --- where keys are written ----------------------------------------------------------------
_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_KEY = rf"(?:{_BARE}|{_QUOTED})"
_DOTTED = re.compile(rf"\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*=")
_PART = re.compile(rf"\s*({_KEY})\s*\.?")


def _parts(dotted: str) -> list[str]:
    out = []
    for m in _PART.finditer(dotted):
        token = m.group(1)
        if token[0] in "\"'":
            token = token[1:-1]
        out.append(token)
    return out


def locate(text: str) -> dict[tuple, int]:
    """Key path -> line, for table headers, `key = value` lines and keys of one-line inline tables.

    Arrays of tables count their elements, as TOML does: the second `[[component]]` is
    ("component", 1); `[[component.composition.group]]` belongs to the latest component.
    """
    lines: dict[tuple, int] = {}
    counts: dict[tuple, int] = {}  # array-of-tables path -> elements so far
    table: tuple = ()
    depth = 0  # open brackets of a value that spans lines
    in_string: str | None = None  # an open multi-line string's delimiter
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw
        if in_string:
            end = line.find(in_string)
            if end < 0:
                continue
            line = line[end + 3 :]
            in_string = None
            depth += _depth_change(line)
            continue
        if depth > 0:
            depth += _depth_change(line)
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("[["):
            names = _parts(stripped[2 : stripped.index("]]")] if "]]" in stripped else stripped[2:])
            parent = _resolve(names[:-1], counts)
            array = (*parent, names[-1])
            index = counts.get(array, 0)
            counts[array] = index + 1
            table = (*array, index)
            lines.setdefault(array, n)
            lines[table] = n
            continue
        if stripped.startswith("["):
            names = _parts(stripped[1 : stripped.index("]")] if "]" in stripped else stripped[1:])
            table = _resolve(names, counts)
            lines.setdefault(table, n)
            continue
        m = _DOTTED.match(line)
        if not m:
            continue
        path = (*table, *_parts(m.group(1)))
        lines.setdefault(path, n)
        value = line[m.end() :]
        for delim in ('"""', "'''"):
            if value.lstrip().startswith(delim) and value.count(delim) == 1:
                in_string = delim
        if in_string:
            continue
        if value.lstrip().startswith("{"):
            for sub in _DOTTED.finditer(value.lstrip()[1:]):
                lines.setdefault((*path, *_parts(sub.group(1))), n)
        depth += _depth_change(value)
    return lines


def _resolve(names: list[str], counts: dict[tuple, int]) -> tuple:
    """A dotted table name as a concrete path: arrays of tables resolve to their latest element."""
    path: tuple = ()
    for name in names:
        path = (*path, name)
        if path in counts:
            path = (*path, counts[path] - 1)
    return path


def _depth_change(value: str) -> int:
    """Brackets opened minus closed in a value, ignoring strings and comments."""
    return _depths(value)[0]


def _depths(value: str) -> tuple[int, int]:
    """Brackets opened minus closed in a value, and the most open at once along it, ignoring
    strings and comments."""
    depth = peak = 0
    quote = None
    i = 0
    while i < len(value):
        ch = value[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            break
        elif ch in "[{":
            depth += 1
            peak = max(peak, depth)
        elif ch in "]}":
            depth -= 1
        i += 1
    return depth, peak
