"""Registers a build's font subsets with ReportLab, so every font in every PDF is embedded and
subset.

Fed by layout's `Fonts` (roles, faces and the characters each role must carry).
"""

from __future__ import annotations

import hashlib
import io

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..cache import Cache
from ..fonts import subset_truetype
from ..layout.faces import Fonts


def subsets(fonts: Fonts, cache: Cache) -> dict[str, bytes]:
    """Each role's TrueType subset: every character the game's outputs registered (cached)."""
    return {
        role: subset_truetype(metrics.face, fonts.chars.get(role, set()) | {" "}, cache)
        for role, metrics in fonts.metrics.items()
    }


def register(fonts: Fonts, cache: Cache) -> dict[str, str]:
    """ReportLab font names per role. Names carry a hash of the subset, so games never clash."""
    names = {}
    for role, data in subsets(fonts, cache).items():
        metrics = fonts.metrics[role]
        name = f"{metrics.face.family.replace(' ', '')}-{role}-{hashlib.sha1(data).hexdigest()[:8]}"
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, io.BytesIO(data)))
        names[role] = name
    return names
