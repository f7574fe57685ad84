"""A data file's rows under its header: `Row`, `Table`, and the checks every format shares
(names in the header, blank rows, a header that is not on row 1, error values)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n import _, ngettext
from ..limits import DEFAULT, Limits, exceeded
from ..problems import BuildError, Problem, SourceRef

MB = 1_000_000


@dataclass(frozen=True)
class Row:
    """One data row: its cells by column, and where it is."""

    where: SourceRef  # file, sheet, row (1-based, header is row 1); column unset
    values: dict[str, str]
    cells: tuple[str, ...] = ()  # the values in the table's column order, when it has them all


@dataclass(frozen=True)
class Table:
    """A data file's rows under its header row, as read."""

    where: SourceRef  # the file (and sheet)
    columns: list[str]
    rows: list[Row]
    header_row: int = 1
    warnings: tuple = ()  # Problems to report with the deck (blank rows, a header not on row 1)
    hint: str = ""  # '; row 3 looks like the header: …' when rows below are wider than it
    others: tuple[str, ...] = ()  # a workbook's other sheets, when read as its first with cards
    translated: tuple[str, ...] = ()  # columns an edition takes from their `@lang` translations
    translations: dict = field(default_factory=dict)  # row -> {column: its translation}


class EmptySheet(BuildError):
    """A sheet with no header row or no row under it (read_table's `first` passes over it)."""


def _empty(where: SourceRef) -> EmptySheet:
    message = _("the sheet is empty: expected a header row and one row per card")
    return EmptySheet(message, where)


EXCEL_ERRORS = ("#DIV/0!", "#N/A", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!", "#SPILL!")


def _error_values(table: Table) -> list[Problem]:
    """Cells of a CSV holding one of Excel's error values: a formula failed in the workbook it
    was saved from, and a card would print it (a warning: in a CSV it may be meant)."""
    out = []
    marks = set(EXCEL_ERRORS)
    for row in table.rows:
        if marks.isdisjoint(row.values.values()):
            continue
        for column, value in row.values.items():
            if value in marks:
                message = _(
                    "{value} is Excel's mark of a formula that failed in the workbook this was "
                    "saved from; a card prints it as it is",
                    value=value,
                )
                out.append(Problem("warning", message, row.where.at(column=column)))
    return out


def _lines(text: str) -> str:
    """A cell's text with its line breaks as one: CR LF (text pasted from Windows, a CSV
    cell quoted across lines) and CR alone are a line feed, as Alt+Enter makes."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


# Excel writes a control character in a cell's text as _xHHHH_ (CR as _x000D_, a tab as
# _x0009_); python-calamine reads them back, openpyxl reads back only _x005F_ (an underscore),
# so its _x000D_ may be one the designer typed: too rare to tell, read as the character.


def _header_hint(records: list[tuple[int, list[str]]], where: SourceRef) -> str:
    """'; row 3 looks like the header: …' when the first row is not the header (a title above
    it, say) and a later row looks like one: every cell filled, none a number, as wide as the
    rows below it. Reported, not guessed: the designer decides."""
    filled = [
        (line, [c.strip() for c in r]) for line, r in records if r and any(c.strip() for c in r)
    ]
    first = len([c for c in filled[0][1] if c]) if filled else 0
    for k, (line, cells) in enumerate(filled[1:10], start=1):
        width = len([c for c in cells if c])
        if width <= first:
            continue  # no wider than the first row: a row of cards, not the header below a title
        below = filled[k + 1][1] if k + 1 < len(filled) else []
        if (
            width >= 2
            and all(cells[:width])
            and not any(c.replace(".", "").isdigit() for c in cells[:width])
            and len([c for c in below if c]) >= 1
            and width <= len(below) <= len(cells)
        ):
            return "; " + _(
                "row {line} looks like the header: say header = {line} (in game.toml's "
                "[[component]], or pnp new --header {line}), or delete the rows above it",
                line=line,
            )
    return ""


def _table(
    columns: list[str],
    records: list[tuple[int, list[str]]],
    where: SourceRef,
    header_row: int = 1,
    limits: Limits = DEFAULT,
    every: list[tuple[int, list[str]]] | None = None,
    named: bool = False,  # the manifest's `header = N` put it there: no warning that it is low
    plain: bool = False,  # no cell holds a CR or is longer than limits.cell: none looked at
) -> Table:
    """Rows under a header; `every` is every record with the header (for hints)."""
    columns = [c.strip() for c in columns]
    unnamed = {i for i, c in enumerate(columns) if not c}
    # A column with no name and nothing in it (a spacer between columns) is passed over; one
    # with values under no name is the designer's to name.
    used = [i for i in sorted(unnamed) if any(i < len(r) and r[i].strip() for _l, r in records)]
    if used:
        hint = _header_hint(every or [(header_row, columns), *records], where)
        message = _("column {n} has no name in the header row", n=used[0] + 1) + hint
        raise BuildError(message, where.at(row=header_row))
    if unnamed:
        columns = [c for i, c in enumerate(columns) if i not in unnamed]
        records = [(line, [v for i, v in enumerate(r) if i not in unnamed]) for line, r in records]
    seen: dict[str, int] = {}
    for i, name in enumerate(columns):
        if name in seen:  # the second would take the first's values: one column lost
            message = _(
                "columns {first} and {second} are both named '{name}': rename one (a row's "
                "cells are read by their column's name)",
                first=seen[name] + 1,
                second=i + 1,
                name=name,
            )
            raise BuildError(message, where.at(row=header_row, column=name))
        seen[name] = i
    if len(columns) > limits.columns:
        raise exceeded("columns", _("the header has too many columns"), limits.columns, where)
    file, at_column, sheet = where.file, where.column, where.sheet
    width = len(columns)

    def row_of(line: int, record: list[str]) -> Row | None:
        """The record's Row, or None when it is blank."""
        if plain:
            cells = tuple(map(str.strip, record))
            values = dict(zip(columns, cells))
        else:
            values = {c: _lines(v) if "\r" in v else v.strip() for c, v in zip(columns, record)}
            cells = tuple(values.values())
            if max(map(len, values.values()), default=0) > limits.cell:
                for c, v in values.items():
                    if len(v) > limits.cell:
                        what = _("the cell has {n:,} characters", n=len(v))
                        raise exceeded("cell", what, limits.cell, where.at(row=line, column=c))
        if not any(cells):
            return None
        where_row = SourceRef(file, line, at_column, sheet)  # where.at(row=line)
        return Row(where_row, values, cells if len(cells) == width else ())

    found = [row_of(line, record) for line, record in records]
    every_row = all(found)  # no blank record
    rows = found if every_row else [row for row in found if row is not None]
    blank = [] if every_row else [line for (line, _r), row in zip(records, found) if row is None]
    if not rows:
        message = _("no rows: expected one row per card under the header")
        raise EmptySheet(message, where)
    last = rows[-1].where.row or 0
    blank = [line for line in blank if line < last]  # blank rows after the last card are nothing
    warnings = []
    if header_row > 1 and not named:
        warnings.append(
            Problem(
                "warning",
                _(
                    "the header is on row {row}, not row 1 (the rows above it are blank)",
                    row=header_row,
                ),
                where.at(row=header_row),
            )
        )
    if blank:
        shown = ", ".join(map(str, blank[:10])) + (" …" if len(blank) > 10 else "")
        warnings.append(
            Problem(
                "warning",
                ngettext(
                    "blank row between cards ({rows}): skipped, not a card",
                    "blank rows between cards ({rows}): skipped, not a card",
                    len(blank),
                    rows=shown,
                ),
                where.at(row=blank[0]),
            )
        )
    wider = any(len([c for c in r if c.strip()]) > len(columns) for _, r in records[:10])
    hint = _header_hint(every, where) if every and wider else ""
    return Table(where, columns, rows, header_row, tuple(warnings), hint)


# .xlsm (a workbook with macros) opens as .xlsx does; .xls (Excel 97–2003) and .ods through
# python-calamine, values only.


def _from_header(
    records: list[tuple[int, list[str]]], header: int | None, where: SourceRef
) -> list[tuple[int, list[str]]]:
    """The records from row `header` on (the manifest's `header = N`: a title or a row of
    group names above the column names); row N must hold the names."""
    if header is None:
        return records
    kept = [(line, record) for line, record in records if line >= header]
    if not kept or kept[0][0] != header or not any(c.strip() for c in kept[0][1]):
        message = _("row {n} is empty, but header = {n} says the column names are on it", n=header)
        raise BuildError(message, where.at(row=header))
    return kept
