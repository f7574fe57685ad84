"""Golden dumps: what each output holds, as readable text. Refresh on purpose with PNP_REFRESH_GOLDEN=1."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pypdf

from pdfread import MM, page_size_mm, placements, text_in

GOLDEN = Path(__file__).parent / "golden"


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
            out.append(
                f"  card at ({p.x / MM:6.1f}, {p.y / MM:6.1f}) mm, {(x1 - x0) / MM:.1f} x {(y1 - y0) / MM:.1f} "
                f"mm with bleed: {text}"
            )
    return "\n".join(out) + "\n"


def compare(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PNP_REFRESH_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"no golden file {name}: run with PNP_REFRESH_GOLDEN=1 once and commit it"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), name, "built")
        )
        raise AssertionError(
            f"{name} differs from the build (PNP_REFRESH_GOLDEN=1 to accept):\n{diff[:4000]}"
        )


def test_cards_golden(built):
    compare("fudaraku_cards.txt", dump_cards(built / "fudaraku/cards.pdf"))


def test_summary_golden(built):
    compare("fudaraku_summary.md", (built / "fudaraku/summary.md").read_text(encoding="utf-8"))
