"""Font files as a designer changes them: one replaced under the same name while `pnp watch`
keeps its process is measured and embedded anew, never from what the process read before."""

from __future__ import annotations

import io
import os

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

from generator.fonts import FontFace, metrics, subset_truetype


def _box(x0: int, y0: int, x1: int, y1: int):
    """A glyph that is one box."""
    pen = TTGlyphPen(None)
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()
    return pen.glyph()


def _ttf(family: str, cmap: dict, glyphs: dict, hmtx: dict) -> bytes:
    """A TrueType font of 1000 units an em from its glyphs, character map and metrics."""
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(list(glyphs))
    fb.setupCharacterMap(cmap)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics(hmtx)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    buf = io.BytesIO()
    fb.save(buf)
    return buf.getvalue()


def _font(advance: int) -> bytes:
    """A TrueType font "Probe" whose 'A' is a box `advance` units wide (of 1000)."""
    glyphs = {".notdef": TTGlyphPen(None).glyph(), "A": _box(0, 0, advance, 700)}
    return _ttf("Probe", {ord("A"): "A"}, glyphs, {".notdef": (500, 0), "A": (advance, 0)})


def test_a_font_file_replaced_under_its_name_is_read_anew(tmp_path):
    path = tmp_path / "Probe.ttf"
    path.write_bytes(_font(600))
    face = FontFace(path, 0, "Probe", "Regular", "project")
    assert metrics(face).width("A", 10) == 6.0
    assert TTFont(io.BytesIO(subset_truetype(face, {"A"})))["hmtx"]["A"][0] == 600
    path.write_bytes(_font(900))  # the designer's new version, the same size of file
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))  # saved within the second
    assert metrics(face).width("A", 10) == 9.0
    assert TTFont(io.BytesIO(subset_truetype(face, {"A"})))["hmtx"]["A"][0] == 900


def _accented() -> bytes:
    """A TrueType font whose 'é' is a composite, as most TrueType faces draw accented letters:
    the glyph 'e' (a box) and 'acute' (a small box) placed 600 units up."""
    glyphs = {".notdef": TTGlyphPen(None).glyph(), "e": _box(50, 0, 450, 500)}
    glyphs["acute"] = _box(200, 0, 300, 100)
    pen = TTGlyphPen(glyphs)
    pen.addComponent("e", (1, 0, 0, 1, 0, 0))
    pen.addComponent("acute", (1, 0, 0, 1, 0, 600))
    glyphs["eacute"] = pen.glyph()
    # each glyph's left side bearing its leftmost point, as the format asks
    bearings = {".notdef": 0, "e": 50, "acute": 200, "eacute": 50}
    hmtx = {g: (500, lsb) for g, lsb in bearings.items()}
    return _ttf("Accented", {ord("e"): "e", ord("é"): "eacute"}, glyphs, hmtx)


def test_a_truetype_face_s_composite_glyph_is_embedded_as_its_outlines(tmp_path):
    """'é' drawn as 'e' and an accent in a TrueType face (DejaVu, Liberation and most Latin
    fonts): the subset pnp embeds holds both outlines, wound as the face winds them."""
    path = tmp_path / "Accented.ttf"
    path.write_bytes(_accented())
    face = FontFace(path, 0, "Accented", "Regular", "project")
    subset = TTFont(io.BytesIO(subset_truetype(face, {"é", "e"})))
    glyf = subset["glyf"]
    name = subset.getBestCmap()[ord("é")]
    accented = glyf[name]
    assert accented.numberOfContours == 2 and not accented.isComposite()
    ys = sorted({y for _x, y in accented.getCoordinates(glyf)[0]})
    assert ys == [0, 500, 600, 700]  # the e, and the accent 600 units up
    source = TTFont(path)["glyf"]["e"].getCoordinates(TTFont(path)["glyf"])[0]
    plain = glyf[subset.getBestCmap()[ord("e")]].getCoordinates(glyf)[0]
    assert list(plain) == list(source)  # the same points, in the same order
