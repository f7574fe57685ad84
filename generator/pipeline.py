"""The whole build on one screen: load, validate, model, check, lay out, render, write — in that
order.

`check()` is `build()` without rendering and writing. Everything is read and checked before
anything is written; output is the only writer. A game whose inputs and files are as its last
build left them is not built again (builds.py). The playing commands are playouts.py's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import builds, output
from .cache import Cache
from .i18n import N_, _
from .limits import DEFAULT, Limits, in_force
from .problems import BuildError, Problems, SourceRef
from .project import Project
from .session import Session
from .textfile import confine, read_text, same_name

if TYPE_CHECKING:  # the stages are imported where they run: a build with nothing changed
    from .fonts import FontIndex  # imports none of them (nor `pnp --help`)
    from .layout.plan import Plan
    from .model import Game


@dataclass
class Options:
    """What `pnp build` and `pnp check` were asked for."""

    paper: str = "a4"
    out: Path | None = None
    bleed_mm: float | None = None
    margin_mm: float | None = None  # the printer margin; None: each sheet's own
    proof: bool = False  # trim, bleed and safe-zone lines over every card
    preset: str | None = None  # the print-shop preset (--format printshop)
    dpi: int | None = None  # PNG resolution (--format png)
    no_bleed: bool = False  # images cut at the trim; sheets without bleed
    url_base: str | None = None  # Tabletop Simulator images hosted here, not file:/// URLs
    strict: bool = False
    formats: list[str] | None = None  # builder names; None: the default ones
    limits: Limits = DEFAULT
    back_offset: object = None  # printers.BackOffset for the back pages of duplex sheets
    reuse: bool = True  # skip a game with nothing changed (watch and serve need every plan)
    # Keep this build as what `pnp diff` compares with: a build to print. The builds `pnp watch`
    # and `pnp serve` make on every save are drafts, and leave the printed one in place.
    snapshot: bool = True
    # The editions to build: None the source language only; a language of the game's
    # `[game] languages` (written to output/<game>/<language>/); "all" every one of them
    edition: str | None = None
    # the version to print, over [game] version (pnp release; "" prints none)
    version: str | None = None


@dataclass
class Result:
    """What a build or check did: problems, files written, plans and timings."""

    problems: Problems
    written: list[Path] = field(default_factory=list)
    plans: list[Plan] = field(default_factory=list)
    font_index: FontIndex | None = None  # the fonts check found, for the builders to reuse
    seconds: dict[str, float] = field(default_factory=dict)  # time each stage took (--verbose)
    reused: list[str] = field(default_factory=list)  # games not built again: nothing changed
    unchanged: dict[str, list[str]] = field(default_factory=dict)  # game -> files kept, not drawn
    kept: list[Path] = field(default_factory=list)  # their files, left as they were
    digests: dict[Path, str] = field(default_factory=dict)  # of each file written (builds)

    def failed(self, strict: bool) -> bool:
        return self.problems.has_errors or (strict and self.problems.count("warning") > 0)


def build(
    project: Project,
    game_ids: list[str],
    options: Options,
    session: Session | None = None,
    laid=None,
) -> Result:
    """Check and draw the games, then write their output sets (the limits in force throughout,
    its clock one build's). `session`: what `pnp watch` and `pnp serve` keep between builds;
    `laid`, if given, hears the result once the games are checked and laid out, before
    anything is drawn (`pnp serve` shows the cards then)."""
    session = session or Session()
    # A format not known is said before anything is touched; the builders are imported only
    # when a format is named or a game is to be built.
    picked = _builders().select(options.formats) if options.formats else None
    out = project.output_for(options.out)
    wanted = game_ids or project.game_ids()
    cache = Cache.for_output(out, writable=True, writing=frozenset(wanted))
    clock = _Clock()
    with in_force(options.limits):
        if options.edition is not None:  # an edition is drawn every time (no record of it)
            options = replace(options, reuse=False)
        inputs, reused = _unchanged(project, out, cache, wanted, options)
        todo = [g for g in wanted if g not in reused]
        if todo and picked is None:
            picked = _builders().select(None)
        # Printing does not wait for the game to hold together: playouts are check's business.
        result = (
            check(project, todo, options, cache, False, session, named=bool(game_ids))
            if todo
            else Result(Problems())
        )
        _say_again(result, reused, out)
        clock.lap(result, "check")
        if laid is not None:
            laid(result)
        if result.failed(options.strict) or not todo:
            return result
        files = _draw(result, picked, cache, out, session)
        for plan in result.plans:
            if not plan.game.manifest.edition:  # editions keep no record: drawn every time
                _remember(plan, cache, inputs, result, files, out, options.snapshot)
        clock.lap(result, "draw")
    # The outputs last: the switch to the new set is the build's final operation. An edition's
    # files are part of its game's set (output/<game>/en/…).
    roots = list(dict.fromkeys(out / plan.game.id for plan in result.plans))
    result.written = output.write_all(files, roots)
    result.digests = {p: builds.bytes_digest(d) for p, d in files.items() if d is not None}
    clock.lap(result, "write")
    return result


def check(
    project: Project,
    game_ids: list[str],
    options: Options,
    cache: Cache | None = None,
    play: bool = True,
    session: Session | None = None,
    named: bool | None = None,
) -> Result:
    """Every game loaded, its rules checked and laid out: their plans and problems. `named`:
    the games were named by the user (default: when `game_ids` lists any)."""
    named = bool(game_ids) if named is None else named
    from .fonts import FontIndex
    from .layout import templates

    session = session or Session()
    result = Result(Problems())
    # check reads the cache and writes nothing
    cache = cache or Cache.for_output(project.output_for(options.out), writable=False)
    result.font_index = FontIndex([project.root / "fonts"], cache)
    with in_force(options.limits), templates.kept_in(session.templates):
        for gid in game_ids or project.game_ids():
            for edition in _editions(project, gid, options, result.problems, named):
                since = len(result.problems.items)
                try:
                    plan = _check_game(project, gid, options, result, play, session, edition)
                except BuildError as exc:
                    result.problems.extend(exc.problems)
                    plan = None
                result.problems.found_for(gid, since)
                if plan is not None:
                    result.plans.append(plan)
    return result


def _editions(
    project: Project, gid: str, options: Options, problems: Problems, named: bool = True
) -> list[str]:
    """The editions of a game to check and build: "" is its source language. A game not named
    on the command line that has no such edition is passed over (a notice), not an error: one
    game of a project in English does not make the others wrong."""
    if options.edition is None:
        return [""]
    try:
        languages = project.manifest(gid).languages
    except BuildError:
        return [""]  # the manifest's own problem is said when the game is loaded
    if options.edition == "all":
        return ["", *languages[1:]]
    if options.edition == languages[0]:
        return [""]
    if options.edition in languages:
        return [options.edition]
    said = (
        N_(
            "{game} has no '{edition}' edition: its [game] languages are {languages} (add the "
            "language there, with its translations)"
        )
        if named  # asked for by name: a mistake; else one game of many without it
        else N_(
            "{game} has no '{edition}' edition (its [game] languages: {languages}): not built in it"
        )
    )
    problems.add(
        "error" if named else "notice",
        _(said, game=gid, edition=options.edition, languages=", ".join(languages)),
        project.manifest(gid).at("game", "languages"),
    )
    return []


class _Clock:
    """How long each stage took (--verbose)."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def lap(self, result: Result, stage: str) -> None:
        now = time.perf_counter()
        result.seconds[stage], self.start = now - self.start, now


def _unchanged(project: Project, out: Path, cache: Cache, wanted: list[str], options: Options):
    """Each game's inputs, and the record of each game whose inputs are all as they were at
    its last build and whose files are still there as written: it is not built again."""
    tree = builds.tree(project, out)
    inputs = {g: builds.inputs(tree, g, options) for g in wanted}
    reused = {
        g: r
        for g, d in inputs.items()
        if options.reuse and not _asks_git(project, g) and (r := builds.reusable(cache, g, d, out))
    }
    return inputs, reused


def _asks_git(project: Project, game: str) -> bool:
    """Whether the game prints its git version: a commit changes what it prints, not its files."""
    from .versions import GIT

    try:
        return project.manifest(game).version == GIT
    except BuildError:
        return False  # said when the game is loaded


def _say_again(result: Result, reused: dict, out: Path) -> None:
    """A game not built again says its problems again (once each) and keeps its files."""
    said = {(p.level, p.message, p.where) for p in result.problems.items}
    for game, record in reused.items():
        again = [p for p in record.problems if (p.level, p.message, p.where) not in said]
        said |= {(p.level, p.message, p.where) for p in again}
        result.problems.items[:0] = again
        result.kept += [out / game / name for name, _digest in record.files]
        result.reused.append(game)


def _builders():
    from . import builders

    return builders


def _draw(result: Result, picked, cache: Cache, out: Path, session: Session) -> dict[Path, bytes]:
    """Every game's files, by the builders picked, in memory."""
    from .layout import templates

    builders = _builders()
    files: dict[Path, bytes] = {}
    with templates.kept_in(session.templates):
        for plan in result.plans:
            job = builders.Job(
                plan,
                out / plan.game.manifest.out_name,
                cache,
                result.problems,
                font_index=result.font_index,
            )
            since = len(result.problems.items)
            files.update(builders.build_game(job, picked))
            result.problems.found_for(plan.game.id, since)
            result.unchanged[plan.game.id] = job.kept
    return files


def _remember(
    plan: Plan, cache: Cache, inputs: dict, result: Result, files: dict, out: Path, snapshot: bool
):
    """What the next build reads of this one, its record; and with `snapshot`, what `pnp diff`
    compares with."""
    from . import diff

    game = plan.game.id
    if snapshot:
        diff.save(diff.take(plan), cache, game)
    mine = {p: data for p, data in files.items() if p.is_relative_to(out / game)}
    builds.remember(cache, game, inputs[game], result.problems, mine, out, plan)


def _check_game(
    project, gid, options: Options, result: Result, play: bool, session: Session, edition=""
):
    """One game (in one edition) loaded, its rules checked and laid out: its plan, or None when
    its data is broken (the problems say why)."""
    from . import editions
    from .layout.plan import lay_out
    from .model import Folders
    from .rules.checks import check_rules

    problems = result.problems
    game = load(project, gid, problems, options.limits, edition, options.version)
    if game is None:
        return None
    if not edition:  # an edition's rules are the source's translated: checked in the source
        check_rules(game, problems, play=play, strict=options.strict)
    since = len(problems.items)
    plan = lay_out(
        Folders(project.root),
        game,
        options.paper,
        options.bleed_mm,
        result.font_index,
        problems,
        margin_mm=options.margin_mm,
        memos=session.faces,
        tuckboxes_drawn="tuckbox" in (options.formats or ()),
    )
    if game.translated:  # a translated text that does not fit is said at its translation
        editions.at_translations(problems, since, game)
    plan.proof = options.proof
    plan.back_offset = options.back_offset
    plan.outputs = {
        "preset": options.preset,
        "dpi": options.dpi,
        "bleed": not options.no_bleed,
        "url_base": options.url_base,
        "bleed_pt": (3.0 if options.bleed_mm is None else options.bleed_mm) * 72 / 25.4,
    }
    return plan


def load(
    project: Project,
    game_id: str,
    problems: Problems,
    limits: Limits = DEFAULT,
    edition: str = "",
    version: str | None = None,
) -> Game | None:
    """Manifest, spreadsheets and rules source to a validated model, in the source language or
    (`edition`) in another of the game's languages; None if the data is broken."""
    from . import editions, validate, versions
    from .load import read_table
    from .model import Game

    manifest = project.manifest(game_id)
    problems.extend(manifest.warnings)
    if version is not None or manifest.version:
        manifest = versions.resolved(manifest, project.root, version, problems)
    if edition:
        source_rules, source_text = manifest.rules, ""
        source_names = {c.id: c.name for c in manifest.components}
        manifest = editions.manifest_for(manifest, edition, problems)
    errors_before = problems.count("error")
    decks = []
    translated: list[tuple[str, tuple[str, ...]]] = []
    for comp in manifest.components:
        if not comp.kind_of.rows:
            continue  # a board: drawn from its layout alone
        path = manifest.folder / comp.data.replace("\\", "/")  # data\\x.csv, as on Windows
        if not path.exists():
            path = same_name(path)  # its name written in another Unicode form (a Mac's)
        path = confine(path, project.root, comp.at("data"), "'data'")
        where = SourceRef(project.rel(path))
        table = read_table(path, where, comp.sheet_name, limits, header=comp.header)
        problems.extend(table.warnings)
        table = editions.table_for(table, manifest, problems)
        if table.translated:
            translated.append((table.where.file, table.translated))
        used = sum(len(d.cards) for d in decks)
        deck = validate.build_deck(comp, table, problems, used, limits.cards, manifest.private_use)
        decks.append(editions.deck_for(deck, table, manifest))
    rules_source, rules_where = None, None
    if manifest.rules:
        said = manifest.editions.get(edition, {}) if edition else {}
        key = ("edition", edition, "rules") if "rules" in said else ("game", "rules")
        path = confine(manifest.folder / manifest.rules, project.root, manifest.at(*key), "'rules'")
        rules_where = SourceRef(project.rel(path))
        if not path.is_file():
            raise BuildError(_("rules source not found"), rules_where)
        rules_source = read_text(path, rules_where, max_mb=limits.file_mb)
        if edition:
            source_text = editions.source_rules(
                project, manifest, source_rules, rules_source, rules_where, limits, problems
            )
        for n, line in enumerate(rules_source.splitlines(), start=1):
            if (ch := validate.private_use(line, manifest.private_use)) is not None:
                raise BuildError(
                    _(
                        "the private-use character {code} means nothing outside "
                        "one machine's fonts; write icons as :name:",
                        code=f"U+{ord(ch):04X}",
                    ),
                    rules_where.at(row=n),
                )
    if any(not d.cards for d in decks) or problems.count("error") > errors_before:
        return None  # checking rules or layouts against half a deck would only mislead
    words = _words(project, manifest)
    game = Game(manifest, tuple(decks), rules_source, rules_where, words, tuple(translated))
    if edition:  # the edition's words held to the game's glossary
        editions.check_glossary(game, project.root, source_text, source_names, problems)
    return game


def _words(project: Project, manifest) -> tuple[str, ...]:
    """The game's words.txt: a word a line (「日の出横丁」), never split across lines on a card,
    a tuck box or in the rulebook; blank lines and lines from `#` on are comments."""
    path = manifest.folder / WORDS
    if not path.is_file():
        return ()
    text = read_text(path, SourceRef(project.rel(path)))
    words = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return tuple(dict.fromkeys(w for w in words if len(w) > 1))


WORDS = "words.txt"
