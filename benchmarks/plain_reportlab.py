"""The baseline: a hand-written ReportLab script that draws the same cards on the same sheets.

What a designer would write without our tool: coordinates in code, fonts already converted to
TrueType (made before timing), no validation, no layout files, no text fitting, no rulebook.
Each card gets a coloured background into the bleed, a panel, its number in two corners, an
emblem and a line of text; every sheet is followed by its mirrored back sheet.

    python plain_reportlab.py OUT.pdf REGULAR.ttf BOLD.ttf REPEAT CSV:W:H:COLS:ROWS [...]
"""

import csv
import sys

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

PAGE = (210 * mm, 297 * mm)
B = 1.8 * mm
PALETTE = ["#C8323C", "#E07B00", "#3F5A96", "#2E8B57", "#7B4F9D"]


def slots(w, h, cols, rows, back):
    cw, ch = w + 2 * B, h + 2 * B
    left, bottom = (PAGE[0] - cols * cw) / 2, (PAGE[1] - rows * ch) / 2
    out = []
    for r in range(rows):
        for c in range(cols):
            x = left + c * cw + B
            out.append((PAGE[0] - x - w if back else x, bottom + (rows - 1 - r) * ch + B))
    return out


def front(c, row, w, h, i):
    col = HexColor(PALETTE[i % len(PALETTE)])
    values = [v for v in row.values() if v]
    number = next((v for v in values if v.isdigit()), "")
    label = next((v for v in values if not v.isdigit() and not v.startswith("#")), "")
    c.setFillColor(col)
    c.rect(-B, -B, w + 2 * B, h + 2 * B, stroke=0, fill=1)
    c.setFillColor(HexColor("#FFFDF6"))
    c.roundRect(3.5 * mm, 3.5 * mm, w - 7 * mm, h - 7 * mm, 2.5 * mm, stroke=0, fill=1)
    c.setFillColor(col)
    c.setFont("B", 24)
    c.drawString(5.5 * mm, h - 14 * mm, number)
    c.drawRightString(w - 5.5 * mm, 6 * mm, number)
    c.ellipse(w / 2 - 12 * mm, h / 2 - 5 * mm, w / 2 + 12 * mm, h / 2 + 19 * mm, stroke=0, fill=1)
    c.setFillColor(HexColor("#333333"))
    c.setFont("R", 9)
    c.drawCentredString(w / 2, h / 2 - 12 * mm, label[:12])


def back(c, w, h):
    c.setFillColor(HexColor("#1F2A44"))
    c.rect(-B, -B, w + 2 * B, h + 2 * B, stroke=0, fill=1)
    c.setStrokeColor(HexColor("#C9A227"))
    c.roundRect(4 * mm, 4 * mm, w - 8 * mm, h - 8 * mm, 2.5 * mm, stroke=1, fill=0)


def crop(c, w, h, cols, rows):
    for x, _ in slots(w, h, cols, rows, False):
        for xx in (x, x + w):
            c.line(xx, PAGE[1] - 5 * mm, xx, PAGE[1] - 1 * mm)
            c.line(xx, 5 * mm, xx, 1 * mm)


def main(out, regular, bold, repeat, *decks):
    pdfmetrics.registerFont(TTFont("R", regular))
    pdfmetrics.registerFont(TTFont("B", bold))
    c = Canvas(out, pagesize=PAGE, invariant=1)
    c.setFont("R", 12)
    c.drawString(20 * mm, 250 * mm, "100%で印刷してください")
    c.line(20 * mm, 200 * mm, 120 * mm, 200 * mm)
    c.showPage()
    for spec in decks:
        path, w, h, cols, rows = spec.split(":")
        w, h, cols, rows = float(w) * mm, float(h) * mm, int(cols), int(rows)
        with open(path, encoding="utf-8") as f:
            rows_ = [r for r in csv.DictReader(f) for _ in range(int(r.get("count") or 1))] * int(
                repeat
            )
        per = cols * rows
        for i in range(0, len(rows_), per):
            for side in (False, True):
                for n, (row, (x, y)) in enumerate(
                    zip(rows_[i : i + per], slots(w, h, cols, rows, side))
                ):
                    c.saveState()
                    c.translate(x, y)
                    p = c.beginPath()
                    p.rect(-B, -B, w + 2 * B, h + 2 * B)
                    c.clipPath(p, stroke=0, fill=0)
                    back(c, w, h) if side else front(c, row, w, h, i + n)
                    c.restoreState()
                crop(c, w, h, cols, rows)
                c.showPage()
    c.save()


if __name__ == "__main__":
    main(*sys.argv[1:])
