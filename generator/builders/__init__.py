"""Output builders: one registry of everything `pnp build` can write, by format name.

A builder says what it needs from a laid-out plan (`applies`), registers the glyphs of the words
it prints itself (`glyphs`, before fonts are subset), and turns a plan into files (`build`,
bytes by path; output writes them). `pnp build --format NAME[,NAME…]` picks builders; by
default those marked `default`. Every applicable builder registers its glyphs whichever are
picked, so a file's bytes do not depend on what else was built with it.

To add a format: a module here with a `Builder` subclass, and one line in `_register()`.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from pathlib import Path

from ..cache import Cache
from ..fonts import FontIndex
from ..i18n import _
from ..layout.plan import Plan
from ..problems import BuildError, Problems


@dataclass
class Job:
    """One game's build: its plan, where its files go, the registered fonts and the problems."""

    plan: Plan
    out: Path  # output/<game>/
    cache: Cache
    problems: Problems
    font_names: dict[str, str] = field(default_factory=dict)  # role -> registered font name
    font_index: FontIndex | None = None


class Builder:
    name: str = ""
    what: str = ""  # one line for `pnp build --help`
    default: bool = True
    needs: str = ""  # what it reads from a plan, in words

    def applies(self, plan: Plan) -> bool:
        """Whether this game has anything for this builder to write."""
        raise NotImplementedError

    def files(self, plan: Plan) -> list[str]:
        """The names of the files it writes under output/<game>/."""
        raise NotImplementedError

    def glyphs(self, plan: Plan) -> None:
        """Register the characters of the words it prints besides the game's own text."""

    def build(self, job: Job) -> dict[Path, bytes]:
        raise NotImplementedError


REGISTRY: dict[str, Builder] = {}

# Characters any output may print besides its words and the game's text: page numbers, sheet
# counts, measures on the ruler, labels of tiles. Every builder's fonts carry them.
COMMON_GLYPHS = string.printable.strip() + " —〜・、。（）「」：×％/　○＋"


def use_common_glyphs(fonts) -> None:
    for role in ("body", "bold"):
        fonts.use(role, COMMON_GLYPHS)


def register(builder: Builder) -> Builder:
    if builder.name in REGISTRY:
        raise ValueError(f"two builders named {builder.name!r}")
    REGISTRY[builder.name] = builder
    return builder


def _register() -> None:
    from ..kinds import KINDS
    from . import board, dice, faces, html, rulebook, sheets, simulation, tts, tuckbox

    for kind in KINDS.values():  # one sheet file per kind laid out on sheets: cards, tokens…
        if kind.layout == "sheets":
            register(sheets.SheetsBuilder(kind.output, kind.heading))
    register(board.BoardBuilder())
    register(dice.DiceBuilder())
    register(rulebook.RulebookBuilder())
    register(rulebook.SummaryPdfBuilder())
    register(rulebook.SummaryMarkdownBuilder())
    register(simulation.SimulationBuilder())
    register(faces.PrintshopBuilder())
    register(faces.PngBuilder())
    register(tts.TtsBuilder())
    register(html.HtmlBuilder())
    register(tuckbox.TuckBoxBuilder())


_register()


def defaults() -> list[str]:
    return [name for name, b in REGISTRY.items() if b.default]


def select(formats: list[str] | None) -> list[Builder]:
    """The builders named (in registry order), or the default ones; an unknown name is an error."""
    if not formats:
        return [b for b in REGISTRY.values() if b.default]
    unknown = [f for f in formats if f not in REGISTRY]
    if unknown:
        raise BuildError(
            _(
                "unknown format {name!r} (formats: {names}; default: {defaults})",
                name=unknown[0],
                names=", ".join(REGISTRY),
                defaults=", ".join(defaults()),
            )
        )
    return [b for name, b in REGISTRY.items() if name in formats]


def build_game(job: Job, picked: list[Builder]) -> dict[Path, bytes]:
    """Every picked builder's files for one game, fonts registered once for all of them."""
    from ..render import fonts as render_fonts

    use_common_glyphs(job.plan.fonts)
    for builder in REGISTRY.values():
        if builder.applies(job.plan):
            builder.glyphs(job.plan)
    job.font_names = render_fonts.register(job.plan.fonts, job.cache)
    files: dict[Path, bytes] = {}
    for builder in picked:
        if builder.applies(job.plan):
            files.update(builder.build(job))
    return files
