"""Fold-over sheets for printers without duplex: fronts on the left half of each page, their
backs mirrored about a fold line down the middle. Measured from the built PDF: where each face
lands (to 0.1 mm), the fold line, pages, and what the proof page tells the designer."""

from __future__ import annotations

import pypdf
import pytest

from conftest import edit, make_fixture_project, own_base, run
from pdfread import MM, page_text, placements, render

SIZES = {"poker": (63.0, 88.0), "tarot": (70.0, 120.0)}
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PER_PAGE = {"poker": 4, "tarot": 2}  # on A4 and on Letter alike


def footprint_mm(p) -> tuple[float, float, float, float]:
    return tuple(round(v / MM, 2) for v in p.footprint)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("size", sorted(SIZES))
def test_backs_mirror_the_fronts_about_the_fold(tmp_path, size, paper):
    root = make_fixture_project("tiny", tmp_path)
    edit(root, "cards/tiny/game.toml", 'sheet = "poker_3x3"', f'sheet = "{size}_foldover"')
    edit(root, "cards/tiny/game.toml", 'size = "poker"', f'size = "{size}"')
    r = run("build", "--project", str(root), "--paper", paper, "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = root / "output/tiny/cards.pdf"
    reader = pypdf.PdfReader(pdf)
    per = PER_PAGE[size]
    assert len(reader.pages) == 1 + -(-10 // per)  # the proof page, then one page a sheet
    page = reader.pages[1]
    pw, ph = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
    assert sorted((round(pw, 1), round(ph, 1))) == sorted(PAPERS[paper])
    fold = pw / 2
    placed = placements(pdf, 1)
    assert len(placed) == 2 * per
    fronts = [footprint_mm(p) for p in placed if p.footprint[2] / MM <= fold]
    backs = [footprint_mm(p) for p in placed if p.footprint[0] / MM >= fold]
    assert len(fronts) == len(backs) == per
    w, h = SIZES[size]
    for x0, y0, x1, y1 in fronts:
        assert sorted((round(x1 - x0, 1), round(y1 - y0, 1))) == sorted((w, h))
        # Folded about x = fold, the back lies exactly behind: mirrored x, the same y.
        mirrored = (2 * fold - x1, y0, 2 * fold - x0, y1)
        assert any(all(abs(a - b) < 0.1 for a, b in zip(mirrored, back)) for back in backs), (
            mirrored,
            backs,
        )
    # Everything printed stays inside the 5 mm printer margin, and off the fold by 2 mm.
    for x0, y0, x1, y1 in fronts + backs:
        assert x0 >= 5 and y0 >= 5 and x1 <= pw - 5 and y1 <= ph - 5
        assert x1 <= fold - 2 or x0 >= fold + 2


def test_the_fold_line_prints_down_the_middle_and_the_proof_page_says_how(tmp_path):
    root = make_fixture_project("tiny", tmp_path)
    edit(root, "cards/tiny/game.toml", 'sheet = "poker_3x3"', 'sheet = "poker_foldover"')
    r = run("build", "--project", str(root), "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = root / "output/tiny/cards.pdf"
    image = render(pdf, 1, scale=2)  # 144 dpi
    middle = image.width // 2
    column = [image.getpixel((middle, y)) for y in range(image.height)]
    grey = [y for y, px in enumerate(column) if 100 < px[0] < 200 and px[0] == px[1] == px[2]]
    margin = round(5 * MM * 2)
    assert grey and min(grey) >= margin - 2 and max(grey) <= image.height - margin + 2
    assert len(grey) > 0.5 * (image.height - 2 * margin)  # a dashed line, mostly ink
    beside = [image.getpixel((middle + 8, y)) for y in range(margin, image.height - margin)]
    assert all(px == (255, 255, 255) for px in beside)  # the fold gap itself is blank
    proof = page_text(pdf, 0)
    assert "折り返しシート" in proof and "長辺とじ" not in proof


def test_orientation_is_a_sheet_key_and_a_wrong_value_is_named(tmp_path):
    root = own_base(make_fixture_project("tiny", tmp_path))
    sheets = root / "layouts/_shared/sheets.toml"
    sheets.write_text(
        sheets.read_text(encoding="utf-8")
        + '\n[sheet.mine]\ncols = "auto"\nrows = "auto"\nbacks = "foldover"\n'
        + 'orientation = "sideways"\n',
        encoding="utf-8",
    )
    edit(root, "cards/tiny/game.toml", 'sheet = "poker_3x3"', 'sheet = "mine"')
    r = run("check", "--project", str(root))
    assert r.exit_code == 1
    assert "sheet 'mine': orientation must be 'auto', 'portrait' or 'landscape'" in r.output
    edit(root, "layouts/_shared/sheets.toml", '"sideways"', '"portrait"')
    r = run("build", "--project", str(root), "--format", "cards")
    assert r.exit_code == 0, r.output
    page = pypdf.PdfReader(root / "output/tiny/cards.pdf").pages[1]
    assert page.mediabox.width < page.mediabox.height  # held portrait: cards turn to fit
