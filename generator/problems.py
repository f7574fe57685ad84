"""Where a problem comes from and how problems are collected, folded and printed.

Every stage reports into one `Problems` collection; the pipeline fails once, after a stage,
if it holds errors. Messages start with their origin: `path:row:column: level: message`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import base
from .i18n import N_, _, ngettext

LEVELS = ("error", "warning", "notice")
LEVEL_WORDS = {"error": N_("error"), "warning": N_("warning"), "notice": N_("notice")}


@dataclass(frozen=True, slots=True)  # one per card: no __dict__ each
class SourceRef:
    """A place in the project: a file, and where known a sheet, a row and a column."""

    file: str
    row: int | None = None
    column: str | None = None
    sheet: str | None = None

    def at(self, row: int | None = None, column: str | None = None) -> SourceRef:
        return SourceRef(
            self.file,
            row if row is not None else self.row,
            column if column is not None else self.column,
            self.sheet,
        )

    @property
    def row_place(self) -> str:
        """'file:row' (the file alone when there is no row): where a card's data is."""
        return f"{self.file}:{self.row}" if self.row is not None else self.file

    def __str__(self) -> str:
        name = self.file + (f"[{self.sheet}]" if self.sheet else "")
        parts = [name]
        if self.row is not None:
            parts.append(str(self.row))
        if self.column is not None:
            if self.row is None:
                parts.append("")
            parts.append(self.column)
        return ":".join(parts)


@dataclass(frozen=True)
class Problem:
    """One error, warning or notice, with where it is."""

    level: str
    message: str
    where: SourceRef | None = None
    # Problems with the same fold key are printed once, with a count ("(54 cards)")...
    fold: str | None = None
    # ...unless there are no more than this many: then each is said (a card's text that does
    # not fit: a few cards are each to mend; many say the box is too small).
    each: int = 0
    game: str | None = None  # the game whose check or drawing found it (None: no one game's)

    def format(self, count: int = 1) -> str:
        head = f"{self.where}: " if self.where else ""
        tail = ""
        if count > 1 and self.level != "notice":
            tail = " " + ngettext("({n} card)", "({n} cards)", count)
        return f"{head}{_(LEVEL_WORDS[self.level])}: {self.message}{tail}"


class BuildError(Exception):
    """A user error that stops the build: printed as a clean message, exit code 1."""

    def __init__(
        self, problems: Problems | list[Problem] | str, where: SourceRef | None = None
    ) -> None:
        """Problems found, or one error's message and where it is."""
        if isinstance(problems, str):
            problems = [Problem("error", problems, where)]
        self.problems = list(problems)
        super().__init__("\n".join(p.format() for p in self.problems))


@dataclass
class Problems:
    """The problems a stage found, in the order found."""

    items: list[Problem] = field(default_factory=list)

    def add(
        self,
        level: str,
        message: str,
        where: SourceRef | None = None,
        fold: str | None = None,
        each: int = 0,
    ) -> None:
        assert level in LEVELS, level
        self.items.append(Problem(level, message, where, fold, each))

    def error(self, message: str, where: SourceRef | None = None, fold: str | None = None) -> None:
        self.add("error", message, where, fold)

    def warning(
        self, message: str, where: SourceRef | None = None, fold: str | None = None, each: int = 0
    ) -> None:
        self.add("warning", message, where, fold, each)

    def notice(self, message: str, where: SourceRef | None = None, fold: str | None = None) -> None:
        self.add("notice", message, where, fold)

    def extend(self, found: Iterable[Problem]) -> None:
        self.items.extend(found)

    def found_for(self, game: str, since: int) -> None:
        """Say that the problems found from item `since` on were found for `game`."""
        self.items[since:] = [
            p if p.game is not None else replace(p, game=game) for p in self.items[since:]
        ]

    def count(self, level: str) -> int:
        return sum(1 for p in self.items if p.level == level)

    def said(self, level: str) -> int:
        """How many lines of `level` `folded` prints: repeats of one mistake (a template line
        every card trips on, "(17 cards)") count once, as the designer reads them."""
        return sum(len(_lines(group)) for group in self._groups([level]))

    def _groups(self, levels) -> list[list[Problem]]:
        """The problems of these levels, those with one fold key together, in first-seen
        order."""
        groups: dict[object, list[Problem]] = {}
        for p in (p for p in self.items if p.level in levels):
            groups.setdefault(_fold_key(p), []).append(p)
        return list(groups.values())

    @property
    def has_errors(self) -> bool:
        return any(p.level == "error" for p in self.items)

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise BuildError([p for p in self.items if p.level == "error"])

    def folded(self, least: str = "notice") -> list[str]:
        """Lines to print: repeats (same fold key) once with their count, in first-seen order;
        levels below `least` (e.g. notices with `--quiet`) left out."""
        order = {lvl: i for i, lvl in enumerate(LEVELS)}
        groups = self._groups(LEVELS[: LEVELS.index(least) + 1])
        return [line for g in sorted(groups, key=lambda g: order[g[0].level]) for line in _lines(g)]


def _fold_key(p: Problem):
    """Problems with one key are printed as one line (see Problem.fold)."""
    return (p.level, p.fold) if p.fold else id(p)


def _lines(group: list[Problem]) -> list[str]:
    """How a group of problems with one fold key is printed."""
    if len(group) <= group[0].each:
        return [p.format() for p in group]
    return [group[0].format(count=len(group))]


def did_you_mean(word: str, known) -> str:
    """' (did you mean 'copies'?)' for a near miss among `known`, else ''."""
    import difflib

    starts = [k for k in sorted(known) if k != word and k.lower().startswith(word.lower())]
    if 1 < len(starts) <= 4:  # square: square70 or square80, not one of them at random
        return _(" (did you mean one of {keys}?)", keys=", ".join(f"'{k}'" for k in starts))
    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return _(" (did you mean '{key}'?)", key=close[0]) if close else ""


def unknown_key(key: str, known, context: str = "") -> str:
    """The message for a key that is not one of `known`: the near miss, and the keys there are."""
    said = (
        _("unknown key '{key}' in {context}", key=key, context=context)
        if context
        else _("unknown key '{key}'", key=key)
    )
    keys = _("(known: {keys})", keys=", ".join(sorted(known)))
    return f"{said}{did_you_mean(key, known)} {keys}"


def rel(path: Path, root: Path) -> str:
    """A path as the user typed it: relative to the project when inside it (the tool's own
    files as `pnp:layouts/<file>`)."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        pass
    return base.display(path) if base.is_tools(path) else str(path)
