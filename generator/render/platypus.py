"""reportlab.platypus, imported without the one cost of it pnp never uses.

ReportLab's paragraph module compiles, when imported, a case-insensitive URL pattern whose
character classes span all of Unicode: about 60 ms on a slow machine, a tenth of a rebuild
after a one-row edit that redraws the rulebook. It serves only paragraphs styled with
`uriWasteReduce`, which pnp never sets. Importing platypus through this module (before any
`from reportlab.platypus import …`) compiles that one pattern on first use instead; any other
pattern, or a ReportLab whose pattern reads differently, compiles as usual.
"""

from __future__ import annotations

import re
import sys

_compile = re.compile
_URL_START = "(^(?:[a-z0-9\\.\\-\\+]*)://)"  # how paragraph.py's URL pattern begins


class Deferred:
    """A pattern compiled when first used (any attribute: match, search, pattern…)."""

    def __init__(self, pattern: str, flags: int):
        self._args = (pattern, flags)
        self._compiled: re.Pattern | None = None

    def __getattr__(self, name: str):
        if self._compiled is None:
            self._compiled = _compile(*self._args)
        return getattr(self._compiled, name)


def _deferring(pattern, flags=0):
    if isinstance(pattern, str) and pattern.startswith(_URL_START) and flags & re.IGNORECASE:
        return Deferred(pattern, flags)
    return _compile(pattern, flags)


if "reportlab.platypus.paragraph" not in sys.modules:
    re.compile = _deferring
    try:
        import reportlab.platypus  # noqa: F401
    finally:
        re.compile = _compile
