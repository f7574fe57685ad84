"""Draws one laid-out card face with ReportLab, its trim box's bottom-left corner at (0, 0).

Fed by layout's `Face`; used by the card sheets and by the rulebook's sample cards alike, so the
rulebook shows exactly what prints.
"""
from __future__ import annotations

from reportlab.lib.colors import HexColor

from ..layout.faces import Face


def draw_face(c, face: Face, w: float, h: float, bleed: float, font_names: dict[str, str]) -> None:
    """Draw with the card's top-left trim corner at (0, h): layout y runs downwards."""
    for box in face.boxes:
        p = box.props
        x, y = box.x, h - box.y - box.h
        bw, bh = box.w, box.h
        if box.type in ("rect", "ellipse"):
            if p.get("bleed"):
                x, y, bw, bh = x - bleed, y - bleed, bw + 2 * bleed, bh + 2 * bleed
            fill, stroke = p.get("fill"), p.get("stroke")
            if not fill and not stroke:
                continue
            if fill:
                c.setFillColor(HexColor(fill))
            if stroke:
                c.setStrokeColor(HexColor(stroke))
                c.setLineWidth(p.get("stroke_width", 0.5))
            if box.type == "ellipse":
                c.ellipse(x, y, x + bw, y + bh, stroke=1 if stroke else 0, fill=1 if fill else 0)
            elif p.get("radius"):
                c.roundRect(x, y, bw, bh, p["radius"], stroke=1 if stroke else 0, fill=1 if fill else 0)
            else:
                c.rect(x, y, bw, bh, stroke=1 if stroke else 0, fill=1 if fill else 0)
        elif box.type == "text":
            draw_lines(c, box, x, y, font_names[p["font"]])


def draw_lines(c, box, x: float, y: float, font_name: str) -> None:
    p = box.props
    lines, size, leading = p["lines"], p["size"], p["leading"]
    block = (len(lines) - 1) * leading + size
    top = y + box.h
    if p["valign"] == "middle":
        top -= (box.h - block) / 2
    elif p["valign"] == "bottom":
        top -= box.h - block
    c.setFillColor(HexColor(p.get("color") or "#000000"))
    c.setFont(font_name, size)
    baseline = top - p["ascent"] * size
    for line, width in zip(lines, p["widths"]):
        if p["align"] == "center":
            lx = x + (box.w - width) / 2
        elif p["align"] == "right":
            lx = x + box.w - width
        else:
            lx = x
        c.drawString(lx, baseline, line)
        baseline -= leading
