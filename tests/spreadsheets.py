"""Spreadsheet files as designers' applications save them, written for tests: .ods (the
OpenDocument format LibreOffice saves; numbers as floats, text as strings) and .xlsx (through
openpyxl)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)


def _cell(value) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (
            f'<table:table-cell office:value-type="float" office:value="{float(value)}">'
            f"<text:p>{value}</text:p></table:table-cell>"
        )
    if value in ("", None):
        return "<table:table-cell/>"
    return (
        f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p>'
        "</table:table-cell>"
    )


def write_ods(
    path: Path, sheets: dict[str, list[list]], spans: dict[tuple[int, int], int] | None = None
) -> None:
    """An .ods with one table per entry of `sheets` (name -> rows, header first). `spans`:
    cells of the first sheet merged down, (row, column) from 0 -> rows spanned, as LibreOffice
    writes them (the top cell spans, the cells under it are covered)."""
    spans = spans or {}
    covered = {(r + k, c) for (r, c), n in spans.items() for k in range(1, n)}

    def cell(r: int, c: int, value, first: bool) -> str:
        if first and (r, c) in covered:
            return "<table:covered-table-cell/>"
        text = _cell(value)
        if first and (r, c) in spans:
            text = text.replace(
                "<table:table-cell",
                f'<table:table-cell table:number-rows-spanned="{spans[r, c]}"',
                1,
            )
        return text

    tables = "".join(
        f'<table:table table:name="{escape(name)}">'
        + "".join(
            "<table:table-row>"
            + "".join(cell(r, c, v, i == 0) for c, v in enumerate(row))
            + "</table:table-row>"
            for r, row in enumerate(rows)
        )
        + "</table:table>"
        for i, (name, rows) in enumerate(sheets.items())
    )
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS} '
        'office:version="1.2"><office:body><office:spreadsheet>'
        f"{tables}</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
        '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", manifest)
        z.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)


def write_xlsx(path: Path, sheets: dict[str, list[list]], merged: tuple[str, ...] = ()) -> None:
    """A workbook; `merged`: ranges ("B2:B3") merged on its first sheet, as Excel merges them
    (the value kept in the top-left cell only)."""
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    for cells in merged:
        book.worksheets[0].merge_cells(cells)
    book.save(path)


def csv_rows(path: Path) -> list[list]:
    """A CSV's rows with whole numbers as numbers, as a spreadsheet application would hold them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [[int(v) if v.isdigit() else v for v in line.split(",")] for line in lines]


def write_excel_parts(path: Path, strings: list[str], rows: str, formats: dict[int, str]) -> None:
    """A one-sheet workbook written part by part as Excel saves one: `strings` the shared
    strings' <si> contents (rich text, phonetic runs, _x000D_ as Excel writes them), `rows`
    the <row> elements of the sheet, `formats` number formats of its own (id -> code), each a
    cell format (s="1", s="2"… in the order given)."""
    import re

    write_xlsx(path, {"カード": [["x"]]})
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    with zipfile.ZipFile(path) as z:
        files = {name: z.read(name) for name in z.namelist()}
    sst = "".join(f"<si>{s}</si>" for s in strings)
    files["xl/sharedStrings.xml"] = f'<sst xmlns="{ns}">{sst}</sst>'.encode()
    sheet = f'<worksheet xmlns="{ns}"><sheetData>{rows}</sheetData></worksheet>'
    files["xl/worksheets/sheet1.xml"] = sheet.encode()
    styles = files["xl/styles.xml"].decode()
    defined = "".join(
        f'<numFmt numFmtId="{n}" formatCode="{escape(code, {chr(34): "&quot;"})}"/>'
        for n, code in formats.items()
    )
    styles = styles.replace(
        '<numFmts count="0"/>', f'<numFmts count="{len(formats)}">{defined}</numFmts>'
    )
    xfs = re.search(r"<cellXfs[^>]*>(.*?)</cellXfs>", styles)
    own = "".join(
        f'<xf numFmtId="{n}" fontId="0" fillId="0" borderId="0" applyNumberFormat="1"/>'
        for n in formats
    )
    styles = styles.replace(xfs[0], f'<cellXfs count="{1 + len(formats)}">{xfs[1]}{own}</cellXfs>')
    files["xl/styles.xml"] = styles.encode()
    files["[Content_Types].xml"] = files["[Content_Types].xml"].replace(
        b"</Types>",
        b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
        b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    )
    rels = "xl/_rels/workbook.xml.rels"
    files[rels] = files[rels].replace(
        b"</Relationships>",
        b'<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    )
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
