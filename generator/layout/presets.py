"""Print-shop presets (`presets.toml`): the trim, bleed, safe zone, page order and resolution a
shop asks for, each with its public source. The tool ships generator/data/presets/presets.toml;
a project's `layouts/_shared/presets.toml` replaces it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import base, tomlfile
from ..i18n import _
from ..problems import BuildError, SourceRef, did_you_mean, unknown_key
from ..textfile import confine
from .units import MM, UnitError, to_pt

PRESETS_FILE = "presets.toml"
ORDERS = ("front-back", "back-front", "fronts-then-backs")
FORMATS = ("pdf", "png")
KEYS = {
    "description",
    "trim",
    "bleed",
    "safe",
    "order",
    "dpi",
    "format",
    "pixels",
    "colour",
    "source",
}


@dataclass(frozen=True)
class Preset:
    """A print shop's preset: its trim, bleed, safe zone and file order."""

    name: str
    description: str
    trim: tuple[float, float] | None  # None: the component's own size
    bleed: float
    safe: float
    order: str
    dpi: int
    format: str
    pixels: tuple[int, int] | None
    colour: str
    source: str

    def fits(self, size: tuple[float, float]) -> tuple[float, float] | None:
        """The trim this preset gives a piece of `size` (points), or None when the preset is
        for another size: within 2 mm either way it takes the piece, scaled to fit."""
        if self.trim is None:
            return size
        tw, th = self.trim
        if abs(tw - size[0]) <= 2 * MM and abs(th - size[1]) <= 2 * MM:
            return self.trim
        return None


def presets_path(layouts_dir: Path) -> Path:
    own = layouts_dir / base.SHARED / PRESETS_FILE
    return own if own.is_file() or own.is_symlink() else base.DATA / "presets" / PRESETS_FILE


def load_presets(layouts_dir: Path, rel) -> dict[str, Preset]:
    path = presets_path(layouts_dir)
    where = SourceRef(rel(path))
    if not base.is_tools(path):
        confine(path, layouts_dir.parent, where, "presets.toml")
    doc = tomlfile.read(path, where, _("print-shop presets"))
    out: dict[str, Preset] = {}
    for name, spec in (doc.data.get("preset") or {}).items():

        def fail(message: str, key: str | None = None, name=name) -> BuildError:
            at = doc.at("preset", name, key) if key else doc.at("preset", name)
            return BuildError(f"[preset.{name}] {message}", at)

        if not isinstance(spec, dict):
            raise fail(_("must be a table"))
        for key in spec:
            if key not in KEYS:
                raise fail(unknown_key(key, KEYS), key)
        try:
            trim = spec.get("trim", "component")
            size = None if trim == "component" else (to_pt(trim["w"]), to_pt(trim["h"]))
            bleed, safe = to_pt(spec.get("bleed", "3mm")), to_pt(spec.get("safe", "3mm"))
        except (KeyError, TypeError, UnitError) as exc:
            raise fail(_("trim, bleed and safe must be lengths ({error})", error=exc)) from None
        order, fmt = spec.get("order", "front-back"), spec.get("format", "pdf")
        if order not in ORDERS:
            raise fail(_("order must be one of {choices}", choices=", ".join(ORDERS)), "order")
        if fmt not in FORMATS:
            raise fail(_("format must be one of {choices}", choices=", ".join(FORMATS)), "format")
        dpi = spec.get("dpi", 300)
        if not isinstance(dpi, int) or not 72 <= dpi <= 1200:
            raise fail(_("dpi must be a whole number from 72 to 1200"), "dpi")
        pixels = spec.get("pixels")
        if pixels is not None and not (
            isinstance(pixels, list)
            and len(pixels) == 2
            and all(isinstance(p, int) for p in pixels)
        ):
            raise fail(_("pixels must be [width, height]"), "pixels")
        out[name] = Preset(
            name,
            str(spec.get("description", "")),
            size,
            bleed,
            safe,
            order,
            dpi,
            fmt,
            tuple(pixels) if pixels else None,
            str(spec.get("colour", "")),
            str(spec.get("source", "")),
        )
    return out


def pick(presets: dict[str, Preset], name: str | None) -> Preset:
    name = name or "generic"
    if name not in presets:
        raise BuildError(
            _(
                "unknown preset '{name}' (presets: {names})",
                name=name,
                names=", ".join(presets),
            )
            + did_you_mean(name, presets)
        )
    return presets[name]
