"""An independent check of a built card sheet, from the PDF alone.

It knows what the designer knows: the sizes of the cards, the paper and the printer margin.
It reads each page back (page boxes, the strokes drawn on the sheet itself, each face placed
with its clip, the characters) and never asks the imposition code anything. For a sheet of
cards it holds:

- each card's trim is one of the card sizes, upright or turned;
- each of a card's four trim edges is marked at both ends of its cut line: a mark on the same
  line beyond the card on each side (a line two cards share is marked once);
- every mark, every character outside the cards (the label) and every card's printed bleed lie
  inside the printable area;
- no mark crosses a card's bleed or trim, and no card's bleed covers another card's trim;
- long-edge duplex: each back page follows its front page with the backs exactly behind the
  fronts (the front page mirrored about its vertical middle, within 0.1 mm);
- fold-over: the backs on the right half mirror the fronts on the left about the fold line,
  marks included.

A page that places no card (the proof page) is held to the margin. `problems(...)` returns
what is wrong as sentences (empty: the sheet is right)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pypdf
import pypdfium2 as pdfium

from pdfread import page_lines, placements

MM = 72 / 25.4
EPS = 0.01 * MM  # a position read back as the same: 0.01 mm
DUPLEX = 0.1 * MM  # a back behind its front


@dataclass(frozen=True)
class Page:
    """What one page shows, in points: its size, the cards' trims and printed bleed, the marks
    (straight strokes on the sheet itself) and the characters' boxes."""

    index: int
    size: tuple[float, float]
    trims: tuple[tuple[float, float, float, float], ...]
    bleeds: tuple[tuple[float, float, float, float], ...]
    marks: tuple[tuple[float, float, float, float], ...]
    chars: tuple[tuple[str, tuple[float, float, float, float]], ...]


def read(pdf: Path) -> list[Page]:
    reader = pypdf.PdfReader(pdf)
    doc = pdfium.PdfDocument(pdf)
    pages = []
    try:
        for i, page in enumerate(reader.pages):
            box = page.mediabox
            placed = placements(reader, i)
            tp = doc[i].get_textpage()
            chars = []
            for k in range(tp.count_chars()):
                ch = tp.get_text_range(k, 1)
                if ch.strip():
                    chars.append((ch, tuple(tp.get_charbox(k))))
            pages.append(
                Page(
                    i,
                    (float(box.width), float(box.height)),
                    tuple(p.footprint for p in placed),
                    tuple(p.visible for p in placed),
                    tuple(page_lines(reader, i)),
                    tuple(chars),
                )
            )
    finally:
        doc.close()
    return pages


def _overlap(a, b, eps=EPS) -> bool:
    """Two boxes (x0, y0, x1, y1) share more than an edge."""
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def _box(line):
    x1, y1, x2, y2 = line
    return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)


def _mm(v: float) -> str:
    return f"{v / MM:.2f}"


def _is_card(trim, sizes) -> bool:
    w, h = trim[2] - trim[0], trim[3] - trim[1]
    return any(
        (abs(w - a * MM) < EPS and abs(h - b * MM) < EPS)
        or (abs(w - b * MM) < EPS and abs(h - a * MM) < EPS)
        for a, b in sizes
    )


def sheet_problems(page: Page, sizes, margin_mm: float, fold: float | None = None) -> list[str]:
    """What is wrong with one sheet page (`fold`: the x of a fold-over sheet's fold line, whose
    own stroke is not a crop mark)."""
    out = []
    where = f"page {page.index + 1}"
    pw, ph = page.size
    m = margin_mm * MM
    area = (m, m, pw - m, ph - m)

    def inside(box) -> bool:
        return (
            box[0] >= area[0] - EPS
            and box[1] >= area[1] - EPS
            and box[2] <= area[2] + EPS
            and box[3] <= area[3] + EPS
        )

    marks = [_box(k) for k in page.marks]
    if fold is not None:
        marks = [k for k in marks if not (abs(k[0] - fold) < EPS and abs(k[2] - fold) < EPS)]
    for t in page.trims:
        if not _is_card(t, sizes):
            out.append(f"{where}: a card {_mm(t[2] - t[0])}×{_mm(t[3] - t[1])} mm is no card size")
    for b in page.bleeds:
        if not inside(b):
            out.append(f"{where}: a card's bleed at {tuple(map(_mm, b))} is outside the margin")
    for k in marks:
        if not inside(k):
            out.append(f"{where}: a mark at {tuple(map(_mm, k))} is outside the printable area")
        if k[2] - k[0] > EPS and k[3] - k[1] > EPS:
            out.append(f"{where}: a mark at {tuple(map(_mm, k))} is not straight")
        for b in page.bleeds:
            if _overlap(k, b):
                out.append(f"{where}: a mark at {tuple(map(_mm, k))} crosses a card")
                break
    seen = set()
    for k in marks:
        key = tuple(round(v / EPS) for v in k)
        if key in seen:
            out.append(f"{where}: the mark at {tuple(map(_mm, k))} is drawn twice")
        seen.add(key)
    for ch, box in page.chars:
        if any(_overlap(box, b, 0) for b in page.bleeds):
            continue  # the card's own text
        if not inside(box):
            out.append(f"{where}: the character {ch!r} at {tuple(map(_mm, box))} is outside")
    for i, a in enumerate(page.bleeds):
        for j, t in enumerate(page.trims):
            if i != j and _overlap(a, t):
                out.append(f"{where}: a card's bleed covers the card at {tuple(map(_mm, t))}")
    # Along each axis (0: lines of constant x, 1: of constant y), a mark on the card's cut
    # line beyond it on both sides.
    straight = {a: [k for k in marks if k[a + 2] - k[a] <= EPS] for a in (0, 1)}
    for t in page.trims:
        for axis, name in ((0, "x"), (1, "y")):
            other = 1 - axis
            for v in (t[axis], t[axis + 2]):
                on = [k for k in straight[axis] if abs(k[axis] - v) < EPS]
                after = any(k[other] >= t[other + 2] - EPS for k in on)
                before = any(k[other + 2] <= t[other] + EPS for k in on)
                if not (after and before):
                    out.append(
                        f"{where}: the cut line {name} = {_mm(v)} mm of the card at "
                        f"{tuple(map(_mm, t))} is not marked at both ends"
                    )
    return out


def _mirror(box, axis: float):
    return (2 * axis - box[2], box[1], 2 * axis - box[0], box[3])


def _same_boxes(a, b, eps=DUPLEX) -> bool:
    """Two lists of boxes are the same boxes, whatever their order."""
    if len(a) != len(b):
        return False
    rest = list(b)
    for box in a:
        match = next((r for r in rest if all(abs(p - q) < eps for p, q in zip(box, r))), None)
        if match is None:
            return False
        rest.remove(match)
    return True


def problems(
    pdf: Path,
    sizes: list[tuple[float, float]],
    paper_mm: tuple[float, float] | None,
    margin_mm: float,
    backs: str = "long-edge",
) -> list[str]:
    """Everything wrong with the card sheets of a file. A page that places no card (a proof
    page, with its words and ruler) is held to the margin only. `backs`: "long-edge" (each
    front page followed by its back page), "foldover" or "none"; `sizes` in mm."""
    pages = read(pdf)
    out = []
    for page in pages:
        if paper_mm is not None:
            w, h = (v / MM for v in page.size)
            if {round(w, 1), round(h, 1)} != {round(paper_mm[0], 1), round(paper_mm[1], 1)}:
                out.append(f"page {page.index + 1}: {w:.1f}×{h:.1f} mm is not the paper")
    sheets = [page for page in pages if page.trims]
    if not sheets:
        out.append("no page places a card")
    for page in pages:
        if not page.trims:
            out += sheet_problems(page, (), margin_mm)
    if backs == "foldover":
        for page in sheets:
            fold = page.size[0] / 2
            out += sheet_problems(page, sizes, margin_mm, fold)
            left = [t for t in page.trims if t[2] <= fold + EPS]
            right = [t for t in page.trims if t[0] >= fold - EPS]
            if len(left) + len(right) != len(page.trims) or not left:
                out.append(f"page {page.index + 1}: cards lie across the fold")
            if not _same_boxes([_mirror(t, fold) for t in left], right):
                out.append(f"page {page.index + 1}: the backs do not mirror the fronts")
            marks = [_box(k) for k in page.marks]
            marks = [k for k in marks if not (abs(k[0] - fold) < EPS and abs(k[2] - fold) < EPS)]
            lm = [k for k in marks if k[2] <= fold + EPS]
            rm = [k for k in marks if k[0] >= fold - EPS]
            if not _same_boxes([_mirror(k, fold) for k in lm], rm, EPS):
                out.append(f"page {page.index + 1}: the marks do not mirror about the fold")
        return out
    for page in sheets:
        out += sheet_problems(page, sizes, margin_mm)
    if backs == "long-edge":
        if len(sheets) % 2:
            out.append(f"{len(sheets)} sheet pages: a front without its back")
        for front, back in zip(sheets[::2], sheets[1::2]):
            axis = front.size[0] / 2
            if back.index != front.index + 1 or not _same_boxes(
                [_mirror(t, axis) for t in front.trims], back.trims
            ):
                out.append(
                    f"pages {front.index + 1}–{back.index + 1}: the backs are not behind the fronts"
                )
    return out
