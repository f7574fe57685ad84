"""rulebook.pdf and summary.pdf from rulebook blocks, with sample cards drawn by the real card
layout.

Fed by rulebook (blocks, summary sections) and laid-out sample faces; returns bytes.
"""

from __future__ import annotations

import io
import unicodedata
from copy import copy
from dataclasses import dataclass, replace

# isort: split
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepTogether,
    NextPageTemplate,
    PageTemplate,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from .. import printed
from ..layout import text as textfit
from ..layout.faces import Face
from ..layout.rulebook import ADDED_NOTE, FROM_DATA, Block, Rulebook, directive_table
from ..layout.units import MM
from ..rulesource import (
    EM,
    EM_END,
    LINK,
    LINK_END,
    MARKS,
    STRONG,
    STRONG_END,
    plain,
    runs,
    strip_marks,
)
from ..typeset import (
    base_text,
    designer_breaks,
    parse_ruby,
    segments,
    squeezed,
    squeezes,
    stretches,
)
from .draw import draw_face, draw_icon, draw_reading, image_form, stand_in

ADDED_GREY = colors.HexColor("#6B6B6B")
NOTE_BAR = colors.HexColor("#B8C2D6")  # the bar beside a note (a blockquote)
MIN_SAMPLE_PT = 5.0  # the smallest text a sample card may print at, scaled


PICTURE_DPI = 150  # a raster picture's natural size in the rulebook (never wider than the text)
PICTURE_MOST = 0.55  # of the frame's height: a picture leaves room for its text


class Picture(Flowable):
    """A picture of the rules source, centred: at its natural size (150 dpi) or smaller to fit
    the text's width and half a page, with its description under it; a grey stand-in naming
    the file while it is not there."""

    def __init__(self, image, src: str, caption, style, most_h: float):
        super().__init__()
        self.image, self.src, self.caption, self.style = image, src, caption, style
        self.most_h = most_h

    def wrap(self, avail_w, avail_h):
        if self.image is None:
            w, h = min(avail_w, 80 * MM), 45 * MM
        else:
            pw, ph = self.image.px
            scale = 72 / PICTURE_DPI if self.image.kind != "svg" else 1.0
            w, h = pw * scale, ph * scale
            fit = min(1.0, avail_w / w, self.most_h / h)
            w, h = w * fit, h * fit
        self.pic = (w, h)
        self.cap_h = 0.0
        if self.caption:
            self.cap = TextBlock(self.caption, self.style)
            self.cap_h = self.cap.wrap(avail_w, avail_h)[1] + 1 * MM
        self.width, self.height = avail_w, h + self.cap_h + 2 * MM
        return self.width, self.height

    def draw(self):
        c = self.canv
        w, h = self.pic
        x, y = (self.width - w) / 2, self.cap_h
        c.saveState()
        if self.image is None:
            font = self.style.fontName
            stand_in(c, x, y, w, h, font, (self.src, 9, stringWidth(self.src, font, 9), 0.85))
        else:
            name, (fw, fh) = image_form(c, self.image)
            c.translate(x, y)
            c.scale(w / fw, h / fh)
            c.doForm(name)
        c.restoreState()
        if self.caption:
            self.cap.drawOn(c, 0, 0)


class Float(Flowable):
    """Sample cards or a picture that may wait for the next page: where they do not fit what
    is left of this one, the text after them (up to the next heading) fills it first, as a
    book sets a figure, instead of leaving the page's foot empty. Cards split between rows.
    `room` is a whole frame's height: on a page of its own the content is set as it is."""

    def __init__(self, content: list, after: list, room: float):
        super().__init__()
        self.content, self.after, self.room = content, after, room

    def wrap(self, avail_w, avail_h):
        self.width = avail_w
        self.height = max(_height([*self.content, *self.after], (avail_w, 1e9)), avail_h) + 1
        return self.width, self.height  # more than the page holds: the split below decides

    def split(self, avail_w, avail_h):
        if _height(self.content, (avail_w, 1e9)) <= avail_h or avail_h >= self.room * 0.98:
            return [*self.content, *self.after]
        rows = [i for i, f in enumerate(self.content) if isinstance(f, CardRow)]
        if rows:  # the rows that fit here, the rest as a float of their own
            i = rows[0]
            before = _height(self.content[:i], (avail_w, 1e9))
            parts = self.content[i].split(avail_w, avail_h - before)
            if parts:
                rest = Float([parts[1], *self.content[i + 1 :]], self.after, self.room)
                return [*self.content[:i], parts[0], rest]
        taken, left = [], avail_h
        after = list(self.after)
        while after:
            first = after[0]
            tall = _height([first], (avail_w, left))
            if tall <= left:
                taken.append(after.pop(0))
                left -= tall
                continue
            parts = first.split(avail_w, left) if isinstance(first, TextBlock) else []
            if parts:
                taken.append(parts[0])
                after[0] = parts[1]
            break
        if not taken:  # nothing to set before it: a little smaller, else the next page
            for i, f in enumerate(self.content):
                if isinstance(f, CardRow):
                    others = _height(self.content[:i] + self.content[i + 1 :], (avail_w, 1e9))
                    small = f.shrunk(avail_h - others)
                    if small.wrap(avail_w, avail_h)[1] <= avail_h - others:
                        return [*self.content[:i], small, *self.content[i + 1 :], *self.after]
            return []
        return [*taken, Float(self.content, after, self.room)]

    def draw(self):  # never drawn: it always splits into what it holds
        pass


class CardRow(Flowable):
    """Sample cards side by side, drawn with the card layout, scaled to fit the text width."""

    def __init__(
        self, faces: list[tuple[str, Face]], card: tuple[float, float], font_names, label_font
    ):
        super().__init__()
        self.faces, self.card, self.font_names, self.label_font = (
            faces,
            card,
            font_names,
            label_font,
        )
        self.gap = 4 * MM
        self.most_h: float | None = None  # as tall as this at most, if it can shrink so far

    def shrunk(self, most_h: float) -> CardRow:
        """The same cards drawn small enough to stand `most_h` tall, where they can."""
        row = CardRow(self.faces, self.card, self.font_names, self.label_font)
        row.most_h = most_h
        return row

    def wrap(self, avail_w, avail_h):
        # No sample's text prints under 5 pt: fewer cards a row rather than smaller ones.
        sizes = [
            box.props["size"]
            for _label, face in self.faces
            for box in face.boxes
            if box.type == "text" and box.props.get("lines")
        ]
        least = min(1.0, MIN_SAMPLE_PT / min(sizes)) if sizes else 0.0
        per = max(len(self.faces), 1)
        while per > 1 and (avail_w - (per - 1) * self.gap) / (per * self.card[0]) < least:
            per -= 1
        self.per = per
        self.scale = min(1.0, (avail_w - (per - 1) * self.gap) / (per * self.card[0]))
        self.rows = -(-len(self.faces) // per)
        self.width = avail_w
        if self.most_h is not None:  # a page's foot: smaller, down to three quarters and 5 pt
            room = self.most_h - (self.rows - 1) * 2 * MM - self.rows * 6 * MM
            fit = room / (self.rows * self.card[1])
            if max(least, 0.75 * self.scale) <= fit < self.scale:
                self.scale = fit
        self.row_h = self.card[1] * self.scale + 6 * MM
        self.height = self.rows * self.row_h + (self.rows - 1) * 2 * MM
        return self.width, self.height

    def split(self, avail_w, avail_h):
        """The rows that fit here, and the rest for the next page (never one row alone)."""
        self.wrap(avail_w, avail_h)
        fit = int((avail_h + 2 * MM) // (self.row_h + 2 * MM))
        if fit < 1 or fit >= self.rows:
            return []
        cut = fit * self.per
        return [
            CardRow(self.faces[:cut], self.card, self.font_names, self.label_font),
            CardRow(self.faces[cut:], self.card, self.font_names, self.label_font),
        ]

    def draw(self):
        for r in range(self.rows):
            faces = self.faces[r * self.per : (r + 1) * self.per]
            self._draw_row(faces, self.height - (r + 1) * self.row_h - r * 2 * MM)

    def _draw_row(self, faces, bottom: float) -> None:
        c = self.canv
        w, h = self.card
        n = len(faces)
        total = n * w * self.scale + (n - 1) * self.gap
        x = (self.width - total) / 2
        for label, face in faces:
            c.saveState()
            c.translate(x, bottom + 6 * MM)
            c.scale(self.scale, self.scale)
            draw_face(c, face, w, h, 0.0, self.font_names)
            c.setStrokeColor(colors.HexColor("#999999"))
            c.setLineWidth(0.5 / self.scale)
            c.rect(0, 0, w, h, stroke=1, fill=0)
            c.restoreState()
            c.setFont(self.label_font, 8)
            c.setFillColor(colors.black)
            c.drawCentredString(x + w * self.scale / 2, bottom + 1.5 * MM, label)
            x += w * self.scale + self.gap


class TextBlock(Flowable):
    """A paragraph set by our own Japanese line breaker (phrases, full kinsoku), not ReportLab's
    CJK wrap, which hangs only one closing mark and so can start a line with 「。」 after 「）」.

    Lines are set as jlreq says (typeset.py): two 約物 in a row give back the half em between
    them, and in a justified style (`justify` on the style: body text, items, notes) every line
    but a paragraph's last fills the measure, its space added where jlreq allows.

    Text may carry inline marks (rulesource: **strong**, links): they are taken out before the
    line breaking, so no mark decides a break, and put back into the lines they belong to. Such
    a paragraph is measured with the wider of the body and bold fonts, so it never overflows.
    """

    def __init__(
        self,
        text: str,
        style: ParagraphStyle,
        bullet: str | None = None,
        lines: list[str] | None = None,
        first: bool = True,
        tail: bool = True,
        ends: list[bool] | None = None,
        indents: list[float] | None = None,
    ):
        super().__init__()
        self.tail = tail  # the paragraph's end: the space after it follows
        self.given = lines is not None  # a part of a split paragraph: its lines are fixed
        self.ends = ends or []  # for each line, whether it ends a paragraph (set flush)
        self.indents = indents or []  # each line's hanging indent (a 「・」 paragraph's)
        # `:酒肴:` as the card layouts draw it: one character each, measured as its advance
        found = getattr(style, "icons", None)
        self.icons = {}  # char -> (shapes, advance), as draw_runs takes them
        if found is not None and ":" in text:
            text = found.inline(text, [])
            self.icons = {
                ch: (found.by_char(ch).shapes, found.by_char(ch).advance)
                for ch in text
                if found.is_icon(ch)
            }
        self.iconset = found
        text = parse_ruby(text)  # {煩悩|ぼんのう}: the reading above its base
        self.text, self.style, self.bullet, self.lines, self.first = (
            text,
            style,
            bullet,
            lines,
            first,
        )
        self.marked = any(m in text for m in MARKS)

    @property
    def bold_font(self) -> str:
        return getattr(self.style, "boldFontName", self.style.fontName)

    @property
    def italic_font(self) -> str | None:
        """The game's `italic` font, if it has one: *emphasis* is set in it, else slanted."""
        return getattr(self.style, "italicFontName", None)

    @property
    def words(self) -> tuple[str, ...]:
        """The game's words never split across lines (words.txt), as the styles carry them."""
        return getattr(self.style, "words", ())

    def _measure(self, s: str) -> float:
        s = base_text(s)
        squeeze = squeezes(plain(s) if self.marked else s) * self.style.fontSize / 2
        if self.icons:
            s, ems = self.iconset.strip(s)
            if ems:
                return self._measure(s) + ems * self.style.fontSize - squeeze
        if not self.marked:
            return stringWidth(s, self.style.fontName, self.style.fontSize) - squeeze
        s = plain(s)
        size = self.style.fontSize
        faces = (self.style.fontName, self.bold_font, self.italic_font or self.style.fontName)
        return max(stringWidth(s, face, size) for face in faces) - squeeze

    def wrap(self, avail_w, avail_h):
        if not self.given and getattr(self, "width", None) != avail_w:
            self.lines = None  # wrapped before at another width: break the lines again
        self.width = avail_w
        if self.lines is None:
            width = avail_w - self.style.leftIndent
            self.ends = []
            # A paragraph that starts with 「・」 or a step's number hangs its later lines.
            self.indents = [] if self.style.alignment != TA_CENTER else None
            if self.marked:
                self.lines = _wrap_marked(
                    self.text, width, self._measure, self.ends, self.words, self.indents
                )
            else:
                self.lines = textfit.wrap(
                    self.text,
                    width,
                    self._measure,
                    max_ragged=MAX_RAGGED,
                    min_last=MIN_LAST,
                    ends=self.ends,
                    words=self.words,
                    indents=self.indents,
                )
            self.indents = self.indents or []
        self.height = len(self.lines) * self.style.leading
        return self.width, self.height

    def split(self, avail_w, avail_h):
        self.wrap(avail_w, avail_h)
        # No line alone at the page's foot, nor at the next page's top.
        fit = min(int(avail_h // self.style.leading), len(self.lines) - 2)
        if fit < 2:
            return []
        # A page ends between phrases where a line ends between two: a line that breaks
        # inside one goes over with it (justified lines may all break inside phrases).
        fit = next((n for n in range(fit, 1, -1) if self._ends_phrase(n)), fit)
        head, rest = self.ends[:fit], self.ends[fit:]
        hung, hang = self.indents[:fit], self.indents[fit:]
        return [
            TextBlock(
                self.text, self.style, self.bullet, self.lines[:fit], self.first, True, head, hung
            ),
            TextBlock(self.text, self.style, None, self.lines[fit:], False, True, rest, hang),
        ]

    def _ends_phrase(self, n: int) -> bool:
        """Whether the text's first `n` lines end between two phrases (BudouX)."""
        if self.marked:
            return True  # marked text breaks on its plain text; accept the line as it is
        end = sum(len(line) for line in self.lines[:n])
        text = "".join(self.text.split("\n"))
        if end >= len(text) or text[:end] != "".join(self.lines[:n]):
            return True  # lines dropped spaces: positions no longer line up; accept
        good, _fallback = textfit.break_points(text, self.words)
        return end in good

    def getSpaceBefore(self):
        return self.style.spaceBefore if self.first else 0

    def getSpaceAfter(self):
        return self.style.spaceAfter if self.tail else 0

    def getKeepWithNext(self):
        return bool(getattr(self.style, "keepWithNext", 0))

    @property
    def heading(self) -> bool:
        return self.style.name.split("-")[0] in ("title", "h2", "h3", "h4")

    def draw(self):
        c, st = self.canv, self.style
        c.setFillColor(st.textColor)
        c.setFont(st.fontName, st.fontSize)
        # The em box (0.88 above the baseline, 0.12 below) centred in each line's leading.
        drop = (st.leading - st.fontSize) / 2 + 0.88 * st.fontSize
        bar = getattr(st, "bar", None)
        if bar is not None and self.lines:  # a note's bar, the height of its lines
            c.setFillColor(bar)
            c.rect(st.bulletIndent, 0, st.fontSize * 0.2, self.height, stroke=0, fill=1)
            c.setFillColor(st.textColor)
        if self.bullet and self.lines:  # first, so text extraction reads it before the item
            c.drawString(st.bulletIndent, self.height - drop, self.bullet)
        for i, line in enumerate(self.lines):
            y = self.height - i * st.leading - drop
            units = self._units(line)
            natural = sum(u.width for u in units) - _given_back(units) * st.fontSize / 2
            ends = i >= len(self.ends) or self.ends[i]
            hang = self.indents[i] if i < len(self.indents) else 0.0
            measure = self.width - st.leftIndent - hang
            extra = 0.0
            if getattr(st, "justify", False) and not ends and natural < measure:
                gaps = sum(map(_stretches, units, units[1:]))
                extra = min((measure - natural) / gaps, st.fontSize) if gaps else 0.0
            x = st.leftIndent + hang
            if st.alignment == TA_CENTER:
                x = (self.width - natural) / 2
            self._set(units, x, y, extra)
        c.setFont(st.fontName, st.fontSize)

    def _units(self, line: str) -> list[_Unit]:
        """What a line sets, in order: each character, an icon, or a ruby group whole, with
        its font, width and link."""
        st, out = self.style, []
        for run in runs(line) if self.marked else [None]:
            text = line if run is None else run.text
            em = run is not None and run.em
            font = self.bold_font if run is not None and run.strong else st.fontName
            font = self.italic_font if em and font == st.fontName and self.italic_font else font
            slanted = em and font != self.italic_font  # no face of its own: the body slanted
            link = None if run is None else run.link
            for base, reading in segments(text):
                if reading:
                    width = stringWidth(base, font, st.fontSize)
                    out.append(_Unit(base, font, width, link, reading=reading))
                    continue
                for ch in base:
                    if ch in self.icons:
                        out.append(_Unit(ch, font, self.icons[ch][1] * st.fontSize, link, True))
                    else:
                        width = stringWidth(ch, font, st.fontSize)
                        upright = unicodedata.east_asian_width(ch) in "WF"  # kanji, kana: upright
                        out.append(_Unit(ch, font, width, link, slant=slanted and not upright))
        return out

    def _set(self, units: list[_Unit], x: float, y: float, extra: float) -> None:
        """Draw a line's units from (x, y): a half em given back between marks, `extra` added
        where a justified line may stretch. The characters are shown by a text object whose
        cursor only moves on (_LineText), so a reader of the PDF's text finds one line in
        order; a reading follows its base, icons are drawn over the line after it."""
        if not units:
            return
        c, st = self.canv, self.style
        size, half = st.fontSize, st.fontSize / 2
        after = (
            [  # the space after each unit beyond its width
                -half if squeezed(a.text[-1], b.text[0]) else extra if _stretches(a, b) else 0.0
                for a, b in zip(units, units[1:])
            ]
            + [0.0]
        )
        placed, at = [], x
        for unit, space in zip(units, after):
            placed.append((unit, at))
            at += unit.width + space
        text = _LineText(c, x, y, size)
        icons = []  # drawn over the text, after it
        for (unit, ux), space in zip(placed, after):
            if unit.icon:
                icons.append((unit, ux))
                continue
            colour = LINK_COLOUR if unit.link else st.textColor
            if unit.reading:  # the base solid, then its reading, so a reader finds them together
                text.show(unit.text, ux, unit.font, colour, 0.0, unit.width)
                text.end()
                draw_reading(c, unit.text, unit.reading, ux, y, size, unit.font)
                continue
            text.show(unit.text, ux, unit.font, colour, space, unit.width, unit.slant)
        text.end()
        for unit, ux in icons:
            c.setFillColor(LINK_COLOUR if unit.link else st.textColor)
            shapes, advance = self.icons[unit.text]
            draw_icon(c, shapes, ux + (advance - 1) * size / 2, y - 0.12 * size, size)
        self._underline_links(placed, y)
        c.setFillColor(st.textColor)

    def _underline_links(self, placed: list, y: float) -> None:
        """Each link's text underlined and made a link, one stretch of the line each."""
        c, size = self.canv, self.style.fontSize
        k = 0
        while k < len(placed):
            unit, x0 = placed[k]
            if not unit.link:
                k += 1
                continue
            j = k
            while j + 1 < len(placed) and placed[j + 1][0].link == unit.link:
                j += 1
            x1 = placed[j][1] + placed[j][0].width
            c.setStrokeColor(LINK_COLOUR)
            c.setLineWidth(0.4)
            c.line(x0, y - 0.12 * size, x1, y - 0.12 * size)
            box = (x0, y - 0.12 * size, x1, y + 0.88 * size)
            c.linkURL(unit.link, box, relative=1, thickness=0)
            k = j + 1


class _LineText:
    """One line's characters as PDF text objects whose cursor only moves on: each character
    shown with the space after it as its Tc, a new origin only past an icon or a reading."""

    def __init__(self, c, x: float, y: float, size: float):
        self.c, self.y, self.size = c, y, size
        self.t = None  # the text object being written
        self.state: tuple = ()  # its font, colour and Tc
        self.run: list[str] = []  # characters to show in that state
        self.cursor = x  # where the next character shown stands
        self.slant = False  # whether the text matrix leans (emphasis with no italic face)

    def show(
        self,
        text: str,
        x: float,
        font: str,
        colour,
        space: float,
        width: float,
        slant: bool = False,
    ) -> None:
        if self.t is None or abs(x - self.cursor) > 1e-6 or slant != self.slant:
            self._flush()
            if self.t is None:
                self.t = self.c.beginText(x, self.y)
                self.state = ()
                if slant:
                    self.t.setTextTransform(1, 0, SLANT, 1, x, self.y)
            elif slant or self.slant:  # a new origin, leaning or upright again
                self.t.setTextTransform(1, 0, SLANT if slant else 0, 1, x, self.y)
            else:
                self.t.setTextOrigin(x, self.y)
            self.slant = slant
        state = (font, colour, space)
        if state != self.state:
            self._flush()
            old = self.state or (None, None, None)
            if font != old[0]:
                self.t.setFont(font, self.size)
            if colour != old[1]:
                self.t.setFillColor(colour)
            if space != old[2]:
                self.t.setCharSpace(space)
            self.state = state
        self.run.append(text)
        self.cursor = x + width + space * len(text)

    def _flush(self) -> None:
        if self.run:
            self.t.textOut("".join(self.run))
            self.run.clear()

    def end(self) -> None:
        """The text object drawn; what follows starts one of its own."""
        self._flush()
        if self.t is not None:
            self.c.drawText(self.t)
        self.t = None


@dataclass(frozen=True)
class _Unit:
    """One thing a line sets: a character, an icon or a ruby group's base (with its reading)."""

    text: str
    font: str
    width: float
    link: str | None = None
    icon: bool = False
    reading: str = ""
    slant: bool = False  # emphasis drawn leaning, for want of an italic face


SLANT = 0.21  # the lean of emphasis with no italic face: about 12°, as a word processor leans


def _stretches(a: _Unit, b: _Unit) -> bool:
    return stretches(a.text[-1], b.text[0])


def _given_back(units: list[_Unit]) -> int:
    """How many half ems the line's marks give back (typeset.squeezed)."""
    return sum(squeezed(a.text[-1], b.text[0]) for a, b in zip(units, units[1:]))


LINK_COLOUR = colors.HexColor("#1F5FA8")
MIN_LAST = 3  # a paragraph's last line holds at least this many characters (not 「い。」)
# A break between phrases is kept while the line falls short of the measure by no more than
# this share of it: justified, its gaps open by about a twentieth of an em at most.
MAX_RAGGED = 0.05


def _wrap_marked(
    text: str,
    width: float,
    measure,
    ends: list[bool] | None = None,
    words: tuple = (),
    indents: list[float] | None = None,
) -> list[str]:
    """Lines of a marked text: broken on its plain text, each line given back the marks inside
    it and those still open at its start (a bold phrase that runs onto the next line)."""
    bare, marks = strip_marks(designer_breaks(text)[0])  # their breaks: plain text's
    lines = textfit.wrap(
        bare,
        width,
        measure,
        max_ragged=MAX_RAGGED,
        min_last=MIN_LAST,
        ends=ends,
        words=words,
        indents=indents,
    )
    out, cursor, k = [], 0, 0
    opened: list[str] = []  # marks open at the current position
    for line in lines:
        start = bare.find(line, cursor) if line else cursor
        start = cursor if start < 0 else start
        end = start + len(line)
        # Marks between lines (before this line's first character) belong to this line.
        pieces = list(opened)
        pos = start
        while k < len(marks) and marks[k][0] <= start:
            pieces.append(marks[k][1])
            opened = _track(opened, marks[k][1])
            k += 1
        for i, ch in enumerate(line):
            while k < len(marks) and marks[k][0] <= start + i:
                pieces.append(marks[k][1])
                opened = _track(opened, marks[k][1])
                k += 1
            pieces.append(ch)
            pos = start + i + 1
        while k < len(marks) and marks[k][0] <= pos and marks[k][1] in _CLOSING:
            pieces.append(marks[k][1])  # closing right after the line's last character
            opened = _track(opened, marks[k][1])
            k += 1
        out.append("".join(pieces))
        cursor = end
    return out


_CLOSING = (STRONG_END, LINK_END, EM_END)


def _track(opened: list[str], mark: str) -> list[str]:
    if mark == STRONG_END:
        return [m for m in opened if m != STRONG]
    if mark == EM_END:
        return [m for m in opened if m != EM]
    if mark == LINK_END:
        return [m for m in opened if not m.startswith(LINK)]
    return [*opened, mark]


def _justified(game) -> bool:
    """Whether the game's text is set 両端揃え: Japanese is, a Latin edition is not."""
    manifest = getattr(game, "manifest", None)
    return manifest is None or manifest.language == "ja"


# What each style changes from the body: a font role ("bold"), sizes and gaps in units of the
# base size, and the rest as it is.
_STYLES = {
    "title": dict(font="bold", fontSize=2.2, leading=3, alignment=TA_CENTER, spaceAfter=1.5),
    "h2": dict(
        font="bold",
        fontSize=1.5,
        keepWithNext=1,
        leading=2.1,
        spaceBefore=1.2,
        spaceAfter=0.5,
        textColor=colors.HexColor("#1F2A44"),
    ),
    "h3": dict(
        font="bold", fontSize=1.2, keepWithNext=1, leading=1.8, spaceBefore=0.8, spaceAfter=0.3
    ),
    "h4": dict(font="bold", fontSize=1.05, keepWithNext=1, leading=1.7, spaceBefore=0.5),
    "body": {},
    # its bullet sets an item apart
    "item": dict(leftIndent=1.6, bulletIndent=0.4, spaceAfter=0.3),
    # a blockquote's paragraph: indented, a bar down its left
    "note": dict(leftIndent=1.6, bulletIndent=0.5),
    "cell": dict(fontSize=0.9, leading=1.35, spaceAfter=0),
    "cellhead": dict(font="bold", fontSize=0.9, leading=1.35, spaceAfter=0),
    "caption": dict(
        fontSize=0.85, leading=1.3, alignment=TA_CENTER, textColor=ADDED_GREY, spaceAfter=0
    ),
}
_SCALED = {"fontSize", "leading", "spaceBefore", "spaceAfter", "leftIndent", "bulletIndent"}


def styles(
    fonts: dict[str, str], base: float, icons=None, words: tuple = (), justify: bool = True
) -> dict[str, ParagraphStyle]:
    """The rulebook's styles; `icons` (the game's IconSet) lets text draw `:name:` icons, and
    no line breaks inside one of `words` (the game's words.txt). `justify`: body text set
    両端揃え, as Japanese is; an edition in a Latin script is set flush left, since spreading
    its letters apart would read badly."""
    body = ParagraphStyle(
        "body",
        fontName=fonts["body"],
        fontSize=base,
        leading=base * 1.7,
        wordWrap="CJK",
        # Paragraphs told apart by more than a line's pitch: a wrapped tail is not a new one.
        spaceAfter=base * 0.7,
        bulletFontName=fonts["body"],
    )
    out = {}
    for name, changes in _STYLES.items():
        given = {k: v * base if k in _SCALED else v for k, v in changes.items() if k != "font"}
        if "font" in changes:
            given["fontName"] = fonts[changes["font"]]
        out[name] = body if name == "body" else ParagraphStyle(name, parent=body, **given)
    for style in out.values():  # **strong** and *emphasised* runs inside any style's text
        style.boldFontName = fonts["bold"]
        style.italicFontName = fonts.get("italic")
        style.icons = icons
        style.words = words
        style.justify = justify and style.name in ("body", "item", "note")  # 両端揃え
    out["note"].bar = NOTE_BAR
    return out


def flowables(
    blocks: list[Block],
    st,
    game,
    samples: dict,
    fonts,
    width,
    frame: tuple[float, float] | None = None,
    pictures: dict | None = None,
    together: bool = True,
) -> list:
    """The blocks as flowables; `frame` (the width and height a page's frame offers, padding
    taken off) keeps a heading's group from being held together when it is taller than that.
    `pictures` (file -> ImageRef or None) draws the rules' pictures; without it (the summary)
    a picture is its description alone. Without `together`, nothing is held together (the
    flowables as they are measured)."""
    out: list = []
    heading = None  # where the last heading's flowables start in `out`

    def keep_with_heading() -> None:
        """A table or samples stay on the page of the heading (and text) that introduce
        them: the run from the heading is kept together, where it fits one page."""
        if together and heading is not None and len(out) - heading > 1:
            # Flat: a KeepTogether inside another measures as "too tall" (ReportLab's
            # KeepTogether.wrap reports 0xffffff to force a split) and would always start a
            # new page.
            run = []
            for f in out[heading:]:
                run += f.held if isinstance(f, _Together) else [f]
            if frame and _height(run, frame) > frame[1]:
                return  # taller than a page: it flows (see _headings_keep_a_start)
            out[heading:] = [_Together(run)]

    marks = getattr(getattr(game, "manifest", None), "mark_added", True)
    dot = printed.say(getattr(getattr(game, "manifest", None), "language", "ja"), "・")  # bullet

    def floated(content: list) -> None:
        """Samples or a picture: set where they come, or after the text that follows them
        when the page has no room left (Float); right under a heading, kept with it."""
        nonlocal heading
        if frame is None or (heading is not None and len(out) - heading == 1):
            out.append(_Together(content))
            keep_with_heading()
        else:
            out.append(Float(content, [], frame[1]))
        heading = None

    def quiet(style):
        """What the designer did not write, set apart in grey (unless marks are off)."""
        return ParagraphStyle(f"{style.name}-added", parent=style, textColor=ADDED_GREY)

    for block in blocks:
        pick = quiet if block.added and marks else (lambda s: s)
        if block.kind == "heading":
            style = st["title"] if block.level == 1 else st[f"h{min(block.level, 4)}"]
            heading = len(out)
            out.append(TextBlock(block.text, pick(style)))
        elif block.kind == "para":
            # A line the designer ended is a paragraph of its own (one sentence a line, as a
            # Japanese word processor writes them): it stands apart from a wrapped line.
            for part in block.text.split("\n"):
                out.append(TextBlock(part, pick(st["note" if block.quote else "body"])))
        elif block.kind in ("list", "olist"):
            style = pick(st["item"])
            if block.depth:  # a list inside an item: under that item's text
                style = copy(style)
                step = style.leftIndent - style.bulletIndent
                style.bulletIndent += block.depth * step
                style.leftIndent += block.depth * step
            if block.kind == "olist":  # room for the widest number: "10." is wider than "9."
                widest = f"{len(block.items) + (block.level or 1) - 1}."
                need = (
                    style.bulletIndent
                    + stringWidth(widest, style.fontName, style.fontSize)
                    + style.fontSize * 0.35
                )
                if need > style.leftIndent:
                    style = copy(style)
                    style.leftIndent = need
            last = copy(style)  # the list ends as a paragraph does: what follows stands apart
            last.spaceAfter = st["body"].spaceAfter
            held = copy(style)  # no item alone at a page's foot or top: the first two and
            held.keepWithNext = 1  # the last two items stay on one page
            n = len(block.items)
            for i, item in enumerate(block.items, 1):
                bullet = f"{i + (block.level or 1) - 1}." if block.kind == "olist" else dot
                parts = item.split("\n")  # lines the designer ended: paragraphs of the item
                for k, part in enumerate(parts):
                    alone = i == n or k < len(parts) - 1
                    keep = i in (1, n - 1) and k == len(parts) - 1 and n > 1
                    item_style = last if alone else held if keep else style
                    out.append(TextBlock(part, item_style, None if k else bullet))
        elif block.kind == "table":
            out += [_table(block, st, width), Spacer(1, st["body"].fontSize * 0.6)]
            keep_with_heading()
            heading = None
        elif block.kind == "image":
            if pictures is None:
                if block.text:
                    out.append(TextBlock(block.text, pick(st["body"])))
                continue
            src = block.items[0]
            most = (frame[1] if frame else 600.0) * PICTURE_MOST
            floated([Picture(pictures.get(src), src, block.text, st["caption"], most)])
        elif block.kind == "directive":
            if block.text == "samples":
                if block.items in samples:
                    faces, card_size = samples[block.items]
                    row = CardRow(faces, card_size, fonts, fonts["body"])
                    floated([Spacer(1, 2 * MM), row, Spacer(1, 3 * MM)])
            else:
                out.append(_table(directive_table(block, game), st, width))
                if marks:
                    said = printed.say(game.manifest.language, FROM_DATA)
                    out.append(TextBlock(said, quiet(st["cell"])))
                out.append(Spacer(1, st["body"].fontSize * 0.6))
                keep_with_heading()
                heading = None
    out = _gathered(out)
    return _headings_keep_a_start(out, frame) if frame else out


class _Together(KeepTogether):
    """KeepTogether that says what it holds (`held`), for a run to take it in flat."""

    def __init__(self, flowables: list):
        super().__init__(flowables)
        self.held = list(flowables)


def _gathered(out: list) -> list:
    """Each Float given the flowables after it up to the next heading (or group a heading
    keeps), which it may set before itself."""
    done: list = []  # the story from its end, reversed
    for f in reversed(out):
        if isinstance(f, Float):
            while done and not (
                isinstance(done[-1], KeepTogether)
                or (isinstance(done[-1], TextBlock) and done[-1].heading)
            ):
                f.after.append(done.pop())
        done.append(f)
    return done[::-1]


def _height(run: list, frame: tuple[float, float]) -> float:
    """How tall `run` stands on a page, the space between its parts included."""
    return sum(f.wrap(*frame)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in run)


def _headings_keep_a_start(out: list, frame: tuple[float, float]) -> list:
    """A heading stays with what follows it (keepWithNext); when that is a paragraph taller
    than a page, the heading keeps only its first lines and the rest follows as a paragraph of
    its own. Kept together whole, ReportLab moves the pair to a new page, cannot place it, takes
    it apart and pairs it again, a copy of the document each time: minutes for a paragraph of
    a few pages."""
    done: list = []
    for f in out:
        head = done[-1] if done else None
        if (
            isinstance(f, TextBlock)
            and isinstance(head, TextBlock)
            and head.getKeepWithNext()
            and _height([head, f], frame) > frame[1]
        ):
            parts = f.split(frame[0], 4 * f.style.leading)  # a page ends between phrases
            if parts:
                parts[0].tail = False  # the rest follows at once, where there is room
                done += parts
                continue
        done.append(f)
    return done


def _table(block: Block, st, width: float) -> Table:
    rows = [
        [TextBlock(str(cell), st["cellhead"] if r == 0 else st["cell"]) for cell in row]
        for r, row in enumerate(block.items)
    ]
    t = Table(rows, hAlign="LEFT", repeatRows=1, colWidths=_column_widths(block, st, width))
    t.setStyle(
        TableStyle(
            [
                (
                    "FONT",
                    (0, 0),
                    (-1, -1),
                    st["cell"].fontName,
                ),  # else Table names Helvetica on the page
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E8E2CC")),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return t


def _column_widths(block: Block, st, width: float) -> list[float]:
    """Each column as wide as its longest cell; if that is too wide, the widest columns give way."""
    pad = 14.0  # the cell's padding, 6 pt a side, and a little air
    natural = [0.0] * max(len(r) for r in block.items)
    for r, row in enumerate(block.items):
        style = st["cellhead"] if r == 0 else st["cell"]
        for i, cell in enumerate(row):
            natural[i] = max(
                natural[i], stringWidth(plain(str(cell)), style.fontName, style.fontSize) + pad
            )
    total = sum(natural)
    if total <= width:
        return natural
    # A header is never split (「コンポーネン／ト」): each column keeps its header's width, and
    # the columns with more than that give way, each in proportion to what it can give.
    head = [0.0] * len(natural)
    for i, cell in enumerate(block.items[0]):
        head[i] = stringWidth(plain(str(cell)), st["cellhead"].fontName, st["cellhead"].fontSize)
        head[i] = min(natural[i], head[i] + pad)
    if sum(head) <= width:
        # Narrow columns (「７２枚」) get all they need, narrowest first, while they take no
        # more than a fair share of what is left; the wide ones share the rest.
        out = list(head)
        left = width
        order = sorted(range(len(natural)), key=lambda i: natural[i])
        for k, i in enumerate(order):
            fair = left / (len(order) - k)
            out[i] = max(head[i], min(natural[i], fair))
            left -= out[i]
        if left > 0.01:  # what the narrow columns did not need goes to the widest
            out[order[-1]] += left
        return out
    floor = min(width / len(natural), min(natural))
    spare = width - floor * len(natural)
    extra = [n - floor for n in natural]
    return [floor + spare * e / sum(extra) if sum(extra) else width / len(natural) for e in extra]


def _doc(buf, page, title, margin, fonts, template=SimpleDocTemplate, side=None):
    """A document with our margins (`side` left and right, else `margin`), metadata and
    fonts, reproducible byte for byte."""
    side = margin if side is None else side
    return template(
        buf,
        pagesize=page,
        leftMargin=side,
        rightMargin=side,
        topMargin=margin,
        bottomMargin=margin,
        title=title,
        author="pnp",
        creator="pnp generator",
        invariant=1,
        initialFontName=fonts["body"],
    )


def rulebook_pdf(
    book: Rulebook,
    game,
    samples: dict,
    fonts,
    page,
    title: str,
    footer_text,
    pictures=None,
    icons=None,
    feedback: str = "",
) -> bytes:
    """The rulebook: `title` names the document, `footer_text(page)` is each page's footer;
    `feedback` a URL its end shows as a QR code (the designer's form for playtesters)."""
    buf = io.BytesIO()
    # A comfortable measure (about 40 characters, [game] rulebook_measure): the side margins
    # widen to it, never under 18 mm; the frame pads the text 6 pt each side.
    manifest = game.manifest
    base = manifest.rulebook_size
    side = max(18 * MM, (page[0] - manifest.rulebook_measure * base - 12) / 2)
    doc = _doc(buf, page, title, 18 * MM, fonts, side=side)
    st = styles(fonts, base, icons, getattr(game, "words", ()), _justified(game))

    def footer(c, d):
        c.saveState()
        c.setFont(fonts["body"], 8)
        c.drawCentredString(page[0] / 2, 10 * MM, footer_text(d.page))
        c.restoreState()

    padded = Frame(0, 0, doc.width, doc.height)  # the page's frame, as SimpleDocTemplate makes it
    room = (
        padded.width - padded.leftPadding - padded.rightPadding,
        padded.height - padded.topPadding - padded.bottomPadding,
    )
    story = flowables(book.blocks, st, game, samples, fonts, doc.width, room, pictures or {})
    if game.manifest.mark_added and any(b.added for b in book.blocks):
        story += [
            Spacer(1, 6 * MM),
            TextBlock(
                printed.say(manifest.language, ADDED_NOTE),
                ParagraphStyle(
                    "added-note", parent=st["body"], textColor=ADDED_GREY, fontSize=8, leading=12
                ),
            ),
        ]
    if feedback:
        from .pdf import qr_drawing

        story += [Spacer(1, 6 * MM), qr_drawing(feedback, 25 * MM)]
        story.append(TextBlock(feedback, ParagraphStyle("feedback", parent=st["body"], fontSize=7)))
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


@dataclass(frozen=True)
class Overflow:
    """A summary too long for one page at its smallest size: how many pages its parts fill,
    and the longest part (its title, the rules source line it starts on, its share)."""

    pages: float
    title: str
    line: int
    share: float


# Two columns of about 35 characters: a comfortable line, where one column would run 60.
SUMMARY_SIZES = [(2, b) for b in (9.5, 9.0, 8.5, 8.0)]


def summary_pdf(
    book: Rulebook, game, fonts, page, heading: str, subheading: str, icons=None
) -> tuple[bytes, Overflow | None]:
    """One page if it can be: two columns, from 9.5 pt down to 8 pt, the least a summary is
    played from. Returns the pdf and, when the marked parts fill more than a page even then
    (the pdf has more pages), what is over."""
    for columns, base in SUMMARY_SIZES:
        buf = io.BytesIO()
        pages, column = _summary(
            buf, book, game, fonts, page, heading, subheading, columns, base, icons
        )
        if pages == 1:
            return buf.getvalue(), None
    if not book.summary:
        return buf.getvalue(), None
    # How tall each part stands in a column at that size, none of it held together.
    st, width = styles(fonts, base, icons, getattr(game, "words", ()), _justified(game)), column[0]
    tall = []
    for section in book.summary:
        blocks = [replace(b, level=4) if b.kind == "heading" else b for b in section.blocks]
        run = [TextBlock(section.title, st["h3"])]
        run += flowables(blocks, st, game, {}, fonts, width, column, together=False)
        tall.append((section, _height(run, (width, 1e9))))
    total = sum(h for _s, h in tall) or 1.0
    longest, height = max(tall, key=lambda part: part[1])
    line = longest.line or next((b.line for b in longest.blocks if b.line), 0)
    return buf.getvalue(), Overflow(
        total / (columns * column[1]), longest.title, line, height / total
    )


def _summary(
    buf,
    book: Rulebook,
    game,
    fonts,
    page,
    heading: str,
    subheading: str,
    columns: int,
    base: float,
    icons=None,
) -> tuple[int, tuple[float, float]]:
    """The summary set in `columns` at `base` pt into `buf`: its pages, and the width and
    height of one column."""
    margin, gap = 12 * MM, 6 * MM
    st = styles(fonts, base, icons, getattr(game, "words", ()), _justified(game))
    doc = _doc(buf, page, heading, margin, fonts, BaseDocTemplate)
    title_h = base * 6
    width = (doc.width - gap * (columns - 1)) / columns
    top = page[1] - margin - title_h
    unpadded = dict(leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    frames = [Frame(margin, top, doc.width, title_h, id="title", **unpadded)]

    def columns_from(y: float, name: str) -> list:
        return [
            Frame(
                margin + i * (width + gap), margin, width, y - margin, id=f"{name}{i}", **unpadded
            )
            for i in range(columns)
        ]

    # The title on the first page only; a summary over a page (said in a warning) goes on in
    # columns from the top of the next.
    doc.addPageTemplates(
        [
            PageTemplate(id="summary", frames=frames + columns_from(top, "col")),
            PageTemplate(id="more", frames=columns_from(page[1] - margin, "more")),
        ]
    )
    story = [
        TextBlock(heading, ParagraphStyle("stitle", parent=st["title"], spaceAfter=0)),
        TextBlock(subheading, ParagraphStyle("players", parent=st["body"], alignment=TA_CENTER)),
        NextPageTemplate("more"),
        FrameBreak(),
    ]
    column = (width, top - margin)
    for section in book.summary:
        # headings inside a part are below its title (the rulebook's 「１. 呪文」 under 「流れ」)
        blocks = [replace(b, level=4) if b.kind == "heading" else b for b in section.blocks]
        part = [TextBlock(section.title, st["h3"])]
        part += flowables(blocks, st, game, {}, fonts, width, column)
        story += _headings_keep_a_start(part, column)  # the title too keeps only a start
    doc.build(story)
    return doc.page, column
