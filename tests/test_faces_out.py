"""Every face on its own: print-shop PDFs (one face per page, TrimBox and BleedBox, a shop's page
order and size) and PNG images (named from the data, at the size their dpi gives), each read
back as a designer or a shop would check them."""

from __future__ import annotations

import pypdf
import pytest
from PIL import Image, ImageChops, ImageStat

from conftest import edit, run
from pdfread import MM, fonts, page_text, render

CARDS = ["赤-1", "赤-2", "赤-3", "赤-4", "赤-5", "青-1", "青-2", "青-3", "青-4", "青-5"]


def boxes_mm(page) -> dict[str, tuple[float, ...]]:
    return {
        name: tuple(round(float(v) / MM, 2) for v in getattr(page, name))
        for name in ("mediabox", "trimbox", "bleedbox")
    }


def test_generic_printshop_pdf_one_face_a_page_with_page_boxes(tiny):
    r = run("build", "--project", str(tiny), "--format", "printshop")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/printshop/generic/card.pdf"
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 20  # 10 cards, front then back
    for page in reader.pages:
        b = boxes_mm(page)
        assert b["mediabox"] == (0, 0, 69, 94) and b["bleedbox"] == b["mediabox"]
        assert b["trimbox"] == (3, 3, 66, 91)
    assert "赤" in page_text(pdf, 0) and "一番小さい赤。" in page_text(pdf, 0)
    assert "ちいさな試験" in page_text(pdf, 1)  # card 1's back follows its front
    assert "二の赤。" in page_text(pdf, 2)
    assert all(f["embedded"] for f in fonts(pdf))
    assert "preflight generic: 数字カード 20 pages, 63×88 mm + 3 mm bleed" in r.output
    assert "smallest text 10.0 pt" in r.output  # the fixture's text box: 10 pt, not shrunk


def test_a_vendor_preset_sets_its_size_order_and_bleed(tiny):
    r = run(
        "build", "--project", str(tiny), "--format", "printshop", "--preset", "drivethrucards-poker"
    )
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/printshop/drivethrucards-poker/card.pdf"
    reader = pypdf.PdfReader(pdf)
    b = boxes_mm(reader.pages[0])
    # 2.5 × 3.5 in inside 1/8 in of bleed
    assert b["trimbox"] == pytest.approx((3.175, 3.175, 66.675, 92.075), abs=0.01)
    assert b["mediabox"] == pytest.approx((0, 0, 69.85, 95.25), abs=0.01)
    assert "ちいさな試験" in page_text(pdf, 0) and "一番小さい赤。" in page_text(
        pdf, 1
    )  # back first
    # The preflight line states the trim the pages' TrimBox has (63.5 × 88.9 mm), not the
    # card's own size scaled.
    trim = b["trimbox"]
    w, h = round(trim[2] - trim[0], 1), round(trim[3] - trim[1], 1)
    assert (w, h) == (63.5, 88.9)
    assert f"drivethrucards-poker: 数字カード 20 pages, {w:g}×{h:g} mm + " in r.output


def test_a_png_preset_writes_the_shop_s_pixel_size_fronts_first(tiny):
    r = run(
        "build", "--project", str(tiny), "--format", "printshop", "--preset", "thegamecrafter-poker"
    )
    assert r.exit_code == 0, r.output
    folder = tiny / "output/tiny/printshop/thegamecrafter-poker/card"
    names = sorted(p.name for p in folder.iterdir())
    assert names[0] == "001-赤-1-front.png" and names[10] == "011-赤-1-back.png"
    assert len(names) == 20
    assert {Image.open(folder / n).size for n in names} == {(825, 1125)}


def test_a_preset_for_another_size_leaves_the_piece_out_and_says_so(kit):
    r = run("build", "--project", str(kit), "--format", "printshop", "--preset", "generic-poker")
    assert r.exit_code == 0, r.output
    assert "preset generic-poker is for 63×88 mm pieces" in r.output and "is left out" in r.output


def test_an_unknown_preset_is_an_error_naming_the_presets(tiny):
    r = run("build", "--project", str(tiny), "--format", "printshop", "--preset", "drivethru")
    assert r.exit_code == 1
    assert "unknown preset 'drivethru'" in r.output and "drivethrucards-poker" in r.output
    assert not (tiny / "output/tiny/printshop").exists()


def test_png_every_face_named_from_the_data_at_its_size(tiny):
    r = run("build", "--project", str(tiny), "--format", "png")
    assert r.exit_code == 0, r.output
    folder = tiny / "output/tiny/png/card"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{c}-{side}.png" for c in CARDS for side in ("front", "back")
    )
    for path in folder.iterdir():
        assert Image.open(path).size == (815, 1110)  # 69 × 94 mm at 300 dpi
    # The image is the PDF: the print-shop page rendered at 300 dpi shows the same pixels.
    run("build", "--project", str(tiny), "--format", "printshop")
    page = render(tiny / "output/tiny/printshop/generic/card.pdf", 0, 300 / 72).crop(
        (0, 0, 815, 1110)
    )
    image = Image.open(folder / "赤-1-front.png").convert("RGB")
    # The same drawing; the image's scale is 815 px over 69 mm (4.1669) rather than 300/72,
    # so anti-aliased edges differ by a shade.
    assert max(ImageStat.Stat(ImageChops.difference(page, image)).mean) < 1.5
    backs = {(folder / f"{c}-back.png").read_bytes() for c in CARDS}
    assert len(backs) == 1  # one back design, rendered once


def test_pieces_with_no_composition_are_named_by_their_first_text(kit):
    """Tokens a designer adds by hand have no composition to name them: their first text
    column does (a token's 種類 or label), as messages name them; copies are numbered."""
    edit(kit, "cards/kit/markers.csv", "３,#3C8D40", "３,#3C8D40\n３,#3C8D40")
    r = run("build", "--project", str(kit), "--format", "png")
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in (kit / "output/kit/png/marker").iterdir())
    assert names == ["１-front.png", "２-front.png", "３-2-front.png", "３-front.png"]


def test_a_band_with_bleed_reaches_out_at_the_edges_it_meets_not_into_the_card(tiny):
    """The band (0–14 mm from the top, bleed = true) runs into the 3 mm bleed above and at the
    sides, and ends 14 mm below the trim: it reached 3 mm further down into the card, over
    whatever was laid out under it."""
    r = run("build", "--project", str(tiny), "--format", "png")
    assert r.exit_code == 0, r.output
    front = Image.open(tiny / "output/tiny/png/card/赤-1-front.png").convert("RGB")
    px = 300 / 25.4  # pixels a millimetre
    red = (0xC8, 0x32, 0x3C)

    def at(x_mm: float, y_mm: float):  # from the image's corner: the bleed's edge
        return front.getpixel((round(x_mm * px), round(y_mm * px)))

    assert at(0.5, 0.5) == red and at(68.5, 0.5) == red  # the bleed above, both corners
    assert at(34.5, 3 + 13.5) == red  # the band's last millimetre
    assert at(34.5, 3 + 15) != red and at(1, 3 + 15) != red  # below it: the card


@pytest.mark.parametrize(
    "args, size", [(["--no-bleed"], (744, 1039)), (["--dpi", "150"], (407, 555))]
)
def test_png_without_bleed_or_at_another_dpi(tiny, args, size):
    r = run("build", "--project", str(tiny), "--format", "png", *args)
    assert r.exit_code == 0, r.output
    image = Image.open(tiny / "output/tiny/png/card/青-5-front.png")
    assert image.size == size
    # Its resolution goes with it (pHYs): an image editor opens it at its size in mm.
    dpi = 150 if "150" in args else 300
    assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.5)
    width_mm = 63 if "--no-bleed" in args else 69  # the trim, or the trim and its bleed
    assert image.size[0] / image.info["dpi"][0] * 25.4 == pytest.approx(width_mm, abs=0.1)
