"""Everything a home printer must print lies inside its printable area: every crop mark, every
card's printed bleed and the sheet's label, on every shipped sheet, for every card size and
paper, with the default 5 mm margin and others; marks and labels never touch a card or each
other. Measured on the imposition for every combination, and read back from built PDFs."""

from __future__ import annotations

import itertools

import pytest

from generator import base
from generator.layout import sheets
from generator.layout.units import MM
from generator.problems import BuildError, Problems, SourceRef

from conftest import run
from pdfread import char_boxes, page_lines, placements

DEFS = sheets.load_sheet_defs(base.BASE_LAYOUTS, lambda p: p.name)
EPS = 0.01  # points


def _inside(x, y, page, margin) -> bool:
    return (
        margin - EPS <= x <= page[0] - margin + EPS and margin - EPS <= y <= page[1] - margin + EPS
    )


def _overlaps(a, b) -> bool:
    """Two rectangles (x0, y0, x1, y1) share more than an edge."""
    return a[0] < b[2] - EPS and b[0] < a[2] - EPS and a[1] < b[3] - EPS and b[1] < a[3] - EPS


def _mark_box(m, pad=0.0):
    return (
        min(m.x1, m.x2) - pad,
        min(m.y1, m.y2) - pad,
        max(m.x1, m.x2) + pad,
        max(m.y1, m.y2) + pad,
    )


def _geometries():
    for sheet, size, paper, margin in itertools.product(
        DEFS.sheets, DEFS.sizes, DEFS.paper, (None, 3.0, 8.0)
    ):
        try:
            g = sheets.impose(
                DEFS, sheet, size, paper, None, Problems(), SourceRef("x"), margin_mm=margin
            )
        except BuildError as exc:  # it does not fit at all: said so, nothing printed wrong
            assert "do not fit" in str(exc), exc
            continue
        yield (sheet, size, paper, margin), g


GEOMETRIES = list(_geometries())


def test_many_combinations_fit():
    assert len(GEOMETRIES) >= 0.8 * len(DEFS.sheets) * len(DEFS.sizes) * len(DEFS.paper) * 3


@pytest.mark.parametrize(
    "case, g", GEOMETRIES, ids=lambda v: "-".join(map(str, v)) if isinstance(v, tuple) else None
)
def test_marks_cards_and_labels_lie_inside_the_printable_area(case, g):
    m = g.margin
    assert g.cols >= 1 and g.rows >= 1
    printed = [s.clip for s in g.fronts] + [s.clip for s in g.backs]
    for x0, y0, x1, y1 in printed:  # every card with the bleed it prints
        assert _inside(x0, y0, g.page, m) and _inside(x1, y1, g.page, m), (case, (x0, y0, x1, y1))
    for mark in g.crop_marks:
        assert _inside(mark.x1, mark.y1, g.page, m) and _inside(mark.x2, mark.y2, g.page, m), case
        length = abs(mark.x2 - mark.x1) + abs(mark.y2 - mark.y1)
        assert length >= 2 * MM - EPS, case  # long enough to see and to line a ruler up with
        for clip in [s.clip for s in g.fronts]:
            assert not _overlaps(_mark_box(mark, 0.1), clip), (case, mark)
    for x0, y0, x1, y1, _turned in g.label_boxes:
        assert _inside(x0, y0, g.page, m) and _inside(x1, y1, g.page, m), case
        for clip in printed:
            assert not _overlaps((x0, y0, x1, y1), clip), case
        for mark in g.crop_marks:
            assert not _overlaps((x0, y0, x1, y1), _mark_box(mark)), (case, mark)
    # Every cut line has its marks: each card edge is on a marked line.
    xs = [k.x1 for k in g.crop_marks if k.x1 == k.x2]
    ys = [k.y1 for k in g.crop_marks if k.y1 == k.y2]
    for s in g.fronts:
        for edge in (s.x, s.x + s.w):
            assert any(abs(edge - x) < EPS for x in xs), (case, edge)
        for edge in (s.y, s.y + s.h):
            assert any(abs(edge - y) < EPS for y in ys), (case, edge)


def test_a4_poker_keeps_full_bleed_by_butting_and_says_so_in_the_numbers():
    g = sheets.impose(DEFS, "poker_3x3", "poker", "a4", None, Problems(), SourceRef("x"))
    assert g.bleed == pytest.approx(3 * MM) and g.across.butted and not g.down.butted
    side_marks = [k for k in g.crop_marks if k.y1 == k.y2]
    assert min(min(k.x1, k.x2) for k in side_marks) / MM == pytest.approx(5.0, abs=0.01)
    top_marks = [k for k in g.crop_marks if k.x1 == k.x2]
    assert max(max(k.y1, k.y2) for k in top_marks) / MM == pytest.approx(292.0, abs=0.01)


@pytest.mark.parametrize("paper, w, h", [("a4", 210, 297), ("letter", 215.9, 279.4)])
def test_built_sheets_print_marks_and_labels_inside_the_margin(tiny, paper, w, h):
    r = run("build", "--project", str(tiny), "--paper", paper, "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/cards.pdf"
    for page in (1, 2, 3, 4):
        lines = page_lines(pdf, page)
        assert len(lines) >= 8, page  # the crop marks
        for x1, y1, x2, y2 in lines:
            for x, y in ((x1, y1), (x2, y2)):
                assert 5 - 0.01 <= x / MM <= w - 5 + 0.01 and 5 - 0.01 <= y / MM <= h - 5 + 0.01
        side = "表" if page % 2 else "裏"
        label = char_boxes(pdf, page, f"数字カード　{side} {(page + 1) // 2}/2")
        assert label, page
        for box in label:
            assert 5 <= box[0] / MM and box[2] / MM <= w - 5 and 5 <= box[1] / MM
            assert box[3] / MM <= h - 5
            for x1, y1, x2, y2 in lines:  # no mark through or touching the label
                mark = (min(x1, x2) - 0.5 * MM, min(y1, y2), max(x1, x2) + 0.5 * MM, max(y1, y2))
                assert not _overlaps(box, mark), (page, box, (x1 / MM, y1 / MM))
            for p in placements(pdf, page):
                assert not _overlaps(box, p.visible), page


def test_margin_option_moves_everything_inward(tiny):
    r = run("build", "--project", str(tiny), "--margin", "6", "--format", "cards")
    assert r.exit_code == 0, r.output
    assert "bleed reduced from 3 mm to 2 mm" in r.output  # 189 mm of cards in 198 mm
    pdf = tiny / "output/tiny/cards.pdf"
    for x1, y1, x2, y2 in page_lines(pdf, 1):
        assert min(x1, x2, y1, y2) / MM >= 6 - 0.01
        assert max(x1, x2) / MM <= 204 + 0.01 and max(y1, y2) / MM <= 291 + 0.01
    for p in placements(pdf, 1):
        assert min(p.visible[:2]) / MM >= 6 - 0.01


def test_a_grid_that_cannot_fit_even_without_bleed_is_refused(tiny):
    r = run("build", "--project", str(tiny), "--margin", "20")
    assert r.exit_code == 1
    assert "do not fit on a4 inside a 20 mm printer margin" in r.output


def _colour_along(image, x_mm: float, y0_mm: float, y1_mm: float, page_h: float, scale: float):
    """The colours of the pixels down a vertical line at x (mm, page coordinates)."""
    px = round(x_mm * MM * scale)
    out = set()
    for y in range(int(y0_mm), int(y1_mm)):
        py = round((page_h - y) * MM * scale)
        out.add(image.getpixel((px, py)))
    return out


def _near(colours, hex_colour: str, tolerance: int = 60) -> bool:
    want = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return any(sum(abs(a - b) for a, b in zip(c[:3], want)) < tolerance for c in colours)


def test_proof_draws_trim_bleed_and_safe_lines_on_every_card(tiny):
    from generator.render.pdf import PROOF_BLEED, PROOF_SAFE, PROOF_TRIM

    from pdfread import page_text, render

    plain = run("build", "--project", str(tiny), "--format", "cards")
    assert plain.exit_code == 0
    pdf = tiny / "output/tiny/cards.pdf"
    card = placements(pdf, 1)[4]  # the middle card: neighbours on every side
    x, y = card.x / MM, card.y / MM
    before = render(pdf, 1, 4)
    assert not _near(_colour_along(before, x, y + 20, y + 70, 297, 4), PROOF_TRIM)
    proofed = run("build", "--project", str(tiny), "--format", "cards", "--proof")
    assert proofed.exit_code == 0
    assert "校正用（--proof）" in page_text(pdf, 0)
    image = render(pdf, 1, 4)
    assert _near(_colour_along(image, x, y + 20, y + 70, 297, 4), PROOF_TRIM)  # trim, left
    assert _near(_colour_along(image, x + 63, y + 20, y + 70, 297, 4), PROOF_TRIM)  # right
    assert _near(_colour_along(image, x + 3, y + 20, y + 70, 297, 4), PROOF_SAFE)  # 3 mm in
    # The bleed as printed: the middle card butts its neighbours across, so its bleed edge
    # is the trim line there; above and below it has 3 mm.
    left, bottom, right, top = (v / MM for v in card.visible)
    assert (left, right) == (pytest.approx(x, abs=0.05), pytest.approx(x + 63, abs=0.05))
    row = round((297 - (bottom + 0.05)) * MM * 4)
    colours = {image.getpixel((round((x + dx) * MM * 4), row)) for dx in range(5, 60)}
    assert _near(colours, PROOF_BLEED)
