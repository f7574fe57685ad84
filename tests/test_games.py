"""Every game, shipped or fixture, as a designer checks it: every card printed, counts equal the
data, backs behind fronts, centred grids, fonts embedded, boards tiled. The shipped games are
held only to what is true whatever their data says; exact layouts are tested on fixtures."""

from __future__ import annotations

import csv
import math
import tomllib
from collections import Counter

import pypdf
import pytest

from conftest import REPO
from pdfread import (
    MM,
    all_text,
    fonts,
    page_lines,
    page_size_mm,
    page_text,
    placements,
    render,
)

SHIPPED = ("fudaraku", "rumbling_seed", "nyanbaa")


def pages(pdf) -> int:
    return len(pypdf.PdfReader(pdf).pages)


def size_mm(p):
    x0, y0, x1, y1 = p.bbox
    return round((x1 + x0) / MM, 1), round((y1 + y0) / MM, 1)


def manifest(game: str) -> dict:
    return tomllib.loads((REPO / "cards" / game / "game.toml").read_text(encoding="utf-8"))


def rows(game: str, comp: dict) -> int:
    """Pieces a component's spreadsheet makes (a `count` column makes copies)."""
    with open(REPO / "cards" / game / comp["data"], encoding="utf-8-sig") as f:
        return sum(int(r.get("count") or 1) for r in csv.DictReader(f))


@pytest.mark.parametrize("game", SHIPPED)
def test_every_pdf_embeds_subset_fonts(built, game):
    pdfs = sorted((built / game).glob("*.pdf"))
    assert {p.name for p in pdfs} >= {"cards.pdf"}
    for pdf in pdfs:
        found = fonts(pdf)
        assert found, pdf
        for f in found:
            assert f["embedded"] and f["name"][7] == "+", (pdf.name, f)


@pytest.mark.parametrize("game", SHIPPED)
def test_every_printed_piece_is_on_a_sheet(built, game):
    """Each printed component's pieces, counted from its spreadsheet, are placed on its sheets."""
    placed: Counter = Counter()
    for pdf in (built / game).glob("*.pdf"):
        if pdf.name not in ("cards.pdf", "tokens.pdf"):
            continue
        for i in range(1, pages(pdf)):
            labels = [line for line in page_text(pdf, i).splitlines() if "　表 " in line]
            if labels:  # the sheet's label: 「数字カード　表 1/2」, wherever it fits
                placed[labels[0].strip().split("　表 ")[0]] += len(placements(pdf, i))
    want: Counter = Counter()
    for comp in manifest(game)["component"]:
        if comp.get("kind", "card") != "board" and comp.get("printed", True):
            want[comp["name"]] += rows(game, comp)
    for names, n in placed.items():  # tokens of one size share sheets: 「A・B」
        parts = names.split("・")
        assert sum(want[p] for p in parts) == n, (names, n)
        for p in parts:
            want.pop(p)
    assert not want, f"not printed: {dict(want)}"


@pytest.mark.parametrize("game", SHIPPED)
def test_every_back_lies_behind_its_front(built, game):
    pdf = built / game / "cards.pdf"
    for i in range(1, pages(pdf)):
        if "　表 " not in page_text(pdf, i):
            continue
        assert "　裏 " in page_text(pdf, i + 1), (game, i)
        width = page_size_mm(pdf, i)[0]
        for f, b in zip(placements(pdf, i), placements(pdf, i + 1), strict=True):
            w = size_mm(f)[0]
            assert b.x / MM == pytest.approx(width - f.x / MM - w, abs=0.1)
            assert b.y == pytest.approx(f.y, abs=0.1 * MM)


@pytest.mark.parametrize("game", SHIPPED)
def test_no_line_breaks_against_kinsoku(built, game):
    for name in ("rulebook.pdf", "summary.pdf"):
        path = built / game / name
        if not path.exists():
            continue
        for line in all_text(path).splitlines():
            line = line.strip()
            if line == "・":
                continue  # a list bullet, extracted on its own
            assert not line or line[0] not in "、。」）ー・", (name, line)
            assert not line or line[-1] not in "「（", (name, line)


@pytest.mark.parametrize("game", SHIPPED)
def test_every_board_is_printed(built, game):
    for comp in manifest(game)["component"]:
        if comp.get("kind") != "board" or not comp.get("printed", True):
            continue
        pdf = built / game / "board.pdf"
        w, h = (float(comp["size"][k].removesuffix("mm")) for k in ("w", "h"))
        sizes = {size_mm(p) for i in range(pages(pdf)) for p in placements(pdf, i)}
        assert sizes == {(w, h)}, (game, sizes)


def _sheets(path):
    """Front sheets of a PDF grouped by piece size: {size: [(page, placements)]}."""
    by_size: dict = {}
    for i in range(1, pages(path)):
        if "　表 " in page_text(path, i):
            placed = placements(path, i)
            by_size.setdefault(size_mm(placed[0]), []).append((i, placed))
    return by_size


@pytest.mark.parametrize("game", SHIPPED)
def test_every_sheet_is_a_centred_grid(built, game):
    """Whatever the size (poker, tarot, square tiles, tokens): equal steps, centred on the page
    (left to right whenever a row is full, top to bottom when the whole sheet is)."""
    checked = 0
    for name in ("cards.pdf", "tokens.pdf"):
        path = built / game / name
        if not path.exists():
            continue
        for _size, sheets in _sheets(path).items():
            most = max(len(p) for _, p in sheets)
            widest = max(len({round(q.x, 1) for q in p}) for _, p in sheets)
            for i, placed in sheets:
                w, h = page_size_mm(path, i)
                x0, y0, x1, y1 = (v / MM for v in placed[0].bbox)  # the bleed box around (0, 0)
                xs = sorted({round(q.x / MM, 2) for q in placed})
                ys = sorted({round(q.y / MM, 2) for q in placed})
                steps = {round(b - a, 1) for a, b in zip(xs, xs[1:])} | {
                    round(b - a, 1) for a, b in zip(ys, ys[1:])
                }
                assert len(steps) <= 2, (game, name, i, steps)  # one step across, one down
                if len(xs) == widest:
                    assert xs[0] + x0 == pytest.approx(w - (xs[-1] + x1), abs=0.1), (name, i)
                    checked += 1
                if len(placed) == most and most == len(xs) * len(ys):
                    assert ys[0] + y0 == pytest.approx(h - (ys[-1] + y1), abs=0.1), (name, i)
    assert checked


# --- boards: the kit fixture's 380 × 270 mm board -------------------------------------------
def test_board_on_a3_in_one_piece(kit_built):
    pdf = kit_built / "board-a3.pdf"
    assert pages(pdf) == 1
    w, h = page_size_mm(pdf, 0)
    assert (w, h) == (pytest.approx(420, abs=0.1), pytest.approx(297, abs=0.1))
    (p,) = placements(pdf, 0)
    assert size_mm(p) == (380.0, 270.0)
    assert (p.x / MM, p.y / MM) == (pytest.approx(20, abs=0.1), pytest.approx(13.5, abs=0.1))
    assert "部品の試験" in page_text(pdf, 0)


def test_a_tiled_board_has_crop_marks_at_its_own_corners(kit_built):
    """Once the tiles are joined, the board is cut round: each of its four corners gets a crop
    mark (two 3 mm strokes) on the tile that holds it, with its trim corner where the strokes
    would meet."""
    pdf = kit_built / "board.pdf"
    corners = []
    for i in range(1, pages(pdf)):
        (p,) = placements(pdf, i)
        left, bottom, right, top = p.footprint
        for stroke in page_lines(pdf, i):
            if math.dist(stroke[:2], stroke[2:]) != pytest.approx(3 * MM, abs=0.01):
                continue
            ends = (stroke[:2], stroke[2:])
            # a stroke along an edge of the board, starting 1 mm out from a corner
            near = [
                (cx, cy)
                for cx in (left, right)
                for cy in (bottom, top)
                if min(math.dist(end, (cx, cy)) for end in ends) == pytest.approx(MM, abs=0.01)
            ]
            assert near, (i, stroke)
            corners += near
    assert len(corners) == 8 and len(set(corners)) == 4  # two strokes at each corner


def test_board_on_a4_tiles_overlap_by_ten_mm(kit_built):
    pdf = kit_built / "board.pdf"
    assert pages(pdf) == 1 + 2  # the guide, then tiles A1 A2
    assert "380×270 mm のボードを 2 枚に分けて印刷します（のりしろ 10 mm）" in page_text(pdf, 0)
    printable = 210 - 2 * 5
    origins = []
    for i in range(1, 3):
        assert page_size_mm(pdf, i) == (pytest.approx(210, abs=0.1), pytest.approx(297, abs=0.1))
        (p,) = placements(pdf, i)
        origins.append(p.x / MM)
        assert f"A{i}" in page_text(pdf, i)
    assert printable - (origins[0] - origins[1]) == pytest.approx(10, abs=0.05)
    # The alignment mark in the shared strip prints on both neighbours, at the same board point.
    scale = 4
    seam_board_x = 5 + printable - 10 / 2 - origins[0]  # board x of the mark on A1's right strip
    for page, origin in ((1, origins[0]), (2, origins[1])):
        img = render(pdf, page, scale)
        x = round((origin + seam_board_x) * MM * scale)
        column = [img.getpixel((x, y)) for y in range(img.height)]
        assert sum(1 for px in column if sum(px) < 200) > 20, "no alignment mark on the seam"
