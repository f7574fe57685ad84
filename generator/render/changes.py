"""changes.pdf: a release's 「変更点」 sheet, its changes.md set on an A4 page (more when the
changes are many) in the game's fonts, to hand a playtest group with the reprint sheets."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.platypus import SimpleDocTemplate

from ..layout.units import MM
from .rulebook import TextBlock, styles


def pdf(markdown: str, fonts, cache, title: str) -> bytes:
    """The sheet: `#` the title, `##` a heading, `- ` an item, other lines paragraphs."""
    from . import fonts as render_fonts

    for line in markdown.splitlines():
        fonts.use("bold" if line.startswith("#") else "body", line.lstrip("#- "))
    names = render_fonts.register(fonts, cache)
    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf,
        pagesize=A4,
        leftMargin=18 * MM,
        rightMargin=18 * MM,
        topMargin=16 * MM,
        bottomMargin=16 * MM,
        title=f"{title} 変更点",
        author="pnp",
        creator="pnp generator",
        invariant=1,
        initialFontName=names["body"],
    )
    st = styles(names, 12)
    story = []
    for line in markdown.splitlines():
        if not line.strip():
            continue
        if line.startswith("## "):
            story.append(TextBlock(line[3:], st["h2"]))
        elif line.startswith("# "):
            story.append(TextBlock(line[2:], st["title"]))
        elif line.startswith("- "):
            story.append(TextBlock(line[2:], st["item"], "・"))
        else:
            story.append(TextBlock(line, st["body"]))
    doc.build(story)
    return buf.getvalue()
