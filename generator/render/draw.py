"""Draws one laid-out face (card, token or board) with ReportLab, its trim box's bottom-left
corner at (0, 0).

Fed by layout's `Face`; used by the sheets, the board and the rulebook's sample cards alike, so
the rulebook shows exactly what prints.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor

from ..layout.faces import Face


def draw_face(c, face: Face, w: float, h: float, bleed: float, font_names: dict[str, str]) -> None:
    """Draw with the face's top-left trim corner at (0, h): layout y runs downwards."""
    for box in face.boxes:
        p = box.props
        x, y = box.x, h - box.y - box.h
        bw, bh = box.w, box.h
        if box.type == "text":
            draw_lines(c, box, x, y, font_names[p["font"]])
            continue
        if box.type == "icon":
            side = min(bw, bh)
            draw_icon(c, p["shapes"], x + (bw - side) / 2, y + (bh - side) / 2, side)
            continue
        if p.get("bleed"):
            x, y, bw, bh = x - bleed, y - bleed, bw + 2 * bleed, bh + 2 * bleed
        fill, stroke = p.get("fill"), p.get("stroke")
        if not fill and not stroke:
            continue
        c.saveState()
        if fill:
            c.setFillColor(HexColor(fill))
        if stroke:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(p.get("stroke_width", 0.5))
            if p.get("dash"):
                c.setDash(p["dash"], p["dash"])
        mode = {"stroke": 1 if stroke else 0, "fill": 1 if fill else 0}
        if box.type == "ellipse":
            c.ellipse(x, y, x + bw, y + bh, **mode)
        elif box.type in ("polygon", "line"):
            path = c.beginPath()
            top = y + bh
            for i, (px, py) in enumerate(p["points"]):
                (path.lineTo if i else path.moveTo)(x + px, top - py)
            if box.type == "polygon":
                path.close()
                c.drawPath(path, **mode)
            else:
                c.drawPath(path, stroke=1, fill=0)
        elif p.get("radius"):
            c.roundRect(x, y, bw, bh, p["radius"], **mode)
        else:
            c.rect(x, y, bw, bh, **mode)
        c.restoreState()


def draw_icon(c, shapes, x: float, y: float, size: float) -> None:
    """An icon's shapes (1×1 box, y down) scaled to `size`, bottom-left corner at (x, y)."""

    def pt(px: float, py: float) -> tuple[float, float]:
        return x + px * size, y + (1 - py) * size

    c.saveState()
    for s in shapes:
        fill, stroke = s.get("fill"), s.get("stroke")
        if fill:
            c.setFillColor(HexColor(fill))
        if stroke:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(s.get("stroke_width", 0.06) * size)
            c.setLineJoin(1)
            c.setLineCap(1)
        mode = {"stroke": 1 if stroke else 0, "fill": 1 if fill else 0}
        kind = s["type"]
        if kind == "circle":
            cx, cy = pt(s["cx"], s["cy"])
            c.circle(cx, cy, s["r"] * size, **mode)
        elif kind == "rect":
            rx, ry = pt(s["x"], s["y"] + s["h"])
            if s.get("radius"):
                c.roundRect(rx, ry, s["w"] * size, s["h"] * size, s["radius"] * size, **mode)
            else:
                c.rect(rx, ry, s["w"] * size, s["h"] * size, **mode)
        else:
            path = c.beginPath()
            for i, (px, py) in enumerate(s["points"]):
                (path.lineTo if i else path.moveTo)(*pt(px, py))
            if kind == "polygon":
                path.close()
                c.drawPath(path, **mode)
            else:
                c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def draw_lines(c, box, x: float, y: float, font_name: str) -> None:
    p = box.props
    lines, size, leading = p["lines"], p["size"], p["leading"]
    block = (len(lines) - 1) * leading + size
    top = y + box.h
    if p["valign"] == "middle":
        top -= (box.h - block) / 2
    elif p["valign"] == "bottom":
        top -= box.h - block
    colour = HexColor(p.get("color") or "#000000")
    c.setFillColor(colour)
    c.setFont(font_name, size)
    baseline = top - p["ascent"] * size
    icons = p.get("inline_icons", {})
    for line, width in zip(lines, p["widths"]):
        if p["align"] == "center":
            lx = x + (box.w - width) / 2
        elif p["align"] == "right":
            lx = x + box.w - width
        else:
            lx = x
        if not icons:
            c.drawString(lx, baseline, line)
        else:
            _draw_runs(c, line, lx, baseline, size, font_name, icons, colour, p["ascent"])
        baseline -= leading


def _draw_runs(
    c,
    line: str,
    x: float,
    baseline: float,
    size: float,
    font_name: str,
    icons: dict,
    colour,
    ascent: float,
) -> None:
    """Text with icons: each icon an em square sitting where the font's em box sits on the line."""
    run = ""
    for ch in line + "\0":
        if ch in icons or ch == "\0":
            if run:
                c.drawString(x, baseline, run)
                x += c.stringWidth(run, font_name, size)
                run = ""
            if ch in icons:
                shapes, advance = icons[ch]
                box_bottom = baseline - (1 - ascent) * size
                draw_icon(c, shapes, x + (advance - 1) * size / 2, box_bottom, size)
                x += advance * size
                c.setFillColor(colour)
                c.setFont(font_name, size)
        else:
            run += ch
