"""One face per page, at its trim plus bleed, with the TrimBox and BleedBox a print shop reads:
the print-shop PDFs, and the pages the PNG and Tabletop Simulator images are rendered from (so
images and PDFs agree). Returns bytes, never writes."""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from ..layout.faces import Face
from .draw import draw_face, new_canvas


@dataclass(frozen=True)
class FacePage:
    """One face on a page of its own, at its trim or a shop's."""

    face: Face
    size: tuple[float, float]  # the face's own trim, as laid out (points)
    trim: tuple[float, float]  # the page's trim: the same, or a shop's size it is scaled to
    bleed: float  # around the page's trim

    @property
    def page(self) -> tuple[float, float]:
        return self.trim[0] + 2 * self.bleed, self.trim[1] + 2 * self.bleed

    @property
    def scale(self) -> float:
        """The face grows to cover the page's trim (a 63 × 88 mm card on a 2.5 × 3.5 in one)."""
        return max(self.trim[0] / self.size[0], self.trim[1] / self.size[1])


def faces_pdf(title: str, pages: list[FacePage], font_names: dict[str, str]) -> bytes:
    """A PDF of `pages`, each face centred on its trim and drawn into the bleed; a face on
    more than one page (a deck's back) is one form placed on each."""
    buf = io.BytesIO()
    first = pages[0].page if pages else (100.0, 100.0)
    c = new_canvas(buf, first, title, font_names)
    uses = Counter((p.face.key, p.size, p.trim, p.bleed) for p in pages)
    forms: dict[tuple, str] = {}
    for p in pages:
        pw, ph = p.page
        b = p.bleed
        c.setPageSize((pw, ph))
        c.setTrimBox((b, b, b + p.trim[0], b + p.trim[1]))
        c.setBleedBox((0, 0, pw, ph))
        key = (p.face.key, p.size, p.trim, p.bleed)
        if uses[key] > 1:
            name = forms.get(key)
            if name is None:
                name = forms[key] = f"face{len(forms) + 1}"
                c.beginForm(name, lowerx=0, lowery=0, upperx=pw, uppery=ph)
                _draw(c, p, font_names)
                c.endForm()
            c.doForm(name)
        else:
            _draw(c, p, font_names)
        c.showPage()
    c.save()
    return buf.getvalue()


def _draw(c: Canvas, p: FacePage, font_names) -> None:
    pw, ph = p.page
    w, h = p.size
    s = p.scale
    c.saveState()
    path = c.beginPath()
    path.rect(0, 0, pw, ph)
    c.clipPath(path, stroke=0, fill=0)
    c.translate((pw - w * s) / 2, (ph - h * s) / 2)
    c.scale(s, s)
    reach = max(pw - w * s, ph - h * s) / 2 / s  # the bleed, in the face's own units
    draw_face(c, p.face, w, h, reach, font_names)
    c.restoreState()
