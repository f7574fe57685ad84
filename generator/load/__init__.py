"""Spreadsheets to rows: CSV (UTF-8, BOM, cp932/Shift_JIS, Windows-1252), XLSX and ODS, each row
knowing its origin.

The first stage after the manifest is read. CSV goes through the standard library, which knows
each record's line; XLSX is streamed row by row with openpyxl (read-only), which knows each
cell's number format; ODS (LibreOffice) is read row by row with python-calamine. All stop at
the limits (limits.py) before a hostile file can exhaust memory. Rows come out as plain dicts
of strings; typing and checking them is validate's job.
"""

from __future__ import annotations

from pathlib import Path

from .. import textfile
from ..i18n import _
from ..limits import DEFAULT, Limits
from ..problems import BuildError, SourceRef
from .delimited import decode, read_csv
from .table import EmptySheet, Row, Table
from .workbook import SeveralSheets, _several, read_ods, read_xlsx

__all__ = ["EmptySheet", "Row", "Table", "decode", "read_csv", "read_table", "split_sheet"]


READERS = {
    ".csv": "csv",
    ".tsv": "csv",
    ".txt": "csv",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".ods": "ods",
    ".xls": "ods",
}


def split_sheet(text: str) -> tuple[str, str | None]:
    """`book.xlsx#煩悩` as (the file, the sheet): the first '#' after a workbook's name; a '#'
    in a file's own name (`deck#2.csv`, `v#3.xlsx#札`) is part of it."""
    at = -1
    while (at := text.find("#", at + 1)) != -1:
        if READERS.get(Path(text[:at]).suffix.lower(), "csv") != "csv":
            return text[:at], text[at + 1 :]
    return text, None


def read_table(
    path: Path,
    where: SourceRef,
    sheet: str | None = None,
    limits: Limits = DEFAULT,
    first: bool = False,
    header: int | None = None,
) -> Table:
    """Rows of one deck: a CSV file, or one sheet of a workbook (`sheet` names it; a workbook
    of one sheet needs no name). With `first` and no sheet named, a workbook's first sheet with
    rows under its header (a cover sheet or an empty one passed over), its others named. With
    `header`, the column names are on that row, whatever is above it."""
    if not path.exists():
        before, _hash, after = path.name.rpartition("#")
        if after and (path.parent / before).is_file():  # cards.csv#札: a CSV has no sheets
            raise BuildError(
                _(
                    "file not found; {file} is there, and it has no sheets to pick (only a "
                    'workbook has): write data = "{file}"',
                    file=before,
                ),
                where,
            )
        raise BuildError(_("file not found"), where)
    textfile.regular(path, where)  # not a folder, nor a pipe that would keep it waiting
    kind = READERS.get(path.suffix.lower())
    if kind == "csv":
        return read_csv(path, where, limits, header)
    if kind in ("xlsx", "ods"):
        try:
            return (read_xlsx if kind == "xlsx" else read_ods)(path, where, sheet, limits, header)
        except SeveralSheets as several:
            return _several(path, where, kind, several.names, limits, first, header)
    if path.suffix:
        message = _(
            "cannot read {suffix}: use .csv (UTF-8 or Shift_JIS; .tsv or .txt with tabs), .xlsx, "
            ".xls or .ods",
            suffix=path.suffix,
        )
        if path.suffix.lower() == ".numbers":
            message += _(" (in Numbers: File > Export To > Excel)")
        elif path.suffix.lower() == ".gsheet":  # a Google Drive shortcut: no cells in it
            message += _(" (in Google Sheets: File > Download > Microsoft Excel (.xlsx))")
    else:
        message = _(
            "cannot read files without a suffix: use .csv (UTF-8 or Shift_JIS; .tsv or .txt with "
            "tabs), .xlsx, .xls or .ods"
        )
    raise BuildError(message, where)
