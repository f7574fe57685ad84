"""cards.pdf, tokens.pdf…: a kind's sheets, with a proof page that says how to print them.

The words of the proof page and the sheet labels are this builder's; it registers their glyphs.
"""

from __future__ import annotations

from pathlib import Path

from ..layout.plan import DeckSheets, Plan
from ..layout.units import MM
from . import Builder, Job

PROOF_LINES = (
    "このPDFは「実際のサイズ」（100%）で印刷してください。",
    "「用紙に合わせる」「縮小」で印刷すると、寸法が合いません。",
    "印刷したら、下のものさしが100 mmあるか定規で確かめてください。",
)
DUPLEX_LINE = "両面印刷は「長辺とじ」を選んでください。表の次のページが、その裏面です。"
SIDES = ("表", "裏")  # the front and back sheet labels
TURNED = "（横向き）"  # cards lie sideways on the sheet


def proof_text(title: str, heading: str, decks: list[DeckSheets], paper: str) -> list[str]:
    """The proof page: a heading, how to print, and one line per deck (count, size, grid, bleed)."""
    lines = [f"{title}　{heading or '印刷用シート'}", *PROOF_LINES]
    if any(d.geometry.backs for d in decks):
        lines.append(DUPLEX_LINE)
    lines.append("")
    for d in decks:
        g = d.geometry
        lines.append(
            f"{d.name}：{len(d.faces)}{d.unit}　{g.card[0] / MM:g}×{g.card[1] / MM:g} mm　"
            f"{g.cols}×{g.rows}/シート{TURNED if g.turned else ''}　塗り足し {g.bleed / MM:g} mm　"
            f"用紙 {paper.upper()}"
        )
    return lines


class SheetsBuilder(Builder):
    """The sheets of one kind's output (cards, tokens): every deck of that kind, in manifest
    order."""

    default = True
    needs = "decks laid out on sheets"

    def __init__(self, name: str, heading: str):
        self.name, self.heading = name, heading
        self.what = f"{name}.pdf: proof page, then each front sheet and its mirrored back sheet"

    def applies(self, plan: Plan) -> bool:
        return bool(plan.sheets.get(self.name))

    def files(self, plan: Plan) -> list[str]:
        return [f"{self.name}.pdf"]

    def glyphs(self, plan: Plan) -> None:
        decks = plan.sheets[self.name]
        title, *lines = proof_text(plan.game.title, self.heading, decks, plan.paper_name)
        plan.fonts.use("bold", title)
        for line in lines:
            plan.fonts.use("body", line)
        for d in decks:
            plan.fonts.use("body", d.name)
        plan.fonts.use("body", "".join(SIDES))

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render import pdf

        plan = job.plan
        decks = plan.sheets[self.name]
        lines = proof_text(plan.game.title, self.heading, decks, plan.paper_name)
        doc_title = f"{plan.game.title} {self.heading}"
        data = pdf.sheets_pdf(doc_title, lines, decks, job.font_names, SIDES)
        return {job.out / f"{self.name}.pdf": data}
