"""Output builders: one registry of everything `pnp build` can write, by format name.

A builder says what it needs from a laid-out plan (`applies`), registers the glyphs of the words
it prints itself (`glyphs`, before fonts are subset), and turns a plan into files (`build`,
bytes by path; output writes them). A builder that can name everything its files depend on
(`key`) is not run again when that is as it was at the last build and its files are still as
that build wrote them: the files are kept, its problems said again. `pnp build --format
NAME[,NAME…]` picks builders; by default those marked `default`. Every applicable builder
registers its glyphs whichever are picked, so a file's bytes do not depend on what else was
built with it.

To add a format: a module here with a `Builder` subclass, and one line in `_register()`.
"""

from __future__ import annotations

import hashlib
import pickle
import string
from dataclasses import dataclass, field
from pathlib import Path

from ..builds import as_written, file_digests
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
    kept: list[str] = field(default_factory=list)  # files kept from the last build, not drawn


class Builder:
    name: str = ""
    what: str = ""  # one line for `pnp build --help`
    default: bool = True
    needs: str = ""  # what it reads from a plan, in words
    file: str = ""  # the one file it writes under output/<game>/, if it writes one

    def applies(self, plan: Plan) -> bool:
        """Whether this game has anything for this builder to write."""
        raise NotImplementedError

    def key(self, job: Job) -> str | None:
        """A digest of everything this builder's files depend on (after the fonts are
        registered), or None when it cannot say: then it always draws."""
        return None

    def files(self, plan: Plan) -> list[str]:
        """The names of the files it writes under output/<game>/."""
        if not self.file:
            raise NotImplementedError
        return [self.file]

    def glyphs(self, plan: Plan) -> None:
        """Register the characters of the words it prints besides the game's own text."""

    def build(self, job: Job) -> dict[Path, bytes]:
        raise NotImplementedError


def digest_of(*parts) -> str:
    """A key from the parts' repr, pnp's own code and data and the messages' language in it."""
    from .. import i18n
    from ..cache import code_digest

    text = repr((code_digest(), i18n.language(), parts))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


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
            files.update(_drawn_or_kept(builder, job))
    return files


def _drawn_or_kept(builder: Builder, job: Job) -> dict[Path, bytes]:
    """The builder's files: those of the last build when its key is the same and the files
    are on disk as written then (with the problems it said), else drawn, and the key kept."""
    key = builder.key(job)
    record_name = f"parts/{job.plan.game.id}/{builder.name}"
    if key is not None:
        kept = _kept(job, record_name, key)
        if kept is not None:
            return kept
    before = len(job.problems.items)
    made = builder.build(job)
    if key is not None:
        record = (key, file_digests(made, job.out), job.problems.items[before:])
        job.cache.write(record_name, pickle.dumps(record, protocol=5))
    return made


def _kept(job: Job, record_name: str, key: str) -> dict[Path, bytes] | None:
    data = job.cache.read(record_name)
    try:
        kept_key, files, problems = pickle.loads(data) if data else (None, (), ())
    except Exception:  # a record from another version of pnp, or damaged: draw again
        return None
    if kept_key != key or not files:
        return None
    out = as_written(job.out, files)  # None: changed or removed since, so drawn again
    if out is None:
        return None
    job.problems.items.extend(problems)
    job.kept += [name for name, _digest in files]
    return out
