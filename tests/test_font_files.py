"""Font files as a designer changes them: one replaced under the same name while `pnp watch`
keeps its process is measured and embedded anew, never from what the process read before."""

from __future__ import annotations

import io
import os

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

from generator.fonts import FontFace, metrics, subset_truetype


def _font(advance: int) -> bytes:
    """A TrueType font "Probe" whose 'A' is a box `advance` units wide (of 1000)."""
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "A"])
    fb.setupCharacterMap({ord("A"): "A"})
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 700))
    pen.lineTo((advance, 700))
    pen.lineTo((advance, 0))
    pen.closePath()
    fb.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "A": pen.glyph()})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "A": (advance, 0)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Probe", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    buf = io.BytesIO()
    fb.save(buf)
    return buf.getvalue()


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
