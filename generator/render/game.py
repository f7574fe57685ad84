"""The render stage for one game: every PDF of a laid-out `Plan` as bytes, keyed by output path.

Fed by layout's `Plan`; output writes what this returns.
"""

from __future__ import annotations

from pathlib import Path

from ..layout.plan import Plan
from ..output import Cache
from ..problems import Problems
from . import board, fonts, pdf, rulebook


def render(plan: Plan, out: Path, cache: Cache, problems: Problems) -> dict[Path, bytes]:
    names = fonts.register(plan.fonts, cache)
    title = plan.game.title
    files = {
        out / f"{output}.pdf": pdf.sheets_pdf(title, output, decks, plan.paper_name, names)
        for output, decks in plan.sheets.items()
    }
    for b in plan.boards:
        for file, tiling in b.tilings.items():
            files[out / file] = board.board_pdf(title, b.name, b.face, tiling, names)
    if plan.book:
        page = plan.paper
        files[out / "rulebook.pdf"] = rulebook.rulebook_pdf(
            plan.book, plan.game, plan.samples, names, page
        )
        data, one_page = rulebook.summary_pdf(
            plan.book, plan.game, names, page, f"{plan.book.title} クイックリファレンス"
        )
        if not one_page:
            problems.warning(
                "the marked summary parts do not fit one page even at 6.5 pt; "
                "mark less with <!-- summary: … -->",
                plan.book.where,
            )
        files[out / "summary.pdf"] = data
        files[out / "summary.md"] = plan.summary_md.encode("utf-8")
    return files
