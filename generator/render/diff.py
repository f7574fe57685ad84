"""diff.pdf: each changed card's old face beside its new one, with what changed written under
the pair; A4 landscape, as many pairs a page as fit at up to full size."""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor, black

from ..layout.units import MM
from .draw import draw_face, new_canvas

PAGE = (297 * MM, 210 * MM)
MARGIN, GAP, LINE = 12 * MM, 8 * MM, 4.2 * MM
NOTE_LINES = 5


def diff_pdf(title: str, heading: str, pairs: list, font_names: dict[str, str]) -> bytes:
    """`pairs`: (old Face or None, new Face or None, (w, h) of the card, [lines of text])."""
    buf = io.BytesIO()
    c = new_canvas(buf, PAGE, title, font_names)
    room_w = PAGE[0] - 2 * MARGIN
    top = PAGE[1] - MARGIN - 8 * MM
    cell_w = (room_w - GAP) / 2
    face_w = (cell_w - 4 * MM) / 2
    page_started = False
    y = top
    col = 0
    for old, new, (w, h), lines in pairs:
        scale = min(1.0, face_w / w, (top - MARGIN - NOTE_LINES * LINE) / h)
        cell_h = h * scale + NOTE_LINES * LINE + 4 * MM
        if not page_started or (col == 0 and y - cell_h < MARGIN):
            if page_started:
                c.showPage()
            c.setFillColor(black)
            c.setFont(font_names["bold"], 11)
            c.drawString(MARGIN, PAGE[1] - MARGIN - 4 * MM, heading)
            y, col, page_started = top, 0, True
        x = MARGIN + col * (cell_w + GAP)
        for i, face in enumerate((old, new)):
            fx = x + i * (face_w + 4 * MM)
            fy = y - h * scale
            c.saveState()
            c.setStrokeColor(HexColor("#999999"))
            c.setLineWidth(0.3)
            c.rect(fx, fy, w * scale, h * scale, stroke=1, fill=0)
            if face is not None:
                clip = c.beginPath()
                clip.rect(fx, fy, w * scale, h * scale)
                c.clipPath(clip, stroke=0, fill=0)
                c.translate(fx, fy)
                c.scale(scale, scale)
                draw_face(c, face, w, h, 0.0, font_names)
            c.restoreState()
        c.setFillColor(black)
        ty = y - h * scale - LINE
        for j, line in enumerate(lines[:NOTE_LINES]):
            c.setFont(font_names["bold" if j == 0 else "body"], 8)
            c.drawString(x, ty, line)
            ty -= LINE
        col += 1
        if col == 2:
            col, y = 0, y - cell_h
    c.showPage()
    c.save()
    return buf.getvalue()
