"""Card art: image boxes built from real PNG, JPEG and SVG files (made here, so each test says
what it draws) and read back as a designer would look at them: colours where the picture
should be and is not, one embedded copy per file, messages naming the card's row and the path."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from PIL import Image, ImageDraw

from conftest import edit, make_fixture_project, run
from pdfread import page_text

RED, YELLOW, BLUE, GREEN, FRAME = (
    (220, 30, 30),
    (240, 200, 40),
    (40, 80, 160),
    (30, 140, 60),
    (
        0xDD,
        0xEE,
        0xFF,
    ),
)
PX_PER_MM = 10  # --dpi 254


def paint(root: Path) -> Path:
    """The fixture's pictures: fox.png 400×300 with its left half red and its right half
    transparent; owl.jpg 900×1200 with its top-left quarter yellow, the rest blue; oak.svg 100×50
    with a green left half and a yellow right half; back.svg a purple square."""
    folder = root / "cards/art/art"
    folder.mkdir(parents=True, exist_ok=True)
    fox = Image.new("RGBA", (400, 300), (0, 0, 0, 0))
    ImageDraw.Draw(fox).rectangle((0, 0, 199, 299), fill=(*RED, 255))
    fox.save(folder / "fox.png")
    owl = Image.new("RGB", (900, 1200), BLUE)
    ImageDraw.Draw(owl).rectangle((0, 0, 449, 599), fill=YELLOW)
    owl.save(folder / "owl.jpg", quality=95)
    (folder / "oak.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">'
        '<rect width="50" height="50" fill="#1E8C3C"/>'
        '<rect x="50" width="50" height="50" fill="#F0C828"/></svg>',
        encoding="utf-8",
    )
    (folder / "back.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
        '<rect width="40" height="40" fill="#553377"/></svg>',
        encoding="utf-8",
    )
    return root


@pytest.fixture
def art(tmp_path) -> Path:
    return paint(make_fixture_project("art", tmp_path))


def faces(root: Path) -> dict[str, Image.Image]:
    """Every face as a trimmed image at 10 px per mm, by file name."""
    r = run("build", "--project", str(root), "--format", "png", "--no-bleed", "--dpi", "254")
    assert r.exit_code == 0, r.output
    folder = root / "output/art/png/card"
    return {p.stem: Image.open(p).convert("RGB") for p in folder.iterdir()}


def at(image: Image.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return image.getpixel((round(x_mm * PX_PER_MM), round(y_mm * PX_PER_MM)))


def near(colour, want, tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(colour, want))


def test_fit_modes_place_the_picture_as_named(art):
    f = faces(art)
    # The art box: x 4–59 mm, y 10–60 mm (55 × 50 mm).
    fox = f["狐-front"]  # contain: 4:3 → 55 × 41.25 mm, centred: y 14.4–55.6 mm
    assert near(at(fox, 10, 35), RED)
    assert near(at(fox, 50, 35), FRAME)  # the transparent half shows the frame below it
    assert near(at(fox, 10, 12), FRAME)  # above the picture: contain leaves the frame showing
    assert near(at(fox, 10, 15), RED)
    owl = f["梟-front"]  # cover: 3:4 → 55 × 73.3 mm, centred: y −1.7–71.7 mm, clipped to the box
    assert near(at(owl, 6, 11), YELLOW) and near(at(owl, 50, 11), BLUE)
    assert near(at(owl, 6, 34), YELLOW) and near(at(owl, 6, 37), BLUE)  # the quarter ends at 35
    assert near(at(owl, 6, 8), (255, 255, 255))  # nothing of it above the box
    assert near(at(owl, 6, 62), (255, 255, 255))  # nor below
    oak = f["樫-front"]  # stretch: the SVG's 2:1 drawn over the whole 55 × 50 mm box
    assert near(at(oak, 6, 11), GREEN) and near(at(oak, 6, 59), GREEN)
    assert near(at(oak, 30, 35), GREEN) and near(at(oak, 33, 35), YELLOW)  # halves meet at 31.5


def test_a_16_bit_grey_png_prints_its_greys(art):
    """Scanners and some art tools save 16-bit greyscale PNGs: mid grey prints mid grey (turned
    to 8 bits by scale; a plain conversion clipped every pixel above 255 of 65,535 to white)."""
    fox = art / "cards/art/art/fox.png"
    Image.new("I;16", (400, 300), 32768).save(fox)
    assert Image.open(fox).mode.startswith("I")
    f = faces(art)
    assert near(at(f["狐-front"], 30, 35), (128, 128, 128), tol=3)


def test_a_photo_stored_on_its_side_prints_as_it_is_seen(art):
    """A phone writes the EXIF orientation instead of turning the pixels: owl.jpg stored
    1200 wide × 900 high (left half yellow) with orientation 6 is seen 900 × 1200 with its top
    half yellow, and prints so (it printed on its side)."""
    owl = Image.new("RGB", (1200, 900), BLUE)
    ImageDraw.Draw(owl).rectangle((0, 0, 599, 899), fill=YELLOW)
    exif = owl.getexif()
    exif[0x0112] = 6
    owl.save(art / "cards/art/art/owl.jpg", quality=95, exif=exif.tobytes())
    face = faces(art)["梟-front"]  # cover, as seen 3:4: y −1.7–71.7 mm, yellow above 35 mm
    assert near(at(face, 6, 20), YELLOW) and near(at(face, 50, 20), YELLOW)
    assert near(at(face, 6, 50), BLUE) and near(at(face, 50, 50), BLUE)


@pytest.mark.parametrize("suffix", ["webp", "tif"])
def test_art_saved_as_webp_or_tiff_prints(art, suffix):
    """Art downloaded as WebP, or saved as TIFF (CMYK, as a paint program for print may):
    printed as the pixels it holds."""
    fox = Image.new("RGBA", (400, 300), (0, 0, 0, 0))
    ImageDraw.Draw(fox).rectangle((0, 0, 199, 299), fill=(*RED, 255))
    if suffix == "tif":
        fox = Image.new("RGB", (400, 300), BLUE).convert("CMYK")
        ImageDraw.Draw(fox).rectangle(
            (0, 0, 199, 299), fill=Image.new("RGB", (1, 1), RED).convert("CMYK").getpixel((0, 0))
        )
    fox.save(art / f"cards/art/art/fox.{suffix}", lossless=True)
    edit(art, "cards/art/cards.csv", "fox.png", f"fox.{suffix}")
    face = faces(art)["狐-front"]
    assert near(at(face, 10, 35), RED, tol=20)
    assert near(at(face, 50, 35), FRAME if suffix == "webp" else BLUE, tol=20)


def test_a_picture_path_with_backslashes_as_on_windows_is_found(art):
    edit(art, "cards/art/cards.csv", "fox.png", "sub\\fox.png")
    (art / "cards/art/art/sub").mkdir()
    (art / "cards/art/art/fox.png").rename(art / "cards/art/art/sub/fox.png")
    assert near(at(faces(art)["狐-front"], 10, 35), RED)


def test_a_picture_named_in_another_case_is_said_so(art):
    """`Fox.png` in the spreadsheet, `fox.png` on disk: a Mac finds it, Linux does not; the
    message names the file that is there."""
    if (art / "cards/art/art/Fox.png").exists():
        pytest.skip("this file system finds a name in either case")
    edit(art, "cards/art/cards.csv", "fox.png", "Fox.png")
    result = run("check", "--no-play", "--project", str(art))
    assert result.exit_code == 1
    assert (
        "image art/Fox.png not found (art/fox.png is there: rename it, or write its name in "
        "the data)"
    ) in result.output, result.output


def test_a_picture_saved_as_another_format_is_said_so(art):
    """`owl.png` in the spreadsheet, `owl.jpg` saved: said at the error, and beside the
    stand-in a placeholder draws; a file outside the game's folder is never named."""
    edit(art, "cards/art/cards.csv", "owl.jpg", "owl.png")
    result = run("check", "--no-play", "--project", str(art))
    assert result.exit_code == 1
    assert "image art/owl.png not found (art/owl.jpg is there: rename it" in result.output
    edit(
        art,
        "layouts/art/art_front.toml",
        'fit = "{{ fit }}"',
        'fit = "{{ fit }}"\nplaceholder = true',
    )
    result = run("check", "--no-play", "--project", str(art))
    assert result.exit_code == 0
    assert (
        "layouts/art/art_front.toml: warning: box 'art': art/owl.png is not there, art/owl.jpg "
        "is: rename it, or write its name in the data (a stand-in is drawn)"
    ) in result.output
    (art / "cards/art/art/owl.jpg").rename(art / "cards/art/art/owl.png")
    assert "is not there" not in run("check", "--no-play", "--project", str(art)).output


def test_a_file_named_in_another_unicode_form_is_found(art):
    """A Mac writes が in a file name as か and a combining ゛ (NFD); the spreadsheet has the
    one character. The picture is found, and an edit of it is drawn on the next build."""
    import unicodedata

    edit(art, "cards/art/cards.csv", "fox.png", "がぞう.png")
    stored = art / "cards/art/art" / unicodedata.normalize("NFD", "がぞう.png")
    (art / "cards/art/art/fox.png").rename(stored)
    if (art / "cards/art/art/がぞう.png").exists():
        pytest.skip("this file system finds a name in either form")
    assert near(at(faces(art)["狐-front"], 10, 35), RED)
    blue = Image.new("RGB", (400, 300), BLUE)
    blue.save(stored)
    assert near(at(faces(art)["狐-front"], 10, 35), BLUE)


@pytest.mark.parametrize("orientation", range(2, 9))
def test_each_exif_orientation_turns_the_picture_as_pillow_does(orientation):
    """The matrix each EXIF orientation draws with takes every stored pixel to where Pillow's
    exif_transpose (what image viewers show) puts it."""
    from PIL import ImageOps

    from generator.render.draw import ORIENTATIONS

    w, h = 3, 2
    stored = Image.new("RGB", (w, h))
    stored.putdata([(10 * i, 0, 0) for i in range(w * h)])
    exif = stored.getexif()
    exif[0x0112] = orientation
    stored.info["exif"] = exif.tobytes()
    seen = ImageOps.exif_transpose(stored)
    a, b, c, d, e, f = ORIENTATIONS[orientation]
    for y in range(h):
        for x in range(w):
            u, v = (x + 0.5) / w, 1 - (y + 0.5) / h  # the pixel's centre, PDF's way up
            u2, v2 = a * u + c * v + e, b * u + d * v + f
            x2, y2 = int(u2 * seen.width), int((1 - v2) * seen.height)
            assert seen.getpixel((x2, y2)) == stored.getpixel((x, y)), (x, y)


def test_rounded_clip_and_opacity(art):
    back = faces(art)["狐-back"]  # emblem: 30 mm square centred, 4 mm corners, opacity 0.8
    purple = (0x55, 0x33, 0x77)
    blended = tuple(round(0.8 * c + 0.2 * 255) for c in purple)
    assert near(at(back, 31.5, 44), blended, tol=6)
    assert not near(at(back, 31.5, 44), purple, tol=6)
    assert near(at(back, 16.6, 29.1), (255, 255, 255))  # the corner is cut round
    assert near(at(back, 17.5, 44), blended, tol=6)  # the straight edge is not


def image_xobjects(pdf: Path) -> list:
    """Every distinct picture (image XObject other than a soft mask) the file holds, found
    through the pages' resources and the forms they use."""
    seen: dict[int, object] = {}
    masks: set[int] = set()

    def walk(resources) -> None:
        for ref in (resources or {}).get("/XObject", {}).values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                seen[ref.idnum] = obj
                if "/SMask" in obj:
                    masks.add(obj.raw_get("/SMask").idnum)
            elif ref.idnum not in seen:
                seen[ref.idnum] = None
                walk(obj.get("/Resources"))

    for page in pypdf.PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return [o for i, o in seen.items() if o is not None and i not in masks]


def test_a_picture_on_many_cards_is_embedded_once(art):
    edit(art, "cards/art/cards.csv", "owl.jpg,cover", "fox.png,cover")
    edit(art, "cards/art/cards.csv", "oak.svg,stretch", "fox.png,stretch")
    r = run("build", "--project", str(art))
    assert r.exit_code == 0, r.output
    images = image_xobjects(art / "output/art/cards.pdf")
    assert len(images) == 1
    assert (images[0]["/Width"], images[0]["/Height"]) == (400, 300)


def test_same_art_same_bytes_wherever_the_project_lies(tmp_path):
    outs = []
    for where in ("one", "two/deeper"):
        root = paint(make_fixture_project("art", tmp_path / where))
        assert run("build", "--project", str(root)).exit_code == 0
        outs.append((root / "output/art/cards.pdf").read_bytes())
    assert outs[0] == outs[1]


def test_a_coarse_picture_is_a_warning_naming_card_file_and_dpi(art):
    Image.new("RGB", (60, 40), GREEN).save(art / "cards/art/art/fox.png")
    r = run("check", "--project", str(art))
    assert r.exit_code == 0, r.output
    assert (
        "cards/art/cards.csv:2: warning: card 狐: image cards/art/art/fox.png prints at 28 dpi in "
        "box 'art' (60×40 px over 55.0×36.7 mm; at least 300 dpi prints sharp)"
    ) in r.output
    edit(art, "layouts/art/art_front.toml", 'fit = "{{ fit }}"', 'fit = "{{ fit }}"\nmin_dpi = 20')
    assert "dpi" not in run("check", "--project", str(art)).output


def test_a_missing_picture_is_an_error_naming_the_row_and_path(art):
    (art / "cards/art/art/owl.jpg").unlink()
    r = run("build", "--project", str(art))
    assert r.exit_code == 1
    assert (
        "cards/art/cards.csv:3: error: card 梟: box 'art': image art/owl.jpg not found" in r.output
    )
    assert not (art / "output/art").exists()


def test_a_placeholder_stands_in_and_check_lists_who_lacks_art(art):
    (art / "cards/art/art/owl.jpg").unlink()
    (art / "cards/art/art/oak.svg").unlink()
    edit(
        art,
        "layouts/art/art_front.toml",
        'fit = "{{ fit }}"',
        'fit = "{{ fit }}"\nplaceholder = true',
    )
    r = run("build", "--project", str(art))
    assert r.exit_code == 0, r.output
    assert (
        "layouts/art/art_front.toml: notice: box 'art': 2 cards still lack their art (a stand-in "
        "is drawn): 梟 (cards/art/cards.csv:3), 樫 (cards/art/cards.csv:4); 2 files to make in "
        "cards/art/: art/owl.jpg, art/oak.svg"
    ) in r.output
    text = page_text(art / "output/art/cards.pdf", 1)
    assert "owl.jpg" in text and "oak.svg" in text and "fox.png" not in text
    # Once the art is there, the notice goes.
    paint(art)
    assert "lack" not in run("check", "--project", str(art)).output


def test_a_fallback_picture_stands_in(art):
    (art / "cards/art/art/owl.jpg").unlink()
    edit(
        art,
        "layouts/art/art_front.toml",
        'fit = "{{ fit }}"',
        'fit = "{{ fit }}"\nfallback = "art/oak.svg"',
    )
    owl = faces(art)["梟-front"]
    assert near(at(owl, 6, 30), GREEN)  # the SVG, covering the box as the row asks
    assert "1 card still lacks its art" in run("check", "--project", str(art)).output


@pytest.mark.parametrize(
    "src, says",
    [
        ("../../../secret.png", "lies outside the project folder"),
        ("/etc/hostname", "lies outside the project folder"),
        (
            "C:\\Users\\me\\fox.png",
            "copy the picture into cards/art/ and write its path from there",
        ),
        ("art/notes.png", "not a picture pnp can print (PNG, JPEG, SVG, WebP, TIFF, GIF or BMP)"),
        ("art/broken.svg", "not an SVG picture pnp can read"),
    ],
)
def test_what_is_not_a_picture_in_the_project_is_an_error(art, tmp_path, src, says):
    (tmp_path / "secret.png").write_bytes(b"\x89PNG")
    (art / "cards/art/art/notes.png").write_text("not a picture", encoding="utf-8")
    (art / "cards/art/art/broken.svg").write_text("<svg", encoding="utf-8")
    edit(art, "layouts/art/art_front.toml", 'src = "art/{{ art }}"', 'src = "{{ art }}"')
    edit(art, "cards/art/cards.csv", "fox.png", src)
    r = run("build", "--project", str(art))
    assert r.exit_code == 1, r.output
    line = next(x for x in r.output.splitlines() if "error" in x)
    assert (
        line.startswith("cards/art/cards.csv:2:art: error: card 狐: box 'art': ") and says in line
    )
    assert "Traceback" not in r.output


def test_an_svg_reaching_outside_the_project_draws_nothing_of_it(art, tmp_path):
    outside = tmp_path / "outside.png"
    Image.new("RGB", (10, 10), RED).save(outside)
    (art / "cards/art/art/oak.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="100" height="50"><rect width="100" height="50" fill="#1E8C3C"/>'
        f'<image x="0" y="0" width="100" height="50" xlink:href="../../../../{outside.name}"/>'
        "</svg>",
        encoding="utf-8",
    )
    oak = faces(art)["樫-front"]
    assert near(at(oak, 30, 35), GREEN)  # the outside picture is not drawn over it


def test_bad_fit_is_an_error_at_the_layout_line(art):
    edit(art, "cards/art/cards.csv", "fox.png,contain", "fox.png,contian")
    r = run("check", "--project", str(art))
    assert r.exit_code == 1
    assert (
        "layouts/art/art_front.toml:12: error: box 'art': fit must be one of contain, cover, "
        "stretch, got 'contian' for card 狐 (cards/art/cards.csv:2)"
    ) in r.output


def test_the_print_shop_preflight_names_the_coarsest_picture(art):
    r = run("build", "--project", str(art), "--format", "printshop")
    assert r.exit_code == 0, r.output
    # fox.png: 400 px over 55 mm = 185 dpi; the SVGs do not count (vectors)
    assert "lowest image 185 dpi, under the shop's 300 dpi" in r.output
    paint(art)
    Image.new("RGB", (1400, 1050), RED).save(art / "cards/art/art/fox.png")
    Image.new("RGB", (900 * 2, 1200 * 2), BLUE).save(art / "cards/art/art/owl.jpg")
    r = run("build", "--project", str(art), "--format", "printshop")
    assert "every image at least 300 dpi" in r.output
