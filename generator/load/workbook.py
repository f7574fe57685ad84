"""XLSX and ODS workbooks: every part inflated first with a hard cap; XLSX streamed by openpyxl
(which knows each cell's number format), ODS and XLS read by python-calamine; merged cells
filled, formulas' errors located."""

from __future__ import annotations

import datetime
import re
import struct
import warnings
import zlib
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from ..i18n import _
from ..limits import DEFAULT, Limits, exceeded
from ..problems import BuildError, Problem, SourceRef
from .table import MB, EmptySheet, Table, _empty, _from_header, _table


def _check_unpacked(path: Path, where: SourceRef, limits: Limits, kind: str) -> None:
    """A workbook is a zip archive: before anything parses it, each part is inflated here (and
    thrown away) with a hard cap, whatever the archive's directory says of its size, so a part
    that lies (a few KB said, a GB inside) stops here and not in the reader after."""
    import zipfile

    most = limits.workbook_mb * MB
    try:
        with zipfile.ZipFile(path) as book, path.open("rb") as raw:
            infos = book.infolist()
            said = sum(info.file_size for info in infos)
            if said > most:
                what = _("the workbook unpacks to {mb:.0f} MB", mb=said / MB)
                raise exceeded("workbook_mb", what, limits.workbook_mb, where)
            total = 0
            for info in infos:
                size = _inflated(raw, info, most - total + 1)
                if size != info.file_size:
                    if total + size > most:
                        what = _("the workbook unpacks to more than {mb:.0f} MB", mb=most / MB)
                        raise exceeded("workbook_mb", what, limits.workbook_mb, where)
                    message = _(
                        "cannot open the workbook: its part {part} unpacks to {n:,} bytes where "
                        "the archive's directory says {said:,}; the file is damaged (save it "
                        "again from the spreadsheet program)",
                        part=info.filename,
                        n=size,
                        said=info.file_size,
                    )
                    raise BuildError(message, where)
                total += size
    except (zipfile.BadZipFile, OSError, zlib.error, struct.error):
        raise BuildError(
            _("cannot open the workbook: it is not an {kind} file", kind=kind)
            + _really(path, kind),
            where,
        ) from None


def _really(path: Path, named: str) -> str:
    """What a file that does not open as its name says really is, by its first bytes and
    parts, said with the name to give it ('; it is an .xlsx workbook: rename it deck.xlsx');
    '' when it is what its name says, or nothing pnp reads."""
    import zipfile

    try:
        with path.open("rb") as f:
            head = f.read(4096)
        kind = None
        if head.startswith(b"PK"):
            with zipfile.ZipFile(path) as book:
                names = set(book.namelist())
                if "xl/workbook.xml" in names:
                    kind = ".xlsx"
                elif "mimetype" in names and b"spreadsheet" in _first_bytes(book, "mimetype"):
                    kind = ".ods"
        elif head.startswith(b"\xd0\xcf\x11\xe0"):
            kind = ".xls"
        elif head and b"\0" not in head and (b"," in head or b"\t" in head or b";" in head):
            kind = ".csv"
    except (
        OSError,
        zipfile.BadZipFile,
        zlib.error,
        struct.error,
        KeyError,
        EOFError,
        ValueError,
        RuntimeError,
        NotImplementedError,
    ):  # a damaged or encrypted archive: no guess
        return ""
    if kind is None or kind == named:
        return ""
    what = {".xlsx": _("an .xlsx workbook"), ".ods": _("an .ods spreadsheet")}.get(
        kind, _("an Excel 97–2003 workbook") if kind == ".xls" else _("a text file of rows")
    )
    return _("; it is {what}: rename it {name}", what=what, name=path.stem + kind)


def _first_bytes(book, part: str) -> bytes:
    """A part's first 100 bytes, however large it unpacks to."""
    with book.open(part) as f:
        return f.read(100)


def _inflated(raw, info, most: int) -> int:
    """How many bytes part `info` of the zip open as `raw` inflates to (counted up to `most`,
    then the count stops), read from its compressed bytes as they are in the file."""
    raw.seek(info.header_offset)
    head = raw.read(30)
    if head[:4] != b"PK\x03\x04":
        raise zlib.error("no local header")
    name_len, extra_len = struct.unpack("<HH", head[26:30])
    raw.seek(info.header_offset + 30 + name_len + extra_len)
    left = info.compress_size
    if info.compress_type == 0:  # stored
        return left
    if info.compress_type != 8:  # only deflate is written by spreadsheet programs
        raise zlib.error("compression method")
    inflate = zlib.decompressobj(-15)
    size = 0
    while left > 0 and size < most and not inflate.eof:
        chunk = raw.read(min(left, 1 << 16))
        if not chunk:
            break
        left -= len(chunk)
        while chunk and size < most and not inflate.eof:
            size += len(inflate.decompress(chunk, 1 << 20))
            chunk = inflate.unconsumed_tail
    return size


class SeveralSheets(Exception):
    """No sheet named, and the workbook has several (read_table answers: it says which)."""

    def __init__(self, names: list[str]):
        super().__init__(names)
        self.names = names


def _pick_sheet(names: list[str], sheet: str | None, where: SourceRef) -> str:
    """The sheet named, or a workbook's only sheet."""
    if not sheet and len(names) == 1:
        return names[0]
    if not sheet and len(names) > 1:
        raise SeveralSheets(names)
    if sheet not in names:
        message = _(
            "the workbook has no sheet {sheet!r} (sheets: {sheets})",
            sheet=sheet or "",
            sheets=", ".join(names),
        )
        raise BuildError(message, where)
    return sheet


def _several(
    path: Path, where: SourceRef, kind: str, names, limits, first: bool, header: int | None = None
) -> Table:
    """A workbook of several sheets, none named: with `first` (pnp new) its first sheet with
    rows; else an error saying to name one, that sheet the example."""
    try:
        table = _first_with_rows(path, where, kind, names, limits, header)
    except BuildError:
        if first:
            raise  # pnp new: what is wrong with the sheet it would read
        table = None  # a build: which sheet to name is the message, not that sheet's
    if first and table is not None:
        return replace(table, others=tuple(n for n in names if n != table.where.sheet))
    message = _(
        "the workbook has {n} sheets ({sheets}): name the one with the cards after a '#', "
        "for example {example}",
        n=len(names),
        sheets=", ".join(names),
        example=f"{path.name}#{table.where.sheet if table else names[0]}",
    )
    raise BuildError(message, where)


def _first_with_rows(
    path: Path, where: SourceRef, kind: str, names, limits, header: int | None = None
) -> Table | None:
    """A workbook's first sheet that reads as a table of cards: a header of two or more
    columns with rows under it, the rows no wider than it (a cover sheet of notes, a blank
    sheet passed over); else its first sheet with rows."""
    reader = read_xlsx if kind == "xlsx" else read_ods
    first = None
    for name in names:
        try:
            table = reader(path, where, name, limits, header)
        except EmptySheet:
            continue
        if len(table.columns) >= 2 and not table.hint:
            return table
        first = first or table
    return first


def read_ods(
    path: Path,
    where: SourceRef,
    sheet: str | None,
    limits: Limits = DEFAULT,
    header: int | None = None,
) -> Table:
    """An OpenDocument spreadsheet (LibreOffice, Google Sheets' .ods download) or an Excel
    97–2003 workbook (.xls), through python-calamine, row by row, with the same limits as a
    workbook."""
    if path.suffix.lower() == ".xls":  # not a zip: its cells are stored as they are, unpacked
        if path.stat().st_size > limits.workbook_mb * MB:
            what = _("the workbook is {mb:.0f} MB", mb=path.stat().st_size / MB)
            raise exceeded("workbook_mb", what, limits.workbook_mb, where)
    else:
        _check_unpacked(path, where, limits, ".ods")
    name, rows = _calamine_sheet(
        path, sheet, where, lambda exc: _("cannot open the spreadsheet: {error}", error=exc)
    )
    sheet_where = SourceRef(where.file, sheet=name)
    records: list[tuple[int, list[str]]] = []
    for r, values in enumerate(rows, start=1):
        if r > limits.rows + 1:
            raise exceeded("rows", _("the sheet has too many rows"), limits.rows, sheet_where)
        cells = ["" if v is None else _text(v) for v in values]
        while cells and cells[-1] == "":
            cells.pop()
        if len(cells) > limits.columns:
            where_r = sheet_where.at(row=r)
            raise exceeded("columns", _("a row has too many cells"), limits.columns, where_r)
        records.append((r, cells))
    if path.suffix.lower() == ".ods" and any("" in cells for _r, cells in records):
        _fill_merged(records, [], _ods_merged(path, name))  # LibreOffice merges cells too
    return _sheet_table(records, sheet_where, limits, header)


def read_xlsx(
    path: Path,
    where: SourceRef,
    sheet: str | None,
    limits: Limits = DEFAULT,
    header: int | None = None,
) -> Table:
    _check_unpacked(path, where, limits, ".xlsx")
    sheet, records, blanks, failing = _openpyxl_records(path, sheet, where, limits)
    sheet_where = SourceRef(where.file, sheet=sheet)
    if blanks:  # a cell merged down over the rows under it leaves them blank in the file
        blanks = _fill_merged(records, blanks, _merged_ranges(path, sheet))
    if not records:
        raise _empty(sheet_where)
    kept = _from_header(records, header, sheet_where)
    top, names = kept[min(_first_filled(kept), len(kept) - 1)]  # the header: its messages' names
    failing = [cell for cell in failing if cell[0] > top]  # a card's, not a title's above
    if failing:
        _formula_errors(sheet, sheet_where, failing, names)
    if blanks and _has_formulas(path):
        _check_formulas(path, sheet, sheet_where, blanks, names)
    return _sheet_table(records, sheet_where, limits, header)


# A formula in a sheet's XML, as writers write it: <f>, or <x:f> with a prefix.
_FORMULAS = (re.compile(rb"<f[\s/>]"), re.compile(rb":f[\s/>]"))


def _has_formulas(path: Path) -> bool:
    """Whether any sheet of the workbook holds a formula (its unpacked size is checked)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as book:
            return any(
                any(f.search(book.read(name)) for f in _FORMULAS)
                for name in book.namelist()
                if name.startswith("xl/worksheets/") and name.endswith(".xml")
            )
    except (zipfile.BadZipFile, OSError, KeyError, RuntimeError):
        return True  # no telling: look at the blank cells' formulas


def _calamine_sheet(path: Path, sheet: str | None, where: SourceRef, broken):
    """A sheet read by python-calamine: its name and its rows from row 1, each from column A
    (as merges and column letters count; calamine's start at the first column with a value).
    `broken(exc)`: the message for a file it cannot open."""
    from python_calamine import CalamineWorkbook  # loads in 2 ms

    try:
        book = CalamineWorkbook.from_path(str(path))
        name = _pick_sheet(list(book.sheet_names), sheet, where)
        found = book.get_sheet_by_name(name)
        rows, start = found.iter_rows(), found.start
    except (BuildError, SeveralSheets):
        raise
    except Exception as exc:  # noqa: BLE001 - calamine raises its own kinds for a broken file
        raise BuildError(broken(exc) + _really(path, path.suffix.lower()), where) from None
    lead = [""] * (start[1] if start else 0)
    return name, ([*lead, *row] for row in rows)


def _openpyxl_records(path: Path, sheet: str | None, where: SourceRef, limits: Limits):
    """The sheet's name, its records, blank cells and failing formulas (see _sheet_records),
    read by openpyxl (read-only): every cell with its number format."""
    import openpyxl

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds for a broken workbook
        message = _(
            "cannot open the workbook: {error}; the file is damaged or no workbook (save it "
            "again from the spreadsheet program)",
            error=exc,
        )
        raise BuildError(message + _really(path, path.suffix.lower()), where) from None
    try:
        sheet = _pick_sheet(book.sheetnames, sheet, where)
        sheet_where = SourceRef(where.file, sheet=sheet)
        found = book[sheet]
        if not hasattr(found, "iter_rows"):  # a chart sheet: no cells
            return sheet, [], [], []
        return sheet, *_sheet_records(found, sheet_where, limits)
    finally:
        book.close()


_OOXML_ESCAPE = re.compile(r"_x(00[01][0-9A-Fa-f])_")


def _sheet_table(
    records: list[tuple[int, list[str]]],
    where: SourceRef,
    limits: Limits,
    header: int | None = None,
) -> Table:
    """A sheet's rows under its header (row `header`, else the first that is not blank): blank
    rows above the header and at the end are no rows."""
    records = _from_header(records, header, where)
    while records and not any(c.strip() for c in records[-1][1]):
        records.pop()
    start = _first_filled(records)
    if start == len(records):
        raise _empty(where)
    header_row, names = records[start]
    named = header is not None
    return _table(names, records[start + 1 :], where, header_row, limits, records[start:], named)


def _merged_ranges(path: Path, sheet: str) -> list:
    """A workbook sheet's merged cells as ((row, column), (last row, last column)), from 0
    (python-calamine reads them; openpyxl's streaming reader does not)."""
    from python_calamine import CalamineWorkbook

    try:
        found = CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet)
    except Exception:  # noqa: BLE001 - the rows were read; no merges is the safe reading
        return []
    return getattr(found, "merged_cell_ranges", None) or []


_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"


def _ods_merged(path: Path, sheet: str) -> list:
    """An .ods sheet's cells merged over more than one row, as _merged_ranges gives them,
    from its content.xml (python-calamine reads no merges from .ods): streamed, with repeated
    rows and columns counted rather than walked (a sheet ends in a million empty rows)."""
    import zipfile
    from xml.etree.ElementTree import iterparse

    out: list = []
    try:
        with zipfile.ZipFile(path) as book, book.open("content.xml") as xml:
            inside, row, col = False, -1, 0
            for event, el in iterparse(xml, events=("start", "end")):
                tag = el.tag
                if tag == _TABLE + "table":
                    if event == "start":
                        inside, row = el.get(_TABLE + "name") == sheet, -1
                    elif inside:
                        break  # the sheet is read: the rest of the file is other sheets
                    continue
                if not inside:
                    if event == "end":
                        el.clear()
                    continue
                if tag == _TABLE + "table-row":
                    if event == "start":
                        row, col = row + 1, 0
                    else:
                        row += int(el.get(_TABLE + "number-rows-repeated", "1")) - 1
                        el.clear()
                elif tag in (_TABLE + "table-cell", _TABLE + "covered-table-cell"):
                    if event == "start":
                        rows = int(el.get(_TABLE + "number-rows-spanned", "1"))
                        if rows > 1:
                            out.append(((row, col), (row + rows - 1, col)))
                        col += int(el.get(_TABLE + "number-columns-repeated", "1"))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, SyntaxError):
        return []  # the rows were read: no merges is the safe reading
    return out


def _fill_merged(records: list[tuple[int, list[str]]], blanks: list, ranges) -> list:
    """A cell merged down over the rows under it (属性 written once beside the rows of one
    element) is each of those rows' value, as the designer sees the sheet; merged across
    columns, its value stays in the first. The blank cells left."""
    by_row = dict(records)
    filled: set[tuple[int, int]] = set()
    for (r0, c0), (r1, _c1) in ranges:
        top = by_row.get(r0 + 1)
        if top is None or c0 >= len(top) or not top[c0]:
            continue
        for r in range(r0 + 2, r1 + 2):
            cells = by_row.get(r)
            if cells is None:
                continue
            cells.extend([""] * (c0 + 1 - len(cells)))
            if cells[c0] == "":
                cells[c0] = top[c0]
                filled.add((r, c0))
    return [cell for cell in blanks if cell not in filled]


def _first_filled(records: list[tuple[int, list[str]]]) -> int:
    """The index of the first record with a cell filled in (the header), or len(records)."""
    return next(
        (i for i, (_line, r) in enumerate(records) if any(c.strip() for c in r)), len(records)
    )


def _sheet_records(ws, where: SourceRef, limits: Limits):
    """(row number, cells as text) for every row, the addresses of blank cells, and the cells
    whose formula fails (#DIV/0!, #N/A…: Excel's error values)."""
    records: list[tuple[int, list[str]]] = []
    blanks: list[tuple[int, int]] = []
    failing: list[tuple[int, int, str]] = []
    width = 0  # the widest row so far: the header's, under a title row of one cell
    for r, row in enumerate(ws.iter_rows(), start=1):
        values = [c.value for c in row]
        cells = [
            "" if v is None else _text(v, getattr(c, "number_format", None))
            for c, v in zip(row, values)
        ]
        for i, v in enumerate(values):
            if isinstance(v, str) and "_x" in v:  # as Excel shows it: _x000D_ is a line break
                cells[i] = _OOXML_ESCAPE.sub(lambda m: chr(int(m[1], 16)), v)
        width = _add_record(records, blanks, r, values, cells, width, where, limits)
        failing += [(r, c, str(v)) for c, (x, v) in enumerate(zip(row, values)) if _failed(x)]
    return records, blanks, failing


def _add_record(records, blanks, r: int, values, cells, width: int, where, limits) -> int:
    """Add sheet row `r` (`values` as read, blank None or "", and `cells` as text) to
    `records` and its blank cells to `blanks`; returns the widest row so far (`width`: the
    widest before it, the header's under a title row of one cell)."""
    if r > limits.rows + 1:
        raise exceeded("rows", _("the sheet has too many rows"), limits.rows, where)
    while cells and cells[-1] == "" and len(cells) > width:
        cells.pop()  # formatting past the last column is not a cell
    if len(cells) > limits.columns:
        raise exceeded("columns", _("a row has too many cells"), limits.columns, where.at(row=r))
    blanks += [(r, c) for c, v in enumerate(values[: len(cells)]) if v is None or v == ""]
    records.append((r, cells))
    return max(width, len(cells))


def _column_name(header: list[str], c: int) -> str:
    """Column c (from 0) as messages name it: its header's name, else its letter (D)."""
    from openpyxl.utils import get_column_letter

    return header[c] if c < len(header) and header[c] else get_column_letter(c + 1)


def _failed(cell) -> bool:
    """A cell holding one of Excel's error values: its formula fails in the spreadsheet."""
    return getattr(cell, "data_type", None) == "e"


def _formula_errors(sheet: str, where: SourceRef, failing, header: list[str]) -> None:
    """Cells whose formula fails would print #DIV/0! on a card: each named, by its column."""
    from openpyxl.utils import get_column_letter

    problems = []
    for r, c, value in failing:
        column = _column_name(header, c)
        message = _(
            "{cell} shows {value}: its formula fails in the spreadsheet, and a card would print "
            "that",
            cell=f"{sheet}!{get_column_letter(c + 1)}{r}",
            value=value,
        )
        problems.append(Problem("error", message, where.at(row=r, column=column)))
    raise BuildError(problems)


def _text(value, number_format: str | None = None) -> str:
    """A cell's value as the spreadsheet shows it: 5 not 5.0, TRUE not True, a date without
    a midnight time, a number as its format shows it (50% not 0.5, ¥1,200 not 1200)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)) and number_format:
        shown = _formatted(value, number_format)
        if shown is not None:
            return shown
    if isinstance(value, (datetime.date, datetime.time)) and number_format:
        shown = _date_formatted(value, number_format)
        if shown is not None:
            return shown
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # Excel stores 5 as 5.0
    if isinstance(value, datetime.datetime):
        if (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0):
            return value.date().isoformat()  # a date cell: 2026-11-30
        return value.isoformat(sep=" ", timespec="minutes" if not value.second else "seconds")
    if isinstance(value, datetime.time):
        return value.isoformat(timespec="minutes" if not value.second else "seconds")
    return str(value)


# The parts of one section of an Excel number format: words in quotes, an escaped character,
# a currency mark ([$¥-411]), other bracketed codes ([Red]), padding (_x, *x), the digits
# (0 # ? , . %) and any other single character.
_FORMAT_PART = re.compile(
    r'"(?P<quoted>[^"]*)"|\\(?P<escaped>.)|\[\$(?P<mark>[^\]-]*)[^\]]*\]|\[[^\]]*\]|[_*].'
    r"|(?P<digits>[#0?,.%]+)|(?P<other>.)"
)


def _formatted(value: float, number_format: str) -> str | None:
    """A number as an Excel number format shows it, for the formats cards use: digits after
    the point, thousands separators, percentages, words and marks around it ("¥"#,##0, 0"円",
    [$¥-411]#,##0). None for General, text, dates and what else it does not read (scientific,
    fractions): the number is then written plainly."""
    sections = number_format.split(";")
    section = sections[1] if value < 0 and len(sections) > 1 else sections[0]
    sign = "-" if value < 0 and len(sections) == 1 else ""
    before: list[str] = []
    after: list[str] = []
    digits = ""
    for m in _FORMAT_PART.finditer(section):
        if m["digits"] is not None:
            if after:
                return None  # a second number (a fraction, a date): not ours to read
            digits += m["digits"]
            continue
        literal = m["quoted"] or m["escaped"] or m["mark"] or m["other"] or ""
        if m["other"] is not None and (m["other"].isalpha() or m["other"] == "/"):
            return None  # dates, scientific and fractions: read otherwise
        if literal:
            (after if digits else before).append(literal)
    if not digits.strip(",.%"):
        return None  # General, @ (text) and formats with no digit at all
    percent = digits.count("%")
    whole, _dot, decimals = digits.replace("%", "").partition(".")
    places = len(decimals.replace(",", ""))
    shown = Decimal(repr(abs(value))).scaleb(2 * percent)  # 0.5 at 0% is 50
    shown = shown.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)  # Excel's way
    text = f"{shown:{',' if ',' in whole else ''}.{places}f}"
    head, dot, tail = text.partition(".")
    padded = whole.count("0")  # 000 shows 7 as 007
    if len(head.replace(",", "")) < padded:
        head = head.replace(",", "").zfill(padded)
        text = head + dot + tail
    fixed = decimals.count("0")
    if places > fixed:  # '#' places: shown only where they are not zero
        head, _dot, tail = text.partition(".")
        tail = tail.rstrip("0").ljust(fixed, "0")
        text = f"{head}.{tail}" if tail else head
    return sign + "".join(before) + text + "%" * percent + "".join(after)


# One part of an Excel date or time format: words in quotes, an escaped character, a bracketed
# code ([$-411], [h]), AM/PM, a run of one date/time letter, or any other character.
_DATE_PART = re.compile(
    r'"(?P<quoted>[^"]*)"|\\(?P<escaped>.)|(?P<code>\[[^\]]*\])|(?P<ampm>AM/PM|am/pm)'
    r"|(?P<run>y+|m+|d+|h+|s+|a+|g+|e+)|(?P<other>.)",
    re.IGNORECASE,
)
_WEEK_JA = "月火水木金土日"
_WEEK_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January February March April May June July August September October November December"
).split()


def _date_formatted(value, number_format: str) -> str | None:
    """A date or time as its Excel format shows it (yyyy/m/d, yyyy"年"m"月"d"日", m/d(aaa),
    h:mm): years, months (m, mm, mmm, mmmm; mm after h or before ss is minutes), days, weekdays
    (ddd, dddd; aaa, aaaa in Japanese), hours, minutes, seconds, AM/PM. None for what it does
    not read (the Japanese era, g and e): the ISO form is written then."""
    if number_format.strip().lower() in ("general", "@"):
        return None
    parts = list(_DATE_PART.finditer(number_format.split(";")[0]))
    runs = [m["run"].lower()[0] if m["run"] else None for m in parts]
    if not any(runs):
        return None
    date = value if isinstance(value, datetime.date) else None
    clock = value if isinstance(value, datetime.time) else None
    if isinstance(value, datetime.datetime):
        clock = value.time()
    twelve = any(m["ampm"] for m in parts)
    out = []
    for i, m in enumerate(parts):
        if m["quoted"] is not None or m["escaped"] is not None:
            out.append(m["quoted"] if m["quoted"] is not None else m["escaped"])
        elif m["code"] is not None:
            continue  # a locale or colour code: nothing printed
        elif m["ampm"]:
            out.append("AM" if clock is None or clock.hour < 12 else "PM")
        elif m["run"]:
            letter, n = m["run"].lower()[0], len(m["run"])
            if letter in "ge":
                return None
            before = next((r for r in reversed(runs[:i]) if r), None)
            after = next((r for r in runs[i + 1 :] if r), None)
            minutes = letter == "m" and n <= 2 and (before == "h" or after == "s")
            if letter in "hs" or minutes:
                if clock is None:
                    return None
                amount = {"h": clock.hour, "s": clock.second}.get(letter, clock.minute)
                if letter == "h" and twelve:
                    amount = amount % 12 or 12
                out.append(f"{amount:0{min(n, 2)}d}")
                continue
            if date is None:
                return None
            if letter == "y":
                out.append(f"{date.year % 100:02d}" if n <= 2 else str(date.year))
            elif letter == "m":
                name = _MONTHS[date.month - 1]
                out.append(f"{date.month:0{n}d}" if n <= 2 else name[:3] if n == 3 else name)
            elif letter == "d":
                week = _WEEK_EN[date.weekday()]
                out.append(f"{date.day:0{n}d}" if n <= 2 else week[:3] if n == 3 else week)
            elif letter == "a":
                day = _WEEK_JA[date.weekday()]
                out.append(day if n <= 3 else day + "曜日")
        else:
            out.append(m["other"])
    return "".join(out)


def _check_formulas(path: Path, sheet: str, where: SourceRef, blanks, header: list[str]) -> None:
    """A formula cell whose value was never saved reads as blank: say which cell it is."""
    import openpyxl
    from openpyxl.utils import get_column_letter

    wanted = set(blanks)
    book = openpyxl.load_workbook(path, read_only=True, data_only=False)
    try:
        for r, values in enumerate(book[sheet].iter_rows(values_only=True), start=1):
            for c, v in enumerate(values):
                if (r, c) in wanted and isinstance(v, str) and v.startswith("="):
                    column = _column_name(header, c)
                    raise BuildError(
                        _(
                            "{cell} holds a formula ({formula}) whose value was never saved; "
                            "open the workbook in Excel or LibreOffice and save it, so the "
                            "value is stored",
                            cell=f"{sheet}!{get_column_letter(c + 1)}{r}",
                            formula=v[:40],
                        ),
                        where.at(row=r, column=column),
                    )
    finally:
        book.close()
