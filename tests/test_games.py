"""The other two games as a designer checks them: every component kind printed, placed, sized and labelled."""

from __future__ import annotations

import pypdf
import pytest

from conftest import run
from pdfread import MM, all_text, fonts, page_size_mm, page_text, placements, render, text_in

GAMES = ("fudaraku", "rumbling_seed", "nyanbaa")


def pages(pdf):
    return len(pypdf.PdfReader(pdf).pages)


def trim_box(p):
    """A placement's trim box (left, bottom, right, top) in points: its form box minus the bleed."""
    x0, y0, x1, y1 = p.bbox
    return p.x, p.y, p.x + x1 + x0, p.y + y1 + y0


def size_mm(p):
    x0, y0, x1, y1 = p.bbox
    return round((x1 + x0) / MM, 1), round((y1 + y0) / MM, 1)


@pytest.mark.parametrize("game", GAMES)
def test_every_pdf_embeds_subset_fonts(built, game):
    pdfs = sorted((built / game).glob("*.pdf"))
    assert {p.name for p in pdfs} >= {"cards.pdf", "rulebook.pdf", "summary.pdf"}
    for pdf in pdfs:
        found = fonts(pdf)
        assert found, pdf
        for f in found:
            assert f["embedded"] and f["name"][7] == "+", (pdf.name, f)


@pytest.mark.parametrize("game", GAMES)
def test_every_back_lies_behind_its_front(built, game):
    """Each 表 page is followed by its 裏 page; backs mirror the fronts for a long-edge flip."""
    pdf = built / game / "cards.pdf"
    for i in range(1, pages(pdf)):
        label = page_text(pdf, i)
        if "　表 " not in label:
            continue
        assert "　裏 " in page_text(pdf, i + 1), (game, i)
        width = page_size_mm(pdf, i)[0]
        for f, b in zip(placements(pdf, i), placements(pdf, i + 1), strict=True):
            w = size_mm(f)[0]
            assert b.x / MM == pytest.approx(width - f.x / MM - w, abs=0.1)
            assert b.y == pytest.approx(f.y, abs=0.1 * MM)


@pytest.mark.parametrize("game", GAMES)
def test_summary_is_one_page_and_no_line_breaks_against_kinsoku(built, game):
    assert pages(built / game / "summary.pdf") == 1
    for name in ("rulebook.pdf", "summary.pdf"):
        for line in all_text(built / game / name).splitlines():
            line = line.strip()
            if line == "・":
                continue  # a list bullet, extracted on its own
            assert not line or line[0] not in "、。」）ー・", (name, line)
            assert not line or line[-1] not in "「（", (name, line)


def test_rumbling_seed_cards_in_two_sizes(built):
    pdf = built / "rumbling_seed/cards.pdf"
    assert pages(pdf) == 1 + 2 * 8 + 2 * 2 + 2 + 2  # dragon veins, elders, disciples, four gods
    sizes = {}
    for i in range(1, pages(pdf), 2):
        for p in placements(pdf, i):
            sizes.setdefault(size_mm(p), 0)
            sizes[size_mm(p)] += 1
    assert sizes == {(63.0, 88.0): 72 + 16 + 4, (70.0, 120.0): 4}
    # The disciples (tarot, 2×2): names and elements on the cards.
    disciples = next(i for i in range(1, pages(pdf)) if "弟子カード　表" in page_text(pdf, i))
    texts = [text_in(pdf, disciples, trim_box(p)) for p in placements(pdf, disciples)]
    assert [t.split()[0] for t in texts] == ["地の弟子", "水の弟子", "火の弟子", "風の弟子"]
    assert all("手番の流れ" in t and "仮" in t for t in texts)


def test_rumbling_seed_every_card_says_what_it_is(built):
    pdf = built / "rumbling_seed/cards.pdf"
    seen = {"シード": 0, "ミニオン": 0}
    for i in range(1, 17, 2):
        for p in placements(pdf, i):
            text = text_in(pdf, i, trim_box(p))
            kind = "シード" if "シード" in text else "ミニオン"
            assert kind in text
            seen[kind] += 1
    assert seen == {"シード": 16, "ミニオン": 56}


def test_board_on_a3_in_one_piece(built):
    pdf = built / "rumbling_seed/board-a3.pdf"
    assert pages(pdf) == 1
    w, h = page_size_mm(pdf, 0)
    assert (w, h) == (pytest.approx(420, abs=0.1), pytest.approx(297, abs=0.1))
    (p,) = placements(pdf, 0)
    assert size_mm(p) == (400.0, 280.0)
    assert (p.x / MM, p.y / MM) == (pytest.approx(10, abs=0.1), pytest.approx(8.5, abs=0.1))
    text = page_text(pdf, 0)
    for word in ("龍穴", "老師（表向き）", "ラウンド", "手番の流れ"):
        assert word in text


def test_board_on_a4_tiles_overlap_by_ten_mm(built):
    pdf = built / "rumbling_seed/board.pdf"
    assert pages(pdf) == 1 + 3  # the guide, then tiles A1 A2 A3
    assert "のりしろ 10 mm" in page_text(pdf, 0)
    printable = 210 - 2 * 5
    origins = []
    for i in range(1, 4):
        assert page_size_mm(pdf, i) == (pytest.approx(210, abs=0.1), pytest.approx(297, abs=0.1))
        (p,) = placements(pdf, i)
        origins.append(p.x / MM)
        assert f"A{i}" in page_text(pdf, i)
    steps = [a - b for a, b in zip(origins, origins[1:])]
    for step in steps:
        assert printable - step == pytest.approx(10, abs=0.05)  # what two neighbours both print
    # The alignment mark in the shared strip prints on both neighbours, at the same board point.
    scale = 4
    a1, a2 = render(pdf, 1, scale), render(pdf, 2, scale)
    seam_board_x = 5 + printable - 10 / 2 - origins[0]  # board x of the mark on A1's right strip
    for img, origin in ((a1, origins[0]), (a2, origins[1])):
        x = round((origin + seam_board_x) * MM * scale)
        column = [img.getpixel((x, y)) for y in range(img.height)]
        dark = sum(1 for px in column if sum(px) < 200)
        assert dark > 20, "no alignment mark line on the seam"


def test_nyanbaa_turf_ranks_are_printed(built):
    pdf = built / "nyanbaa/cards.pdf"
    cards = []
    for i in range(1, 9, 2):  # 33 turf cards on 4 sheets
        cards += [text_in(pdf, i, trim_box(p)) for p in placements(pdf, i)]
    turf = cards
    assert len(turf) == 33 and not any(
        "ヒーロー" in t for t in turf
    )  # heroes have sheets of their own
    for n in (2, 3, 4):
        assert (
            sum(f"{n}△ ＞ {n} ＞ {n - 1}△" in " ".join(t.split()) for t in turf) == 6
        )  # both copies, 3 suits
    assert sum("1△ ＞ 1" in " ".join(t.split()) for t in turf) == 6
    for area in ("赤・商店街", "青・河原", "黄・空き地"):
        assert sum(area in t for t in turf) == 11


def test_nyanbaa_tribe_boards_and_tiles(built):
    pdf = built / "nyanbaa/cards.pdf"
    tribe = next(i for i in range(1, pages(pdf)) if "トライブカード　表" in page_text(pdf, i))
    placed = placements(pdf, tribe)
    assert [size_mm(p) for p in placed] == [(70.0, 120.0)] * 4
    texts = [" ".join(text_in(pdf, tribe, trim_box(p)).split()) for p in placed]
    assert "ブルーSAMURAI" in texts[1] and "赤リソースの効果が２倍になる" in texts[1].replace(
        " ", ""
    )
    assert all("リソース置き場" in t and ":酒肴:" not in t for t in texts)
    maps = [i for i in range(1, pages(pdf)) if "エリアマップ　表" in page_text(pdf, i)]
    placed = [p for i in maps for p in placements(pdf, i)]
    assert len(placed) == 9 and {size_mm(p) for p in placed} == {(80.0, 80.0)}


def test_nyanbaa_tokens_share_a_sheet(built):
    pdf = built / "nyanbaa/tokens.pdf"
    assert pages(pdf) == 2  # proof page, one sheet of 24 cubes + 32 markers
    placed = placements(pdf, 1)
    assert len(placed) == 56
    assert {size_mm(p) for p in placed} == {(16.0, 16.0)}
    xs = sorted({round(p.x / MM, 2) for p in placed})
    assert xs[1] - xs[0] == pytest.approx(16 + 2 * 1 + 2, abs=0.05)  # token, bleed both sides, gap
    texts = [text_in(pdf, 1, trim_box(p)).strip() for p in placed]
    assert texts[24:] == ["関"] * 8 + ["ブ"] * 8 + ["夜"] * 8 + ["シ"] * 8


def test_bought_components_are_listed_not_printed(project):
    manifest = project / "cards/nyanbaa/game.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(
        text.replace("printed = true          # false", "printed = false          # false"),
        encoding="utf-8",
    )
    result = run("build", "nyanbaa", "--project", str(project))
    assert result.exit_code == 0, result.output
    out = project / "output/nyanbaa"
    assert len(placements(out / "tokens.pdf", 1)) == 32
    assert "リソースキューブ" not in page_text(out / "tokens.pdf", 0)
    rulebook = "".join(all_text(out / "rulebook.pdf").split())
    assert "リソースキューブ２４個赤８個、青８個、黄８個、別途用意（印刷しません）" in rulebook


def test_check_lists_provisional_content_and_rule_gaps(project):
    result = run("check", "--no-play", "rumbling_seed", "nyanbaa", "--project", str(project))
    assert result.exit_code == 0, result.output
    out = result.output
    assert (
        "cards/rumbling_seed/elders.csv:2:provisional: notice: 老師カード 元始天尊、太乙真人、玉鼎真人、道行天尊、"
        "霊宝大法師、懼留孫、文殊広法天尊、普賢真人: provisional"
    ) in out
    assert (
        "cards/nyanbaa/area_maps.csv:2:provisional: notice: エリアマップ 1、2、3、4、5、6、7、8、9: provisional"
        in out
    )
    assert (
        "cards/rumbling_seed/rules.md:53: notice: the 72 龍脈カード split into 6 piles of 12" in out
    )
    assert "the rules do not say how many 老師カード go face down at setup" in out
    assert "names two cards, but the deck has 6 (4△ and 3△ in each of 赤、青、黄)" in out
    assert "with 3 players 3 maps are drawn but a 2×1 layout has 2 places" in out
    assert "cards/nyanbaa/tribes.csv:2:skill: warning: 関西豪学連 names 「リーダーカード」" in out


def test_composition_groups_name_the_broken_card(project):
    path = project / "cards/rumbling_seed/dragon_veins.csv"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("ミニオン,,3,14,", "ミニオン,,3,13,"), encoding="utf-8")
    result = run("check", "--no-play", "rumbling_seed", "--project", str(project))
    assert result.exit_code == 1
    assert (
        "cards/rumbling_seed/dragon_veins.csv: error: ミニオン 3 has 13 of 14 copies"
        in result.output
    )
    assert (
        "cards/rumbling_seed/dragon_veins.csv: error: 71 cards, the manifest expects 72"
        in result.output
    )


@pytest.mark.parametrize(
    "game,pdf",
    [("rumbling_seed", "cards.pdf"), ("nyanbaa", "cards.pdf"), ("nyanbaa", "tokens.pdf")],
)
def test_every_sheet_is_a_centred_grid(built, game, pdf):
    """Whatever the size (poker, tarot, square tiles, tokens): equal steps, centred on the page
    (left to right whenever a row is full, top to bottom when the whole sheet is)."""
    path = built / game / pdf
    fronts = [i for i in range(1, pages(path)) if "　表 " in page_text(path, i)]
    by_size: dict = {}
    for i in fronts:
        placed = placements(path, i)
        by_size.setdefault(size_mm(placed[0]), []).append((i, placed))
    checked = 0
    for size, sheets in by_size.items():
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
            assert len(steps) <= 2, (game, pdf, i, steps)  # one step across, one down
            if len(xs) == widest:
                assert xs[0] + x0 == pytest.approx(w - (xs[-1] + x1), abs=0.1), (game, pdf, i)
                checked += 1
            if len(placed) == most and most == len(xs) * len(ys):
                assert ys[0] + y0 == pytest.approx(h - (ys[-1] + y1), abs=0.1), (game, pdf, i)
    assert checked
