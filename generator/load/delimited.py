"""CSV (and TSV, semicolons): decoded, split into records by the standard library, which knows
each record's line, and stopped at the limits as each record is read."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from operator import itemgetter
from pathlib import Path

from .. import textfile
from ..i18n import _
from ..limits import DEFAULT, Limits, exceeded
from ..problems import BuildError, SourceRef
from .table import EXCEL_ERRORS, MB, Table, _error_values, _from_header, _header_hint, _table


def decode(data: bytes, where: SourceRef) -> str:
    """A CSV file's text by the project's one decoding rule (textfile)."""
    return textfile.decode(data, where, _("Save it from Excel as 'CSV UTF-8'."))


def _delimiter(text: str, header: int | None = None) -> str:
    """A tab when the header row is cut by tabs and has no comma (Excel's "Text (Tab
    delimited)", a .tsv); a semicolon when it is cut by semicolons and has neither (Excel's CSV
    where the decimal mark is a comma: German, French…); else a comma."""
    lines = text[:65536].splitlines()  # the header is near the top: the file is not split whole
    if header is not None:
        lines = lines[header - 1 : header]
    first = next((line for line in lines if line.strip()), "")
    if "," in first:
        return ","
    return "\t" if "\t" in first else ";" if ";" in first else ","


def read_csv(
    path: Path, where: SourceRef, limits: Limits = DEFAULT, header: int | None = None
) -> Table:
    def too_big(size: int) -> BuildError:
        return exceeded(
            "file_mb", _("the file has {mb:.0f} MB", mb=size / MB), limits.file_mb, where
        )

    text = decode(textfile.read_bytes(path, where, limits.file_mb * MB, too_big), where)
    if not text.strip():
        raise BuildError(_("the file is empty: expected a header row and one row per card"), where)
    delimiter = _delimiter(text, header)
    records, one_line = _records(text, delimiter, limits, where)
    records = _from_header(records, header, where)
    if not records:
        raise BuildError(
            _("the file has no cells: expected a header row and one row per card"), where
        )
    while records and not records[-1][1]:
        records.pop()  # blank lines at the end are no rows
    header_line, names = records[0]
    columns = [c.strip() for c in names]
    if not one_line:
        _check_quotes([r for r in records if r[1]], columns, where)
    rows = []
    width = len(columns)
    body = records[1:]
    if set(map(len, map(itemgetter(1), body))) <= {width}:  # every row as wide as the header
        rows, body = body, []
    for line, record in body:
        if len(record) == width:
            rows.append((line, record))
            continue
        record = record[: max(width, _filled_to(record))]  # empty cells past the last
        # column: a spreadsheet's formatting
        if len(record) > width:
            hint = _header_hint(records, where) or _(
                "; past the last column: {extra}. A comma inside a cell's text splits the cell: "
                'put that cell in double quotes ("A, B"), or in Japanese text write 、',
                extra=", ".join(repr(c) for c in record[len(columns) :]),
            )
            message = _(
                "{cells} cells but the header names {columns} columns",
                cells=len(record),
                columns=len(columns),
            )
            raise BuildError(message + hint, where.at(row=line))
        rows.append((line, record + [""] * (len(columns) - len(record))))
    table = _table(
        columns,
        rows,
        where,
        header_line,
        limits,
        records,
        header is not None,
        plain=one_line and max(map(len, text.split("\n"))) <= limits.cell,  # a cell, a line
    )
    if not any(mark in text for mark in EXCEL_ERRORS):
        return table
    return replace(table, warnings=table.warnings + tuple(_error_values(table)))


def _filled_to(record: list[str]) -> int:
    """How many of the record's cells there are up to its last with something in it."""
    end = len(record)
    while end and not record[end - 1].strip():
        end -= 1
    return end


def _records(
    text: str, delimiter: str, limits: Limits, where: SourceRef
) -> tuple[list[tuple[int, list[str]]], bool]:
    """The CSV's records, each with the line it starts on, from the first with a cell in it (a
    blank record after it as []), and whether every record is one line: read one by one, so a
    record of many lines is numbered by its first, and a file of too many rows, a row of too
    many cells (empty cells past the last filled one are a spreadsheet's formatting, dropped)
    or a broken one stops where it goes wrong, before the rest is read."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    records: list[tuple[int, list[str]]] = []
    count = 0
    try:
        line = 1
        for record in reader:
            count += 1
            if len(records) > limits.rows:
                raise exceeded("rows", _("the file has too many rows"), limits.rows, where)
            if len(record) > limits.columns:
                record = record[: _filled_to(record)]
                if len(record) > limits.columns:
                    what = _("a row has too many cells")
                    raise exceeded("columns", what, limits.columns, where.at(row=line))
            if "".join(record).strip():  # a cell with something in it
                records.append((line, record))
            elif records:
                records.append((line, []))  # a blank line between rows: reported by _table
            line = reader.line_num + 1  # where the next record starts
    except csv.Error as exc:
        raise BuildError(
            _("cannot read as CSV: {error}", error=exc), where.at(row=reader.line_num)
        ) from None
    return records, reader.line_num == count


# What Excel writes into a CSV for a cell whose formula fails.


def _check_quotes(records: list[tuple[int, list[str]]], columns: list[str], where) -> None:
    """A quote that never closes swallows the rows after it into one cell: a cell whose lines
    look like rows of their own (as many commas as the header) is named where it began."""
    commas = max(1, len(columns) - 1)
    for k, (line, record) in enumerate(records[1:], start=2):
        if "\n" not in "".join(record):
            continue
        for i, cell in enumerate(record):
            if "\n" not in cell:
                continue
            inner = cell.split("\n")[1:]
            if any(part.count(",") >= commas for part in inner):
                column = columns[i] if i < len(columns) else _("column {n}", n=i + 1)
                if k == len(records) and i == len(record) - 1:
                    message = _(
                        'a quote (") opened in this cell is not closed before the end of the '
                        "file: the rows after it were read as part of this cell. Close the "
                        'quote, or write a quote inside a cell as ""'
                    )
                else:
                    message = _(
                        'a quote (") opened in this cell is not closed until {n} lines later: '
                        "the rows in between were read as part of this cell. Close the quote, "
                        'or write a quote inside a cell as ""',
                        n=len(inner),
                    )
                raise BuildError(message, where.at(row=line, column=column))
