"""Vector icons as data (layouts/_shared/icons.toml, overridden per game) and `:name:` inline in
card text.

Fed by the layout folders; used by faces (an `icon` box, or an icon inside text, measured as one
em) and drawn by the renderer. An icon is a list of shapes in a 1×1 box, x right and y down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .. import base, colours, tomlfile
from ..i18n import _
from ..problems import Problems, SourceRef
from ..textfile import confine

ICONS_FILE = "icons.toml"
SHAPES = {
    "circle": {"cx", "cy", "r"},
    "rect": {"x", "y", "w", "h"},
    "polygon": {"points"},
    "line": {"points"},
}
STYLE = {"fill", "stroke", "stroke_width", "radius"}
# Icons inside text travel as private-use characters, one per icon, so line breaking and
# measuring treat each as one unbreakable em-wide character.
FIRST = 0xE100
# `:火:`, `:sake:`: any name without spaces, colons or quotes (Japanese names read best in
# Japanese text); text between colons that could not name an icon (a URL's https:, JSON's
# :"id",) is text, not an icon unknown.
INLINE = re.compile(r":([^\s:：\"]{1,12}):")
NAME = re.compile(r"[^\s:：\"]{1,12}")


@dataclass(frozen=True)
class Icon:
    """An icon set in text: its shapes, width and private-use character."""

    name: str
    shapes: tuple[dict, ...]
    advance: float  # width in em when set in text
    char: str  # its private-use character
    where: SourceRef


class IconSet:
    def __init__(self, icons: dict[str, Icon]):
        self.icons = icons
        self._by_char = {icon.char: icon for icon in icons.values()}

    def by_char(self, ch: str) -> Icon | None:
        return self._by_char.get(ch)

    def is_icon(self, ch: str) -> bool:
        return ch in self._by_char

    def inline(self, text: str, unknown: list[str]) -> str:
        """`:sake:` -> its character; names that are not icons stay as typed and are reported."""

        def swap(m: re.Match) -> str:
            icon = self.icons.get(m.group(1))
            if icon is None:
                unknown.append(m.group(1))
                return m.group(0)
            return icon.char

        return INLINE.sub(swap, text) if ":" in text else text

    def strip(self, text: str) -> tuple[str, float]:
        """Text without icon characters, and the em width the icons take."""
        if not any(ch in self._by_char for ch in text):
            return text, 0.0
        ems = 0.0
        plain = []
        for ch in text:
            icon = self._by_char.get(ch)
            if icon:
                ems += icon.advance
            else:
                plain.append(ch)
        return "".join(plain), ems


def load_icons(layouts_dir: Path, game: str, rel) -> IconSet:
    problems = Problems()
    raw_icons: dict[str, tuple[dict, SourceRef]] = {}
    # The game's icons override the shared ones (the project's, else the tool's).
    for path in (base.shared_file(layouts_dir, ICONS_FILE), layouts_dir / game / ICONS_FILE):
        if not path.is_file() and not path.is_symlink():
            continue
        if not base.is_tools(path):
            confine(path, layouts_dir.parent, SourceRef(rel(path)), "icons.toml")
        doc = tomlfile.read(path, SourceRef(rel(path)), _("icons"))
        raw = doc.data
        for name, spec in raw.get("icon", {}).items():
            raw_icons[name] = (spec, doc.at("icon", name))
    icons = {}
    for i, (name, (spec, where)) in enumerate(sorted(raw_icons.items())):
        if not NAME.fullmatch(name):
            problems.error(
                _("icon name '{name}' must be 1–12 characters without spaces or colons", name=name),
                where,
            )
            continue
        shapes = []
        for shape in spec.get("shapes", []):
            if not isinstance(shape, dict):
                problems.error(
                    _(
                        "icon '{name}': each shape is a table such as {{ type = \"circle\", "
                        'cx = 0.5, cy = 0.5, r = 0.4, fill = "#D9482B" }}, got {shape!r}',
                        name=name,
                        shape=shape,
                    ),
                    where,
                )
                continue
            # colours as the renderer takes them: "red" and "#FFF" are #C8102E and #FFFFFF
            shape = {
                k: (colours.colour(v) or v) if k in ("fill", "stroke") else v
                for k, v in shape.items()
            }
            shapes.append(shape)
            kind = shape.get("type")
            if kind not in SHAPES:
                problems.error(
                    _(
                        "icon '{name}': shape type must be one of {shapes}, got {kind!r}",
                        name=name,
                        shapes=", ".join(SHAPES),
                        kind=kind,
                    ),
                    where,
                )
                continue
            missing = SHAPES[kind] - set(shape)
            extra = set(shape) - SHAPES[kind] - STYLE - {"type"}
            if missing or extra:
                problems.error(
                    _(
                        "icon '{name}': a {kind} needs {keys}",
                        name=name,
                        kind=kind,
                        keys=", ".join(sorted(SHAPES[kind])),
                    )
                    + ("; " + _("unknown: {keys}", keys=", ".join(sorted(extra))) if extra else ""),
                    where,
                )
            for key in ("fill", "stroke"):
                if key in shape and colours.colour(shape[key]) is None:
                    problems.error(
                        _(
                            "icon '{name}': '{key}' must be a colour like #D9482B or one of "
                            "{names}",
                            name=name,
                            key=key,
                            names=colours.NAMES,
                        ),
                        where,
                    )
        if not shapes:
            problems.error(_("icon '{name}' has no shapes", name=name), where)
        icons[name] = Icon(
            name, tuple(shapes), float(spec.get("advance", 1.0)), chr(FIRST + i), where
        )
    problems.raise_if_errors()
    return IconSet(icons)
