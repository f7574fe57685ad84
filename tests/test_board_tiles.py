"""A board too big for the paper prints as poster tiles. Read back as a designer uses them: cut
each tile on its dashed line, lay it over its neighbour with the ○＋ marks on each other, and
the board must run on across the seam; every mark prints inside the printer margin. The test
knows the paper, the margin and what the guide page says, nothing of the tiling code."""

from __future__ import annotations

import pytest
from PIL import ImageChops, ImageFilter

from conftest import make_fixture_project, run
from pdfread import MM as PT_MM
from pdfread import page_lines, render

MARGIN = 5.0  # mm: the board's printer margin
# A board whose every part differs from its neighbours: diagonals both ways and a grid of
# words, so a tile laid 0.3 mm off shows.
BOARD = """description = "Stripes and words everywhere, to see a seam."

[[box]]
name = "field"
type = "rect"
x = "0mm"
y = "0mm"
w = "W"
h = "H"
fill = "#F3EEDD"
stroke = "#1F2A44"
stroke_width = "2pt"
"""
for i in range(-8, 16):
    BOARD += f"""
[[box]]
name = "d{i + 8}"
type = "line"
x = "0mm"
y = "0mm"
w = "W"
h = "H"
points = [["{i * 30}mm", "0mm"], ["{i * 30 + 270}mm", "H"]]
stroke = "#{(i * 37) % 200:02X}2A{(i * 53) % 200:02X}"
stroke_width = "1.5pt"

[[box]]
name = "e{i + 8}"
type = "line"
x = "0mm"
y = "0mm"
w = "W"
h = "H"
points = [["{i * 30 + 270}mm", "0mm"], ["{i * 30}mm", "H"]]
stroke = "#A0{(i * 29) % 200:02X}40"
stroke_width = "1pt"
"""


def _board_project(kit, size=(380, 270)):
    (kit / "layouts/kit/board.toml").write_text(BOARD, encoding="utf-8")
    toml = kit / "cards/kit/game.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'size = { w = "380mm", h = "270mm" }' in text
    text = text.replace('w = "380mm", h = "270mm"', f'w = "{size[0]}mm", h = "{size[1]}mm"')
    toml.write_text(text, encoding="utf-8")
    return kit


def _crosshairs(lines):
    """The ○＋ marks' centres: a horizontal and a vertical stroke of one length under 12 mm
    crossing at their middles."""
    short = [k for k in lines if 0 < abs(k[2] - k[0]) + abs(k[3] - k[1]) < 12 * PT_MM]
    out = []
    for a in short:
        if abs(a[1] - a[3]) > 0.01:
            continue
        cx, cy = (a[0] + a[2]) / 2, a[1]
        for b in short:
            if (
                abs(b[0] - b[2]) < 0.01
                and abs(b[0] - cx) < 0.01
                and abs((b[1] + b[3]) / 2 - cy) < 0.01
            ):
                out.append((cx, cy))
    return out


def _inside(lines, page, margin_mm):
    m = margin_mm * PT_MM
    return [
        k
        for k in lines
        if min(k[0], k[2]) < m - 0.01
        or min(k[1], k[3]) < m - 0.01
        or max(k[0], k[2]) > page[0] - m + 0.01
        or max(k[1], k[3]) > page[1] - m + 0.01
    ]


@pytest.mark.parametrize("size", [(380, 270), (400, 280), (600, 420)])
@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_every_tile_mark_prints_inside_the_margin(kit, paper, size):
    import pypdf

    root = _board_project(kit, size)
    r = run("build", "--project", str(root), "--paper", paper, "--format", "board")
    assert r.exit_code == 0, r.output
    pdf = kit / "output/kit/board.pdf"
    reader = pypdf.PdfReader(pdf)
    for i, page in enumerate(reader.pages):
        size = (float(page.mediabox.width), float(page.mediabox.height))
        lines = page_lines(pdf, i)
        assert lines, i
        outside = _inside(lines, size, MARGIN)
        assert not outside, (paper, i, [tuple(round(v / PT_MM, 2) for v in k) for k in outside])


def _label_boxes(pdf, index: int) -> list[tuple[float, float, float, float]]:
    """The tile's own name on the page (its label, not the board), 2 mm around it."""
    from pdfread import char_boxes, page_text

    name = next(w for w in page_text(pdf, index).split() if w[:1] in "ABCDEF" and w[1:].isdigit())
    boxes = char_boxes(pdf, index, name)
    pad = 2 * PT_MM
    return [
        (
            min(b[0] for b in boxes) - pad,
            min(b[1] for b in boxes) - pad,
            max(b[2] for b in boxes) + pad,
            max(b[3] for b in boxes) + pad,
        )
    ]


def _seam(pdf, first: int, second: int, axis: int, dpi: float = 200):
    """Tiles `first` and `second` (page indexes) side by side along `axis` (0: across, the
    second to the right; 1: down, the second below): cut the second on its dashed line, lay
    it on the first with their shared marks on each other. Returns (the share of compared
    pixels that differ, the same with the second laid 0.3 mm off, how many marks matched)."""
    import pypdf

    reader = pypdf.PdfReader(pdf)
    page = reader.pages[first]
    size = (float(page.mediabox.width), float(page.mediabox.height))
    a_lines, b_lines = page_lines(pdf, first), page_lines(pdf, second)
    # The dashed cut line: the long stroke nearest the second tile's edge that meets the first.
    long = [k for k in b_lines if abs(k[2] - k[0]) + abs(k[3] - k[1]) > 100 * PT_MM]
    if axis == 0:
        cuts = [k[0] for k in long if abs(k[0] - k[2]) < 0.01]
        cut = min(cuts)
    else:
        cuts = [k[1] for k in long if abs(k[1] - k[3]) < 0.01]
        cut = max(cuts)
    a_marks, b_marks = _crosshairs(a_lines), _crosshairs(b_lines)
    # The marks of the seam: the first tile's nearest its far edge, the second's nearest
    # its near edge (a tile with neighbours on two sides has marks along both).
    far = max(p[axis] for p in a_marks) if axis == 0 else min(p[axis] for p in a_marks)
    near = min(p[axis] for p in b_marks) if axis == 0 else max(p[axis] for p in b_marks)
    a_side = [p for p in a_marks if abs(p[axis] - far) < 0.01 * PT_MM]
    b_side = [p for p in b_marks if abs(p[axis] - near) < 0.01 * PT_MM]
    other = 1 - axis
    pairs = [(a, b) for a in a_side for b in b_side if abs(a[other] - b[other]) < 0.01 * PT_MM]
    assert pairs, "no marks to lay on each other"
    shift = pairs[0][0][axis] - pairs[0][1][axis]
    assert all(abs((a[axis] - b[axis]) - shift) < 0.01 * PT_MM for a, b in pairs)
    # Every mark of the second tile's shared strip is kept when it is cut.
    for _a, b in pairs:
        kept = b[0] > cut if axis == 0 else b[1] < cut
        assert kept, ("the cut throws the mark away", b, cut)
    # The strip the tiles share: the printed width less the step from one tile to the next.
    overlap = (size[axis] - 2 * MARGIN * PT_MM) - abs(shift)
    assert overlap > 5 * PT_MM, overlap
    # A scale at which the step from one tile to the next is whole pixels: the two renders
    # then put the same board point at the same fraction of a pixel.
    scale = round(abs(shift) * dpi / 72) / abs(shift)
    img_a, img_b = render(pdf, first, scale), render(pdf, second, scale)
    m = MARGIN * PT_MM

    def differing(offset: float) -> float:
        # The part of the second tile past its cut that lies on the first's printed area.
        # Along the seam, short of the strips the tiles share with the row (or column) beside
        # them: another tile lies over those.
        if axis == 0:
            lo, hi = cut + 2, size[0] - m - offset - 2
            y0, y1 = m + overlap + 2, size[1] - m - overlap - 2
            box_b = (lo, y0, hi, y1)
            box_a = (lo + offset, y0, hi + offset, y1)
        else:
            lo, hi = m - offset + 2, cut - 2
            x0, x1 = m + overlap + 2, size[0] - m - overlap - 2
            box_b = (x0, lo, x1, hi)
            box_a = (x0, lo + offset, x1, hi + offset)
        x0, y1 = round(box_b[0] * scale), round((size[1] - box_b[3]) * scale)
        w, h = round((box_b[2] - box_b[0]) * scale), round((box_b[3] - box_b[1]) * scale)
        step = round(offset * scale)
        dx, dy = (step, 0) if axis == 0 else (0, -step)
        crop_b = (x0, y1, x0 + w, y1 + h)
        crop_a = (x0 + dx, y1 + dy, x0 + dx + w, y1 + dy + h)

        # Softened a pixel: PDFium's anti-aliasing of a thin line differs by a shade between
        # two pages where the drawing is the same.
        a = img_a.crop(crop_a).filter(ImageFilter.BoxBlur(1))
        b = img_b.crop(crop_b).filter(ImageFilter.BoxBlur(1))
        diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 60 else 0)
        # The tiles' own names are not the board: left out of the comparison.
        for labels, box in ((_label_boxes(pdf, first), box_a), (_label_boxes(pdf, second), box_b)):
            for lx0, ly0, lx1, ly1 in labels:
                x0 = round((lx0 - box[0]) * scale)
                y0 = round((box[3] - ly1) * scale)
                diff.paste(
                    0, (x0, y0, x0 + round((lx1 - lx0) * scale), y0 + round((ly1 - ly0) * scale))
                )
        return diff.histogram()[255] / (diff.size[0] * diff.size[1])

    return differing(shift), differing(shift + 0.3 * PT_MM), len(pairs)


@pytest.mark.parametrize(
    "paper, size",
    [
        ("a4", (380, 270)),
        ("letter", (380, 270)),
        ("a4", (400, 280)),
        ("a3", (600, 420)),
        ("letter", (600, 420)),
    ],
)
def test_tiles_cut_on_their_line_and_laid_on_their_marks_make_the_board(kit, paper, size):
    root = _board_project(kit, size)
    r = run("build", "--project", str(root), "--paper", paper, "--format", "board")
    assert r.exit_code == 0, r.output
    pdf = kit / "output/kit/board.pdf"
    from pdfread import all_text

    text = all_text(pdf)
    assert "点線" in text and "重ね" in text  # the guide: cut on the dashed line, overlay
    # The guide's map names the tiles: A1 top left, numbers to the right, letters down.
    import pypdf

    count = len(pypdf.PdfReader(pdf).pages) - 1
    labels = [all_text(pdf).count(f"A{n}") for n in (1, 2)]
    assert count >= 2 and all(labels)
    # Tiles follow the guide page in reading order: A1, A2, … then B1 …
    names = []
    for i in range(1, count + 1):
        from pdfread import page_text

        names.append(
            next(w for w in page_text(pdf, i).split() if w[:1] in "ABCD" and w[1:].isdigit())
        )
    cols = sum(1 for n in names if n[0] == "A")
    rows = count // cols
    compared = 0
    for r_ in range(rows):
        for c_ in range(cols):
            here = 1 + r_ * cols + c_
            if c_ + 1 < cols:
                same, off, marks = _seam(pdf, here, here + 1, 0)
                assert same < 0.002 and off > 5 * same + 0.005, (names[here - 1], same, off)
                compared += marks
            if r_ + 1 < rows:
                same, off, marks = _seam(pdf, here, here + cols, 1)
                assert same < 0.002 and off > 5 * same + 0.005, (names[here - 1], same, off)
                compared += marks
    assert compared >= 2


SPACES = """
[[box]]
name = "hero_pile"
type = "rect"
x = "20mm"
y = "60mm"
w = "{w}"
h = "{h}"
stroke = "#1F2A44"
holds = "{holds}"

[[box]]
name = "panel"
type = "rect"
x = "{panel_x}"
y = "50mm"
w = "60mm"
h = "40mm"
fill = "#FFFFFF"
"""


def _spaces(kit, **values):
    board = kit / "layouts/kit/board.toml"
    text = board.read_text(encoding="utf-8")
    fields = {"w": "70mm", "h": "120mm", "holds": "hero", "panel_x": "200mm", **values}
    board.write_text(text + SPACES.format(**fields), encoding="utf-8")
    return run("check", "--project", str(kit), "--no-play")


def test_a_board_space_smaller_than_its_card_is_named(kit):
    r = _spaces(kit, w="22mm", h="30mm")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if "hero_pile" in x)
    assert "layouts/kit/board.toml:" in line and "warning" in line
    assert "(22×30 mm) is smaller than the 英雄カード it holds (70×120 mm)" in line


def test_a_space_that_holds_its_card_either_way_round_is_quiet(kit):
    for w, h in (("70mm", "120mm"), ("121mm", "71mm")):
        r = _spaces(make_fixture_project("kit", kit.parent / f"{w}{h}"), w=w, h=h)
        assert r.exit_code == 0 and "hero_pile" not in r.output, r.output


def test_a_panel_over_a_space_and_an_unknown_component_are_named(kit):
    r = _spaces(kit, panel_x="60mm", holds="hreo")
    assert "space 'hero_pile' holds 'hreo', which is no component of this game" in r.output
    fixed = make_fixture_project("kit", kit.parent / "again")
    r = _spaces(fixed, panel_x="60mm")
    line = next(x for x in r.output.splitlines() if "'panel'" in x)
    assert "'panel' is drawn over space 'hero_pile', where the 英雄カード go" in line
    assert "layouts/kit/board.toml:" in line
