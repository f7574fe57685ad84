"""board.pdf: a board on one page when the paper holds it, else poster tiles with overlap and
alignment marks.

Fed by the board's laid-out face and `Tiling` from imposition; returns bytes.
"""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor, black, white
from reportlab.pdfgen.canvas import Canvas

from ..layout.faces import Face
from ..layout.sheets import MARK_ROOM, Tiling
from ..layout.units import MM
from .draw import draw_face, new_canvas
from .pdf import proof_header

MARK_R = 2.2 * MM
MARK_EVERY = 45 * MM
CUT_WIDTH = 0.5  # the dashed cut line, in points


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
        _corner_marks(c, tile.origin, tiling.board, tiling.page, tiling.margin)
        c.showPage()
    else:
        _guide_page(c, guide, tiling, font_names)
        for tile in tiling.tiles:
            _tile_page(c, tile, tiling, font_names)
    c.save()
    return buf.getvalue()


def _corner_marks(c: Canvas, origin, size, page, margin) -> None:
    x0, y0 = origin
    x1, y1 = x0 + size[0], y0 + size[1]
    for x, y, dx, dy in ((x0, y0, -1, -1), (x1, y0, 1, -1), (x0, y1, -1, 1), (x1, y1, 1, 1)):
        _corner_mark(c, x, y, dx, dy, page, margin)


def _corner_mark(c: Canvas, x: float, y: float, dx: int, dy: int, page, margin) -> None:
    """A crop mark's two strokes at a corner (x, y), pointing away from the board (dx, dy):
    4 mm long, or as long as the printable area leaves (the tiling leaves at least 2 mm)."""
    room_x = (x - margin) if dx < 0 else (page[0] - margin - x)
    room_y = (y - margin) if dy < 0 else (page[1] - margin - y)
    c.setLineWidth(0.25)
    c.setStrokeColor(black)
    c.setDash()
    for room, horizontal in ((room_x, True), (room_y, False)):
        end = min(4 * MM, room)
        if end < 1.5 * MM:
            continue  # no room to see a mark: the corner lies at the printable edge
        if horizontal:
            c.line(x + dx * 1 * MM, y, x + dx * end, y)
        else:
            c.line(x, y + dy * 1 * MM, x, y + dy * end)


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
    # A mark along a seam is placed only where the whole of it prints on this tile (and so on
    # its neighbour, which shows the same strip): not cut by the printable edge.
    reach = MARK_R * 1.6 + 1 * MM
    for sx in seams_x:
        y = max(y0, 0) + MARK_EVERY / 2
        while y < min(y1, bh):
            if y0 + reach <= y <= y1 - reach:
                _mark(c, ox + sx, oy + y)
            y += MARK_EVERY
    for sy in seams_y:
        x = max(x0, 0) + MARK_EVERY / 2
        while x < min(x1, bw):
            if x0 + reach <= x <= x1 - reach:
                _mark(c, ox + x, oy + sy)
            x += MARK_EVERY
    c.restoreState()
    # Cut lines where the overlap starts: a tile that is not in the first column or row is
    # cut along the edge of its printed area on its left / top side (its margin cut away), so
    # the overlap strip and its marks lie on the neighbour's and the marks meet.
    half = CUT_WIDTH / 2
    c.saveState()
    c.setDash(3, 2)
    c.setLineWidth(CUT_WIDTH)
    c.setStrokeColor(HexColor("#E0457B"))
    if tile.col > 0:
        c.line(m + half, m, m + half, m + ah)
    if tile.row > 0:
        c.line(m, m + ah - half, m + aw, m + ah - half)
    c.restoreState()
    # The board's own corners on the tiles that hold them: where to cut round it once the
    # tiles are joined (a white board has no edge to see).
    for bx, by in ((0.0, 0.0), (bw, 0.0), (0.0, bh), (bw, bh)):
        if x0 <= bx <= x1 and y0 <= by <= y1:
            dx, dy = -1 if bx == 0 else 1, -1 if by == 0 else 1
            _corner_mark(c, ox + bx, oy + by, dx, dy, tiling.page, m)
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
    """The tile's name (A1, B2…) where the joined board will not show it: in the overlap strip
    a neighbour covers (right, else bottom), else beyond the board's edge where the tile
    shows off-board room, else at its top left."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    m, ov = tiling.margin, tiling.overlap
    pw, ph = tiling.page
    bold = font_names["bold"]
    last_col = max(t.col for t in tiling.tiles)
    last_row = max(t.row for t in tiling.tiles)
    size = 11.0
    while size > 6 and stringWidth(tile.label, bold, size) + 2 * MM > ov - 1 * MM:
        size -= 0.5
    w, h = stringWidth(tile.label, bold, size) + 2 * MM, size * 1.2 + 1 * MM
    ox, _oy = tile.origin
    off_board = (pw - m) - (ox + tiling.board[0] + MARK_ROOM)  # room right of the board's marks
    if tile.col < last_col:
        x, y = pw - m - ov + 0.5 * MM, ph - m - h - 1 * MM
    elif tile.row < last_row:
        x, y = m + 1 * MM, m + 0.5 * MM
    elif off_board >= w + 1 * MM:
        x, y = pw - m - w - 0.5 * MM, ph - m - h - 1 * MM
    else:
        x, y = m + 1 * MM, ph - m - h - 1 * MM
    c.saveState()
    c.setFillColor(white)
    c.rect(x, y, w, h, stroke=0, fill=1)
    c.setFillColor(black)
    c.setFont(bold, size)
    c.drawString(x + 1 * MM, y + (h - size * 0.7) / 2, tile.label)
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
