"""cards.pdf, tokens.pdf…: a kind's sheets, with a proof page that says how to print them.

The words of the proof page and the sheet labels are this builder's; it registers their glyphs.
"""

from __future__ import annotations

from pathlib import Path

from .. import printed
from ..layout.plan import DeckSheets, Plan
from ..layout.units import MM
from ..versions import feedback_url
from . import Builder, Job

PROOF_LINES = (
    "このPDFは「実際のサイズ」（100%）で印刷してください。",
    "「用紙に合わせる」「縮小」で印刷すると、寸法が合いません。",
    "印刷したら、下のものさしが100 mmあるか定規で確かめてください。",
)
DUPLEX_LINE = "両面印刷は「長辺とじ」を選んでください。表の次のページが、その裏面です。"
FOLD_LINE = (
    "折り返しシート：片面印刷で構いません。中央の一点鎖線で山折り（印刷面が外）にし、"
    "貼り合わせてから切ってください。"
)
SIDES = ("表", "裏")  # the front and back sheet labels
TURNED = "（横向き）"  # cards lie sideways on the sheet
PROOF_LINES_ON = (  # the proof page of a --proof build
    "校正用（--proof）: 赤紫の実線＝裁ち線、水色の破線＝塗り足しの端、",
    "緑の破線＝安全領域（文字はこの内側に）。印刷用には --proof なしでビルドしてください。",
)


def proof_text(
    title: str,
    heading: str,
    decks: list[DeckSheets],
    paper: str,
    offset=None,
    language="ja",
    version: str = "",
) -> list[str]:
    """The proof page: a heading, how to print, and one line per deck (count, size, grid, bleed),
    in the language of the edition."""

    def say(text: str, **fields) -> str:
        return printed.say(language, text, **fields)

    lines = [f"{title}{say('　')}{say(heading or '印刷用シート')}", *(say(t) for t in PROOF_LINES)]
    if version:  # which printing this is: a playtester holding two can tell them apart
        lines.insert(1, say("版：{version}", version=version))
    if any(d.geometry.backs and d.geometry.fold is None for d in decks):
        lines.append(say(DUPLEX_LINE))
        if offset:
            lines.append(offset_words(offset, language))
    if any(d.geometry.fold is not None for d in decks):
        lines.append(say(FOLD_LINE))
    lines.append("")
    for d in decks:
        g = d.geometry
        lines.append(
            say(
                "{name}：{count}{unit}　{w}×{h} mm　{cols}×{rows}/シート{turned}　{bleed}　"
                "用紙 {paper}（余白 {margin} mm）",
                name=d.name,
                count=len(d.faces),
                unit=printed.unit(language, d.unit, len(d.faces)),
                w=f"{g.card[0] / MM:g}",
                h=f"{g.card[1] / MM:g}",
                cols=g.cols,
                rows=g.rows,
                turned=say(TURNED) if g.turned else "",
                bleed=bleed_words(g, language),
                paper=paper.upper(),
                margin=f"{g.margin / MM:g}",
            )
        )
        if shared := shared_words(g):
            lines.append(f"{say('　')}{say(shared)}")  # under its deck's line
    return lines


def sides(language: str) -> tuple[str, str]:
    """The front and back sheet labels in the edition's language."""
    return tuple(printed.say(language, side) for side in SIDES)


def use_sheet_glyphs(fonts, lines: list[str], decks: list[DeckSheets], language="ja") -> None:
    """The characters of a sheets PDF's own words: its proof page (the first line in bold),
    the sheet labels (deck names, 表 and 裏). The faces' are the layout's."""
    fonts.use("bold", lines[0])
    for line in [*lines[1:], *(d.name for d in decks), "".join(sides(language))]:
        fonts.use("body", line)


def offset_words(offset, language: str = "ja") -> str:
    """The proof page's line for the back-page offset in use (pnp calibrate)."""
    printer = printed.say(language, "（プリンター {name}）", name=offset.printer)
    return printed.say(
        language,
        "裏面の位置補正{printer}：右へ {x} mm・上へ {y} mm・回転 {r}°（裏から見て。pnp calibrate "
        "で測った値）",
        printer=printer if offset.printer else "",
        x=f"{offset.x:+.2f}",
        y=f"{offset.y:+.2f}",
        r=f"{offset.rotate:+.2f}",
    )


def bleed_words(g, language: str = "ja") -> str:
    """'塗り足し 3 mm', or each direction's where they differ."""
    a, d = g.across, g.down
    if a is None or d is None or abs(a.bleed - d.bleed) < 0.01 * MM:
        return printed.say(language, "塗り足し {bleed} mm", bleed=f"{g.bleed / MM:g}")
    return printed.say(
        language,
        "塗り足し 左右 {across} mm・上下 {down} mm",
        across=f"{a.bleed / MM:g}",
        down=f"{d.bleed / MM:g}",
    )


def shared_words(g) -> str:
    """How the cards lie where the paper has no room for gutters: the proof page says so,
    since a cut on a shared line must be exact."""
    a, d = g.across, g.down
    if a is None or d is None:
        return ""
    if a.butted and d.butted:
        return SHARED_BOTH
    if a.butted:
        return SHARED_ACROSS
    if d.butted:
        return SHARED_DOWN
    return ""


SHARED_BOTH = (
    "カードは隣のカードと裁ち線を共有します（塗り足しは外周だけ）。線の上を正確に切ってください。"
)
SHARED_ACROSS = (
    "横に並ぶカードは裁ち線を共有します（塗り足しは外周と上下だけ）。"
    "共有の線の上を正確に切ってください。"
)
SHARED_DOWN = (
    "縦に並ぶカードは裁ち線を共有します（塗り足しは外周と左右だけ）。"
    "共有の線の上を正確に切ってください。"
)


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

    def proof(self, plan: Plan) -> list[str]:
        """The proof page's lines for this kind's decks, in the edition's language."""
        return proof_text(
            plan.game.title,
            self.heading,
            plan.sheets[self.name],
            plan.paper_name,
            plan.back_offset,
            plan.game.manifest.language,
            plan.game.manifest.version,
        )

    def glyphs(self, plan: Plan) -> None:
        decks, language = plan.sheets[self.name], plan.game.manifest.language
        lines = self.proof(plan)
        on = [printed.say(language, line) for line in PROOF_LINES_ON]
        use_sheet_glyphs(
            plan.fonts, [*lines, *on, feedback_url(plan.game.manifest)], decks, language
        )

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render import pdf

        plan = job.plan
        decks, language = plan.sheets[self.name], plan.game.manifest.language
        lines = self.proof(plan)
        doc_title = f"{plan.game.title} {printed.say(language, self.heading)}"
        if plan.proof:
            lines = [*lines, "", *(printed.say(language, line) for line in PROOF_LINES_ON)]
        data = pdf.sheets_pdf(
            doc_title,
            lines,
            decks,
            job.font_names,
            sides(language),
            proof=plan.proof,
            back_offset=plan.back_offset,
            feedback=feedback_url(plan.game.manifest),
        )
        return {job.out / f"{self.name}.pdf": data}
