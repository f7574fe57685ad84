"""changes.pdf: a release's 「変更点」 sheet, its changes.md set on an A4 page (more when the
changes are many) in the game's fonts, to hand a playtest group with the reprint sheets."""

from __future__ import annotations

import io

from .. import printed
from .report import document
from .rulebook import TextBlock, styles


def pdf(markdown: str, fonts, cache, title: str, language: str = "ja") -> bytes:
    """The sheet: `#` the title, `##` a heading, `- ` an item, other lines paragraphs."""
    from . import fonts as render_fonts

    dot = printed.say(language, "・")  # an item's bullet
    for line in markdown.splitlines():
        fonts.use("bold" if line.startswith("#") else "body", line.lstrip("#- ") + dot)
    names = render_fonts.register(fonts, cache)
    buf = io.BytesIO()
    doc = document(buf, f"{title} 変更点", names)
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
            story.append(TextBlock(line[2:], st["item"], dot))
        else:
            story.append(TextBlock(line, st["body"]))
    doc.build(story)
    return buf.getvalue()
