"""cards.pdf as a user checks it: pages, sizes in mm, where every card and back lands, text, fonts."""

from __future__ import annotations

import csv

import pytest

from conftest import REPO, run
from pdfread import MM, all_text, fonts, page_size_mm, page_text, placements, text_in

CARD_W, CARD_H = 63.0, 88.0


def deck_rows():
    with open(REPO / "cards/fudaraku/kleshas.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def expected_slots(paper_w: float, paper_h: float, bleed: float, cols: int = 3, rows: int = 3):
    """Trim-box origins (mm, bottom-left) worked out by hand from the sheet definition: centred grid."""
    cell_w, cell_h = CARD_W + 2 * bleed, CARD_H + 2 * bleed
    left, bottom = (paper_w - cols * cell_w) / 2, (paper_h - rows * cell_h) / 2
    return [
        (left + c * cell_w + bleed, bottom + (rows - 1 - r) * cell_h + bleed)
        for r in range(rows)
        for c in range(cols)
    ]


def test_page_count_and_sizes(built):
    pdf = built / "fudaraku/cards.pdf"
    import pypdf

    n = len(pypdf.PdfReader(pdf).pages)
    assert n == 1 + 2 * 5  # proof page, then 5 front sheets each followed by its back
    for i in range(n):
        w, h = page_size_mm(pdf, i)
        assert w == pytest.approx(210, abs=0.05) and h == pytest.approx(297, abs=0.05)


def test_proof_page_has_ruler_and_print_instruction(built):
    text = page_text(built / "fudaraku/cards.pdf", 0)
    assert "100%" in text and "100 mm" in text
    assert "長辺とじ" in text
    assert "塗り足し 1.8 mm" in text  # A4 cannot take 3 mm bleed on a 3x3 poker grid


def test_fronts_at_sheet_positions_within_a_tenth_of_a_mm(built):
    pdf = built / "fudaraku/cards.pdf"
    bleed = 1.8
    want = expected_slots(210, 297, bleed)
    for sheet in range(5):
        placed = placements(pdf, 1 + 2 * sheet)
        count = min(9, 40 - 9 * sheet)
        assert len(placed) == count
        for p, (x, y) in zip(placed, want):
            assert p.x / MM == pytest.approx(x, abs=0.1)
            assert p.y / MM == pytest.approx(y, abs=0.1)
            # The form is the card with its bleed: trim 63 x 88 plus 1.8 mm all round.
            x0, y0, x1, y1 = (v / MM for v in p.bbox)
            assert (x0, y0) == (pytest.approx(-bleed, abs=0.05), pytest.approx(-bleed, abs=0.05))
            assert x1 - x0 == pytest.approx(CARD_W + 2 * bleed, abs=0.05)
            assert y1 - y0 == pytest.approx(CARD_H + 2 * bleed, abs=0.05)


def test_backs_mirrored_for_long_edge_duplex(built):
    pdf = built / "fudaraku/cards.pdf"
    for sheet in range(5):
        fronts = placements(pdf, 1 + 2 * sheet)
        backs = placements(pdf, 2 + 2 * sheet)
        assert len(backs) == len(fronts)
        for f, b in zip(fronts, backs):
            # Flipped about the long (vertical) edge: x mirrors across the page, y stays.
            assert b.x / MM == pytest.approx(210 - f.x / MM - CARD_W, abs=0.1)
            assert b.y / MM == pytest.approx(f.y / MM, abs=0.1)
    # All 40 backs are one design, drawn once and reused.
    assert len({b.form for s in range(5) for b in placements(pdf, 2 + 2 * s)}) == 1


def test_every_card_shows_its_suit_and_number(built):
    pdf = built / "fudaraku/cards.pdf"
    rows = deck_rows()
    for i, row in enumerate(rows):
        sheet, slot = divmod(i, 9)
        p = placements(pdf, 1 + 2 * sheet)[slot]
        text = text_in(pdf, 1 + 2 * sheet, (p.x, p.y, p.x + CARD_W * MM, p.y + CARD_H * MM))
        assert row["suit"] in text, (i, text)
        assert text.count(row["number"]) >= 2, (i, text)  # two corners
        assert row["reading"] in text


def test_all_fonts_embedded_and_subset(built):
    for name in ("cards.pdf", "rulebook.pdf", "summary.pdf"):
        found = fonts(built / "fudaraku" / name)
        assert found, name
        for f in found:
            assert f["embedded"], (name, f)
            assert f["name"][7:8] == "+" and f["name"][1:7].isupper(), (name, f)  # subset tag


def test_letter_paper_reduces_bleed_with_a_note(tmp_path):
    result = run(
        "build", "fudaraku", "--project", str(REPO), "--out", str(tmp_path), "--paper", "letter"
    )
    assert result.exit_code == 0, result.output
    assert "bleed reduced from 3 mm to 0.9 mm" in result.output
    pdf = tmp_path / "fudaraku/cards.pdf"
    w, h = page_size_mm(pdf, 1)
    assert (w, h) == (pytest.approx(215.9, abs=0.05), pytest.approx(279.4, abs=0.05))
    for p, (x, y) in zip(placements(pdf, 1), expected_slots(215.9, 279.4, 0.9)):
        assert (p.x / MM, p.y / MM) == (pytest.approx(x, abs=0.1), pytest.approx(y, abs=0.1))


def test_bleed_option_zero(tmp_path):
    result = run(
        "build", "fudaraku", "--project", str(REPO), "--out", str(tmp_path), "--bleed", "0"
    )
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "fudaraku/cards.pdf"
    placed = placements(pdf, 1)
    for p, (x, y) in zip(placed, expected_slots(210, 297, 0)):
        assert (p.x / MM, p.y / MM) == (pytest.approx(x, abs=0.1), pytest.approx(y, abs=0.1))
        assert p.bbox[2] - p.bbox[0] == pytest.approx(CARD_W * MM, abs=0.1)
    assert "塗り足し 0 mm" in page_text(pdf, 0)


def test_bleed_out_of_range_is_refused():
    result = run("build", "--project", str(REPO), "--bleed", "4")
    assert result.exit_code != 0
    assert "4" in result.output and "0<=x<=3" in result.output.replace(" ", "")


def test_two_builds_are_byte_identical(built, tmp_path):
    result = run("build", "--project", str(REPO), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    files = sorted(p.relative_to(built) for p in built.glob("*/*") if p.is_file())
    assert len(files) >= 15  # every output of all three games
    for name in files:
        assert (tmp_path / name).read_bytes() == (built / name).read_bytes(), name


def test_sheet_text_names_the_side(built):
    text = all_text(built / "fudaraku/cards.pdf")
    assert "煩悩カード　表 1/5" in text and "煩悩カード　裏 5/5" in text
