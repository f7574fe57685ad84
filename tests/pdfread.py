"""Reading built PDFs back the way a user would check them: sizes in mm, card placements, text,
fonts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
from pypdf.generic import ContentStream

MM = 72 / 25.4


@dataclass(frozen=True)
class Placed:
    """A card drawn on a page: its trim origin and bleed box (points, page coordinates). `form`
    names the PDF form of a face drawn more than once in the file; a face drawn once is drawn
    on the page itself (`form` is "inline")."""

    form: str
    x: float
    y: float
    bbox: tuple[float, float, float, float]  # the face's box: bleed around the trim box
    rot: int = 0  # 90: turned with its top to the left; -90: to the right
    clip: tuple[float, float, float, float] | None = None  # the page's clip around it, if any

    @property
    def visible(self) -> tuple[float, float, float, float]:
        """What of the face reaches the paper (page coordinates): its bleed box as placed,
        cut by the page clip (cards that butt show no bleed over each other)."""
        x0, y0, x1, y1 = self.bbox
        if self.rot == 90:
            box = (self.x - y1, self.y + x0, self.x - y0, self.y + x1)
        elif self.rot == -90:
            box = (self.x + y0, self.y - x1, self.x + y1, self.y - x0)
        else:
            box = (self.x + x0, self.y + y0, self.x + x1, self.y + y1)
        if self.clip is None:
            return box
        c = self.clip
        return (max(box[0], c[0]), max(box[1], c[1]), min(box[2], c[2]), min(box[3], c[3]))

    @property
    def footprint(self) -> tuple[float, float, float, float]:
        """The trim box as it lies on the page: left, bottom, right, top."""
        w, h = self.bbox[2] + self.bbox[0], self.bbox[3] + self.bbox[1]
        if self.rot == 90:
            return self.x - h, self.y, self.x, self.y + w
        if self.rot == -90:
            return self.x, self.y - w, self.x + h, self.y
        return self.x, self.y, self.x + w, self.y + h


def page_size_mm(path: Path, index: int) -> tuple[float, float]:
    page = pypdf.PdfReader(path).pages[index]
    return float(page.mediabox.width) / MM, float(page.mediabox.height) / MM


def _reader(path) -> pypdf.PdfReader:
    """A file's reader; a reader given stands for itself (many pages of one file read once)."""
    return path if isinstance(path, pypdf.PdfReader) else pypdf.PdfReader(path)


def placements(path: Path, index: int) -> list[Placed]:
    """Every card face drawn on page `index`, with the translation in force when it was drawn:
    a form placed at the top level of the page, or a face drawn inline (a translation, then a
    clip to its bleed box, at the top level). Forms placed inside an inline face (its layers
    that other cards share, its pictures) are part of that face."""
    reader = _reader(path)
    page = reader.pages[index]
    xobjects = page["/Resources"].get("/XObject", {})
    stack, ctm, out = [], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), []
    rect = None
    clip, clips = None, []  # a clip drawn in page coordinates (identity ctm), and its saves
    # The page's own transformation, in force outside every card (a back page moved by
    # --back-offset): a clip drawn in it is a page clip, not a card.
    base = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    inside = None  # the depth of the saves of the inline face being drawn

    def rot(m) -> int:
        a, b = round(m[0]), round(m[1])
        return {(1, 0): 0, (0, 1): 90, (0, -1): -90}[(a, b)]

    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            if not stack:
                base = ctm
            stack.append(ctm)
            clips.append(clip)
        elif op == b"Q":
            ctm = stack.pop()
            clip = clips.pop()
            if inside is not None and len(stack) < inside:
                inside = None
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            assert {round(abs(v), 6) for v in (a, b, c, d)} <= {0, 1}, "cards are placed square"
            A, B, C, D, E, F = ctm
            ctm = (
                a * A + b * C,
                a * B + b * D,
                c * A + d * C,
                c * B + d * D,
                e * A + f * C + E,
                e * B + f * D + F,
            )
        elif op == b"Do" and inside is None:
            form = xobjects[operands[0]].get_object()
            bbox = tuple(float(v) for v in form["/BBox"])
            out.append(Placed(str(operands[0]), ctm[4], ctm[5], bbox, rot(ctm), clip))
        elif op == b"re" and len(stack) == 1:
            x, y, w, h = (float(v) for v in operands)
            rect = (x, y, x + w, y + h)
        elif op in (b"W", b"W*") and rect is not None:
            if ctm == base:  # the page clip of a card whose sides butt
                e, f = base[4], base[5]
                clip = (rect[0] + e, rect[1] + f, rect[2] + e, rect[3] + f)
            else:
                out.append(Placed("inline", ctm[4], ctm[5], rect, rot(ctm), clip))
                inside = len(stack)
            rect = None
        elif op in (b"f", b"S", b"B", b"n", b"b", b"s", b"f*", b"B*", b"b*"):
            rect = None
    return out


def text_in(path: Path, index: int, box: tuple[float, float, float, float]) -> str:
    """Text inside a rectangle (left, bottom, right, top in points) of a page."""
    pdf = pdfium.PdfDocument(path)
    try:
        tp = pdf[index].get_textpage()
        return tp.get_text_bounded(*box)
    finally:
        pdf.close()


def page_text(path: Path, index: int) -> str:
    return pypdf.PdfReader(path).pages[index].extract_text()


def drawn_text(path: Path, index: int) -> str:
    """The page's text as PDFium reads it from the glyphs drawn: a character whose glyph the
    embedded font lacks is not in it (a box is drawn instead)."""
    pdf = pdfium.PdfDocument(path)
    try:
        return pdf[index].get_textpage().get_text_range()
    finally:
        pdf.close()


def leaning_text(path: Path, index: int) -> str:
    """The page's characters PDFium finds drawn leaning (a text matrix that shears them, as a
    slanted emphasis is drawn), in order."""
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(path)
    try:
        page = pdf[index].get_textpage()
        out = []
        for i in range(page.count_chars()):
            matrix = raw.FS_MATRIX()
            if raw.FPDFText_GetMatrix(page.raw, i, matrix) and abs(matrix.c) > 1e-3:
                out.append(page.get_text_range(i, 1))
        return "".join(out)
    finally:
        pdf.close()


RULER = "0 10 20 30 40 50 60 70 80 90 100"  # the proof page's 100 mm ruler, as printed


def all_text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(path).pages)


def fonts(path: Path) -> list[dict]:
    """Every font any page or form uses: name, and whether its program is embedded."""
    reader = pypdf.PdfReader(path)
    found: dict[str, dict] = {}

    def visit(resources):
        if not resources:
            return
        for ref in resources.get("/Font", {}).values():
            font = ref.get_object()
            desc = font.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in font:
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            embedded = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font["/BaseFont"])] = {
                "name": str(font["/BaseFont"]),
                "embedded": embedded,
                "subtype": str(font["/Subtype"]),
            }
        for xo in resources.get("/XObject", {}).values():
            visit(xo.get_object().get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return list(found.values())


def render(path: Path, index: int, scale: float = 1.0):
    """A page as a PIL image (scale 1 = 72 dpi)."""
    pdf = pdfium.PdfDocument(path)
    try:
        return pdf[index].render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()


def text_by_font(path: Path, index: int) -> list[tuple[str, str]]:
    """The text of a page as (text, font) pieces in drawing order; the font is its BaseFont
    without the subset tag, e.g. 'NotoSansCJKjp-Bold-…'."""
    out: list[tuple[str, str]] = []

    def visit(text, cm, tm, font, size):
        if text and font is not None:
            out.append((text, str(font.get("/BaseFont", "")).split("+", 1)[-1]))

    pypdf.PdfReader(path).pages[index].extract_text(visitor_text=visit)
    return out


def links(path: Path) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every URI link annotation: (target, rectangle in points) over all pages."""
    found = []
    for page in pypdf.PdfReader(path).pages:
        for annot in page.get("/Annots") or []:
            a = annot.get_object()
            action = a.get("/A")
            if a.get("/Subtype") == "/Link" and action is not None and "/URI" in action:
                found.append((str(action["/URI"]), tuple(float(v) for v in a["/Rect"])))
    return found


def page_lines(path: Path, index: int) -> list[tuple[float, float, float, float]]:
    """Straight lines stroked on the page itself (not inside a card or a form): the crop marks.
    Each as (x1, y1, x2, y2) in points."""
    reader = _reader(path)
    page = reader.pages[index]
    out, path_, start, moved = [], [], None, False
    cm_depth, depth = [], 0
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
            while cm_depth and cm_depth[-1] > depth:
                cm_depth.pop()
        elif op == b"cm" and [float(v) for v in operands] != [1, 0, 0, 1, 0, 0]:
            cm_depth.append(depth)
        elif op == b"m":
            start, moved = tuple(float(v) for v in operands), True
        elif op == b"l" and moved and start is not None:
            end = tuple(float(v) for v in operands)
            path_.append((*start, *end))
            start = end
        elif op == b"S":
            if not cm_depth:  # drawn in page coordinates
                out.extend(path_)
            path_, start, moved = [], None, False
        elif op in (b"n", b"f", b"B", b"b", b"s", b"f*", b"re"):
            if op != b"re":
                path_, start, moved = [], None, False
    return out


def char_boxes(path: Path, index: int, text: str) -> list[tuple[float, float, float, float]]:
    """The boxes (left, bottom, right, top in points) of each character of the first place
    `text` appears on the page, spaces and line breaks aside (vertical text reads back as a
    character a line)."""
    pdf = pdfium.PdfDocument(path)
    try:
        tp = pdf[index].get_textpage()
        count = tp.count_chars()
        chars = [(i, tp.get_text_range(i, 1)) for i in range(count)]
        chars = [(i, ch) for i, ch in chars if ch.strip()]
        joined = "".join(ch for _i, ch in chars)
        want = "".join(text.split())
        at = joined.find(want)
        if at < 0:
            return []
        return [tp.get_charbox(i) for i, _ch in chars[at : at + len(want)]]
    finally:
        pdf.close()


def text_sizes(path: Path, index: int) -> list[tuple[str, float]]:
    """The text of a page as (text, size in points as printed): the font size times the scale
    of the text and drawing matrices (a sample card drawn at 60 % prints its 9 pt text at
    5.4 pt)."""
    out: list[tuple[str, float]] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            scale = abs(cm[0] * tm[0] + cm[2] * tm[1]) or abs(cm[1] * tm[2] + cm[3] * tm[3])
            out.append((text, size * scale))

    pypdf.PdfReader(path).pages[index].extract_text(visitor_text=visit)
    return out


@dataclass(frozen=True)
class Line:
    """A printed line of one size in one column: its baseline's height, its size in points and
    its characters as (character, left, right), each character's advance box as PDFium reads
    it (a character and the space it takes, not only its ink)."""

    y: float
    size: float
    chars: tuple[tuple[str, float, float], ...]

    @property
    def left(self) -> float:
        return self.chars[0][1]

    @property
    def right(self) -> float:
        return self.chars[-1][2]

    @property
    def text(self) -> str:
        return "".join(ch for ch, _l, _r in self.chars)


def text_lines(path: Path, index: int) -> list[Line]:
    """The page's horizontal text as lines, top first: characters of one size on one baseline,
    parted where a gap of one and a half ems or more opens (two columns side by side)."""
    import pypdfium2.raw as pdfium_c

    pdf = pdfium.PdfDocument(path)
    try:
        tp = pdf[index].get_textpage()
        rows: dict[tuple[float, float], list] = {}
        for i in range(tp.count_chars()):
            ch = tp.get_text_range(i, 1)
            if not ch.strip():
                continue
            left, bottom, right, _top = tp.get_charbox(i, loose=True)
            size = round(pdfium_c.FPDFText_GetFontSize(tp, i), 2)
            rows.setdefault((round(bottom, 1), size), []).append((ch, left, right))
    finally:
        pdf.close()
    out = []
    for (y, size), chars in rows.items():
        chars.sort(key=lambda c: c[1])
        part = [chars[0]]
        for a, b in zip(chars, chars[1:]):
            if b[1] - a[2] >= 1.5 * size:
                out.append(Line(y, size, tuple(part)))
                part = []
            part.append(b)
        out.append(Line(y, size, tuple(part)))
    return sorted(out, key=lambda line: (-line.y, line.left))
