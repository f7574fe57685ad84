"""Imposition: where each card goes on a sheet, how much bleed fits, crop marks, duplex back positions.

Fed by the sheet definitions in layouts/_shared/sheets.toml (paper, sizes, grids); produces
plain geometry in points (PDF coordinates, origin bottom-left) that the renderer follows.
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..problems import BuildError, Problem, Problems, SourceRef
from .units import MM, UnitError, to_pt

SHEETS_FILE = "sheets.toml"
MAX_BLEED_MM = 3.0


@dataclass(frozen=True)
class SheetDefs:
    paper: dict[str, tuple[float, float]]
    sizes: dict[str, tuple[float, float]]
    sheets: dict[str, dict]
    where: SourceRef


def load_sheet_defs(layouts_dir: Path, rel) -> SheetDefs:
    path = layouts_dir / "_shared" / SHEETS_FILE
    where = SourceRef(rel(path))
    if not path.is_file():
        raise BuildError([Problem("error", "sheet definitions not found", where)])
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise BuildError([Problem("error", f"cannot read sheet definitions: {exc}", where)]) from None

    def pair(table: dict, ctx: str) -> tuple[float, float]:
        try:
            return to_pt(table["w"]), to_pt(table["h"])
        except (KeyError, TypeError, UnitError) as exc:
            raise BuildError([Problem("error", f"{ctx}: needs w and h as lengths ({exc})", where)]) from None

    return SheetDefs(
        paper={k: pair(v, f"[paper] {k}") for k, v in raw.get("paper", {}).items()},
        sizes={k: pair(v, f"[size] {k}") for k, v in raw.get("size", {}).items()},
        sheets=raw.get("sheet", {}), where=where)


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet: the trim box, bottom-left origin, in points."""
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class CropMark:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class SheetGeometry:
    name: str
    page: tuple[float, float]
    card: tuple[float, float]
    bleed: float
    cols: int
    rows: int
    fronts: tuple[Slot, ...]       # reading order: left to right, top to bottom
    backs: tuple[Slot, ...]        # backs[i] lies behind fronts[i] after a long-edge flip
    crop_marks: tuple[CropMark, ...]
    crop_width: float
    note: str | None               # why the bleed is smaller than wanted

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


def impose(defs: SheetDefs, sheet_name: str, size_name: str, paper_name: str,
           want_bleed: str | float | None, problems: Problems, where: SourceRef) -> SheetGeometry:
    if sheet_name not in defs.sheets:
        raise BuildError([Problem("error", f"unknown sheet '{sheet_name}' (sheets: {', '.join(defs.sheets)})", where)])
    if size_name not in defs.sizes:
        raise BuildError([Problem("error", f"unknown card size '{size_name}' (sizes: {', '.join(defs.sizes)})", where)])
    if paper_name not in defs.paper:
        raise BuildError(f"unknown paper '{paper_name}' (papers: {', '.join(defs.paper)})")
    spec = defs.sheets[sheet_name]
    try:
        cols, rows = int(spec["cols"]), int(spec["rows"])
        margin = to_pt(spec.get("printer_margin", "5mm"))
        max_bleed = min(to_pt(spec.get("max_bleed", "3mm")), MAX_BLEED_MM * MM)
        wanted = to_pt(want_bleed if want_bleed is not None else spec.get("bleed", "3mm"))
        crop_len = to_pt(spec.get("crop_length", "4mm"))
        crop_off = to_pt(spec.get("crop_offset", "1mm"))
        crop_width = to_pt(spec.get("crop_width", "0.25pt"))
    except (KeyError, ValueError, TypeError) as exc:
        raise BuildError([Problem("error", f"sheet '{sheet_name}': {exc}", defs.where)]) from None
    if not 0 <= wanted <= max_bleed + 1e-6:
        raise BuildError([Problem("error", f"bleed must be 0–{max_bleed / MM:g} mm, got {wanted / MM:g} mm", where)])
    pw, ph = defs.paper[paper_name]
    cw, ch = defs.sizes[size_name]
    # Each card carries its own bleed on every side, so the grid is cols*(w+2b) wide.
    room_w = (pw - 2 * margin - cols * cw) / (2 * cols)
    room_h = (ph - 2 * margin - rows * ch) / (2 * rows)
    room = min(room_w, room_h)
    if room < 0:
        raise BuildError([Problem("error", f"{cols}×{rows} cards of {cw / MM:g}×{ch / MM:g} mm do not fit on "
                                  f"{paper_name} inside a {margin / MM:g} mm printer margin", where)])
    bleed, note = wanted, None
    if wanted > room + 1e-9:
        bleed = math.floor(room / MM * 10 + 1e-9) / 10 * MM   # round down to 0.1 mm
        note = (f"bleed reduced from {wanted / MM:g} mm to {bleed / MM:g} mm so that the {cols}×{rows} "
                f"grid of {size_name} cards fits on {paper_name} inside the {margin / MM:g} mm printer margin")
        problems.notice(note, where)
    cell_w, cell_h = cw + 2 * bleed, ch + 2 * bleed
    grid_w, grid_h = cols * cell_w, rows * cell_h
    left, bottom = (pw - grid_w) / 2, (ph - grid_h) / 2
    fronts, backs = [], []
    for r in range(rows):
        for c in range(cols):
            y = bottom + (rows - 1 - r) * cell_h + bleed
            fronts.append(Slot(left + c * cell_w + bleed, y, cw, ch))
            # Long-edge flip turns the sheet about its vertical axis: x mirrors, y stays.
            backs.append(Slot(pw - (left + c * cell_w + bleed) - cw, y, cw, ch))
    marks: list[CropMark] = []
    top, right = bottom + grid_h, left + grid_w
    length_x = min(crop_len, left - crop_off)      # keep marks on the paper
    length_y = min(crop_len, bottom - crop_off)
    xs = sorted({round(s.x, 4) for s in fronts} | {round(s.x + cw, 4) for s in fronts})
    ys = sorted({round(s.y, 4) for s in fronts} | {round(s.y + ch, 4) for s in fronts})
    if length_y > 0:
        for x in xs:
            marks.append(CropMark(x, top + crop_off, x, top + crop_off + length_y))
            marks.append(CropMark(x, bottom - crop_off, x, bottom - crop_off - length_y))
    if length_x > 0:
        for y in ys:
            marks.append(CropMark(left - crop_off, y, left - crop_off - length_x, y))
            marks.append(CropMark(right + crop_off, y, right + crop_off + length_x, y))
    return SheetGeometry(sheet_name, (pw, ph), (cw, ch), bleed, cols, rows, tuple(fronts),
                         tuple(backs), tuple(marks), crop_width, note)
