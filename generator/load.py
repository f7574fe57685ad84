"""Spreadsheets to rows: CSV (UTF-8, UTF-8 with BOM, cp932/Shift_JIS) and XLSX, each row knowing
its origin.

The first stage after the manifest is read. The only module that touches pandas, and only for
workbooks: CSV goes through the standard library, which knows each record's line and keeps a
build from paying pandas' import time (a fifth of a second) for a 40-row file. Rows come out as
plain dicts of strings; typing and checking them is validate's job.
"""

from __future__ import annotations

import csv
import io
import warnings
from dataclasses import dataclass
from pathlib import Path

from . import textfile
from .problems import BuildError, Problem, SourceRef


@dataclass(frozen=True)
class Row:
    where: SourceRef  # file, sheet, row (1-based, header is row 1); column unset
    values: dict[str, str]


@dataclass(frozen=True)
class Table:
    where: SourceRef  # the file (and sheet)
    columns: list[str]
    rows: list[Row]
    header_row: int = 1


def decode(data: bytes, where: SourceRef) -> str:
    """A CSV file's text by the project's one decoding rule (textfile)."""
    return textfile.decode(data, where, "save it from Excel as 'CSV UTF-8'")


def read_csv(path: Path, where: SourceRef) -> Table:
    data = path.read_bytes()
    text = decode(data, where)
    if not text.strip():
        raise BuildError(
            [
                Problem(
                    "error", "the file is empty: expected a header row and one row per card", where
                )
            ]
        )
    reader = csv.reader(io.StringIO(text, newline=""))
    records: list[tuple[int, list[str]]] = []
    try:
        line = 1
        for record in reader:
            if record and any(cell.strip() for cell in record):
                records.append((line, record))
            line = reader.line_num + 1  # where the next record starts
    except csv.Error as exc:
        raise BuildError(
            [Problem("error", f"cannot read as CSV: {exc}", where.at(row=reader.line_num))]
        ) from None
    header_line, header = records[0]
    columns = [c.strip() for c in header]
    rows = []
    for line, record in records[1:]:
        if len(record) > len(columns):
            raise BuildError(
                [
                    Problem(
                        "error",
                        f"{len(record)} cells but the header names {len(columns)} columns",
                        where.at(row=line),
                    )
                ]
            )
        rows.append((line, record + [""] * (len(columns) - len(record))))
    return _table(columns, rows, where, header_line)


def read_xlsx(path: Path, where: SourceRef, sheet: str) -> Table:
    import pandas as pd  # only workbooks need it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            book = pd.ExcelFile(path, engine="openpyxl")
    except Exception as exc:  # openpyxl raises many kinds for a broken workbook
        raise BuildError([Problem("error", f"cannot open the workbook: {exc}", where)]) from None
    if sheet not in book.sheet_names:
        raise BuildError(
            [
                Problem(
                    "error",
                    f"the workbook has no sheet {sheet!r} (sheets: {', '.join(book.sheet_names)})",
                    where,
                )
            ]
        )
    frame = pd.read_excel(book, sheet_name=sheet, dtype=str, keep_default_na=False, header=0)
    sheet_where = SourceRef(where.file, sheet=sheet)
    if frame.empty and not len(frame.columns):
        raise BuildError(
            [
                Problem(
                    "error",
                    "the sheet is empty: expected a header row and one row per card",
                    sheet_where,
                )
            ]
        )
    columns = [str(c) for c in frame.columns]
    rows = [
        (i + 2, ["" if v is None else str(v) for v in record])
        for i, record in enumerate(frame.itertuples(index=False, name=None))
    ]
    return _table(columns, rows, sheet_where)


def _table(
    columns: list[str], records: list[tuple[int, list[str]]], where: SourceRef, header_row: int = 1
) -> Table:
    columns = [c.strip() for c in columns]
    unnamed = [i for i, c in enumerate(columns) if not c or c.startswith("Unnamed:")]
    if unnamed:
        raise BuildError(
            [
                Problem(
                    "error",
                    f"column {unnamed[0] + 1} has no name in the header row",
                    where.at(row=header_row),
                )
            ]
        )
    rows = []
    for line, record in records:
        values = {c: v.strip() for c, v in zip(columns, record)}
        if any(values.values()):  # an empty row between cards is not a card
            rows.append(Row(where.at(row=line), values))
    if not rows:
        raise BuildError(
            [Problem("error", "no rows: expected one row per card under the header", where)]
        )
    return Table(where, columns, rows, header_row)


READERS = {".csv": "csv", ".xlsx": "xlsx"}


def read_table(path: Path, where: SourceRef, sheet: str | None = None) -> Table:
    """Rows of one deck: a CSV file, or one sheet of a workbook (`sheet` names it)."""
    if not path.exists():
        raise BuildError([Problem("error", "file not found", where)])
    kind = READERS.get(path.suffix.lower())
    if kind == "csv":
        return read_csv(path, where)
    if kind == "xlsx":
        return read_xlsx(path, where, sheet or "")
    raise BuildError(
        [
            Problem(
                "error",
                f"cannot read {path.suffix or 'files without a suffix'}: "
                "use .csv (UTF-8 or Shift_JIS) or .xlsx",
                where,
            )
        ]
    )
