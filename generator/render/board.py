"""board.pdf: a board on one page when the paper holds it, else poster tiles with overlap and
alignment marks.

Fed by the board's laid-out face and `Tiling` from imposition; returns bytes.
"""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor, black, white
from reportlab.pdfgen.canvas import Canvas

from ..layout.faces import Face
from ..layout.sheets import Tiling
from ..layout.units import MM
from .draw import draw_face, new_canvas
from .pdf import proof_header

MARK_R = 2.2 * MM
MARK_EVERY = 45 * MM


def board_pdf(
    doc_title: str, guide: list[str], face: Face, tiling: Tiling, font_names: dict[str, str]
) -> bytes:
    """A board's PDF: one page with corner marks, or a guide page (`guide`: its lines) and tiles."""
    buf = io.BytesIO()
    c = new_canvas(buf, tiling.page, doc_title, font_names)
    bw, bh = tiling.board
    c.beginForm("board", lowerx=0, lowery=0, upperx=bw, uppery=bh)
    draw_face(c, face, bw, bh, 0.0, font_names)
    c.endForm()
    if tiling.single:
        tile = tiling.tiles[0]
        c.saveState()
        c.translate(*tile.origin)
        c.doForm("board")
        c.restoreState()
        _corner_marks(c, tile.origin, tiling.board)
        c.showPage()
    else:
        _guide_page(c, guide, tiling, font_names)
        for tile in tiling.tiles:
            _tile_page(c, tile, tiling, font_names)
    c.save()
    return buf.getvalue()


def _corner_marks(c: Canvas, origin, size) -> None:
    x0, y0 = origin
    x1, y1 = x0 + size[0], y0 + size[1]
    for x, y, dx, dy in ((x0, y0, -1, -1), (x1, y0, 1, -1), (x0, y1, -1, 1), (x1, y1, 1, 1)):
        _corner_mark(c, x, y, dx, dy)


def _corner_mark(c: Canvas, x: float, y: float, dx: int, dy: int) -> None:
    """A crop mark's two strokes at a corner (x, y), pointing away from the board (dx, dy)."""
    c.setLineWidth(0.25)
    c.setStrokeColor(black)
    c.setDash()
    c.line(x + dx * 1 * MM, y, x + dx * 4 * MM, y)
    c.line(x, y + dy * 1 * MM, x, y + dy * 4 * MM)


def _tile_page(c: Canvas, tile, tiling: Tiling, font_names) -> None:
    pw, ph = tiling.page
    m, ov = tiling.margin, tiling.overlap
    aw, ah = pw - 2 * m, ph - 2 * m
    c.saveState()
    clip = c.beginPath()
    clip.rect(m, m, aw, ah)
    c.clipPath(clip, stroke=0, fill=0)
    c.saveState()
    c.translate(*tile.origin)
    c.doForm("board")
    c.restoreState()
    # Alignment marks in every strip this tile shares with a neighbour, at board positions, so
    # the same marks print on both sheets.
    x0, y0, x1, y1 = tile.region
    bw, bh = tiling.board
    last_col = max(t.col for t in tiling.tiles)
    last_row = max(t.row for t in tiling.tiles)
    # Seams only where there is a neighbour: left/right by column, top/bottom by row (row 0 on top).
    seams_x = [
        x for x, has in ((x0 + ov / 2, tile.col > 0), (x1 - ov / 2, tile.col < last_col)) if has
    ]
    seams_y = [
        y for y, has in ((y1 - ov / 2, tile.row > 0), (y0 + ov / 2, tile.row < last_row)) if has
    ]
    ox, oy = tile.origin
    for sx in seams_x:
        y = max(y0, 0) + MARK_EVERY / 2
        while y < min(y1, bh):
            _mark(c, ox + sx, oy + y)
            y += MARK_EVERY
    for sy in seams_y:
        x = max(x0, 0) + MARK_EVERY / 2
        while x < min(x1, bw):
            _mark(c, ox + x, oy + sy)
            x += MARK_EVERY
    # Cut lines: a tile that is not in the first column or row is trimmed by the overlap on its
    # left / top edge and laid over its neighbour.
    c.setDash(3, 2)
    c.setLineWidth(0.5)
    c.setStrokeColor(HexColor("#E0457B"))
    if tile.col > 0:
        c.line(m + ov, m, m + ov, m + ah)
    if tile.row > 0:
        c.line(m, m + ah - ov, m + aw, m + ah - ov)
    c.restoreState()
    # The board's own corners on the tiles that hold them: where to cut round it once the
    # tiles are joined (a white board has no edge to see).
    for bx, by in ((0.0, 0.0), (bw, 0.0), (0.0, bh), (bw, bh)):
        if x0 <= bx <= x1 and y0 <= by <= y1:
            _corner_mark(c, ox + bx, oy + by, -1 if bx == 0 else 1, -1 if by == 0 else 1)
    _tile_label(c, tile, tiling, font_names)
    c.showPage()


def _mark(c: Canvas, x: float, y: float) -> None:
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(0.4)
    c.circle(x, y, MARK_R, stroke=1, fill=0)
    c.line(x - MARK_R * 1.6, y, x + MARK_R * 1.6, y)
    c.line(x, y - MARK_R * 1.6, x, y + MARK_R * 1.6)
    c.restoreState()


def _tile_label(c: Canvas, tile, tiling: Tiling, font_names) -> None:
    m = tiling.margin
    pw, ph = tiling.page
    c.saveState()
    c.setFillColor(white)
    c.rect(m + 1 * MM, ph - m - 7 * MM, 14 * MM, 6 * MM, stroke=0, fill=1)
    c.setFillColor(black)
    c.setFont(font_names["bold"], 11)
    c.drawString(m + 2 * MM, ph - m - 5.5 * MM, tile.label)
    c.restoreState()


def _guide_page(c: Canvas, lines: list[str], tiling: Tiling, font_names) -> None:
    pw, ph = tiling.page
    left = 20 * MM
    y = proof_header(c, lines, tiling.page, font_names)
    # A map of the tiles over the board outline.
    bw, bh = tiling.board
    room_w, room_h = pw - 2 * left, y - 25 * MM
    scale = min(room_w / (bw + 40 * MM), room_h / (bh + 40 * MM))
    ox = (pw - bw * scale) / 2
    oy = 20 * MM + (room_h - bh * scale) / 2
    c.setFillColor(HexColor("#F3EEDD"))
    c.rect(ox, oy, bw * scale, bh * scale, stroke=1, fill=1)
    c.setFillColor(black)
    c.setFont(font_names["bold"], 12)
    for tile in tiling.tiles:
        x0, y0, x1, y1 = tile.region
        x0, y0, x1, y1 = (
            max(x0, 0),
            max(y0, 0),
            min(x1, bw),
            min(y1, bh),
        )  # the part of the board it shows
        c.setStrokeColor(HexColor("#E0457B"))
        c.rect(
            ox + x0 * scale, oy + y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale, stroke=1, fill=0
        )
        c.drawCentredString(ox + (x0 + x1) / 2 * scale, oy + (y0 + y1) / 2 * scale, tile.label)
    c.showPage()
