"""The duplex calibration sheet (`pnp calibrate`): crosses on the front, scales behind them on the
back. Printed duplex and held to the light from the back, each cross shows through on its scale
at the offset to type into `pnp printer save NAME --back-offset X,Y,R`.

The reading is the correction itself: a scale's tick labelled +1 lies 1 mm right of (or above)
where the cross should show, so a back printed 1 mm too far left puts the cross on +1, and
moving the back 1 mm right puts it right.
"""

from __future__ import annotations

import io
import math

from reportlab.lib.colors import HexColor, black
from reportlab.pdfgen.canvas import Canvas

from ..layout.units import MM
from .draw import new_canvas
from .pdf import wrap_line

SPREAD_MM = 70.0  # the left and right targets lie this far from the centre one
SCALE_MM = 6  # each scale reads from −6 to +6 mm
ARM_MM = 14.0  # a cross's arms, end to end


def targets(page: tuple[float, float]) -> dict[str, tuple[float, float]]:
    """The front's crosses (points, page coordinates): centre, left and right, level."""
    cx, cy = page[0] / 2, page[1] / 2
    return {
        "centre": (cx, cy),
        "left": (cx - SPREAD_MM * MM, cy),
        "right": (cx + SPREAD_MM * MM, cy),
    }


def degrees_per_mm() -> float:
    """How much turn one millimetre between the right and left Y readings means."""
    return math.degrees(math.atan(1 / (2 * SPREAD_MM)))


def calibration_pdf(
    page: tuple[float, float], front_lines: list[str], back_lines: list[str], font_names
) -> bytes:
    """Two pages: crosses and how to print on the front; scales and how to read on the back."""
    buf = io.BytesIO()
    c = new_canvas(buf, page, front_lines[0], font_names)
    _lines(c, front_lines, page, font_names)
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    arm = ARM_MM * MM / 2
    for x, y in targets(page).values():
        c.line(x - arm, y, x + arm, y)
        c.line(x, y - arm, x, y + arm)
        c.circle(x, y, 2 * MM, stroke=1, fill=0)
    c.showPage()
    _lines(c, back_lines, page, font_names)
    pw = page[0]
    for x, y in targets(page).values():
        _scales(c, pw - x, y, font_names["body"])  # behind the cross after a long-edge flip
    c.showPage()
    c.save()
    return buf.getvalue()


def _lines(c: Canvas, lines: list[str], page, font_names) -> None:
    left, y = 20 * MM, page[1] - 25 * MM
    c.setFillColor(black)
    c.setFont(font_names["bold"], 14)
    c.drawString(left, y, lines[0])
    y -= 10 * MM
    c.setFont(font_names["body"], 9.5)
    width = page[0] - 2 * left
    for line in lines[1:]:
        for part in wrap_line(line, width, font_names["body"], 9.5):  # an English line is longer
            c.drawString(left, y, part)
            y -= 5.5 * MM


def _scales(c: Canvas, x: float, y: float, font: str) -> None:
    """A horizontal scale through (x, y) reading X, a vertical one reading Y: a tick every
    0.5 mm, longer every millimetre, numbered every 2 mm. Each quadrant holds one set of
    numbers (+X above, −X below, +Y left, −Y right), so none collide."""
    c.saveState()
    c.setStrokeColor(HexColor("#C00000"))
    c.setFillColor(HexColor("#C00000"))
    c.setLineWidth(0.2)
    span = SCALE_MM * MM
    c.line(x - span, y, x + span, y)
    c.line(x, y - span, x, y + span)
    c.setFont(font, 4)
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        t = half / 2 * MM
        tick = (1.6 if half % 2 == 0 else 0.9) * MM
        for side in (1, -1) if half == 0 else ((1,) if half > 0 else (-1,)):
            c.line(x + t, y, x + t, y + side * tick)  # X: above for +, below for -
            c.line(x, y + t, x - side * tick, y + t)  # Y: left for +, right for -
        if half % 4 == 0 and half:
            label = f"{half // 2:+d}"
            if half > 0:
                c.drawCentredString(x + t, y + tick + 0.8 * MM, label)
                c.drawRightString(x - tick - 0.6 * MM, y + t - 0.5 * MM, label)
            else:
                c.drawCentredString(x + t, y - tick - 1.8 * MM, label)
                c.drawString(x + tick + 0.6 * MM, y + t - 0.5 * MM, label)
    c.drawString(x + span + 1 * MM, y - 0.6 * MM, "X")
    c.drawCentredString(x, y + span + 1 * MM, "Y")
    c.restoreState()
