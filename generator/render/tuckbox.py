"""tuckbox.pdf: one deck's tuck box a page, its net centred: the box's colour past every cut,
the panels' faces, solid cut lines, dashed fold lines, a hatched glue flap."""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor, black
from reportlab.pdfgen.canvas import Canvas

from ..layout.tuckbox import BLEED_MM, TuckBox
from ..layout.units import MM
from .draw import draw_face, new_canvas

CUT_WIDTH, FOLD_WIDTH = 0.6, 0.5
FOLD_COLOUR, GLUE_COLOUR = "#707070", "#B0B0B0"


def tuckbox_pdf(doc_title: str, boxes: list[TuckBox], labels: list[list[str]], font_names) -> bytes:
    """A page per box; `labels[i]` are the lines printed above box i's net."""
    buf = io.BytesIO()
    c = new_canvas(buf, boxes[0].page, doc_title, font_names)
    for box, lines in zip(boxes, labels):
        c.setPageSize(box.page)
        pw, ph = box.page
        x0, y0 = origin(box)
        _label(c, lines, box, font_names)
        c.saveState()
        c.translate(x0, y0)
        _colour(c, box)
        for panel in box.panels:
            if panel.face is None:
                continue
            c.saveState()
            clip = c.beginPath()
            clip.rect(panel.x, panel.y, panel.w, panel.h)
            c.clipPath(clip, stroke=0, fill=0)
            c.translate(panel.x, panel.y)
            draw_face(c, panel.face, panel.w, panel.h, 0.0, font_names)
            c.restoreState()
        _glue(c, box)
        _lines(c, box)
        c.restoreState()
        c.showPage()
    c.save()
    return buf.getvalue()


def origin(box: TuckBox) -> tuple[float, float]:
    """Where the net's bottom-left corner lies on its page: centred."""
    return (box.page[0] - box.size[0]) / 2, (box.page[1] - box.size[1]) / 2


def _colour(c: Canvas, box: TuckBox) -> None:
    """The box's colour over every piece, each grown by the bleed (the cut trims it)."""
    if box.color == "#FFFFFF":
        return
    b = BLEED_MM * MM
    c.setFillColor(HexColor(box.color))
    for outline in box.pieces:
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        c.rect(
            min(xs) - b,
            min(ys) - b,
            max(xs) - min(xs) + 2 * b,
            max(ys) - min(ys) + 2 * b,
            stroke=0,
            fill=1,
        )


def _glue(c: Canvas, box: TuckBox) -> None:
    """Diagonal hatching on the glue flap."""
    c.saveState()
    path = c.beginPath()
    for i, (x, y) in enumerate(box.glue):
        (path.lineTo if i else path.moveTo)(x, y)
    path.close()
    c.clipPath(path, stroke=0, fill=0)
    xs, ys = [p[0] for p in box.glue], [p[1] for p in box.glue]
    c.setStrokeColor(HexColor(GLUE_COLOUR))
    c.setLineWidth(0.4)
    step = 2.5 * MM
    start, end = min(ys) - (max(xs) - min(xs)), max(ys)
    y = start
    while y < end:
        c.line(min(xs), y, max(xs), y + (max(xs) - min(xs)))
        y += step
    c.restoreState()


def _lines(c: Canvas, box: TuckBox) -> None:
    c.saveState()
    c.setStrokeColor(HexColor(FOLD_COLOUR))
    c.setLineWidth(FOLD_WIDTH)
    c.setDash(3, 2)
    for x1, y1, x2, y2 in box.folds:
        c.line(x1, y1, x2, y2)
    c.setDash()
    c.setStrokeColor(black)
    c.setLineWidth(CUT_WIDTH)
    for cut in box.cuts:
        if cut[0] == "line":
            c.line(*cut[1:])
        else:  # the thumb notch: a half circle down into the front panel
            _, cx, cy, r = cut
            c.arc(cx - r, cy - r, cx + r, cy + r, startAng=180, extent=180)
    c.restoreState()


def _label(c: Canvas, lines: list[str], box: TuckBox, font_names) -> None:
    """The box's lines above the net, inside the margin (smaller where the room is tight)."""
    top = box.page[1] - box.margin
    room = top - (origin(box)[1] + box.size[1] + BLEED_MM * MM)
    size = min(8.0, room / (len(lines) * 1.4)) if lines else 0
    if size < 4:
        return
    c.setFillColor(HexColor("#444444"))
    y = top - size
    for i, line in enumerate(lines):
        c.setFont(font_names["bold" if i == 0 else "body"], size)
        c.drawString(box.margin, y, line)
        y -= size * 1.4
