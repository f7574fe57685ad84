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
