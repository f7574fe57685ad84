"""cards.pdf: a proof page with a 100 mm ruler, then each front sheet followed by its mirrored
back sheet.

Fed by imposition (`SheetGeometry`) and laid-out faces; returns bytes, never writes (output does).
"""

from __future__ import annotations

import hashlib
import io
import operator
import pickle
import re
from functools import lru_cache

import reportlab
from reportlab import rl_config
from reportlab.lib.colors import HexColor, black, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import (
    DummyDoc,
    NoEncryption,
    PDFArray,
    PDFBase85Encode,
    PDFDictionary,
    PDFFile,
    PDFName,
    PDFObject,
    PDFPage,
    PDFResourceDictionary,
    PDFStream,
    PDFTrailer,
    PDFZCompress,
    pdfdocEnc,
)
from reportlab.pdfbase.pdfdoc import format as pdf_format
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .. import cache, progress
from ..layout import text as textfit
from ..layout.faces import Face
from ..layout.plan import DeckSheets
from ..layout.sheets import SheetGeometry, marks_for
from ..layout.units import MM
from .draw import FORM_FROM, draw_face, form_name, new_canvas


def sheets_pdf(
    doc_title: str,
    proof_lines: list[str],
    decks: list[DeckSheets],
    font_names: dict[str, str],
    sides: tuple[str, str] = ("表", "裏"),
    proof: bool = False,
    back_offset=None,
) -> bytes:
    """Card or token sheets: a proof page, then each front sheet and (where the sheet has backs)
    its back. `sides` are the words that label front and back sheets."""
    buf = io.BytesIO()
    page = decks[0].geometry.page
    # The initial font is ours too: otherwise every page names an unembedded Helvetica.
    c = new_canvas(buf, page, doc_title, font_names)
    _proof_page(c, proof_lines, page, font_names)
    # Kept in the user's cache too (cache.SHARED): a page's key says all it draws, so the
    # project built into a new output folder places the pages it drew before.
    slot = "pages/" + cache.digest(doc_title, [d.name for d in decks], reportlab.Version)
    stored = cache.read_parts(cache.recall, slot, cache.unpickled)  # an edit writes a part or two
    pages = _Pages(c, font_names, {k: v for part in stored for k, v in part.items()})
    # Faces drawn more than once, and runs of boxes many faces share, each one form.
    forms: dict[tuple, str] = {}
    layers: dict[tuple, str] = {}
    common = repr((font_names, sides, proof, back_offset))
    for deck in decks:
        count = -(-len(deck.faces) // deck.geometry.per_sheet)
        sheet = _Sheet(deck, count, font_names, sides, proof, back_offset, forms, layers, common)
        with progress.step(f"{doc_title}: {deck.name}", count) as shown:
            for n, chunk in enumerate(deck.faces.runs(deck.geometry.per_sheet), 1):
                sheet.draw(c, pages, n, chunk)
                shown.advance()
    cache.write_parts(cache.keep, slot, pages.new, stored, lambda d: pickle.dumps(d, protocol=5))
    pages.finish()
    if pages.plain:
        c._doc.format = lambda: _write(c._doc)  # what canvas.save writes
    c.save()
    return buf.getvalue()


def _write(doc) -> bytes:
    """The file's bytes as PDFDocument.format writes them: each object numbered as it is first
    named, then the cross-reference table (one 20-byte line an object) and ReportLab's
    trailer; without the wrapper object ReportLab makes for each of a file's thousands of
    objects (sheet pages and their content streams are most of them, written from templates:
    _KeptPage, _SheetPage, _PageStream). For a file neither encrypted nor commented
    (_Pages.plain)."""
    doc.encrypt.prepare(doc)
    catalog, info = doc.Reference(doc.Catalog), doc.Reference(doc.info)
    parts = [PDFFile(doc._pdfVersion).format(doc)]  # the header
    at = len(parts[0])
    number_of, object_of, offset_of = doc.idToObjectNumberAndVersion, doc.idToObject, doc.idToOffset
    ids = []
    n = 0
    while (name := doc.numberToId.get(n + 1)) is not None:
        n += 1
        obj = object_of[name]
        body = obj.format(doc) if type(obj) in _OWN else pdf_format(obj, doc, toplevel=1)
        end = b"endobj\n" if body.endswith(b"\n") else b"\nendobj\n"
        part = b"".join([b"%d %d obj\n" % number_of[name], body, end])
        offset_of[name] = at
        at += len(part)
        parts.append(part)
        ids.append(name)
    # The cross-reference table: object 0 free, then each object's offset (20 bytes a line).
    xref = [b"xref\n0 %d\n0000000000 65535 f \n" % (n + 1)]
    xref += [b"%010d %05d n \n" % (offset_of[name], number_of[name][1]) for name in ids]
    parts += xref
    trailer = PDFTrailer(startxref=at, Size=n + 1, Root=catalog, Info=info, ID=doc.ID())
    parts.append(trailer.format(doc))
    return b"".join(parts)


class _Sheet:
    """How one deck's sheets are drawn: each sheet's front page and back page, or both about a
    fold."""

    def __init__(self, deck, count, font_names, sides, proof, back_offset, forms, layers, common):
        self.deck, self.count, self.font_names, self.sides = deck, count, font_names, sides
        self.proof, self.back_offset, self.forms, self.layers = proof, back_offset, forms, layers
        # The deck's layers drawn as forms: which of a face's layers a page places as forms
        # follows from them (a digest: the key of each page repeats it).
        formed = sorted(d for d, n in deck.faces.layer_uses.items() if n >= FORM_FROM)
        common = repr((common, deck.geometry, formed))
        self.common = hashlib.blake2b(common.encode(), digest_size=16).hexdigest()
        # A slot by its place in the geometry (the geometry is in `common`).
        g = deck.geometry
        self.slot_of = {id(s): i for i, s in enumerate([*g.fronts, *(g.backs or ())])}

    def draw(self, c, pages, n, chunk) -> None:
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

            def fold_page() -> None:
                _label(c, label, g, self.font_names)
                for face, slot in placed:
                    self._place(c, face, slot)
                marks = marks_for(g, len(chunk))
                _crop_marks(c, g, marks, mirrored=False)
                _crop_marks(c, g, marks, mirrored=True)
                _fold_line(c, g)

            pages.page(c, self._key("fold", label, placed, len(chunk)), fold_page)
            return
        both = ((True, g.fronts), (False, g.backs)) if g.backs else ((True, g.fronts),)
        for is_front, slots in both:
            side = self.sides[0] if is_front else self.sides[1]
            label = f"{deck.name}　{side} {n}/{self.count}"
            side_of = 0 if is_front else 1
            placed = [(pair[side_of], slot) for pair, slot in zip(chunk, slots)]
            placed = [(face, slot) for face, slot in placed if face is not None]

            def side_page(is_front=is_front, label=label, placed=placed) -> None:
                if not is_front and self.back_offset:
                    _offset(c, g.page, self.back_offset)
                _label(c, label, g, self.font_names)
                for face, slot in placed:
                    self._place(c, face, slot)
                _crop_marks(c, g, marks_for(g, len(chunk)), mirrored=not is_front)

            pages.page(c, self._key(is_front, label, placed, len(chunk)), side_page)

    def _place(self, c, face, slot) -> None:
        repeated = self.deck.faces.uses[face.key] > 1
        shared = self.forms if repeated else None
        layers = (self.layers, self.deck.faces.layer_uses)
        _place(c, face, slot, self.deck.geometry, self.font_names, shared, layers)
        if self.proof:
            _proof_lines(c, slot, self.deck.geometry)

    def _key(self, side, label, placed, filled) -> tuple:
        """What a page draws: each face in its slot, placed whole as a form (drawn more than
        once) or drawn on the page, its layers as forms where the deck draws them so (in
        `common`). Forms are named by what they draw, and a kept page is placed only where
        every form it names is in the file already (_Pages._present): then it draws what it
        drew."""
        slot_of, uses = self.slot_of, self.deck.faces.uses
        faces = [(face.key, slot_of[id(slot)], uses[face.key] > 1) for face, slot in placed]
        return (self.common, side, label, filled, tuple(faces))


class _Pages:
    """The pages of this file as the last build drew them, so that a page that shows what it
    showed then, in a file whose forms, fonts and characters up to it are as they were, is not
    drawn again: its encoded content is placed as it was. Only a page that added nothing to
    the file but character codes (no form, picture or font first used on it, no transparency
    or annotation of its own) is kept for the next build, with the characters it gave codes
    to, which placing it gives again in the same order: reusing one changes nothing else, and
    the file is byte-identical to one drawn afresh."""

    def __init__(self, c: Canvas, font_names: dict[str, str], stored: dict):
        self.doc = c._doc
        self.fonts = [pdfmetrics.getFont(name) for name in sorted(set(font_names.values()))]
        self.seen = [0] * len(self.fonts)
        self.states: list = [None] * len(self.fonts)  # each font's ReportLab state (see _counts)
        self.chars = hashlib.blake2b(digest_size=16)  # every character given a code so far
        self.old: dict[bytes, tuple] = stored
        self.new: dict[bytes, tuple] = {}
        self.shared: PDFResourceDictionary | None = None  # see _share
        self.shared_ref = None
        self.xobjects: set[str] = set()
        self.made: set[str] = set()  # forms known to be in the file (see _present)
        self.last: tuple = (None, "")  # the counts _state last saw and the state it gave
        self.around: dict[tuple, tuple[bytes, bytes]] = {}  # see _dictionary
        # Kept pages written as _KeptPage: the file is neither encrypted nor commented (both
        # change how ReportLab writes an object).
        self.plain = isinstance(self.doc.encrypt, NoEncryption) and not (
            rl_config.pdfComments and not rl_config.invariant
        )
        # A page that gave characters their codes (first used on it) is kept with them, and
        # a build placing it gives the same characters the same codes in the same order:
        # where every font gives codes as ReportLab's TrueType fonts do (splitString).
        self.replays = all(hasattr(f, "splitString") and hasattr(f, "state") for f in self.fonts)

    def _counts(self) -> tuple:
        if None in self.states:  # a font's state for this file, once it has one, is kept
            self.states = [font.state.get(self.doc) for font in self.fonts]
        states = self.states
        return (
            tuple(len(s.assignments) if s is not None else 0 for s in states),
            len(self.doc.fontMapping),
            len(self.doc.idToObject),
        )

    def _state(self) -> str:
        """The file's state where a page starts, as far as its content depends on it: the
        codes its characters were given (in the order they were given) and its fonts' names."""
        counts = self._counts()
        if counts[:2] == self.last[0]:  # no character given a code, no font named since
            return self.last[1]
        for i, (font, n) in enumerate(zip(self.fonts, counts[0])):
            if n > self.seen[i]:
                new = list(font.state[self.doc].assignments.items())[self.seen[i] : n]
                self.chars.update(repr((i, new)).encode())
                self.seen[i] = n
        state = repr((counts[0], self.chars.hexdigest(), sorted(self.doc.fontMapping.items())))
        self.last = (counts[:2], state)
        return state

    def page(self, c: Canvas, what: tuple, draw) -> None:
        key = hashlib.blake2b(cache.key_bytes((what, self._state())), digest_size=16).digest()
        kept = self.old.get(key)
        # Every form and picture it places must be in this file already: an edit may have
        # taken away the page that first placed one.
        if kept is not None and self._present(kept[1]):
            content, forms, given = kept
            self.new[key] = kept
            for font, text in zip(self.fonts, given):
                if text:
                    font.splitString(text, self.doc)  # the codes the page's text was drawn with
            if self.plain and _blank(c):
                self._keep(c, content, forms)
                return
            c._formsinuse = []  # named in the shared resources (see _share), not the page's
            c.showPage()
            page = c._doc.Pages.pages[-1]
            page.Contents, page.stream = _encoded(content), None
            if not self._share(page, forms) and forms:  # resources of its own, as showPage
                page.XObjects = self.doc.xobjDict(list(forms))  # would have named them
            return
        before = self._counts()
        draw()
        after = self._counts()
        # kept when it named no font and made no object (form, picture), its characters'
        # codes noted where the fonts can give them again
        keep = after[1:] == before[1:] and (self.replays or after == before)
        forms = tuple(c._formsinuse)
        content = _show_page(c)
        page = c._doc.Pages.pages[-1]
        if keep and not _own_resources(page) and content is not None:
            self.new[key] = (content, forms, self._given(before[0], after[0]))
        self._share(page, forms)

    def _given(self, before: tuple, after: tuple) -> tuple[str, ...]:
        """The characters each font gave codes to since `before` (its counts), in order."""
        given = []
        for font, n, m in zip(self.fonts, before, after):
            codes = list(font.state[self.doc].assignments)[n:m] if m > n else []
            given.append("".join(map(chr, codes)))
        return tuple(given)

    def _keep(self, c: Canvas, content: bytes, forms: tuple) -> None:
        """A kept page added to the file as showPage would add it after drawing nothing, without
        the page object ReportLab makes and formats: the page's dictionary and its content
        stream are written from the templates ReportLab's own formatting gave (_templates), so
        the bytes are the same."""
        c._pageNumber += 1
        w, h = c._pagesize
        rotation = c._pageRotation
        media = (0, 0, h, w) if rotation in (90, 270) else (0, 0, w, h)
        page = _KeptPage(_KeptStream(content), _formatted(media), _formatted((rotation,)))
        self.doc.addPage(page)
        # numbered after the page, as a drawn page's (showPage, then _share)
        page.resources, page.around = self.resources(), self.around
        self.xobjects.update(forms)

    def _present(self, forms: tuple) -> bool:
        """Whether every one of these forms is in the file (a form once made stays)."""
        missing = [name for name in forms if name not in self.made]
        if not all(self.doc.hasForm(name) for name in missing):
            return False
        self.made.update(missing)
        return True

    def _share(self, page, forms: tuple) -> bool:
        """The sheet pages of a file share one resource dictionary (the fonts, and every form
        and picture they place), written once rather than once per page with the forms that
        page places. A page with resources of its own keeps its own (False)."""
        if _own_resources(page) or not page.hasImages:
            return False
        self.xobjects.update(forms)
        page.Resources, page.around = self.resources(), self.around
        page.__class__ = _SheetPage  # written from a template (see _SheetPage)
        return True

    def resources(self):
        """A reference to the resources the sheet pages share, made with the first of them."""
        if self.shared is None:
            self.shared = PDFResourceDictionary()
            self.shared.basicFonts()
            self.shared.allProcs()
            self.shared_ref = self.doc.Reference(self.shared)
        return self.shared_ref

    def finish(self) -> None:
        """Name every form and picture the shared pages place (before the file is written)."""
        if self.shared is not None and self.xobjects:
            self.shared.XObject = self.doc.xobjDict(sorted(self.xobjects))


def _blank(c: Canvas) -> bool:
    """Whether showPage would make a page of nothing but the canvas's page size and rotation:
    nothing drawn, no transition, duration, boxes, crop marks or PostScript of its own."""
    return not (
        c._code
        or c._pageTransition
        or c._pageDuration is not None
        or c._cropMarks
        or c._psCommandsBeforePage
        or c._psCommandsAfterPage
        or c._onPage
        or any(getattr(c, f"_{box}Box", None) for box in ("crop", "art", "bleed", "trim"))
    )


def _own_resources(page) -> bool:
    """Whether a page has transparency, colour spaces, shadings or annotations of its own."""
    return bool(page.ExtGState or page._colorsUsed or page._shadingUsed or page.Annots)


_FILTERS = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
_FILTER_NAMES = PDFArray([PDFName(f.pdfname) for f in _FILTERS])


def _encoded(content) -> PDFStream:
    stream = _PageStream(PDFDictionary({"Filter": _FILTER_NAMES}), content)
    stream.__Comment__ = "page stream"
    return stream


# A sheet page and its content stream are written with ReportLab's own formatting, done once
# with placeholders (_templates) and filled in for each page: formatting each page's
# dictionary afresh was a quarter of writing a 1,600-page file. The reference build holds the
# bytes to ReportLab's.


class _Mark(PDFObject):
    def __init__(self, mark: bytes):
        self.mark = mark

    def format(self, document) -> bytes:
        return self.mark


_C, _M, _P, _R, _O, _L = (b"\0%c\0" % c for c in b"CMPROL")
_MARKS = re.compile(rb"(\0[CMPROL]\0)")


@lru_cache(maxsize=1)
def _templates() -> tuple[list[bytes], list[bytes]]:
    """A page stream's dictionary and a sheet page's, as ReportLab formats them, split into
    what every page shares and placeholders for what differs from page to page."""
    doc = DummyDoc()
    head = pdf_format(PDFDictionary({"Filter": _FILTER_NAMES, "Length": _Mark(_L)}), doc)
    page = {"Type": PDFName("Page"), "Contents": _Mark(_C), "MediaBox": _Mark(_M)}
    page |= {"Parent": _Mark(_P), "Resources": _Mark(_R), "Rotate": _Mark(_O)}
    page["Trans"] = PDFDictionary({})
    return _MARKS.split(head + b"\nstream\n"), _MARKS.split(pdf_format(PDFDictionary(page), doc))


@lru_cache(maxsize=64)
def _formatted(value: tuple) -> bytes:
    """A page's media box or rotation, as ReportLab formats it."""
    return pdf_format(PDFArray(list(value)) if len(value) > 1 else value[0], DummyDoc())


def _reference(document, obj) -> bytes:
    """`N 0 R` for an object, numbering it if it has no number yet (ReportLab's Reference and
    PDFObjectReference.format, without the objects between)."""
    return b"%d %d R" % document.idToObjectNumberAndVersion[document.Reference(obj).name]


def _stream(content: bytes) -> bytes:
    """An encoded page stream as ReportLab writes it (not encrypted)."""
    filled = (b"%d" % len(content) if part == _L else part for part in _templates()[0])
    return b"".join([*filled, content, b"endstream\n"])


class _PageStream(PDFStream):
    def format(self, document) -> bytes:
        content = self.content
        plain = list(self.dictionary.dict) == ["Filter"] and isinstance(content, bytes)
        if not plain or not isinstance(document.encrypt, NoEncryption):
            return super().format(document)
        return _stream(content)


class _KeptStream(PDFObject):
    """A kept page's encoded content (see _Pages._keep)."""

    __RefOnly__ = 1

    def __init__(self, content: bytes):
        self.content = content

    def format(self, document) -> bytes:
        return _stream(self.content)


class _KeptPage(PDFObject):
    """A kept page: what its dictionary would hold as a _SheetPage, written from the same
    template (see _Pages._keep)."""

    __RefOnly__ = 1

    resources = None  # a reference to the resources the sheet pages share
    around: dict  # the file's pages of each size: their dictionary before and after Contents

    def __init__(self, contents: _KeptStream, media: bytes, rotation: bytes):
        self.contents, self.media, self.rotation = contents, media, rotation

    def format(self, document) -> bytes:
        return _dictionary(
            document, self.around, self.contents, self.media, self.rotation, self.resources
        )


def _dictionary(document, around: dict, contents, media: bytes, rotation: bytes, resources):
    """A sheet page's dictionary, drawn (_SheetPage) or kept (_KeptPage), from the template.
    The parent and the shared resources are numbered before any page is written (the catalog
    names the one, the first sheet page the other): of a page only its content stream is new,
    numbered here as ReportLab numbers a page's. So the bytes before and after its reference
    are the same for every page of one size and turn: worked out once a file (`around`)."""
    parts = around.get((media, rotation))
    if parts is None:
        values = {
            _P: _reference(document, document.Pages),
            _M: media,
            _R: _reference(document, resources),
            _O: rotation,
        }
        filled = [values.get(part, part) for part in _templates()[1]]
        at = filled.index(_C)
        parts = around[(media, rotation)] = b"".join(filled[:at]), b"".join(filled[at + 1 :])
    return b"".join([parts[0], _reference(document, contents), parts[1]])


# What a sheet page leaves unset (the rest is in the template), as one lookup in its
# attributes (PDFPage sets each to None when made).
_NONE = tuple(
    sorted(
        set(PDFPage.__NoDefault__)
        - {"Parent", "MediaBox", "Resources", "Contents", "Rotate", "Trans"}
    )
)
_UNSET = operator.itemgetter(*_NONE)


class _SheetPage(PDFPage):
    """A sheet page whose dictionary holds what every sheet page's does (see _share)."""

    def format(self, document) -> bytes:
        self.check_format(document)
        try:
            unset = _UNSET(self.__dict__).count(None) == len(_NONE)
        except KeyError:  # not as PDFPage made it: ReportLab formats it
            unset = False
        plain = (
            unset
            and not self.Override_default_compilation
            and isinstance(self.Trans, PDFDictionary)
            and not self.Trans.dict
            and isinstance(self.Rotate, int)
            and isinstance(self.MediaBox, PDFArray)
            and all(type(v) in (int, float) for v in self.MediaBox.sequence)
        )
        if not plain:
            return super().format(document)
        media, rotation = _formatted(tuple(self.MediaBox.sequence)), _formatted((self.Rotate,))
        return _dictionary(document, self.around, self.Contents, media, rotation, self.Resources)


def _show_page(c: Canvas):
    """End the page and encode its content now rather than when the file is written: a
    100,000-card deck would otherwise hold every page's drawing operators as text until the
    end. The filters are the ones ReportLab would apply, so the bytes written are the same.
    Returns the encoded content."""
    c.showPage()
    page = c._doc.Pages.pages[-1]
    content = page.stream
    if not content or page.Contents:
        return None
    for f in reversed(_FILTERS):
        content = f.encode(content)
    content = pdfdocEnc(content)  # as ReportLab would write it (ASCII85 gives text), once
    page.Contents, page.stream = _encoded(content), None
    return content


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
    # Broken into lines once while they read the same (the phrase parser is not even loaded).
    head, *rest = cache.remembered(
        "proof/" + cache.digest(lines[0], page),
        cache.digest(lines, width, bold, body),
        lambda: (
            [_wrapped(lines[0], width, bold, 16)]
            + [_wrapped(line, width, body, 10.5) for line in lines[1:]]
        ),
    )
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


def _wrapped(line: str, width: float, font: str, size: float) -> list[str]:
    """A line of the proof page as lines no wider than `width` (kinsoku kept); a line that
    starts indented keeps the indent on each of its lines."""
    if not line:
        return [line]
    indent = line[: len(line) - len(line.lstrip("　 "))]
    rest = line[len(indent) :]

    def measure(text: str) -> float:
        return stringWidth(indent + text, font, size)

    return [indent + part for part in textfit.wrap(rest, width, measure) or [rest]]


def _proof_page(c: Canvas, lines: list[str], page: tuple[float, float], font_names) -> None:
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
    c.showPage()


# Objects whose own format is what PDFDocument.format would write of them at the top level.
_OWN = frozenset((_KeptPage, _KeptStream, _SheetPage, _PageStream))
