"""Card and token sheets as a user checks them: pages, sizes in mm, where every card and back
lands, text, fonts, bleed on each paper. On the `tiny` fixture (10 poker cards) and the `kit`
fixture (tarot cards, tokens of one size in two decks, a bought component)."""

from __future__ import annotations

import csv

import pypdf
import pypdfium2 as pdfium
import pytest

from conftest import FIXTURES, edit, make_fixture_project, run
from pdfread import MM, all_text, fonts, page_size_mm, page_text, placements, text_in

CARD_W, CARD_H = 63.0, 88.0


def pages(pdf) -> int:
    return len(pypdf.PdfReader(pdf).pages)


def size_mm(p) -> tuple[float, float]:
    x0, y0, x1, y1 = p.bbox
    return round((x1 + x0) / MM, 1), round((y1 + y0) / MM, 1)


def trim_box(p):
    x0, y0, x1, y1 = p.bbox
    return p.x, p.y, p.x + x1 + x0, p.y + y1 + y0


def tiny_rows() -> list[dict]:
    with open(FIXTURES / "tiny/cards/tiny/cards.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def expected_slots(
    paper_w: float,
    paper_h: float,
    bleed: tuple[float, float],
    butted: tuple[bool, bool],
    cols: int = 3,
    rows: int = 3,
):
    """Trim-box origins (mm, bottom-left) worked out by hand: a centred grid; along each
    direction either each card with its own bleed, or cards butting on shared cut lines with
    the bleed around the outside (`butted`, across then down)."""

    def starts(n: int, size: float, b: float, shared: bool, paper: float) -> list[float]:
        step = size if shared else size + 2 * b
        span = n * size + 2 * b if shared else n * step
        first = (paper - span) / 2 + b
        return [first + i * step for i in range(n)]

    xs = starts(cols, CARD_W, bleed[0], butted[0], paper_w)
    ys = starts(rows, CARD_H, bleed[1], butted[1], paper_h)
    return [(xs[c], ys[rows - 1 - r]) for r in range(rows) for c in range(cols)]


def test_page_count_and_sizes(tiny_built):
    pdf = tiny_built / "cards.pdf"
    assert pages(pdf) == 1 + 2 * 2  # proof page, then 2 front sheets each followed by its back
    for i in range(pages(pdf)):
        w, h = page_size_mm(pdf, i)
        assert w == pytest.approx(210, abs=0.05) and h == pytest.approx(297, abs=0.05)


def test_proof_page_has_ruler_and_print_instruction(tiny_built):
    text = page_text(tiny_built / "cards.pdf", 0)
    assert "100%" in text and "100 mm" in text
    assert "長辺とじ" in text
    assert "数字カード：10枚" in text
    # A4 has no room for gutters across a 3×3 poker grid: the cards butt side by side, keeping
    # 3 mm bleed, and the proof page says so.
    assert "塗り足し 3 mm" in text and "横に並ぶカードは裁ち線を共有します" in text
    assert "余白 5 mm" in text


def test_fronts_at_sheet_positions_within_a_tenth_of_a_mm(tiny_built):
    pdf = tiny_built / "cards.pdf"
    bleed = 3.0
    want = expected_slots(210, 297, (bleed, bleed), (True, False))
    for sheet, count in enumerate((9, 1)):
        placed = placements(pdf, 1 + 2 * sheet)
        assert len(placed) == count
        for p, (x, y) in zip(placed, want):
            assert p.x / MM == pytest.approx(x, abs=0.1)
            assert p.y / MM == pytest.approx(y, abs=0.1)
            x0, y0, x1, y1 = (v / MM for v in p.bbox)
            assert (x0, y0) == (pytest.approx(-bleed, abs=0.05), pytest.approx(-bleed, abs=0.05))
            assert x1 - x0 == pytest.approx(CARD_W + 2 * bleed, abs=0.05)
            assert y1 - y0 == pytest.approx(CARD_H + 2 * bleed, abs=0.05)
            # What prints: no bleed over a neighbour, the full bleed above, below and outside.
            v0, w0, v1, w1 = (v / MM for v in p.visible)
            left = bleed if p.x / MM < 20 else 0
            right = bleed if p.x / MM > 130 else 0
            assert v0 == pytest.approx(p.x / MM - left, abs=0.05)
            assert v1 == pytest.approx(p.x / MM + CARD_W + right, abs=0.05)
            assert (w0, w1) == (
                pytest.approx(p.y / MM - bleed, abs=0.05),
                pytest.approx(p.y / MM + CARD_H + bleed, abs=0.05),
            )


def test_backs_mirrored_for_long_edge_duplex(tiny_built):
    pdf = tiny_built / "cards.pdf"
    for sheet in range(2):
        fronts, backs = placements(pdf, 1 + 2 * sheet), placements(pdf, 2 + 2 * sheet)
        assert len(backs) == len(fronts)
        for f, b in zip(fronts, backs):
            # Flipped about the long (vertical) edge: x mirrors across the page, y stays.
            assert b.x / MM == pytest.approx(210 - f.x / MM - CARD_W, abs=0.1)
            assert b.y / MM == pytest.approx(f.y / MM, abs=0.1)
    # All backs are one design, drawn once and reused.
    assert len({b.form for s in range(2) for b in placements(pdf, 2 + 2 * s)}) == 1


def test_a_face_drawn_once_is_on_the_page_and_a_repeated_face_is_one_form(tmp_path):
    """A unique front is drawn straight onto its sheet (a form per card would cost the file and
    the memory of a large deck); a front printed twice is one form placed twice; the backs are
    one form for the whole deck."""
    root = make_fixture_project("tiny", tmp_path)
    edit(root, "cards/tiny/cards.csv", "赤,2,#C8323C,二の赤。", "赤,2,#C8323C,二の赤。\n" * 2)
    composition = (
        '  key = ["suit", "number"]\n  suit = ["赤", "青"]\n  number = { min = 1, max = 5 }\n'
        "  copies = 1\n  total = 10"
    )
    edit(root, "cards/tiny/game.toml", composition, "  total = 11")
    r = run("build", "--project", str(root))
    assert r.exit_code == 0, r.output
    pdf = root / "output/tiny/cards.pdf"
    fronts = placements(pdf, 1) + placements(pdf, 3)
    assert len(fronts) == 11
    forms = [p.form for p in fronts if p.form != "inline"]
    assert len(forms) == 2 and len(set(forms)) == 1  # the doubled 赤 2
    inline = [p for p in fronts if p.form == "inline"]
    assert len(inline) == 9
    for p in inline:  # clipped to the bleed box, like a form's
        x0, y0, x1, y1 = (v / MM for v in p.bbox)
        assert x1 - x0 == pytest.approx(CARD_W + 2 * 3, abs=0.05)
        assert y1 - y0 == pytest.approx(CARD_H + 2 * 3, abs=0.05)
    backs = placements(pdf, 2) + placements(pdf, 4)
    assert len(backs) == 11 and len({b.form for b in backs}) == 1 and backs[0].form != "inline"


def test_every_card_shows_its_data(tiny_built):
    pdf = tiny_built / "cards.pdf"
    for i, row in enumerate(tiny_rows()):
        sheet, slot = divmod(i, 9)
        p = placements(pdf, 1 + 2 * sheet)[slot]
        text = text_in(pdf, 1 + 2 * sheet, (p.x, p.y, p.x + CARD_W * MM, p.y + CARD_H * MM))
        assert row["suit"] in text and row["number"] in text and row["text"] in text, (i, text)


def test_sheet_labels_name_deck_side_and_sheet(tiny_built):
    text = all_text(tiny_built / "cards.pdf")
    assert "数字カード　表 1/2" in text and "数字カード　裏 2/2" in text


def test_all_fonts_embedded_and_subset(tiny_built):
    for name in ("cards.pdf", "rulebook.pdf", "summary.pdf"):
        found = fonts(tiny_built / name)
        assert found, name
        for f in found:
            assert f["embedded"], (name, f)
            assert f["name"][7:8] == "+" and f["name"][1:7].isupper(), (name, f)  # subset tag


def test_letter_paper_reduces_bleed_with_a_note(tiny):
    result = run("build", "--project", str(tiny), "--paper", "letter")
    assert result.exit_code == 0, result.output
    # 3 × 88 mm leave 15.4 mm of Letter's height: the rows butt, the marks get short and the
    # bleed above and below gives way; across, the full bleed still fits.
    assert "bleed reduced from 3 mm to 0.2 mm" in result.output
    pdf = tiny / "output/tiny/cards.pdf"
    w, h = page_size_mm(pdf, 1)
    assert (w, h) == (pytest.approx(215.9, abs=0.05), pytest.approx(279.4, abs=0.05))
    assert "塗り足し 左右 3 mm・上下 0.2 mm" in page_text(pdf, 0)
    slots = expected_slots(215.9, 279.4, (3, 0.2), (True, True))
    for p, (x, y) in zip(placements(pdf, 1), slots):
        assert (p.x / MM, p.y / MM) == (pytest.approx(x, abs=0.1), pytest.approx(y, abs=0.1))


def test_bleed_option_zero(tiny):
    result = run("build", "--project", str(tiny), "--bleed", "0")
    assert result.exit_code == 0, result.output
    pdf = tiny / "output/tiny/cards.pdf"
    for p, (x, y) in zip(placements(pdf, 1), expected_slots(210, 297, (0, 0), (False, False))):
        assert (p.x / MM, p.y / MM) == (pytest.approx(x, abs=0.1), pytest.approx(y, abs=0.1))
        assert p.bbox[2] - p.bbox[0] == pytest.approx(CARD_W * MM, abs=0.1)
    assert "塗り足し 0 mm" in page_text(pdf, 0)


def test_bleed_out_of_range_is_refused(tiny):
    result = run("build", "--project", str(tiny), "--bleed", "4")
    assert result.exit_code != 0
    assert "4" in result.output and "0<=x<=3" in result.output.replace(" ", "")


def test_two_builds_are_byte_identical(tiny_built, tiny):
    assert run("build", "--project", str(tiny)).exit_code == 0
    built = sorted(p.name for p in tiny_built.iterdir())
    assert built == ["cards.pdf", "rulebook.pdf", "summary.md", "summary.pdf"]
    for name in built:
        assert (tiny / "output/tiny" / name).read_bytes() == (tiny_built / name).read_bytes(), name


# --- other sizes and kinds: the kit fixture ---------------------------------------------------
def test_tarot_cards_two_by_two(kit_built):
    pdf = kit_built / "cards.pdf"
    assert pages(pdf) == 1 + 2
    placed = placements(pdf, 1)
    assert [size_mm(p) for p in placed] == [(70.0, 120.0)] * 3
    texts = [text_in(pdf, 1, trim_box(p)).strip() for p in placed]
    assert texts == ["剣士", "魔法使い", "弓使い"]


def test_tokens_of_one_size_share_a_sheet_one_sided(kit_built):
    pdf = kit_built / "tokens.pdf"
    assert pages(pdf) == 2  # proof page, one sheet of 12 chips + 3 markers; no back sheet
    assert "長辺とじ" not in page_text(pdf, 0)
    assert "資源チップ・得点マーカー：15個" in page_text(pdf, 0)
    placed = placements(pdf, 1)
    assert len(placed) == 12 + 3
    assert {size_mm(p) for p in placed} == {(16.0, 16.0)}
    xs = sorted({round(p.x / MM, 2) for p in placed})
    assert xs[1] - xs[0] == pytest.approx(16 + 2 * 1 + 2, abs=0.05)  # token, bleed, gap
    texts = [text_in(pdf, 1, trim_box(p)).strip() for p in placed]
    assert texts == ["木"] * 4 + ["石"] * 4 + ["金"] * 4 + ["１", "２", "３"]


def test_bought_components_are_not_printed(kit_built):
    text = all_text(kit_built / "tokens.pdf")
    assert "木製キューブ" not in text


def test_tokens_of_another_size_get_their_own_sheet(kit):
    edit(kit, "cards/kit/game.toml", "printed = false\n", "")
    result = run("build", "--project", str(kit))
    assert result.exit_code == 0, result.output
    pdf = kit / "output/kit/tokens.pdf"
    assert pages(pdf) == 3
    assert {size_mm(p) for p in placements(pdf, 2)} == {(10.0, 10.0)}


def test_a_decks_faces_come_back_in_deck_order_with_their_use_counts():
    """What the layout stage keeps of a deck is every pair in order, a face the deck repeats
    held once and counted as repeated."""
    from generator.layout.boxes import Box
    from generator.layout.faces import Face, FaceStore

    def face(text: str) -> Face:
        box = Box("t", "text", 1.0, 2.0, 3.0, 4.0, {"text": text, "lines": (text,)})
        return Face((box,), f"key-{text}")

    back = face("裏")
    pairs = [(face(f"表{i % 700}"), back) for i in range(773)]
    store = FaceStore()
    for pair in pairs:
        store.append(pair)
    assert len(store) == len(pairs)
    assert list(store) == pairs
    assert store[0] == pairs[0] and store[-1] == pairs[-1] and store[300] == pairs[300]
    with pytest.raises(IndexError):
        store[len(pairs)]
    assert [len(run) for run in store.runs(9)] == [9] * (len(pairs) // 9) + [len(pairs) % 9]
    assert store.uses[back.key] == len(pairs)
    assert store.uses["key-表1"] == 2 and store.uses["key-表699"] == 1
    assert all(b is back for _f, b in store)
    joined = FaceStore.joined(store, store)
    assert list(joined) == pairs + pairs and joined.uses["key-表699"] == 2


@pytest.mark.parametrize(
    "size, grid, bleed",
    [
        ("mini", "3×6/シート（横向き）", "3"),
        ("poker", "3×3/シート", "3"),
        ("tarot", "2×2/シート", "3"),
    ],
)
def test_without_a_named_sheet_cards_fill_the_page(tmp_path, size, grid, bleed):
    """No `sheet`: as many cards as fit inside the printer margin (butting on shared cut lines
    where gutters do not fit, the bleed giving way to 1 mm at least) and the cards turning
    sideways where that fits more: poker 3×3 rather than 2×3, mini 18 sideways rather than 16
    upright, each keeping 3 mm bleed around the outside."""
    root = make_fixture_project("tiny", tmp_path)
    edit(root, "cards/tiny/game.toml", 'sheet = "poker_3x3"\n', "")
    edit(root, "cards/tiny/game.toml", 'size = "poker"', f'size = "{size}"')
    r = run("build", "--project", str(root), "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = root / "output/tiny/cards.pdf"
    proof = page_text(pdf, 0)
    assert grid in proof and f"塗り足し {bleed} mm" in proof, proof
    cols, rows = int(grid[0]), int(grid[2])
    fronts, backs = placements(pdf, 1), placements(pdf, 2)
    assert len(fronts) == len(backs) == min(10, cols * rows)
    b = float(bleed) * MM
    for f, k in zip(fronts, backs):
        left, bottom, right, top = f.footprint
        # every card, with its bleed, inside the 5 mm margin
        assert left - b >= 5 * MM - 0.01 and bottom - b >= 5 * MM - 0.01
        assert right + b <= 205 * MM + 0.01 and top + b <= 292 * MM + 0.01
        # its back behind it after a long-edge flip, turned the other way
        k_left, k_bottom, k_right, k_top = k.footprint
        assert k_left == pytest.approx(210 * MM - right, abs=0.01)
        assert (k_bottom, k_top) == (pytest.approx(bottom, abs=0.01), pytest.approx(top, abs=0.01))
        assert k.rot == -f.rot and (f.rot == 90) == ("横向き" in grid)


def test_proof_page_lines_wrap_inside_the_margins(tiny):
    """A long deck name and the note on shared cut lines wrap on the proof page instead of
    running off the paper (A4: 170 mm between the 20 mm margins)."""
    long_name = "とても長い名前の数字カードの山札（第二版・試作用・両面印刷・色見本つき）"
    edit(tiny, "cards/tiny/game.toml", 'name = "数字カード"', f'name = "{long_name}"')
    title = "長い題名のゲーム：印刷と裁断の試し刷り "
    edit(tiny, "cards/tiny/game.toml", 'title = "', f'title = "{title}')
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    pdf = tiny / "output/tiny/cards.pdf"
    text = "".join(page_text(pdf, 0).split())
    assert long_name in text and "共有の線の上を正確に切ってください" in text
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        width = page.get_width()
        textpage = page.get_textpage()
        rights = [textpage.get_charbox(i)[2] for i in range(textpage.count_chars())]
    finally:
        document.close()
    assert max(rights) <= width - 19 * MM, (max(rights) - width) / MM


@pytest.mark.parametrize("written", ["63x88", "63×88mm", "６３ｘ８８", "6.3 x 8.8 cm"])
def test_a_size_written_as_width_by_height(tmp_path, written):
    """size = "63x88" as designers write it (millimetres unless a unit says otherwise): each
    card's trim box is that size."""
    root = make_fixture_project("tiny", tmp_path)
    edit(root, "cards/tiny/game.toml", 'sheet = "poker_3x3"\n', "")
    edit(root, "cards/tiny/game.toml", 'size = "poker"', f'size = "{written}"')
    r = run("build", "--project", str(root), "--format", "cards")
    assert r.exit_code == 0, r.output
    for card in placements(root / "output/tiny/cards.pdf", 1):
        left, bottom, right, top = card.footprint
        w, h = sorted((right - left, top - bottom))
        assert (w / MM, h / MM) == (pytest.approx(63, abs=0.01), pytest.approx(88, abs=0.01))


def test_tokens_given_a_back_print_it_though_their_sheet_is_one_sided(kit):
    """A token with `back` on the one-sided tokens sheet: its backs print behind it (a page
    of their own, after a long-edge flip), and check says so; tokens without one stay
    one-sided on their own sheet."""
    marker = 'data = "markers.csv"\nsize = { w = "16mm", h = "16mm" }\nfront = "token_front"\n'
    edit(kit, "cards/kit/game.toml", marker, marker + 'back = "token_front"\n')
    result = run("build", "--project", str(kit))
    assert result.exit_code == 0, result.output
    assert (
        "得点マーカー has a back (token_front) and its sheet 'tokens' prints one side"
        in result.output
    )
    pdf = kit / "output/kit/tokens.pdf"
    assert pages(pdf) == 1 + 1 + 2  # the proof; the chips alone; the markers, then their backs
    fronts, backs = placements(pdf, 2), placements(pdf, 3)
    assert len(placements(pdf, 1)) == 12 and len(fronts) == len(backs) == 3
    for f, b in zip(fronts, backs):  # each back behind its front after a long-edge flip
        left, bottom, right, _top = f.footprint
        b_left, b_bottom, b_right, _b_top = b.footprint
        assert b_left == pytest.approx(210 * MM - right, abs=0.01)
        assert b_bottom == pytest.approx(bottom, abs=0.01)


def test_any_paper_the_sheet_definitions_hold(tmp_path):
    """--paper takes the papers sheets.toml defines (B5 as Japanese printers have it among the
    tool's); another is an error at [paper], saying how to add one."""
    root = make_fixture_project("tiny", tmp_path)
    edit(root, "cards/tiny/game.toml", 'sheet = "poker_3x3"\n', "")  # as many as fit B5
    r = run("build", "--project", str(root), "--format", "cards", "--paper", "b5")
    assert r.exit_code == 0, r.output
    pdf = root / "output/tiny/cards.pdf"
    assert page_size_mm(pdf, 1) == (pytest.approx(182, abs=0.05), pytest.approx(257, abs=0.05))
    r = run("build", "--project", str(root), "--format", "cards", "--paper", "a6")
    assert r.exit_code == 1
    assert (
        "pnp:layouts/sheets.toml:3:paper: error: unknown paper 'a6' (papers: a4, letter, a3, "
        in (r.output)
    )
    assert "another goes under [paper] here" in r.output
