"""Colours as a designer writes them: #RRGGBB, #RGB or a name. One reading for data columns of
type color, layouts' fill/stroke/color, markup's {color=…}, icons and the tuck box."""

from __future__ import annotations

import re

NAMED = {
    "red": "#C8102E",
    "blue": "#1F5FBF",
    "green": "#2E8B3A",
    "black": "#000000",
    "white": "#FFFFFF",
    "gray": "#808080",
    "grey": "#808080",
    "orange": "#E07A10",
    "purple": "#6A3D9A",
    "yellow": "#E8B400",
}
NAMES = ", ".join(NAMED)  # for messages
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def colour(text: object) -> str | None:
    """`text` as #RRGGBB (upper case), or None when it is no colour."""
    if not isinstance(text, str):
        return None
    value = text.strip()
    if value.lower() in NAMED:
        return NAMED[value.lower()]
    if not _HEX.fullmatch(value):
        return None
    value = value.upper()
    return "#" + "".join(ch * 2 for ch in value[1:]) if len(value) == 4 else value


def ink(fill: object, dark: str = "#222222", light: str = "#FFFFFF") -> str:
    """The text colour that reads on `fill`: dark on a light colour (a white or yellow row),
    white on a dark one; by the colour's relative luminance (WCAG), the brighter contrast of
    the two. A value that is no colour gets the dark ink."""
    rgb = colour(fill)
    if rgb is None:
        return dark

    def channel(hex2: str) -> float:
        c = int(hex2, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(rgb[i : i + 2]) for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    # contrast with white (1.05 / (lum + 0.05)) against with near-black (~(lum + 0.05) / 0.066)
    return light if 1.05 / (lum + 0.05) >= (lum + 0.05) / 0.066 else dark
