"""Imposition: where each card goes on a sheet, how much bleed fits, crop marks, duplex back
positions.

Fed by the sheet definitions (paper, sizes, grids: layouts/_shared/sheets.toml, else the tool's,
see base.py); produces plain geometry in points (PDF coordinates, origin bottom-left) that the
renderer follows.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .. import base, tomlfile
from ..i18n import _
from ..problems import BuildError, Problems, SourceRef, did_you_mean, unknown_key
from ..textfile import confine
from .units import MM, UnitError, to_pt

SHEETS_FILE = "sheets.toml"
MAX_BLEED_MM = 3.0


@dataclass(frozen=True)
class SheetDefs:
    """The papers, card sizes and sheets that sheets.toml defines."""

    paper: dict[str, tuple[float, float]]
    sizes: dict[str, tuple[float, float]]
    sheets: dict[str, dict]
    where: SourceRef
    doc: tomlfile.TomlDoc | None = field(default=None, compare=False, repr=False)

    def at(self, *keys) -> SourceRef:
        return self.doc.at(*keys) if self.doc else self.where


SHEETS_KEYS = {"paper", "size", "sheet"}
SHEET_KEYS = {
    "rotate",
    "cols",
    "rows",
    "bleed",
    "max_bleed",
    "min_bleed",
    "printer_margin",
    "backs",
    "gap",
    "crop_length",
    "crop_offset",
    "crop_width",
    "crop_length_min",
    "crop_offset_min",
    "arrange",
    "safe_zone",
    "orientation",
    "fold_gap",
}
BACKS = ("long-edge", "none", "foldover")


def load_sheet_defs(layouts_dir: Path, rel) -> SheetDefs:
    path = base.shared_file(layouts_dir, SHEETS_FILE)
    where = SourceRef(rel(path))
    if not base.is_tools(path):
        confine(path, layouts_dir.parent, where, "sheets.toml")
    doc = tomlfile.read(path, where, _("sheet definitions"))
    raw = doc.data
    for key, known, at in [
        *((k, SHEETS_KEYS, (k,)) for k in raw),
        *(
            (k, SHEET_KEYS, ("sheet", name, k))
            for name, spec in raw.get("sheet", {}).items()
            if isinstance(spec, dict)
            for k in spec
        ),
    ]:
        if key not in known:
            raise BuildError(unknown_key(key, known), doc.at(*at))

    def pair(table: dict, section: str, name: str) -> tuple[float, float]:
        try:
            return to_pt(table["w"]), to_pt(table["h"])
        except (KeyError, TypeError, UnitError) as exc:
            message = f"[{section}] {name}: " + _("needs w and h as lengths ({error})", error=exc)
            raise BuildError(message, doc.at(section, name)) from None

    return SheetDefs(
        paper={k: pair(v, "paper", k) for k, v in raw.get("paper", {}).items()},
        sizes={k: pair(v, "size", k) for k, v in raw.get("size", {}).items()},
        sheets=raw.get("sheet", {}),
        where=where,
        doc=doc,
    )


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet: the trim box as it lies on the page, bottom-left origin,
    in points. `rot` turns the card on the page: 90 (its top to the left) or -90 (to the
    right, a turned card's back), so a turned card's own width is the slot's height. `clip` is
    the part of the page the card's face may cover (x0, y0, x1, y1): its trim box and the bleed
    on each side that has one (none where cards butt against each other)."""

    x: float
    y: float
    w: float
    h: float
    rot: int = 0
    clip: tuple[float, float, float, float] | None = None

    @property
    def card(self) -> tuple[float, float]:
        """The card's own width and height (before turning)."""
        return (self.h, self.w) if self.rot else (self.w, self.h)


@dataclass(frozen=True)
class CropMark:
    """One crop mark's line, in points on the page."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Axis:
    """How the cards lie along one direction of the sheet: each with its own bleed and a gutter
    (`butted` false), or edge to edge on shared cut lines with bleed only around the outside;
    and the crop marks' offset from the outer bleed edge and their length."""

    butted: bool
    bleed: float
    offset: float
    length: float


@dataclass(frozen=True)
class SheetGeometry:
    """How a deck's faces are imposed on its pages: sizes, grid, bleed and marks."""

    name: str
    page: tuple[float, float]
    card: tuple[float, float]
    bleed: float  # the bleed each face is drawn with; `Slot.clip` trims it where cards butt
    cols: int
    rows: int
    fronts: tuple[Slot, ...]  # reading order: left to right, top to bottom
    backs: tuple[Slot, ...]  # backs[i] lies behind fronts[i] after a long-edge flip
    crop_marks: tuple[CropMark, ...]
    crop_width: float
    turned: bool = False  # the cards lie sideways: that fits more on the page
    margin: float = 0.0  # the printer margin: nothing is printed nearer the paper's edge
    across: Axis | None = None  # left to right
    down: Axis | None = None  # top to bottom
    # Where the sheet's label may go, best first (x0, y0, x1, y1, turned): inside the
    # printable area, clear of every card's bleed and every crop mark; a turned box takes the
    # label reading upwards (a band beside the cards).
    label_boxes: tuple[tuple[float, float, float, float, bool], ...] = ()
    safe: float = 3 * MM  # the safe zone: text stays this far inside the trim
    # Fold-over sheets: the x of the fold line (fronts left of it, their backs mirrored to the
    # right on the same page); None: backs on their own page (or none).
    fold: float | None = None
    cuts: Cuts | None = field(default=None, repr=False)  # the cut lines in micrometres

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


_WxH = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)?\s*[x×X*]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)?\s*")


def paper_size(defs: SheetDefs, name: str) -> tuple[float, float]:
    """The paper `name` (--paper) from the sheet definitions, else an error at their [paper]."""
    if name not in defs.paper:
        message = _(
            "unknown paper '{paper}' (papers: {papers}); another goes under [paper] here, e.g. "
            'b5 = {{ w = "182mm", h = "257mm" }}',
            paper=name,
            papers=", ".join(defs.paper),
        )
        raise BuildError(message, defs.at("paper"))
    return defs.paper[name]


class _ValueAtKey(ValueError):
    """A sheet value that is wrong, told at its key's line."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


def width_by_height(text: str) -> tuple[float, float] | None:
    """ "63x88", "63×88mm", "2.5 x 3.5 in", full-width too: width and height in points
    (millimetres unless a unit says otherwise), or None when the text is no such size."""
    written = _WxH.fullmatch(unicodedata.normalize("NFKC", text))
    if not written:
        return None
    unit = written.group(2) or written.group(4) or "mm"
    w = to_pt(written.group(1) + (written.group(2) or unit))
    return w, to_pt(written.group(3) + (written.group(4) or unit))


def card_size(defs: SheetDefs, size: str | dict, where: SourceRef) -> tuple[float, float, str]:
    """A component's trim size in points, and a name for messages: a named size or {w, h}."""
    if isinstance(size, dict):
        try:
            w, h = to_pt(size["w"]), to_pt(size["h"])
        except (KeyError, UnitError) as exc:
            raise BuildError(
                _("size needs w and h as lengths ({error})", error=exc), where
            ) from None
        return w, h, f"{w / MM:g}×{h / MM:g} mm"
    written = width_by_height(size) if size not in defs.sizes else None
    if written:
        w, h = written
        if w <= 0 or h <= 0:
            raise BuildError(_("a size must be above 0, got '{size}'", size=size), where)
        return w, h, f"{w / MM:g}×{h / MM:g} mm"
    if size not in defs.sizes:
        raise BuildError(
            _(
                "unknown card size '{size}'{hint} (sizes: {sizes}; or width by height "
                'in mm, e.g. size = "63x88")',
                size=size,
                hint=did_you_mean(size, defs.sizes),
                sizes=", ".join(defs.sizes),
            ),
            where,
        )
    w, h = defs.sizes[size]
    return w, h, size


UM_PER_PT = 25400 / 72  # micrometres in a point


def um(points: float) -> int:
    """A length in whole micrometres: the unit every sheet position is worked out in, so that
    a card's edge, its clip and the crop mark on its cut line are the same number."""
    return round(points * UM_PER_PT)


def pt(micrometres: int) -> float:
    """Whole micrometres as points (PDF units): equal micrometres give equal points."""
    return micrometres * 72 / 25400


def _need(n: int, size: int, gap: int, butted: bool, b: int, o: int, length: int) -> int:
    """The room n cards need along one direction, bleed and crop marks included (µm)."""
    if butted or n == 1:
        return n * size + 2 * b + 2 * (o + length)
    return n * (size + 2 * b) + (n - 1) * gap + 2 * (o + length)


def _axis(n, size, room, gap, wanted, marks, arrange) -> Axis | None:
    """The best way n cards fit `room` (all in µm): their own bleed and gutters where there is
    room, else edge to edge with bleed around the outside; long crop marks, else short ones;
    the full bleed, else as much as is left (rounded down to 0.1 mm). None: they do not fit."""
    modes = {"separate": (False,), "butted": (True,)}.get(arrange, (False, True))
    for butted in modes:
        for o, length in marks:
            if _need(n, size, gap, butted, wanted, o, length) <= room:
                return Axis(butted and n > 1, wanted, o, length)
    o, length = marks[-1]
    butted = modes[-1] and n > 1
    spare = room - _need(n, size, gap, butted, 0, o, length)
    if spare < 0:
        return None
    b = spare // 2 if butted or n == 1 else spare // (2 * n)
    return Axis(butted, b // 100 * 100, o, length)


def _positions(n: int, size: int, gap: int, axis: Axis, start: int) -> list[tuple[int, int, int]]:
    """Each card's trim start and the span its face may cover, along one direction (µm)."""
    out = []
    for i in range(n):
        if axis.butted:
            at = start + axis.bleed + i * size
            lo = at - (axis.bleed if i == 0 else 0)
            hi = at + size + (axis.bleed if i == n - 1 else 0)
        else:
            at = start + axis.bleed + i * (size + 2 * axis.bleed + gap)
            lo, hi = at - axis.bleed, at + size + axis.bleed
        out.append((at, lo, hi))
    return out


def _in_pt(axis: Axis) -> Axis:
    return Axis(axis.butted, pt(axis.bleed), pt(axis.offset), pt(axis.length))


def impose(
    defs: SheetDefs,
    sheet_name: str,
    size: str | dict,
    paper_name: str,
    want_bleed: str | float | None,
    problems: Problems,
    where: SourceRef,
    at=None,
    margin_mm: float | None = None,
    backs: str | None = None,
) -> SheetGeometry:
    """A component's sheet: where each card and back goes, how much bleed fits, crop marks.
    `backs` stands for the sheet's own `backs` (a one-sided sheet for pieces that have one).

    Everything printed lies inside the printer margin (the sheet's, or `margin_mm`): cards and
    their bleed, every crop mark and the label. Along each direction the cards keep their own
    bleed and a gutter where the paper has room for it and for the marks; else they butt on
    shared cut lines with bleed around the outside; then the marks get shorter; last, the
    bleed gives way. `where` is the component; `at(key)`, where given, is the line of its
    `sheet` or `size` key.

    Every position is worked out in whole micrometres (`um`) and given in points (`pt`) only
    at the end: a card's edge, its clip and its crop marks are one number."""
    at = at or (lambda key: where)
    if sheet_name not in defs.sheets:
        message = _(
            "unknown sheet '{sheet}' (sheets: {sheets})",
            sheet=sheet_name,
            sheets=", ".join(defs.sheets),
        )
        raise BuildError(message, at("sheet"))
    cw_pt, ch_pt, size_name = card_size(defs, size, at("size"))
    cw, ch = um(cw_pt), um(ch_pt)
    paper_w, paper_h = (um(v) for v in paper_size(defs, paper_name))
    spec = defs.sheets[sheet_name]

    def length(key: str, default: str) -> int:
        return um(to_pt(spec.get(key, default)))

    try:
        margin = (
            round(margin_mm * 1000) if margin_mm is not None else length("printer_margin", "5mm")
        )
        max_bleed = min(length("max_bleed", "3mm"), round(MAX_BLEED_MM * 1000))
        wanted = um(to_pt(want_bleed if want_bleed is not None else spec.get("bleed", "3mm")))
        gap = length("gap", "0mm")
        crop_len = length("crop_length", "4mm")
        crop_off = length("crop_offset", "1mm")
        short = (
            min(crop_off, length("crop_offset_min", "0.5mm")),
            min(crop_len, length("crop_length_min", "2mm")),
        )
        marks_tried = [(crop_off, crop_len), (crop_off, short[1]), short]
        crop_width = to_pt(spec.get("crop_width", "0.25pt"))
        safe = to_pt(spec.get("safe_zone", "3mm"))
        # A gutter (tokens to punch out) keeps the pieces apart; else they may butt.
        arrange = spec.get("arrange", "separate" if gap > 0 else "auto")
        if arrange not in ("auto", "separate", "butted"):
            raise ValueError(_("arrange must be 'auto', 'separate' or 'butted'"))
        for key in ("cols", "rows"):
            value = spec.get(key, "auto")
            if value != "auto" and (isinstance(value, bool) or not isinstance(value, int)):
                raise _ValueAtKey(
                    key,
                    _(
                        "'{key}' must be a whole number or \"auto\", got {value!r}",
                        key=key,
                        value=value,
                    ),
                )
            if value != "auto" and value < 1:
                raise _ValueAtKey(
                    key, _("'{key}' must be at least 1, got {value}", key=key, value=value)
                )
        for key, value in (
            ("printer_margin", margin),
            ("gap", gap),
            ("crop_length", crop_len),
            ("crop_offset", crop_off),
            ("crop_width", crop_width),
        ):
            if value < 0:
                raise _ValueAtKey(
                    key, _("'{key}' must be 0 or more, got {value}", key=key, value=spec.get(key))
                )
        backs_mode = backs or spec.get("backs", "long-edge")
        folded = backs_mode == "foldover"
        # Fold-over: between the fold line and the nearest crop mark or bleed on either side.
        fold_gap = length("fold_gap", "2mm") if folded else 0
        orientation = spec.get("orientation", "auto" if folded else "portrait")
        if orientation not in ("auto", "portrait", "landscape"):
            raise ValueError(_("orientation must be 'auto', 'portrait' or 'landscape'"))
        # "auto": as many as fit with the least bleed the sheet accepts (min_bleed, default
        # the wanted bleed) and the shortest marks; the bleed is then the most those leave.
        least = min(
            um(to_pt(spec.get("min_bleed", want_bleed or spec.get("bleed", "3mm")))), wanted
        )

        def count(room: int, item: int) -> int:
            n = 0
            while _need(n + 1, item, gap, arrange != "separate", least, *short) <= room:
                n += 1
            return n

        def grid(pw: int, ph: int):
            """The grid on paper pw × ph: (cols, rows, turned); the fronts of a fold-over
            sheet take the left half."""
            room_w = (pw // 2 - margin - fold_gap) if folded else pw - 2 * margin
            room_h = ph - 2 * margin
            cols = count(room_w, cw) if spec.get("cols") == "auto" else int(spec["cols"])
            rows = count(room_h, ch) if spec.get("rows") == "auto" else int(spec["rows"])
            if spec.get("cols") == spec.get("rows") == "auto" and spec.get("rotate", True) is True:
                # Sideways, where that fits more (mini cards on A4: 3×6 rather than 4×4).
                t_cols, t_rows = count(room_w, ch), count(room_h, cw)
                if t_cols * t_rows > cols * rows:
                    return t_cols, t_rows, True, room_w, room_h
            return cols, rows, False, room_w, room_h

        papers = {
            "portrait": [(paper_w, paper_h)],
            "landscape": [(paper_h, paper_w)],
            "auto": [(paper_w, paper_h), (paper_h, paper_w)],
        }[orientation]
        pw, ph = papers[0]
        cols, rows, turned, room_w, room_h = grid(pw, ph)
        for other in papers[1:]:  # more cards a page; as many, then upright rather than turned
            found = grid(*other)
            if (found[0] * found[1], not found[2]) > (cols * rows, not turned):
                (pw, ph), (cols, rows, turned, room_w, room_h) = other, found
        if turned:
            cw, ch = ch, cw  # from here on: the footprint on the page
    except (KeyError, ValueError, TypeError) as exc:
        at_key = (exc.key,) if isinstance(exc, _ValueAtKey) else ()
        raise BuildError(
            _("sheet '{sheet}'", sheet=sheet_name) + f": {exc}",
            defs.at("sheet", sheet_name, *at_key),
        ) from None
    if backs_mode not in BACKS:
        raise BuildError(
            _("sheet '{sheet}'", sheet=sheet_name)
            + ": "
            + _("backs must be 'long-edge', 'foldover' or 'none'"),
            defs.at("sheet", sheet_name, "backs"),
        )
    if not 0 <= wanted <= max_bleed:
        raise BuildError(
            _(
                "bleed must be 0–{most:g} mm, got {wanted:g} mm",
                most=max_bleed / 1000,
                wanted=wanted / 1000,
            ),
            where,
        )
    across = _axis(cols, cw, room_w, gap, wanted, marks_tried, arrange) if cols else None
    down = _axis(rows, ch, room_h, gap, wanted, marks_tried, arrange) if rows else None
    if across is None or down is None:
        raise BuildError(
            _(
                "{cols}×{rows} of {size} ({w:g}×{h:g} mm) do not fit on {paper} inside a "
                "{margin:g} mm printer margin",
                cols=cols,
                rows=rows,
                size=size_name,
                w=cw / 1000,
                h=ch / 1000,
                paper=paper_name,
                margin=margin / 1000,
            ),
            where,
        )
    least_bleed = min(across.bleed, down.bleed)
    if least_bleed < wanted:
        note = _(
            "bleed reduced from {wanted:g} mm to {bleed:g} mm so that the {cols}×{rows} grid of "
            "{size} cards fits on {paper} inside the {margin:g} mm printer margin",
            wanted=wanted / 1000,
            bleed=least_bleed / 1000,
            cols=cols,
            rows=rows,
            size=size_name,
            paper=paper_name,
            margin=margin / 1000,
        )
        problems.notice(note, where, fold=f"{where.file}:{note}")
    # The faces are drawn with the larger bleed; each slot's clip gives each side its own.
    bleed = max(across.bleed, down.bleed)
    grid_w = _need(cols, cw, gap, across.butted, across.bleed, 0, 0)
    grid_h = _need(rows, ch, gap, down.butted, down.bleed, 0, 0)
    left, bottom = (pw - grid_w) // 2, (ph - grid_h) // 2
    if folded:  # centred in the left half's room; the backs mirror about the fold line
        left = margin + (room_w - grid_w) // 2
    xs = _positions(cols, cw, gap, across, left)
    ys = _positions(rows, ch, gap, down, bottom)
    rot = 90 if turned else 0
    fronts, backs, cells = [], [], []
    for r in range(rows):
        y, y0, y1 = ys[rows - 1 - r]  # row 0 is the top row
        for c in range(cols):
            x, x0, x1 = xs[c]
            cells.append((x, y, x0, y0, x1, y1))
            fronts.append(Slot(pt(x), pt(y), pt(cw), pt(ch), rot, (pt(x0), pt(y0), pt(x1), pt(y1))))
            # Long-edge flip turns the sheet about its vertical axis: x mirrors, y stays; a card
            # turned to the left on the front has its back turned to the right.
            back_clip = (pt(pw - x1), pt(y0), pt(pw - x0), pt(y1))
            backs.append(Slot(pt(pw - x - cw), pt(y), pt(cw), pt(ch), -rot, back_clip))
    cuts = Cuts(cw, ch, tuple(cells), across, down)
    marks = cuts.marks(cols * rows)
    return SheetGeometry(
        sheet_name,
        (pt(pw), pt(ph)),
        (pt(ch), pt(cw)) if turned else (pt(cw), pt(ch)),  # the card's own size
        pt(bleed),
        cols,
        rows,
        tuple(fronts),
        tuple(backs) if backs_mode != "none" else (),
        marks,
        crop_width,
        turned,
        pt(margin),
        _in_pt(across),
        _in_pt(down),
        _label_boxes(
            (pt(pw), pt(ph)),
            pt(margin),
            (pt(left), pt(bottom), pt(left + grid_w), pt(bottom + grid_h)),
            sorted({pt(v) for x, _y, *_ in cells for v in (x, x + cw)}),
            _in_pt(across),
            _in_pt(down),
            pt(pw // 2 - fold_gap if folded else pw - margin),
        ),
        safe,
        pt(pw // 2) if folded else None,
        cuts,
    )


@dataclass(frozen=True)
class Cuts:
    """A sheet's cut lines in whole micrometres: each slot's trim corner and the span its face
    covers (x, y, x0, y0, x1, y1, reading order), the footprint of a card on the page, and the
    marks' offset and length along each direction. The crop marks of a sheet whose first
    `used` slots are filled come from these numbers alone (`marks`)."""

    w: int
    h: int
    cells: tuple[tuple[int, int, int, int, int, int], ...]
    across: Axis
    down: Axis

    def marks(self, used: int) -> tuple[CropMark, ...]:
        """Each cut line of the filled slots marked at both ends: vertical lines above the top
        row and below the last filled row, horizontal ones left of the first column and right
        of the last filled column, each clear of every card's bleed."""
        cells = self.cells[:used]
        if not cells:
            return ()
        xs = sorted({v for x, *_ in cells for v in (x, x + self.w)})
        ys = sorted({v for _x, y, *_ in cells for v in (y, y + self.h)})
        left = min(c[2] for c in cells)
        right = max(c[4] for c in cells)
        bottom = min(c[3] for c in cells)
        top = max(c[5] for c in cells)
        out = []
        o, n = self.down.offset, self.down.length
        for x in xs:
            out.append(CropMark(pt(x), pt(top + o), pt(x), pt(top + o + n)))
            out.append(CropMark(pt(x), pt(bottom - o), pt(x), pt(bottom - o - n)))
        o, n = self.across.offset, self.across.length
        for y in ys:
            out.append(CropMark(pt(left - o), pt(y), pt(left - o - n), pt(y)))
            out.append(CropMark(pt(right + o), pt(y), pt(right + o + n), pt(y)))
        return tuple(out)


LABEL_CLEARANCE = 0.5 * MM  # between the label and a card's bleed
LABEL_SPACE = 2 * MM  # between the label and a crop mark beside it


def _label_boxes(page, margin, grid, cut_x, across: Axis, down: Axis, hi_x: float):
    """Where a sheet's label may go, best first: above the top crop marks, below the bottom
    ones, between two marks in the band above or below the cards, or reading upwards beside
    the side marks; each inside the printable area and clear of the cards' bleed and the
    marks."""
    pw, ph = page
    left, bottom, right, top = grid
    lo_x = margin
    out = []
    beyond = down.offset + down.length + LABEL_CLEARANCE
    out.append((lo_x, top + beyond, hi_x, ph - margin))  # above the marks
    out.append((lo_x, margin, hi_x, bottom - beyond))  # below them
    edges = [lo_x, *cut_x, hi_x]
    spans = sorted(
        ((round((b - a) / MM), a, b) for a, b in zip(edges, edges[1:])),
        key=lambda s: (-s[0], s[1]),
    )
    for _w, a, b in spans:  # between marks, widest first, then leftmost
        x0 = a + (LABEL_SPACE if a > lo_x else 0.0)
        x1 = b - (LABEL_SPACE if b < hi_x else 0.0)
        out.append((x0, top + LABEL_CLEARANCE, x1, ph - margin))
        out.append((x0, margin, x1, bottom - LABEL_CLEARANCE))
    out = [(*box, False) for box in out]
    beside = across.offset + across.length + LABEL_CLEARANCE
    out.append((margin, margin, left - beside, ph - margin, True))  # left of the side marks
    out.append((right + beside, margin, hi_x, ph - margin, True))
    return tuple(box for box in out if box[2] - box[0] > 0 and box[3] - box[1] > 0)


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board: which part of the board it shows and where that lands."""

    row: int
    col: int
    label: str  # "A1", "A2", … rows by letter, columns by number
    region: tuple[
        float, float, float, float
    ]  # board coordinates (x0, y0, x1, y1), origin bottom-left
    origin: tuple[float, float]  # where the board's (0, 0) falls on the page


@dataclass(frozen=True)
class Tiling:
    """A board cut into tiles that fit a page, with the overlap between them."""

    page: tuple[float, float]
    board: tuple[float, float]
    tiles: tuple[Tile, ...]
    overlap: float
    margin: float
    single: bool  # the board fits one page: no tiling


MARK_ROOM = 5 * MM  # a board's corner mark: 1 mm off the board, 4 mm long
MARK_ROOM_MIN = 3 * MM  # ... and at least 2 mm long, where a board just fits one page


def tile(
    board: tuple[float, float], paper: tuple[float, float], margin: float, overlap: float
) -> Tiling:
    """Poster tiling: the board over as few pages as it takes, neighbours sharing `overlap`.

    Each page prints inside its margin; the next tile starts `printable - overlap` further on,
    so every seam has exactly `overlap` printed twice, to glue one sheet over the other. The
    tiles cover the board and room for its corner marks around it (MARK_ROOM), so every mark
    prints inside the margin.
    """
    bw, bh = board
    best = None
    for pw, ph in (paper, (paper[1], paper[0])):  # portrait, then landscape
        aw, ah = pw - 2 * margin, ph - 2 * margin
        room = 2 * MARK_ROOM_MIN
        if bw + room <= aw + 1e-6 and bh + room <= ah + 1e-6:
            origin = ((pw - bw) / 2, (ph - bh) / 2)
            return Tiling(
                (pw, ph), board, (Tile(0, 0, "A1", (0, 0, bw, bh), origin),), 0.0, margin, True
            )
    for pw, ph in (paper, (paper[1], paper[0])):
        aw, ah = pw - 2 * margin, ph - 2 * margin
        ew, eh = bw + 2 * MARK_ROOM, bh + 2 * MARK_ROOM  # the board and its marks
        cols = 1 if ew <= aw else math.ceil((ew - overlap) / (aw - overlap) - 1e-9)
        rows = 1 if eh <= ah else math.ceil((eh - overlap) / (ah - overlap) - 1e-9)
        if best is None or cols * rows < best[0]:
            best = (cols * rows, (pw, ph), cols, rows, aw, ah)
    _, (pw, ph), cols, rows, aw, ah = best
    # Centre the whole poster on the tiles: the spare printable room splits over both ends.
    span_w = cols * aw - (cols - 1) * overlap
    span_h = rows * ah - (rows - 1) * overlap
    start_x, start_y = -(span_w - bw) / 2, -(span_h - bh) / 2
    tiles = []
    for r in range(rows):
        for c in range(cols):
            x0 = start_x + c * (aw - overlap)
            # Row A is the top of the board.
            y0 = start_y + (rows - 1 - r) * (ah - overlap)
            tiles.append(
                Tile(
                    r,
                    c,
                    f"{chr(ord('A') + r)}{c + 1}",
                    (x0, y0, x0 + aw, y0 + ah),
                    (margin - x0, margin - y0),
                )
            )
    return Tiling((pw, ph), board, tuple(tiles), overlap, margin, False)


def marks_for(g: SheetGeometry, used: int) -> tuple[CropMark, ...]:
    """The crop marks a sheet with only its first `used` slots filled needs: its cut lines'
    marks end at its last row and column (worked out from the same micrometres as the slots)."""
    return g.cuts.marks(used) if g.cuts is not None else g.crop_marks
