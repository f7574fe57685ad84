"""cards.pdf: a proof page with a 100 mm ruler, then each front sheet followed by its mirrored
back sheet.

Fed by imposition (`SheetGeometry`) and laid-out faces; returns bytes, never writes (output does).
"""

from __future__ import annotations

import io

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.colors import HexColor, black, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .. import progress
from ..layout import text as textfit
from ..layout.faces import Face
from ..layout.plan import DeckSheets
from ..layout.sheets import SheetGeometry, marks_for
from ..layout.units import MM
from .draw import draw_face, form_name, new_canvas


def sheets_pdf(
    doc_title: str,
    proof_lines: list[str],
    decks: list[DeckSheets],
    font_names: dict[str, str],
    sides: tuple[str, str] = ("表", "裏"),
    proof: bool = False,
    back_offset=None,
    feedback: str = "",
) -> bytes:
    """Card or token sheets: a proof page, then each front sheet and (where the sheet has backs)
    its back. `sides` are the words that label front and back sheets; `feedback` a URL the
    proof page shows as a QR code (the designer's form for playtesters)."""
    buf = io.BytesIO()
    page = decks[0].geometry.page
    # The initial font is ours too: otherwise every page names an unembedded Helvetica.
    c = new_canvas(buf, page, doc_title, font_names)
    _proof_page(c, proof_lines, page, font_names, feedback)
    # Faces drawn more than once, and runs of boxes many faces share, each one form.
    forms: dict[tuple, str] = {}
    layers: dict[tuple, str] = {}
    for deck in decks:
        count = -(-len(deck.faces) // deck.geometry.per_sheet)
        sheet = _Sheet(deck, count, font_names, sides, proof, back_offset, forms, layers)
        with progress.step(f"{doc_title}: {deck.name}", count) as shown:
            for n, chunk in enumerate(deck.faces.runs(deck.geometry.per_sheet), 1):
                sheet.draw(c, n, chunk)
                shown.advance()
    return c.getpdfdata()  # the file's bytes once (save() would copy them into `buf` too)


class _Sheet:
    """How one deck's sheets are drawn: each sheet's front page and back page, or both about a
    fold."""

    def __init__(self, deck, count, font_names, sides, proof, back_offset, forms, layers):
        self.deck, self.count, self.font_names, self.sides = deck, count, font_names, sides
        self.proof, self.back_offset, self.forms, self.layers = proof, back_offset, forms, layers
        self.marks: dict[int, list] = {}  # a sheet's marks by how many slots it fills

    def _marks(self, filled: int):
        if filled not in self.marks:  # every full sheet of the deck has the same marks
            self.marks[filled] = marks_for(self.deck.geometry, filled)
        return self.marks[filled]

    def draw(self, c, n, chunk) -> None:
        deck, g = self.deck, self.deck.geometry
        c.setPageSize(g.page)
        if g.fold is not None:  # fronts and their backs on one page, about a fold line
            label = f"{deck.name} {n}/{self.count}"
            placed = [
                (face, slot)
                for (front, back), f_slot, b_slot in zip(chunk, g.fronts, g.backs)
                for face, slot in ((front, f_slot), (back, b_slot))
                if face is not None
            ]

            _label(c, label, g, self.font_names)
            for face, slot in placed:
                self._place(c, face, slot)
            marks = self._marks(len(chunk))
            _crop_marks(c, g, marks, mirrored=False)
            _crop_marks(c, g, marks, mirrored=True)
            _fold_line(c, g)
            c.showPage()
            return
        both = ((True, g.fronts), (False, g.backs)) if g.backs else ((True, g.fronts),)
        for is_front, slots in both:
            side = self.sides[0] if is_front else self.sides[1]
            space = " " if side.isascii() else "　"  # "Cards front 1/2", 「カード　表 1/2」
            label = f"{deck.name}{space}{side} {n}/{self.count}"
            side_of = 0 if is_front else 1
            placed = [(pair[side_of], slot) for pair, slot in zip(chunk, slots)]
            placed = [(face, slot) for face, slot in placed if face is not None]

            if not is_front and self.back_offset:
                _offset(c, g.page, self.back_offset)
            _label(c, label, g, self.font_names)
            for face, slot in placed:
                self._place(c, face, slot)
            _crop_marks(c, g, self._marks(len(chunk)), mirrored=not is_front)
            c.showPage()

    def _place(self, c, face, slot) -> None:
        repeated = self.deck.faces.uses[face.key] > 1
        shared = self.forms if repeated else None
        layers = (self.layers, self.deck.faces.layer_uses)
        _place(c, face, slot, self.deck.geometry, self.font_names, shared, layers)
        if self.proof:
            _proof_lines(c, slot, self.deck.geometry)


def _place(
    c: Canvas, face: Face, slot, g: SheetGeometry, font_names, forms: dict | None, layers: tuple
) -> None:
    """Draw a face in its slot, clipped to its bleed box. A face drawn more than once in the
    file (`forms` given) becomes one PDF form placed each time; a face drawn once is drawn
    straight onto the page, which costs the file and the memory less than a form per card, its
    layers that many cards share placed as forms (`layers`: the file's layer forms and how often
    the deck draws each layer)."""
    b = g.bleed
    w, h = slot.card
    c.saveState()
    if slot.clip is not None:  # cards that butt share a cut line: no bleed over the neighbour
        x0, y0, x1, y1 = slot.clip
        path = c.beginPath()
        path.rect(x0, y0, x1 - x0, y1 - y0)
        c.clipPath(path, stroke=0, fill=0)
    _to_slot(c, slot)
    if forms is None:
        _draw_clipped(c, face, w, h, b, font_names, *layers)
    else:
        name = forms.get((face.key, b))
        if name is None:
            name = forms[(face.key, b)] = form_name("face", face.key, b)
            c.beginForm(name, lowerx=-b, lowery=-b, upperx=w + b, uppery=h + b)
            _draw_clipped(c, face, w, h, b, font_names)
            c.endForm()
        c.doForm(name)
    c.restoreState()


PROOF_TRIM, PROOF_BLEED, PROOF_SAFE = "#E6007E", "#00A0E9", "#009944"


def _proof_lines(c: Canvas, slot, g: SheetGeometry) -> None:
    """Over a card (`--proof`): the trim line (solid magenta), the edge of its bleed as it
    will print (dashed cyan) and the safe zone (dashed green), where a cutter may shave."""
    w, h = slot.card
    c.saveState()
    if slot.clip is not None:  # the bleed as printed: cut by the neighbours where cards butt
        x0, y0, x1, y1 = slot.clip
        c.setStrokeColor(HexColor(PROOF_BLEED))
        c.setLineWidth(0.4)
        c.setDash(2, 1.5)
        c.rect(x0, y0, x1 - x0, y1 - y0, stroke=1, fill=0)
    _to_slot(c, slot)
    c.setDash()
    c.setLineWidth(0.5)
    c.setStrokeColor(HexColor(PROOF_TRIM))
    c.rect(0, 0, w, h, stroke=1, fill=0)
    s = g.safe
    if 0 < 2 * s < min(w, h):
        c.setStrokeColor(HexColor(PROOF_SAFE))
        c.setLineWidth(0.4)
        c.setDash(1, 1)
        c.rect(s, s, w - 2 * s, h - 2 * s, stroke=1, fill=0)
    c.restoreState()


def _draw_clipped(
    c: Canvas, face: Face, w: float, h: float, b: float, font_names, layers=None, uses=None
) -> None:
    path = c.beginPath()
    path.rect(-b, -b, w + 2 * b, h + 2 * b)
    c.clipPath(path, stroke=0, fill=0)
    draw_face(c, face, w, h, b, font_names, layers, uses)


def _to_slot(c: Canvas, slot) -> None:
    """Move the origin to the card's own bottom-left trim corner, turned as the slot says."""
    if slot.rot == 90:  # top to the left: the card's bottom-left is the slot's bottom-right
        c.translate(slot.x + slot.w, slot.y)
        c.rotate(90)
    elif slot.rot == -90:  # top to the right: the card's bottom-left is the slot's top-left
        c.translate(slot.x, slot.y + slot.h)
        c.rotate(-90)
    else:
        c.translate(slot.x, slot.y)


def _offset(c: Canvas, page: tuple[float, float], offset) -> None:
    """Move everything on a back page (cards, marks, label) by the printer's measured offset:
    x mm right, y mm up, then turned about the page's centre (the page's state starts afresh
    on the next page)."""
    c.translate(offset.x * MM, offset.y * MM)
    if offset.rotate:
        cx, cy = page[0] / 2, page[1] / 2
        c.translate(cx, cy)
        c.rotate(offset.rotate)
        c.translate(-cx, -cy)


FOLD_COLOUR = "#808080"


def _fold_line(c: Canvas, g: SheetGeometry) -> None:
    """The fold of a fold-over sheet: a dash-dot line down the page's middle, inside the
    printer margin (folded away from you, fronts and backs meet back to back)."""
    c.saveState()
    c.setStrokeColor(HexColor(FOLD_COLOUR))
    c.setLineWidth(0.5)
    c.setDash([6, 2, 1, 2])
    c.line(g.fold, g.margin, g.fold, g.page[1] - g.margin)
    c.restoreState()


def _crop_marks(c: Canvas, g: SheetGeometry, marks, mirrored: bool) -> None:
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(g.crop_width)
    pw = g.page[0]
    for m in marks:
        if (
            mirrored
        ):  # the grid is centred, so the mirrored marks are the same set; draw them mirrored anyway
            c.line(pw - m.x1, m.y1, pw - m.x2, m.y2)
        else:
            c.line(m.x1, m.y1, m.x2, m.y2)
    c.restoreState()


LABEL_PT, LABEL_MIN_PT = 6.0, 4.0


def label_spot(text: str, g: SheetGeometry, width) -> tuple[float, float, float, bool] | None:
    """Where a sheet's label goes (x, baseline y, size in pt, turned): the first of the
    sheet's label boxes that holds it at 6 pt, or at a smaller size down to 4 pt; none when no
    box does. A turned label reads upwards from (x, y). `width(text, size)` measures it."""
    for size in (LABEL_PT, 5.0, LABEL_MIN_PT):
        for x0, y0, x1, y1, turned in g.label_boxes:
            long, thick = (y1 - y0, x1 - x0) if turned else (x1 - x0, y1 - y0)
            if thick >= size * 1.15 and width(text, size) <= long:
                if turned:
                    return x1 - 0.2 * size, y0, size, True
                return x0, y0 + 0.2 * size, size, False
    return None


def _label(c: Canvas, text: str, g: SheetGeometry, font_names) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    spot = label_spot(text, g, lambda t, s: stringWidth(t, font_names["body"], s))
    if spot is None:
        return  # no room inside the printable area: the proof page names every deck anyway
    x, y, size, turned = spot
    c.saveState()
    c.setFillColor(HexColor("#666666"))
    c.setFont(font_names["body"], size)
    c.translate(x, y)
    if turned:
        c.rotate(90)
    c.drawString(0, 0, text)
    c.restoreState()


def proof_header(c: Canvas, lines: list[str], page: tuple[float, float], font_names) -> float:
    """The top of a proof page: a heading, the instructions and a 100 mm ruler; returns the y
    below it."""
    left, y = 20 * MM, page[1] - 30 * MM
    width = page[0] - 2 * left  # a long title, deck name or note wraps inside the margins
    bold, body = font_names["bold"], font_names["body"]
    head = wrap_line(lines[0], width, bold, 16)
    rest = [wrap_line(line, width, body, 10.5) for line in lines[1:]]
    top, bottom = y, 15 * MM

    def room(needed: float, font: str, size: float) -> None:
        """Go on at the top of a new page where `needed` more would pass the bottom margin
        (a game of many decks lists more than one page holds)."""
        nonlocal y
        if y - needed < bottom:
            c.showPage()
            y = top
        c.setFillColor(black)
        c.setFont(font, size)

    for part in head:
        room(0, bold, 16)
        c.drawString(left, y, part)
        y -= 7.5 * MM
    y -= 4.5 * MM
    for parts in rest:
        for part in parts:
            room(0, body, 10.5)
            c.drawString(left, y, part)
            y -= 6.5 * MM
    # The ruler: 100 mm with millimetre ticks, longer every 5 and 10 mm.
    y -= 15 * MM
    room(12 * MM, font_names["body"], 7)
    c.setStrokeColor(black)
    c.setLineWidth(0.4)
    c.line(left, y, left + 100 * MM, y)
    for i in range(101):
        tick = 6 * MM if i % 10 == 0 else 4 * MM if i % 5 == 0 else 2.5 * MM
        c.line(left + i * MM, y, left + i * MM, y + tick)
        if i % 10 == 0:
            c.drawCentredString(left + i * MM, y + 7 * MM, str(i))
    c.setFont(font_names["body"], 9)
    c.drawString(left, y - 6 * MM, "100 mm")
    return y - 12 * MM


def wrap_line(line: str, width: float, font: str, size: float) -> list[str]:
    """A line of the proof page as lines no wider than `width` (kinsoku kept); a line that
    starts indented keeps the indent on each of its lines."""
    if not line:
        return [line]
    indent = line[: len(line) - len(line.lstrip("　 "))]
    rest = line[len(indent) :]

    def measure(text: str) -> float:
        return stringWidth(indent + text, font, size)

    return [indent + part for part in textfit.wrap(rest, width, measure) or [rest]]


def qr_drawing(url: str, size: float) -> Drawing:
    """A QR code of `url`, `size` points square (ReportLab's own encoder)."""
    widget = QrCodeWidget(url)
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    return drawing


def _proof_page(
    c: Canvas, lines: list[str], page: tuple[float, float], font_names, feedback: str = ""
) -> None:
    left = 20 * MM
    y = proof_header(c, lines, page, font_names) - 58 * MM
    if y < 15 * MM:  # the square on a page of its own
        c.showPage()
        c.setFont(font_names["body"], 9)
        y = page[1] - 30 * MM - 50 * MM
    # A 50 mm square: checks both directions at once.
    c.setFillColor(white)
    c.rect(left, y, 50 * MM, 50 * MM, stroke=1, fill=0)
    c.setFillColor(black)
    c.drawString(left + 53 * MM, y + 24 * MM, "50 mm × 50 mm")
    if feedback:  # the designer's feedback form: game, version and language filled in
        renderPDF.draw(qr_drawing(feedback, 30 * MM), c, page[0] - 20 * MM - 30 * MM, y + 20 * MM)
        c.setFont(font_names["body"], 6)
        c.drawRightString(page[0] - 20 * MM, y + 17 * MM, feedback[:90])
    c.showPage()
