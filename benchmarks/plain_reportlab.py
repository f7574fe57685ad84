"""The baseline: a hand-written ReportLab script that draws the same cards on the same sheets.

What a designer would write without our tool: coordinates in code, fonts already converted to
TrueType (prepared before timing), no validation, no layout files, no text fitting. Usage:
    python plain_reportlab.py CSV OUT.pdf REGULAR.ttf BOLD.ttf [REPEAT]
"""
import csv
import sys

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

PAGE = (210 * mm, 297 * mm)
W, H, B = 63 * mm, 88 * mm, 1.8 * mm
COLS, ROWS = 3, 3


def slots(back):
    cw, ch = W + 2 * B, H + 2 * B
    left, bottom = (PAGE[0] - COLS * cw) / 2, (PAGE[1] - ROWS * ch) / 2
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            x = left + c * cw + B
            out.append((PAGE[0] - x - W if back else x, bottom + (ROWS - 1 - r) * ch + B))
    return out


def front(c, row):
    col = HexColor(row["color"])
    c.setFillColor(col)
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColor(HexColor("#FFFDF6"))
    c.roundRect(3.5 * mm, 3.5 * mm, W - 7 * mm, H - 7 * mm, 2.5 * mm, stroke=0, fill=1)
    c.setFillColor(col)
    c.setFont("B", 30)
    c.drawString(5.5 * mm, H - 5 * mm - 26.4, row["number"])
    c.drawRightString(W - 5.5 * mm, 5 * mm + 3.6, row["number"])
    c.ellipse(W / 2 - 19 * mm, H - 65 * mm, W / 2 + 19 * mm, H - 27 * mm, stroke=0, fill=1)
    c.setFillColor(HexColor("#FFFFFF"))
    c.setFont("B", 34)
    c.drawCentredString(W / 2, H - 46 * mm - 12, row["suit"])
    c.setFillColor(HexColor("#444444"))
    c.setFont("R", 9)
    c.drawCentredString(W / 2, H - 70 * mm - 3, row["reading"])


def back(c, title):
    c.setFillColor(HexColor("#1F2A44"))
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setStrokeColor(HexColor("#C9A227"))
    c.roundRect(4 * mm, 4 * mm, W - 8 * mm, H - 8 * mm, 2.5 * mm, stroke=1, fill=0)
    c.setFillColor(HexColor("#C9A227"))
    c.setFont("B", 14)
    c.drawCentredString(W / 2, H / 2, title)


def crop(c):
    for x in sorted({x for x, _ in slots(False)} | {x + W for x, _ in slots(False)}):
        c.line(x, PAGE[1] - 5 * mm, x, PAGE[1] - 1 * mm)
        c.line(x, 5 * mm, x, 1 * mm)


def main(csv_path, out, regular, bold, repeat=1):
    pdfmetrics.registerFont(TTFont("R", regular))
    pdfmetrics.registerFont(TTFont("B", bold))
    with open(csv_path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f)) * int(repeat)
    c = Canvas(out, pagesize=PAGE, invariant=1)
    c.setFont("R", 12)
    c.drawString(20 * mm, 250 * mm, "100%で印刷してください")
    c.line(20 * mm, 200 * mm, 120 * mm, 200 * mm)
    c.showPage()
    for i in range(0, len(rows), 9):
        for side in (False, True):
            for row, (x, y) in zip(rows[i:i + 9], slots(side)):
                c.saveState()
                c.translate(x, y)
                p = c.beginPath()
                p.rect(-B, -B, W + 2 * B, H + 2 * B)
                c.clipPath(p, stroke=0, fill=0)
                back(c, "補陀落渡海しよう！") if side else front(c, row)
                c.restoreState()
            crop(c)
            c.showPage()
    c.save()


if __name__ == "__main__":
    main(*sys.argv[1:])
