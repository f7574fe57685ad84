"""Duplex calibration: the calibration sheet (crosses on the front, scales behind them on the
back, measured from the rendered pages), back pages moved by a measured offset (measured from
the built PDF), and printers saved in the user's config."""

from __future__ import annotations

import math

import pypdf
import pytest
from pypdf.generic import ContentStream

from conftest import run
from pdfread import MM, page_text, placements, render

PX_PER_MM = 20
SCALE = PX_PER_MM * 25.4 / 72


def lines_near(image, x_mm: float, y_mm: float, dark) -> tuple[float, float]:
    """The x of the vertical line and the y of the horizontal line (mm from the top-left) nearest
    (x_mm, y_mm): the column and the row with the most matching pixels within 4 mm."""
    cx, cy, r = round(x_mm * PX_PER_MM), round(y_mm * PX_PER_MM), 4 * PX_PER_MM
    px = image.load()
    cols = {x: sum(dark(px[x, y]) for y in range(cy - r, cy + r)) for x in range(cx - r, cx + r)}
    rows = {y: sum(dark(px[x, y]) for x in range(cx - r, cx + r)) for y in range(cy - r, cy + r)}
    return (max(cols, key=cols.get) + 0.5) / PX_PER_MM, (max(rows, key=rows.get) + 0.5) / PX_PER_MM


@pytest.mark.parametrize(
    "paper, size", [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4)), ("b5", (182.0, 257.0))]
)
def test_the_calibration_sheet_puts_each_scale_behind_its_cross(tmp_path, paper, size):
    out = tmp_path / "cal.pdf"
    r = run("calibrate", "--paper", paper, "--out", str(out))
    assert r.exit_code == 0, r.output
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 2
    for page in reader.pages:
        w, h = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
        assert (round(w, 1), round(h, 1)) == size
    front, back = render(out, 0, SCALE), render(out, 1, SCALE)
    w, h = size
    black = lambda p: p[0] < 90 and p[1] < 90 and p[2] < 90  # noqa: E731
    red = lambda p: p[0] > 150 and p[1] < 90 and p[2] < 90  # noqa: E731
    for dx in (-70.0, 0.0, 70.0):  # left, centre and right targets
        fx, fy = lines_near(front, w / 2 + dx, h / 2, black)
        bx, by = lines_near(back, w / 2 - dx, h / 2, red)
        assert abs((w - fx) - bx) <= 0.1 and abs(fy - by) <= 0.1, (dx, fx, fy, bx, by)
    assert "--back-offset X,Y,R" in page_text(out, 0)


def test_calibrate_writes_in_the_current_folder_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("calibrate")
    assert r.exit_code == 0 and (tmp_path / "calibration-a4.pdf").is_file()


def back_page(root, *args):
    r = run("build", "--project", str(root), "--format", "cards", *args)
    assert r.exit_code == 0, r.output
    return root / "output/tiny/cards.pdf", r.output


def test_a_back_offset_moves_the_back_pages_only(tiny):
    pdf, _ = back_page(tiny)
    before_front, before_back = placements(pdf, 1), placements(pdf, 2)
    pdf, said = back_page(tiny, "--back-offset", "1.5,-2")
    assert "back pages moved by x +1.50 mm, y -2.00 mm, +0.00°" in said
    assert placements(pdf, 1) == before_front
    after = placements(pdf, 2)
    assert len(after) == len(before_back)
    for a, b in zip(after, before_back):
        assert abs((a.x - b.x) / MM - 1.5) < 0.01 and abs((a.y - b.y) / MM + 2.0) < 0.01
    proof = page_text(pdf, 0)
    assert "裏面の位置補正" in proof and "右へ +1.50 mm・上へ -2.00 mm" in proof


def test_a_rotation_turns_the_back_page_about_its_centre(tiny):
    pdf, _ = back_page(tiny, "--back-offset", "0,0,0.5")
    reader = pypdf.PdfReader(pdf)
    ops = ContentStream(reader.pages[2].get_contents(), reader).operations
    turns = [[float(v) for v in o] for o, op in ops if op == b"cm" and abs(float(o[1])) > 1e-6]
    assert turns, "no rotation on the back page"
    a, b = turns[0][0], turns[0][1]
    assert math.isclose(math.degrees(math.atan2(b, a)), 0.5, abs_tol=1e-4)
    front_ops = ContentStream(reader.pages[1].get_contents(), reader).operations
    assert not [o for o, op in front_ops if op == b"cm" and abs(float(o[1])) > 1e-6]


@pytest.mark.parametrize(
    "value", ["1", "a,b", "1,2,3,4", "30,0", "0,0,10", "nan,0"], ids=lambda v: v
)
def test_a_bad_back_offset_is_a_clear_error(tiny, value):
    r = run("build", "--project", str(tiny), "--back-offset", value)
    assert r.exit_code == 1
    assert "--back-offset" in r.output and "Traceback" not in r.output
    assert not (tiny / "output/tiny").exists()


def test_a_saved_printer_is_used_by_name_and_as_the_default(tiny, tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CONFIG_DIR", str(tmp_path / "config"))
    r = run("printer", "list")
    assert "no printers saved yet" in r.output
    r = run("printer", "save", "home", "--back-offset", "0.5,-1,0.2")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "config/printers.toml").is_file()
    pdf, said = back_page(tiny)  # not the default: nothing moves
    assert "moved" not in said and "裏面の位置補正" not in page_text(pdf, 0)
    pdf, said = back_page(tiny, "--printer", "home")
    assert "プリンター home" in page_text(pdf, 0)
    run("printer", "save", "office", "--back-offset", "-1,0", "--default")
    assert "office *: x -1.00 mm, y +0.00 mm, +0.00°" in run("printer", "list").output
    assert "home: x +0.50 mm, y -1.00 mm, +0.20°" in run("printer", "list").output
    pdf, said = back_page(tiny)
    assert "プリンター office" in page_text(pdf, 0)
    r = run("build", "--project", str(tiny), "--printer", "hom")
    assert r.exit_code == 1
    assert "no printer 'hom'" in r.output and "home, office" in r.output
    assert "did you mean 'home'" in r.output


def test_a_broken_printers_file_is_named_with_its_line(tiny, tmp_path, monkeypatch):
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("PNP_CONFIG_DIR", str(config))
    (config / "printers.toml").write_text(
        '[printer.home]\nback_offset = "0.5,-1"\n', encoding="utf-8"
    )
    r = run("build", "--project", str(tiny), "--printer", "home")
    assert r.exit_code == 1
    assert "printers.toml:2" in r.output and "back_offset must be [X, Y] or [X, Y, R]" in r.output


def test_fold_over_sheets_have_no_back_pages_to_move(tiny):
    from conftest import edit

    edit(tiny, "cards/tiny/game.toml", 'sheet = "poker_3x3"', 'sheet = "poker_foldover"')
    pdf, _ = back_page(tiny, "--back-offset", "3,3")
    assert "裏面の位置補正" not in page_text(pdf, 0)
    assert len(pypdf.PdfReader(pdf).pages) == 1 + 3  # proof page, then 10 cards 4 a page


def test_calibrate_names_an_unknown_paper_and_where_papers_go(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("calibrate", "--paper", "a6")
    assert r.exit_code == 1
    assert "pnp:layouts/sheets.toml:3:paper: error: unknown paper 'a6'" in r.output
    assert not list(tmp_path.iterdir())  # nothing written


def test_the_calibration_sheet_speaks_the_messages_language_within_its_page(tmp_path):
    """`pnp calibrate` under English messages: English instructions, every character inside
    the page's margins; under --lang ja, Japanese ones."""
    import pypdfium2 as pdfium

    out = tmp_path / "cal.pdf"
    assert run("calibrate", "--out", str(out)).exit_code == 0
    text = page_text(out, 0)
    assert "Duplex alignment (A4)" in text and "pnp printer save NAME" in text, text
    assert "Back: read from this side" in page_text(out, 1)
    pdf = pdfium.PdfDocument(out)
    width = pdf[0].get_size()[0]
    chars = pdf[0].get_textpage()
    rights = [chars.get_charbox(i)[2] for i in range(chars.count_chars())]
    assert rights and max(rights) <= width - 10 * MM, (max(rights), width)
    pdf.close()
    assert run("--lang", "ja", "calibrate", "--out", str(out)).exit_code == 0
    assert "両面印刷の位置合わせ（A4）" in page_text(out, 0)
