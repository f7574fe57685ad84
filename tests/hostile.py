"""Hostile and broken projects, one builder each: the fixtures of the hostile suite
(tests/test_hostile_readers.py) and of benchmarks/bench_hostile.py, which builds them at the
sizes the issue measured and prints time and peak memory per case.

A builder takes a fresh folder and `big` (False: the smallest input that shows the fault, for
the suite; True: the size the fault was first seen at) and makes a project there from the
`tiny` fixture. It returns a Case: the command's arguments after `pnp` and what its message
must say (the file it names, and a phrase).
"""

from __future__ import annotations

import os
import shutil
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HEADER = "suit,number,color,text\n"
ROW = "赤,1,#C8323C,x\n"


@dataclass(frozen=True)
class Case:
    argv: list[str]  # after `pnp`
    names: str  # the file (and line) the message names
    says: str  # a phrase of the message
    exit_code: int = 1
    env: dict = field(default_factory=dict)  # environment the command runs with
    then: list[str] | None = None  # a command that must then succeed (exit 0)
    unprivileged: bool = False  # shows only to a user without root's rights (a mode bit)
    breaks_outputs: bool = False  # the case itself is a damaged output folder


def tiny(folder: Path) -> Path:
    """FOLDER/project: the tiny fixture game (copied over the one there, if there is one, so
    a project built before it is broken keeps its output folder)."""
    root = folder / "project"
    shutil.copytree(FIXTURES / "tiny", root, dirs_exist_ok=True)
    return root


def _data(root: Path, name: str) -> Path:
    """Point the tiny game's data at cards/tiny/NAME; returns that path."""
    manifest = root / "cards/tiny/game.toml"
    text = manifest.read_text(encoding="utf-8").replace('data = "cards.csv"', f'data = "{name}"')
    manifest.write_text(text, encoding="utf-8")
    return root / "cards/tiny" / name


def _manifest(root: Path, old: str, new: str) -> None:
    manifest = root / "cards/tiny/game.toml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text, old
    manifest.write_text(text.replace(old, new, 1), encoding="utf-8")


CASES: dict[str, object] = {}


def case(name: str):
    def add(builder):
        CASES[name] = builder
        return builder

    return add


# -- spreadsheets ---------------------------------------------------------------------------

XLSX_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
    ),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    ),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheets><sheet name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
    ),
}


def _sheet(rows: list[list[str]], pad: int = 0) -> bytes:
    """A worksheet of inline-string cells; `pad` bytes of XML comment after the rows."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns='
        '"http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    ]
    for n, row in enumerate(rows, start=1):
        cells = "".join(
            f'<c r="{"ABCD"[i]}{n}" t="inlineStr"><is><t>{v}</t></is></c>'
            for i, v in enumerate(row)
        )
        out.append(f'<row r="{n}">{cells}</row>')
    out.append("</sheetData>")
    head = "".join(out).encode()
    return head + b"<!--" + b" " * pad + b"-->" + b"</worksheet>"


_ROWS = [["suit", "number", "color", "text"], ["赤", "1", "#C8323C", "x"]]


def _lying_zip(path: Path, parts: dict[str, bytes], liar: str, says: int) -> None:
    """A zip whose central directory gives part `liar` the uncompressed size `says` (its
    local header and the deflate stream hold the real, larger one)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    blob = bytearray(path.read_bytes())
    end = blob.rfind(b"PK\x05\x06")
    (start,) = struct.unpack_from("<I", blob, end + 16)
    at = start
    while blob[at : at + 4] == b"PK\x01\x02":
        n, m, k = struct.unpack_from("<HHH", blob, at + 28)
        name = blob[at + 46 : at + 46 + n].decode()
        if name == liar:
            struct.pack_into("<I", blob, at + 24, says)  # uncompressed size
            (local,) = struct.unpack_from("<I", blob, at + 42)
            struct.pack_into("<I", blob, local + 22, says)
        at += 46 + n + m + k
    path.write_bytes(bytes(blob))


@case("xlsx whose zip directory lies about a sheet's size")
def xlsx_lying(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    path = _data(root, "cards.xlsx")
    pad = (1 << 30) if big else (300 << 20)
    parts = {k: v.encode() for k, v in XLSX_PARTS.items()}
    parts["xl/worksheets/sheet1.xml"] = _sheet(_ROWS, pad)
    _lying_zip(path, parts, "xl/worksheets/sheet1.xml", 2000)
    return Case(["check", "--project", str(root)], "cards/tiny/cards.xlsx", "unpack")


@case("xlsx with a malformed styles.xml")
def xlsx_styles(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    path = _data(root, "cards.xlsx")
    n = 200_000 if big else 40_000
    parts = {k: v.encode() for k, v in XLSX_PARTS.items()}
    parts["xl/worksheets/sheet1.xml"] = _sheet(_ROWS)
    parts["xl/styles.xml"] = b"<styleSheet>" + b"<cellXfs>" * n  # never closed
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return Case(
        ["check", "--project", str(root)], "cards/tiny/cards.xlsx", "cannot open the workbook"
    )


@case("csv row of 500,000 empty cells")
def csv_wide(folder: Path, big: bool) -> Case:
    """Empty cells past the last column are a spreadsheet's formatting: read, and dropped."""
    root = tiny(folder)
    path = root / "cards/tiny/cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] += "," * (500_000 if big else 100_000)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Case(["check", "--project", str(root)], "", "", 0)


@case("csv row of 500,000 cells, the last filled")
def csv_wide_filled(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    path = root / "cards/tiny/cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] += "," * (500_000 if big else 100_000) + "x"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Case(["check", "--project", str(root)], "cards/tiny/cards.csv:3", "too many cells")


@case("csv of 60 MB, many short rows")
def csv_many(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    path = root / "cards/tiny/cards.csv"
    rows = 4_000_000 if big else 400_000
    with path.open("w", encoding="utf-8") as f:
        f.write(HEADER)
        line = "a,1,#000000,x\n"
        block = line * 10_000
        for _ in range(rows // 10_000):
            f.write(block)
    return Case(["check", "--project", str(root)], "cards/tiny/cards.csv", "rows")


@case("csv that is a folder")
def csv_folder(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    path = root / "cards/tiny/cards.csv"
    path.unlink()
    path.mkdir()
    return Case(["check", "--project", str(root)], "cards/tiny/cards.csv", "folder")


@case("csv that cannot be read")
def csv_unreadable(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    (root / "cards/tiny/cards.csv").chmod(0)
    return Case(
        ["check", "--project", str(root)], "cards/tiny/cards.csv", "cannot read", unprivileged=True
    )


@case("csv that is a FIFO")
def csv_fifo(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    path = root / "cards/tiny/cards.csv"
    path.unlink()
    os.mkfifo(path)
    return Case(["check", "--project", str(root)], "cards/tiny/cards.csv", "not a regular file")


@case("pnp new --from a FIFO")
def new_fifo(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    fifo = folder / "sheet.csv"
    os.mkfifo(fifo)
    return Case(
        ["new", "--project", str(root), "fifo", "--from", str(fifo)],
        "sheet.csv",
        "not a regular file",
    )


@case("pnp new --from a row of 500,000 cells")
def new_wide(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    sheet = folder / "sheet.csv"
    cells = "," * (500_000 if big else 100_000) + "x"
    sheet.write_text(HEADER + ROW + "赤,2,#C8323C,y" + cells + "\n", encoding="utf-8")
    return Case(
        ["new", "--project", str(root), "wide", "--from", str(sheet)], "sheet.csv:3", "too many"
    )


@case("image of 50000×50000 pixels")
def image_huge(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    _png_header(root / "cards/tiny/art.png", 50_000, 50_000)
    _front_image(root, "art.png")
    return Case(["build", "--project", str(root)], "cards/tiny/art.png", "pixels")


@case("JPEG header of 65500×65500")
def image_jpeg(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    path = root / "cards/tiny/art.jpg"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 65500, 65500, 1) + b"\x01\x11\x00"
    path.write_bytes(b"\xff\xd8" + sof + b"\xff\xd9")
    _front_image(root, "art.jpg")
    return Case(["build", "--project", str(root)], "cards/tiny/art.jpg", "pixels")


def _png_header(path: Path, w: int, h: int) -> None:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    row = b"\x00" + b"\x00" * 3 * w
    body = zlib.compress(row * 64, 9)  # a few rows; the rest of the picture is missing
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


def _front_image(root: Path, name: str) -> None:
    path = root / "layouts/tiny/card_front.toml"
    text = path.read_text(encoding="utf-8")
    text += (
        f'\n[[box]]\nname = "art"\ntype = "image"\nx = "0mm"\ny = "20mm"\nw = "W"\n'
        f'h = "30mm"\nsrc = "{name}"\n'
    )
    path.write_text(text, encoding="utf-8")


# -- manifests and layouts ------------------------------------------------------------------


@case("players.max = 100000000")
def players_huge(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    _manifest(root, "players = { min = 2, max = 4 }", "players = { min = 2, max = 100000000 }")
    return Case(["check", "--project", str(root)], "cards/tiny/game.toml", "players")


@case("array nested 5,000 deep in game.toml")
def toml_arrays(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    n = 50_000 if big else 5_000
    path = root / "cards/tiny/game.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n[extra]\nx = " + "[" * n + "]" * n + "\n")
    return Case(["check", "--project", str(root)], "cards/tiny/game.toml", "deep")


@case("inline table nested 5,000 deep in a layout")
def toml_tables(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    n = 50_000 if big else 5_000
    path = root / "layouts/tiny/card_back.toml"
    path.write_text(
        path.read_text(encoding="utf-8") + "\nnote = " + "{a=" * n + "1" + "}" * n + "\n"
    )
    return Case(["check", "--project", str(root)], "layouts/tiny/card_back.toml", "deep")


@case("extends chain of 3,000 layouts")
def extends_chain(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    n = 3_000
    layouts = root / "layouts/tiny"
    for i in range(n):
        parent = f"chain{i + 1}" if i + 1 < n else "card_base"
        (layouts / f"chain{i}.toml").write_text(f'extends = "{parent}"\n', encoding="utf-8")
    path = layouts / "card_back.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('extends = "card_base"', 'extends = "chain0"'), "utf-8")
    return Case(["check", "--project", str(root)], "layouts/tiny/", "extends")


# -- the user's printer settings -----------------------------------------------------------


def _printers(folder: Path, text: str) -> dict:
    config = folder / "config"
    config.mkdir(exist_ok=True)
    (config / "printers.toml").write_text(text, encoding="utf-8")
    return {"PNP_CONFIG_DIR": str(config)}


@case("printers.toml: back_offset = [true, false]")
def printer_bools(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    env = _printers(folder, 'default = "home"\n[printer.home]\nback_offset = [true, false]\n')
    return Case(["build", "--project", str(root)], "printers.toml:3", "back_offset", env=env)


@case("printers.toml: printer = 5")
def printer_number(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    env = _printers(folder, "printer = 5\n")
    return Case(["build", "--project", str(root)], "printers.toml:1", "printer", env=env)


@case("printers.toml: [[printer]]")
def printer_array(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    env = _printers(folder, "[[printer]]\nback_offset = [0.5, 0.5]\n")
    return Case(["build", "--project", str(root)], "printers.toml:1", "printer", env=env)


@case("printers.toml: default names a printer that is not a table")
def printer_scalar(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    env = _printers(folder, 'default = "home"\n[printer]\nhome = 3\n')
    return Case(["build", "--project", str(root)], "printers.toml:3", "home", env=env)


@case("config folder that is a file")
def config_file(folder: Path, big: bool) -> Case:
    tiny(folder)
    config = folder / "config"
    config.write_text("not a folder", encoding="utf-8")
    env = {"PNP_CONFIG_DIR": str(config)}
    return Case(
        ["printer", "save", "home", "--back-offset", "0.5,0.5"], "config", "folder", env=env
    )


@case("config folder that cannot be written")
def config_readonly(folder: Path, big: bool) -> Case:
    tiny(folder)
    env = _printers(folder, "")
    Path(env["PNP_CONFIG_DIR"]).chmod(0o500)
    return Case(
        ["printer", "save", "home", "--back-offset", "0.5,0.5"],
        "config",
        "cannot",
        env=env,
        unprivileged=True,
    )


# -- pnp new, init, calibrate -------------------------------------------------------------


@case("pnp new --title with a line break")
def new_title(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    sheet = folder / "sheet.csv"
    sheet.write_text(HEADER + ROW, encoding="utf-8")
    return Case(
        ["new", "--project", str(root), "two", "--from", str(sheet), "--title", "two\nlines"],
        "",
        "",
        0,
        then=["build", "--project", str(root), "two"],
    )


@case("pnp new --from a sheet whose header has a line break")
def new_header(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    sheet = folder / "sheet.csv"
    sheet.write_text('suit,"num\nber",color,text\n' + ROW, encoding="utf-8")
    return Case(
        ["new", "--project", str(root), "lines", "--from", str(sheet)],
        "",
        "",
        0,
        then=["build", "--project", str(root), "lines"],
    )


@case("pnp calibrate --out an existing folder")
def calibrate_folder(folder: Path, big: bool) -> Case:
    tiny(folder)
    (folder / "somewhere").mkdir()
    return Case(["calibrate", "--out", str(folder / "somewhere")], "somewhere", "is a directory")


@case("pnp init into a file")
def init_file(folder: Path, big: bool) -> Case:
    tiny(folder)
    (folder / "afile").write_text("x", encoding="utf-8")
    return Case(["init", str(folder / "afile")], "afile", "is a file")


@case("players.max = 5000")
def players_many(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    _manifest(root, "players = { min = 2, max = 4 }", "players = { min = 2, max = 5000 }")
    return Case(["check", "--project", str(root)], "cards/tiny/game.toml:4", "a table seats")


@case("pnp printer save beside a printer named with a space")
def printer_quoted(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    env = _printers(
        folder,
        '# my printers\ndefault = "my home"\n\n[printer."my home"]\nback_offset = [0.5, 0.5]\n',
    )
    return Case(
        ["printer", "save", "work", "--back-offset", "1,1"],
        "",
        "",
        0,
        env=env,
        then=["build", "--project", str(root), "--printer", "my home", "--format", "summary"],
    )


# -- templates (the suite: tests/test_hostile_templates.py) --------------------------------


def _layout_template(root: Path, template: str) -> None:
    path = root / "layouts/tiny/card_front.toml"
    text = path.read_text(encoding="utf-8")
    escaped = template.replace("\\", "\\\\").replace('"', '\\"')
    path.write_text(text.replace('text = "{{ suit }}"', f'text = "{escaped}"'), encoding="utf-8")


def _template_case(
    name: str, template: str, says: str, rules: bool = False, names: str = ""
) -> None:
    def build(folder: Path, big: bool) -> Case:
        root = tiny(folder)
        if rules:
            path = root / "cards/tiny/rules.md"
            path.write_text(path.read_text(encoding="utf-8") + "\n" + template + "\n", "utf-8")
            return Case(["build", "--project", str(root)], "cards/tiny/rules.md:", says)
        _layout_template(root, template)
        names_ = names or "layouts/tiny/card_front.toml:"
        return Case(["build", "--project", str(root)], names_, says)

    CASES[name] = build


_template_case("layout: 'x' * 10**9", "{{ 'x' * 10**9 }}", "would be 1,000,000,000")
_template_case("rules.md: 'x' * 10**9", "{{ 'x' * 10**9 }}", "would be 1,000,000,000", True)
_template_case("layout: 10 ** (10 ** 10)", "{{ 10 ** (10 ** 10) }}", "too large to print")
_template_case(
    "layout: nested range(100000) loops",
    "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "steps",
)
_template_case("layout: lipsum(n=10**7)", "{{ lipsum(n=10**7) }}", "lorem ipsum would be")
_template_case("layout: 'a'.center(10**9)", "{{ 'a'.center(10**9) }}", "would be")
_template_case("layout: '{:>1000000000}'.format(1)", "{{ '{:>1000000000}'.format(1) }}", "would be")
_template_case(
    "layout: a text box of 900,000 characters",
    "{{ 'あい うえ' * 180000 }}",
    "of layouts/tiny/card_front.toml would print 900,000 characters",
    names="cards/tiny/cards.csv:2",
)


# -- the output folder (the suite: tests/test_hostile_output.py) -----------------------------


@case("output/.sets a link to a folder outside, game named like it")
def output_sets(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    outside = folder / "Documents" / "tiny"
    outside.mkdir(parents=True)
    (outside / "letter.txt").write_text("mine", encoding="utf-8")
    (root / "output").mkdir(exist_ok=True)
    shutil.rmtree(root / "output/.sets", ignore_errors=True)  # a build's own, if one ran
    (root / "output/.sets").symlink_to(folder / "Documents")
    return Case(
        ["build", "--project", str(root)],
        "output/.sets",
        "will not write into",
        breaks_outputs=True,
    )


@case("--out cards")
def output_cards(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    return Case(
        ["build", "--project", str(root), "--out", str(root / "cards")],
        "cards",
        "project's own sources",
    )


# -- a project's code (the suite: tests/test_trust.py) -------------------------------------


@case("a planted rules.py, pnp check without a terminal")
def planted_rules(folder: Path, big: bool) -> Case:
    root = tiny(folder)
    mark = folder / "MARK"
    (root / "cards/tiny/rules.py").write_text(
        f"open({str(mark)!r}, 'w').write('ran')\nOPTIONS = {{}}\n", encoding="utf-8"
    )
    return Case(
        ["check", "--project", str(root)],
        "cards/tiny/rules.py",
        "not run",
        0,
        env={"PNP_TRUST_CODE": "", "PNP_CONFIG_DIR": str(folder / "config")},
    )
