"""Fonts by family name: found in the project, the system or a font package; measured; subset to
TrueType.

Layout measures text with these metrics (no ReportLab needed); the renderer embeds the subset
this module makes. ReportLab embeds only TrueType (glyf) outlines, so from CFF-outline OpenType
(Noto Sans CJK .otf, the usual free Japanese fonts) the glyphs a build uses are drawn with
fontTools into a new TrueType font, cubic outlines made quadratic; the result is cached by content.
"""

from __future__ import annotations

import hashlib
import io
import json
import marshal
import os
import struct
import sys
from array import array
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .cache import NO_CACHE, Cache
from .i18n import _
from .problems import BuildError

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

# fontTools is imported where a font file is opened: a build that finds every metric and subset
# in its cache does not need it (a fiftieth of a second of each build).

FONT_SUFFIXES = {".ttf", ".otf", ".ttc", ".otc"}
_SUFFIXES = tuple(FONT_SUFFIXES)
# Kept in the user's cache too (cache.SHARED), so a new project's first build finds the
# system's and the packages' faces without opening each font file again.
INDEX_FILE = "font-index.json"
# Bump when the conversion changes, so cached subsets are remade.
CONVERTER_VERSION = "4"
# Font packages on PyPI we know carry a good Japanese font; any installed distribution whose
# name mentions fonts is searched too.
KNOWN_PACKAGES = ("noto-cjk-sans-jp-regular", "noto-cjk-sans-jp-bold")


def system_font_dirs() -> list[Path]:
    home = Path.home()
    dirs = [
        home / ".fonts",
        home / ".local/share/fonts",
        Path("/usr/local/share/fonts"),
        Path("/usr/share/fonts"),
        home / "Library/Fonts",
        Path("/Library/Fonts"),
        Path("/System/Library/Fonts"),
    ]
    if os.name == "nt":
        dirs.append(Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts")
    return [d for d in dirs if d.is_dir()]


def package_font_files() -> list[Path]:
    """Font files that installed Python packages ship: the Noto CJK packages pnp depends on and
    any distribution named like a font. Found by the names of the distributions' metadata
    folders on sys.path (the first of a name, as import finds it), so no other package's
    metadata is read: reading them all cost a build about a tenth of a second."""
    files: list[Path] = []
    seen: set[str] = set()
    for entry in sys.path:
        folder = Path(entry or ".")
        try:
            names = sorted(os.listdir(folder))
        except OSError:  # a zip file or a folder that is gone
            continue
        for info in names:
            if not info.endswith((".dist-info", ".egg-info")):
                continue
            name = info.rsplit(".", 1)[0].split("-")[0].lower().replace("_", "-")
            if name in seen:
                continue
            seen.add(name)
            if name not in KNOWN_PACKAGES and "font" not in name and "noto" not in name:
                continue
            files += _fonts_installed(folder, info)
    return sorted(files)


def _fonts_installed(folder: Path, info: str) -> list[Path]:
    """The font files a distribution installed: from its RECORD (a CSV of paths relative to the
    folder holding the .dist-info, read directly: importlib.metadata costs a build more than
    the reading), else as importlib.metadata lists them (an .egg-info)."""
    record = folder / info / "RECORD"
    if info.endswith(".dist-info") and record.is_file():
        import csv

        with record.open(encoding="utf-8", newline="") as f:
            rows = [row[0] for row in csv.reader(f) if row]
        # by the name's end, before a Path is made: fontTools' RECORD lists some 600 files
        return [folder / r for r in rows if r.lower().endswith(_SUFFIXES)]
    from importlib import metadata

    dist = metadata.Distribution.at(folder / info)
    return [
        Path(dist.locate_file(f))
        for f in dist.files or []
        if Path(str(f)).suffix.lower() in FONT_SUFFIXES
    ]


def _norm(name: str) -> str:
    return "".join(name.lower().split())


# What some families call their regular weight (DejaVu's Book, Times' Roman): what a designer
# means by Regular, the manifest's default, when the family has no face named so.
REGULAR_NAMES = {"regular": ("book", "normal", "roman", "plain")}


@dataclass(frozen=True)
class FontFace:
    """One face of a font file: its names, and where it is."""

    path: Path
    index: int  # face number inside a .ttc/.otc collection, else 0
    family: str
    weight: str
    source: str  # "project", "system" or "package"


def _faces_of(path: Path, source: str) -> list[FontFace]:
    from fontTools.ttLib import TTCollection, TTFont

    try:
        if path.suffix.lower() in {".ttc", ".otc"}:
            fonts = TTCollection(str(path), lazy=True).fonts
        else:
            fonts = [TTFont(str(path), lazy=True)]
    except Exception:
        return []  # an unreadable file in a system folder is not our user's problem
    faces = []
    for i, font in enumerate(fonts):
        name = font["name"]
        family = name.getDebugName(16) or name.getDebugName(1) or ""
        weight = name.getDebugName(17) or name.getDebugName(2) or "Regular"
        faces.append(FontFace(path, i, family, weight, source))
    return faces


class FontIndex:
    """Every face the build may use, searched in order: project, system, packages."""

    def __init__(self, project_dirs: list[Path], cache: Cache = NO_CACHE):
        self.project_dirs = [d for d in project_dirs if d.is_dir()]
        self.cache = cache
        self._faces: list[FontFace] | None = None

    def _scan(self) -> list[FontFace]:
        stored = self._load_cached_index()
        faces: list[FontFace] = []
        fresh: dict[str, list] = {}
        groups = [(d, "project") for d in self.project_dirs] + [
            (d, "system") for d in system_font_dirs()
        ]
        files: list[tuple[Path, str]] = []
        for folder, source in groups:
            files += [
                (p, source) for p in sorted(folder.rglob("*")) if p.suffix.lower() in FONT_SUFFIXES
            ]
        files += [(p, "package") for p in package_font_files()]
        for path, source in files:
            try:
                st = path.stat()
            except OSError:
                continue
            key = f"{path}|{st.st_size}|{int(st.st_mtime)}"
            entry = stored.get(key)
            if entry is None:
                entry = [(f.index, f.family, f.weight) for f in _faces_of(path, source)]
            fresh[key] = entry
            faces += [FontFace(path, i, fam, wt, source) for i, fam, wt in entry]
        if fresh != stored:
            self._save_cached_index(fresh)
        return faces

    def _load_cached_index(self) -> dict:
        try:
            return json.loads(self.cache.read(INDEX_FILE) or b"{}")
        except ValueError:
            return {}

    def _save_cached_index(self, data: dict) -> None:
        self.cache.write(INDEX_FILE, json.dumps(data, ensure_ascii=False, sort_keys=True).encode())

    @property
    def faces(self) -> list[FontFace]:
        if self._faces is None:
            self._faces = self._scan()
        return self._faces

    def find(self, family: str, weight: str = "Regular") -> FontFace:
        fam, wt = _norm(family), _norm(weight)
        matches = [f for f in self.faces if _norm(f.family) == fam]
        for name in (wt, *REGULAR_NAMES.get(wt, ())):
            for face in matches:
                if _norm(face.weight) == name:
                    return face
        if matches:
            have = ", ".join(sorted({f.weight for f in matches}))
            raise BuildError(
                _(
                    "font '{family}' has no weight '{weight}' (found: {have})",
                    family=family,
                    weight=weight,
                    have=have,
                )
            )
        near = sorted({f.family for f in self.faces if fam[:4] and fam[:4] in _norm(f.family)})
        hint = "; " + _("similar families: {names}", names=", ".join(near[:6])) if near else ""
        raise BuildError(
            _(
                "font family '{family}' not found in the project's fonts/ folder, the system's "
                "fonts or an installed font package",
                family=family,
            )
            + hint
        )


BMP = 0x10000  # the Basic Multilingual Plane: code points kept in flat arrays


@dataclass
class Metrics:
    """What layout needs from a face: advance widths per character, vertical metrics, coverage.

    Widths of the Basic Multilingual Plane are a flat array by code point (a character the face
    lacks has the width it is drawn at: U+FFFD's, else half an em), with a coverage map beside
    it; characters beyond it a dict. Read from the cache as two byte strings: a CJK face's
    45,000 widths load in a fraction of a millisecond instead of a dict built per build."""

    face: FontFace
    upm: int
    ascent: float  # in em units / upm, i.e. fraction of the font size
    descent: float  # negative
    bmp: array = field(repr=False)  # 'H' widths for U+0000..U+FFFF, lacking ones as `missing`
    covered: bytes = field(repr=False)  # 1 where the face has the BMP character
    astral: dict[int, int] = field(repr=False)  # the face's characters beyond the BMP
    missing: int = 0

    @classmethod
    def of(cls, face: FontFace, upm: int, ascent: float, descent: float, widths: dict):
        missing = widths.get(0xFFFD, upm // 2)
        bmp = array("H", [missing]) * BMP
        covered = bytearray(BMP)
        astral = {}
        for cp, w in widths.items():
            if cp < BMP:
                bmp[cp] = w
                covered[cp] = 1
            else:
                astral[cp] = w
        return cls(face, upm, ascent, descent, bmp, bytes(covered), astral, missing)

    def has(self, ch: str) -> bool:
        cp = ord(ch)
        return bool(self.covered[cp]) if cp < BMP else cp in self.astral

    def width(self, text: str, size: float) -> float:
        try:
            units = sum(map(self.bmp.__getitem__, map(ord, text)))
        except IndexError:  # a character beyond the BMP
            bmp, astral, missing = self.bmp, self.astral, self.missing
            units = sum(bmp[cp] if cp < BMP else astral.get(cp, missing) for cp in map(ord, text))
        return units * size / self.upm

    def stored(self) -> bytes:
        return marshal.dumps(
            (
                self.upm,
                self.ascent,
                self.descent,
                self.bmp.tobytes(),
                self.covered,
                self.astral,
                self.missing,
            )
        )

    @classmethod
    def loaded(cls, face: FontFace, data: bytes) -> Metrics:
        upm, ascent, descent, raw, covered, astral, missing = marshal.loads(data)
        bmp = array("H")
        bmp.frombytes(raw)
        if len(bmp) != BMP or len(covered) != BMP:
            raise ValueError("torn metrics")
        return cls(face, upm, ascent, descent, bmp, covered, astral, missing)


def _stamp(face: FontFace) -> tuple[int, int]:
    """The face's file as it is now (size, time of change): a file replaced under the same
    name, while `pnp watch` runs, is read anew."""
    st = face.path.stat()
    return st.st_size, st.st_mtime_ns


def metrics(face: FontFace, cache: Cache = NO_CACHE) -> Metrics:
    """A face's metrics, cached: reading a 65,000-glyph cmap takes a tenth of a second."""
    return _metrics(face, _stamp(face), cache)


@lru_cache(maxsize=16)
def _metrics(face: FontFace, stamp: tuple[int, int], cache: Cache) -> Metrics:
    key = hashlib.sha256(f"{face.path}|{face.index}|{stamp[0]}|{stamp[1]}".encode()).hexdigest()[
        :24
    ]
    name = f"fonts/{key}.widths"
    stored = cache.read(name)
    if stored:
        try:
            return Metrics.loaded(face, stored)
        except (ValueError, EOFError, TypeError):
            pass  # a stale or torn cache file: measure again
    font, gids = _source(face, stamp)
    advance = _advances(font)
    last = len(advance) - 1
    widths = {cp: advance[g if g <= last else last] for cp, g in gids.items()}
    upm = font["head"].unitsPerEm
    os2 = font["OS/2"]
    ascent, descent = os2.sTypoAscender / upm, os2.sTypoDescender / upm
    measured = Metrics.of(face, upm, ascent, descent, widths)
    cache.write(name, measured.stored())
    return measured


def _open(face: FontFace) -> TTFont:
    from fontTools.ttLib import TTFont

    return TTFont(str(face.path), fontNumber=face.index, lazy=True, recalcTimestamp=False)


@lru_cache(maxsize=8)
def _source(face: FontFace, stamp: tuple[int, int]) -> tuple[TTFont, dict[int, int]]:
    """A face opened once per process, with its character-to-glyph-id map: reading a
    65,000-entry cmap is the slow part, and the metrics and the subset both need it. The raw
    format-12 table is read directly (ten times faster than fontTools' decompile, which also
    names every glyph); other formats go through fontTools. Nothing here modifies the font."""
    font = _open(face)
    gids = _cmap12(font.reader["cmap"]) if "cmap" in font.reader else None
    if gids is None:
        order = {name: i for i, name in enumerate(font.getGlyphOrder())}
        gids = {cp: order[name] for cp, name in font.getBestCmap().items()}
    return font, gids


def _cmap12(data: bytes) -> dict[int, int] | None:
    """Unicode → glyph id from a cmap's format-12 subtable (Windows full repertoire or Unicode)."""
    _, count = struct.unpack_from(">HH", data, 0)
    records = [struct.unpack_from(">HHI", data, 4 + 8 * i) for i in range(count)]
    for wanted in ((3, 10), (0, 6), (0, 4)):
        for platform, encoding, offset in records:
            if (platform, encoding) == wanted and struct.unpack_from(">H", data, offset)[0] == 12:
                groups = struct.unpack_from(">I", data, offset + 12)[0]
                out: dict[int, int] = {}
                for start, end, glyph in struct.iter_unpack(
                    ">III", data[offset + 16 : offset + 16 + 12 * groups]
                ):
                    out.update(zip(range(start, end + 1), range(glyph, glyph + end - start + 1)))
                return out
    return None


def _advances(font: TTFont) -> array:
    """Advance widths by glyph id, straight from the raw hmtx table."""
    count = struct.unpack_from(">H", font.reader["hhea"], 34)[0]
    raw = array("H", font.reader["hmtx"][: 4 * count])
    if sys.byteorder == "little":
        raw.byteswap()
    return raw[0::2]


def subset_truetype(face: FontFace, chars: set[str], cache: Cache = NO_CACHE) -> bytes:
    """A TrueType font holding just `chars` (plus .notdef), CFF outlines converted; cached."""
    text = "".join(sorted(chars))
    size, changed = _stamp(face)
    key = hashlib.sha256(
        f"{CONVERTER_VERSION}|{face.path}|{face.index}|{size}|{changed}|{text}".encode()
    ).hexdigest()[:24]
    name = f"fonts/{key}.ttf"
    stored = cache.read(name)
    if stored:
        return stored
    data = _build_truetype(face, text)
    cache.write(name, data)
    return data


def _build_truetype(face: FontFace, text: str) -> bytes:
    """Build the subset directly: each needed glyph drawn once, a composite (é as e and an
    accent, in a TrueType face) as its outlines, cubic curves to quadratic (max error 1 unit),
    into a new TrueType font. fontTools' subsetter would run every CFF charstring three times
    (closure, hint removal, our conversion); this runs each once, at half the time."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.recordingPen import DecomposingRecordingPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    _, gids = _source(face, _stamp(face))
    # A font of its own, dropped when this subset is made: the decompiled outlines of a CJK
    # face take tens of MB, which a large deck's build should not carry to the end.
    src = _open(face)
    names = src.getGlyphOrder()
    ids = {name: i for i, name in enumerate(names)}
    wanted = {ord(ch): names[gids[ord(ch)]] for ch in text if ord(ch) in gids}
    order = [".notdef"] + sorted(set(wanted.values()) - {".notdef"}, key=ids.__getitem__)
    advance = _advances(src)
    cubic = "CFF " in src  # PostScript outlines: cubic, and wound the other way round
    if cubic:  # the charstrings themselves: no per-glyph metrics tables decompiled
        cff = src["CFF "].cff
        outlines = cff[cff.fontNames[0]].CharStrings
    else:
        outlines = src.getGlyphSet()
    glyphs, metrics = {}, {}
    for g in order:
        pen, drawn = TTGlyphPen(None), DecomposingRecordingPen(outlines)
        outlines[g].draw(drawn)
        drawn.replay(Cu2QuPen(pen, max_err=1.0, reverse_direction=cubic))
        glyph = glyphs[g] = pen.glyph()
        xs = [x for x, _ in glyph.coordinates] if glyph.numberOfContours > 0 else [0]
        metrics[g] = (advance[min(ids[g], len(advance) - 1)], min(xs))
    head, hhea, os2 = src["head"], src["hhea"], src["OS/2"]
    fb = FontBuilder(head.unitsPerEm, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(wanted)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent, lineGap=hhea.lineGap)
    # A PostScript name per subset: ReportLab maps fonts by it, so two subsets of one face built
    # in one process (two games, or tests) would otherwise share the first one's glyphs.
    tag = hashlib.sha256(text.encode()).hexdigest()[:6].upper()
    ps = (src["name"].getDebugName(6) or face.family.replace(" ", "")) + f"-{tag}"
    fb.setupNameTable(
        {
            "familyName": face.family,
            "styleName": face.weight,
            "psName": ps,
            "copyright": src["name"].getDebugName(0) or "",
            "licenseDescription": src["name"].getDebugName(13) or "",
        }
    )
    fb.setupOS2(
        sTypoAscender=os2.sTypoAscender,
        sTypoDescender=os2.sTypoDescender,
        sTypoLineGap=os2.sTypoLineGap,
        usWinAscent=os2.usWinAscent,
        usWinDescent=os2.usWinDescent,
        fsType=os2.fsType,
        usWeightClass=os2.usWeightClass,
        achVendID=os2.achVendID,
    )
    fb.setupPost()
    # Fixed timestamps: same input, same bytes.
    fb.setupHead(
        unitsPerEm=head.unitsPerEm,
        created=0x7C25B080,
        modified=0x7C25B080,
        fontRevision=head.fontRevision,
    )
    buf = io.BytesIO()
    fb.font.save(buf, reorderTables=True)
    return buf.getvalue()


if __name__ == "__main__":  # `python -m generator.fonts FAMILY [WEIGHT]`: where a family resolves
    idx = FontIndex([Path("fonts")])
    print(idx.find(*sys.argv[1:3]))
