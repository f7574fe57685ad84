"""board.pdf (and board-a3.pdf or board-a2.pdf): a board on one page, or as poster tiles with a
guide page.

The guide page's words are this builder's; it registers their glyphs.
"""

from __future__ import annotations

from pathlib import Path

from .. import printed
from ..layout.plan import Plan
from ..layout.sheets import Tiling
from ..layout.units import MM
from . import Builder, Job
from .sheets import PROOF_LINES

TILES = "{w}×{h} mm のボードを {n} 枚に分けて印刷します（のりしろ {overlap} mm）。"
JOIN = (
    "２枚目からは各ページの点線で余白を切り落とし、のりしろを隣の紙に重ねて"
    "○＋の印を合わせ、貼り合わせてください。"
)
ORDER = "A1 が左上です。数字は右へ、アルファベットは下へ進みます。"


def guide_text(title: str, name: str, tiling: Tiling, language: str = "ja") -> list[str]:
    """What the first page of a tiled board says, in the edition's language."""
    bw, bh = tiling.board
    said = printed.say(
        language,
        TILES,
        w=f"{bw / MM:g}",
        h=f"{bh / MM:g}",
        n=len(tiling.tiles),
        overlap=f"{tiling.overlap / MM:g}",
    )
    lines = (printed.say(language, line) for line in (*PROOF_LINES, JOIN, ORDER))
    return [f"{title}{printed.say(language, '　')}{name}", said, *lines]


class BoardBuilder(Builder):
    name = "board"
    what = (
        "board.pdf: each board on one page or as poster tiles; board-a3.pdf (or -a2) in one piece"
    )
    default = True
    needs = "boards with their tilings"

    def applies(self, plan: Plan) -> bool:
        return bool(plan.boards)

    def files(self, plan: Plan) -> list[str]:
        return [file for b in plan.boards for file in b.tilings]

    def glyphs(self, plan: Plan) -> None:
        for board in plan.boards:
            for tiling in board.tilings.values():
                title, *lines = guide_text(
                    plan.game.title, board.name, tiling, plan.game.manifest.language
                )
                plan.fonts.use("bold", title + "".join(t.label for t in tiling.tiles))
                for line in lines:
                    plan.fonts.use("body", line)

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render import board as render_board

        title = job.plan.game.title
        files = {}
        for b in job.plan.boards:
            for file, tiling in b.tilings.items():
                guide = guide_text(title, b.name, tiling, job.plan.game.manifest.language)
                files[job.out / file] = render_board.board_pdf(
                    f"{title} {b.name}", guide, b.face, tiling, job.font_names
                )
        return files
