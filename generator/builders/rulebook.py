"""rulebook.pdf, summary.pdf and summary.md from the rendered rules source.

The words these builders add (the document titles, the footer, the players line) are theirs;
they register their glyphs.
"""

from __future__ import annotations

from pathlib import Path

from .. import printed
from ..i18n import _
from ..layout.plan import Plan
from ..layout.rulebook import ADDED_NOTE, FROM_DATA, Block, Rulebook, directive_table
from ..model import Game
from ..problems import SourceRef
from ..rulesource import to_markdown
from ..typeset import set_digits
from ..versions import feedback_url
from . import Builder, Job, digest_of

QUICK_REFERENCE = "クイックリファレンス"
RULEBOOK = "ルールブック"


def summary_heading(book: Rulebook, language: str = "ja", version: str = "") -> str:
    heading = f"{book.title} {printed.say(language, QUICK_REFERENCE)}"
    return (
        f"{heading}（{version}）"
        if version and language == "ja"
        else (f"{heading} ({version})" if version else heading)
    )


def players_line(game: Game) -> str:
    lo, hi = game.manifest.players
    language = game.manifest.language
    words = printed.say(language, "{lo}〜{hi}人", lo=lo, hi=hi)
    return set_digits(words, game.manifest.digits) if language == "ja" else words


def footer(book: Rulebook, page: int, version: str = "", language: str = "ja") -> str:
    """A rulebook page's foot: the title, the page number and the version, spaced apart by an
    ideographic space in Japanese, by two spaces in a Latin script."""
    gap = printed.say(language, "　")
    said = f"{book.title}{gap}— {page} —"
    return f"{said}{gap}{version}" if version else said


class _FromRules(Builder):
    """A builder of the rendered rules source: it applies to every game that has one."""

    def applies(self, plan: Plan) -> bool:
        return plan.book is not None


def _icons(plan: Plan) -> str:
    """The icons `:name:` in the rules text may draw, as drawn (icons.toml edited: drawn again)."""
    icons = plan.icons.icons if plan.icons is not None else {}
    return repr(sorted((name, icon.shapes, icon.advance) for name, icon in icons.items()))


def _tables(blocks, game: Game) -> list:
    """The tables the data gives the directives among `blocks`, as they stand now."""
    return [
        directive_table(b, game).items
        for b in blocks
        if b.kind == "directive" and b.text != "samples"
    ]


class RulebookBuilder(_FromRules):
    name = "rulebook"
    what = "rulebook.pdf: the rules source typeset, with tables and sample cards from the data"
    default = True
    needs = "the rendered rules source and sample faces"
    file = "rulebook.pdf"

    def glyphs(self, plan: Plan) -> None:
        language = plan.game.manifest.language
        plan.fonts.use(
            "body",
            footer(plan.book, 0, plan.game.manifest.version, plan.game.manifest.language)
            + feedback_url(plan.game.manifest)
            + printed.say(language, ADDED_NOTE)
            + printed.say(language, FROM_DATA)
            + printed.say(language, "・"),  # a list item's bullet
        )

    def key(self, job: Job) -> str | None:
        plan, book = job.plan, job.plan.book
        samples = {
            name: ([(label, face.key) for label, face in faces], size)
            for name, (faces, size) in plan.samples.items()
        }
        return digest_of(
            self.name,
            book.title,
            book.blocks,
            _tables(book.blocks, plan.game),
            samples,
            sorted((src, repr(found)) for src, found in plan.pictures.items()),
            _icons(plan),
            plan.game.manifest.mark_added,
            sorted(job.font_names.items()),
            plan.paper,
            plan.game.words,
            plan.game.manifest.rulebook_size,
            plan.game.manifest.rulebook_measure,
            plan.game.manifest.language,
            plan.game.manifest.version,
            feedback_url(plan.game.manifest),
        )

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render import rulebook as render_rulebook

        plan, book = job.plan, job.plan.book
        data = render_rulebook.rulebook_pdf(
            book,
            plan.game,
            plan.samples,
            job.font_names,
            plan.paper,
            f"{book.title} {printed.say(plan.game.manifest.language, RULEBOOK)}",
            lambda page: footer(
                book, page, plan.game.manifest.version, plan.game.manifest.language
            ),
            plan.pictures,
            plan.icons,
            feedback_url(plan.game.manifest),
        )
        return {job.out / self.file: data}


class SummaryPdfBuilder(_FromRules):
    name = "summary"
    what = "summary.pdf: the marked parts of the rules on one page, in two columns"
    default = True
    needs = "the rendered rules source's summary sections"
    file = "summary.pdf"

    def glyphs(self, plan: Plan) -> None:
        plan.fonts.use(
            "bold",
            summary_heading(plan.book, plan.game.manifest.language, plan.game.manifest.version),
        )
        plan.fonts.use(
            "body", players_line(plan.game) + printed.say(plan.game.manifest.language, "・")
        )

    def key(self, job: Job) -> str | None:
        plan, book = job.plan, job.plan.book
        blocks = [b for section in book.summary for b in section.blocks]
        return digest_of(
            self.name,
            summary_heading(book, plan.game.manifest.language, plan.game.manifest.version),
            players_line(plan.game),
            [(section.title, section.blocks) for section in book.summary],
            _tables(blocks, plan.game),
            _icons(plan),
            plan.game.manifest.mark_added,
            sorted(job.font_names.items()),
            plan.paper,
            plan.game.words,
        )

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render import rulebook as render_rulebook

        plan, book = job.plan, job.plan.book
        data, over = render_rulebook.summary_pdf(
            book,
            plan.game,
            job.font_names,
            plan.paper,
            summary_heading(book, plan.game.manifest.language, plan.game.manifest.version),
            players_line(plan.game),
            plan.icons,
        )
        if over is not None:
            job.problems.warning(
                _(
                    "the summary does not fit one page at 8 pt, the least it is played from: "
                    "its parts fill {pages:.1f} pages, the longest 「{title}」 {share:.0%} of "
                    "them; shorten it or mark less with <!-- summary: … -->",
                    pages=over.pages,
                    title=over.title,
                    share=over.share,
                ),
                SourceRef(book.where.file, over.line or None, sheet=book.where.sheet),
            )
        return {job.out / self.file: data}


class SummaryMarkdownBuilder(_FromRules):
    name = "summary-md"
    what = "summary.md: the same summary as Markdown, for a wiki or a chat"
    default = True
    needs = "the rendered rules source's summary sections"
    file = "summary.md"

    def build(self, job: Job) -> dict[Path, bytes]:
        text = summary_markdown(job.plan.book, job.plan.game)
        return {job.out / self.file: text.encode("utf-8")}


def summary_markdown(book: Rulebook, game: Game) -> str:
    heading = summary_heading(book, game.manifest.language, game.manifest.version)
    out = [f"# {heading}", "", players_line(game), ""]
    for section in book.summary:
        out += [f"## {section.title}", ""]
        for block in section.blocks:
            out += [*_markdown(block, game), ""]
    return "\n".join(out).rstrip() + "\n"


def _markdown(block: Block, game: Game) -> list[str]:
    md = to_markdown
    if block.kind == "heading":
        return ["#" * (block.level + 1) + " " + md(block.text)]
    indent = "    " * block.depth  # a list inside an item
    if block.kind == "list":
        return [f"{indent}- {md(item)}" for item in block.items]
    if block.kind == "olist":
        first = block.level or 1
        return [f"{indent}{i}. {md(item)}" for i, item in enumerate(block.items, first)]
    if block.kind == "table":
        rows = [[md(cell) for cell in r] for r in block.items]
        head = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        return head + ["| " + " | ".join(r) + " |" for r in rows[1:]]
    if block.kind == "directive":
        if block.text in {"deal", "components"}:
            return _markdown(directive_table(block, game), game)
        return []
    return [("> " if block.quote else "") + md(block.text)]
