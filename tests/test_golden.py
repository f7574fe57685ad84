"""Golden dumps of the `tiny` fixture's outputs as readable text: every card's place, size and
text, and the summary. Refresh on purpose with PNP_REFRESH_GOLDEN=1."""

from __future__ import annotations

from pathlib import Path

import pypdf

from conftest import golden
from pdfread import MM, page_size_mm, placements, text_in


def dump_cards(pdf: Path) -> str:
    out = []
    for i in range(len(pypdf.PdfReader(pdf).pages)):
        w, h = page_size_mm(pdf, i)
        out.append(f"page {i + 1}: {w:.1f} x {h:.1f} mm")
        for p in placements(pdf, i):
            x0, y0, x1, y1 = p.bbox  # the bleed box: -b .. w + b
            trim_w, trim_h = x1 + x0, y1 + y0
            text = text_in(pdf, i, (p.x, p.y, p.x + trim_w, p.y + trim_h))
            text = " ".join(text.split())
            v0, w0, v1, w1 = p.visible
            out.append(
                f"  card at ({p.x / MM:6.1f}, {p.y / MM:6.1f}) mm, printed {(v1 - v0) / MM:.1f} x "
                f"{(w1 - w0) / MM:.1f} mm at ({v0 / MM:.1f}, {w0 / MM:.1f}): {text}"
            )
    return "\n".join(out) + "\n"


def test_cards_golden(tiny_built):
    golden("tiny_cards.txt", dump_cards(tiny_built / "cards.pdf"))


def test_summary_golden(tiny_built):
    golden("tiny_summary.md", (tiny_built / "summary.md").read_text(encoding="utf-8"))
