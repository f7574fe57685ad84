"""dice.pdf: cube nets, as many a page as fit: each face drawn in its square (with bleed past
its cut edges), solid cut lines, dashed folds, hatched glue tabs, the die's name beside it."""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor, black
from reportlab.pdfgen.canvas import Canvas

from ..layout.dice import DiceSheets
from .draw import draw_face, new_canvas

TAB_COLOUR, FOLD_COLOUR = "#C8C8C8", "#707070"


def dice_pdf(doc_title: str, sheets: list[DiceSheets], font_names) -> bytes:
    buf = io.BytesIO()
    c = new_canvas(buf, sheets[0].page, doc_title, font_names)
    for sheet in sheets:
        c.setPageSize(sheet.page)
        per = len(sheet.positions)
        for start in range(0, len(sheet.dice), per):
            for net, (ox, oy) in zip(sheet.dice[start : start + per], sheet.positions):
                c.saveState()
                c.translate(ox, oy)
                _net(c, net, sheet, font_names)
                c.restoreState()
            c.showPage()
    c.save()
    return buf.getvalue()


def _net(c: Canvas, net, sheet: DiceSheets, font_names) -> None:
    s = sheet.side
    for x, y, face, (left, bottom, right, top) in net.faces:
        c.saveState()
        clip = c.beginPath()
        clip.rect(x - left, y - bottom, s + left + right, s + bottom + top)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(x, y)
        draw_face(c, face, s, s, sheet.bleed, font_names)
        c.restoreState()
    c.saveState()
    c.setFillColor(HexColor(TAB_COLOUR))
    for tab in net.tabs:
        path = c.beginPath()
        for i, (px, py) in enumerate(tab):
            (path.lineTo if i else path.moveTo)(px, py)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
    c.setStrokeColor(HexColor(FOLD_COLOUR))
    c.setLineWidth(0.4)
    c.setDash(2, 1.5)
    for x1, y1, x2, y2 in net.folds:
        c.line(x1, y1, x2, y2)
    c.setDash()
    c.setStrokeColor(black)
    c.setLineWidth(0.5)
    for x1, y1, x2, y2 in net.cuts:
        c.line(x1, y1, x2, y2)
    c.setFillColor(HexColor("#666666"))
    c.setFont(font_names["body"], 6)
    c.drawString(0, sheet.net[1] - 6, f"{sheet.name} {net.label}")
    c.restoreState()
