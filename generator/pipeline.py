"""The whole build on one screen: load, validate, model, check, lay out, render, write — in that
order.

`check()` is `build()` without rendering and writing. Everything is read and checked before
anything is written; output is the only writer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from . import builders, builds, diff, output, validate
from .cache import Cache, remembering
from .fonts import FontIndex
from .i18n import _
from .layout.plan import Plan, lay_out
from .limits import DEFAULT, Limits, exceeded, in_force
from .load import read_table
from .model import Game
from .problems import BuildError, Problem, Problems, SourceRef
from .project import Project
from .rules.checks import check_rules
from .schema import schema_problems
from .textfile import confine, read_text, same_name


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


def build(project: Project, game_ids: list[str], options: Options) -> Result:
    """Check and draw the games, then write their output sets (the limits in force throughout,
    its clock one build's)."""
    with in_force(options.limits):
        return _build(project, game_ids, options)


def _build(project: Project, game_ids: list[str], options: Options) -> Result:
    picked = builders.select(options.formats)
    out = project.output_for(options.out)
    wanted = game_ids or project.game_ids()
    cache = Cache.for_output(out, writable=True, writing=frozenset(wanted))
    start = time.perf_counter()
    # A game whose inputs are all as they were at its last build, and whose files are still
    # there as written, is not built again: its problems are said again, nothing is drawn.
    tree = builds.tree(project, out)
    inputs = {g: builds.inputs(tree, g, options) for g in wanted}
    reused = {
        g: r
        for g, d in inputs.items()
        if options.reuse and (r := builds.reusable(cache, g, d, out))
    }
    todo = [g for g in wanted if g not in reused]
    # Printing does not wait for the game to hold together: playouts are check's business.
    result = check(project, todo, options, cache, play=False) if todo else Result(Problems())
    said = {(p.level, p.message, p.where) for p in result.problems.items}
    for game, record in reused.items():
        again = [p for p in record.problems if (p.level, p.message, p.where) not in said]
        said |= {(p.level, p.message, p.where) for p in again}
        result.problems.items[:0] = again
        result.kept += [out / game / name for name, _digest in record.files]
        result.reused.append(game)
    result.seconds["check"] = time.perf_counter() - start
    if result.failed(options.strict) or not todo:
        return result
    start = time.perf_counter()
    files: dict[Path, bytes] = {}
    with remembering(cache):
        for plan in result.plans:
            job = builders.Job(
                plan, out / plan.game.id, cache, result.problems, font_index=result.font_index
            )
            since = len(result.problems.items)
            files.update(builders.build_game(job, picked))
            result.problems.found_for(plan.game.id, since)
            result.unchanged[plan.game.id] = job.kept
    for plan in result.plans:  # what `pnp diff` compares the next layout with
        diff.save(diff.take(plan, diff.load(cache, plan.game.id)), cache, plan.game.id)
        game = plan.game.id
        mine = {p: data for p, data in files.items() if p.is_relative_to(out / game)}
        builds.remember(cache, game, inputs[game], result.problems, mine, out, plan)
    result.seconds["draw"] = time.perf_counter() - start
    start = time.perf_counter()
    # The outputs last: the switch to the new set is the build's final operation.
    result.written = output.write_all(files, [out / plan.game.id for plan in result.plans])
    result.digests = {p: builds.bytes_digest(d) for p, d in files.items() if d is not None}
    result.seconds["write"] = time.perf_counter() - start
    return result


def check(
    project: Project,
    game_ids: list[str],
    options: Options,
    cache: Cache | None = None,
    play: bool = True,
) -> Result:
    problems = Problems()
    result = Result(problems)
    out = project.output_for(options.out)
    # check reads the cache and writes nothing
    cache = cache or Cache.for_output(out, writable=False)
    font_index = result.font_index = FontIndex([project.root / "fonts"], cache)
    with remembering(cache), in_force(options.limits):
        for gid in game_ids or project.game_ids():
            since = len(problems.items)
            try:
                plan = _check_game(project, gid, options, font_index, problems, play)
            except BuildError as exc:
                problems.extend(exc.problems)
                plan = None
            problems.found_for(gid, since)
            if plan is not None:
                result.plans.append(plan)
    return result


def _check_game(project, gid, options: Options, font_index, problems: Problems, play: bool):
    """One game loaded, its rules checked and laid out: its plan, or None when its data is
    broken (the problems say why)."""
    game = load(project, gid, problems, options.limits)
    if game is None:
        return None
    check_rules(game, problems, play=play, strict=options.strict)
    plan = lay_out(
        project,
        game,
        options.paper,
        options.bleed_mm,
        font_index,
        problems,
        margin_mm=options.margin_mm,
    )
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
    project: Project, game_id: str, problems: Problems, limits: Limits = DEFAULT
) -> Game | None:
    """Manifest, spreadsheets and rules source to a validated model; None if the data is broken."""
    manifest = project.manifest(game_id)
    problems.extend(manifest.warnings)
    errors_before = problems.count("error")
    decks = []
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
        used = sum(len(d.cards) for d in decks)
        decks.append(
            validate.build_deck(comp, table, problems, used, limits.cards, manifest.private_use)
        )
    rules_source, rules_where = None, None
    if manifest.rules:
        path = confine(
            manifest.folder / manifest.rules, project.root, manifest.at("game", "rules"), "'rules'"
        )
        rules_where = SourceRef(project.rel(path))
        if not path.is_file():
            raise BuildError([Problem("error", _("rules source not found"), rules_where)])
        rules_source = read_text(path, rules_where, max_mb=limits.file_mb)
        for n, line in enumerate(rules_source.splitlines(), start=1):
            if (ch := validate.private_use(line, manifest.private_use)) is not None:
                raise BuildError(
                    [
                        Problem(
                            "error",
                            _(
                                "the private-use character {code} means nothing outside "
                                "one machine's fonts; write icons as :name:",
                                code=f"U+{ord(ch):04X}",
                            ),
                            rules_where.at(row=n),
                        )
                    ]
                )
    if any(not d.cards for d in decks) or problems.count("error") > errors_before:
        return None  # checking rules or layouts against half a deck would only mislead
    if manifest.doc is not None:  # behind the code's own checks, which have all passed
        shape = schema_problems("game", manifest.doc.data, manifest.doc, manifest.where)
        if shape:
            raise BuildError(shape)
    return Game(manifest, tuple(decks), rules_source, rules_where)


@dataclass
class SweepOptions:
    """What `pnp simulate --sweep` was asked for."""

    players: list[int]  # none: the fewest the game allows
    kinds: list[str]  # --players-kind values, each a cell's kinds
    sweep: dict[str, list[str]]  # reading -> the values to play
    games: int = 1000
    seed: int = 1
    options: dict[str, str] = field(default_factory=dict)  # readings held fixed
    out: Path | None = None
    limits: Limits = DEFAULT
    scheduler: str | None = None  # a Dask scheduler's address: the playouts run there


def sweep(project: Project, game_id: str, opts: SweepOptions, progress=None, say=None) -> dict:
    """The grid of readings × player counts × player kinds: sweep.md and sweep.json."""
    import json

    from .rules import sweep as sweeps
    from .rules.modules import guarded

    game, module = _playable(project, game_id, opts.limits, say)
    chosen = _chosen(game, module)
    base = {**chosen, **opts.options}
    _readings(module, base)
    for name, values in opts.sweep.items():
        for value in values:
            _readings(module, {**base, name: value})  # an unknown reading: said before playing
    counts = [_player_count(game, n) for n in opts.players or [None]]
    for kinds_text in opts.kinds:
        for n in counts:
            player_kinds(kinds_text, n, module)  # checked before anything is played
    cells = sweeps.grid(opts.sweep, counts, [(k,) for k in opts.kinds], opts.seed)
    for cell in cells:
        cell.kinds = player_kinds(cell.kinds[0], cell.players, module)
        cell.fixed = dict(opts.options)
    total = opts.games * len(cells)
    if total > opts.limits.games:
        raise exceeded("games", _("{n:,} games", n=total), opts.limits.games, None)
    data = guarded(module, module.prepare, game)
    from .rules import simulate as sim

    with sim.on_cluster(opts.scheduler):
        cells = sweeps.run(module, data, cells, base, opts.games, progress=progress)
    if not cells:  # stopped before any cell had a game
        raise KeyboardInterrupt
    markdown = sweeps.markdown(game.title, module, cells, opts.games, opts.seed)
    payload = json.dumps(
        sweeps.to_json(cells, opts.games, opts.seed), ensure_ascii=False, indent=1, sort_keys=True
    )
    from .builders.simulation import sweep_pdf

    root = project.output_for(opts.out)
    out = root / game_id
    cache = Cache.for_output(root, writable=True, writing=frozenset([game_id]))
    font_index = FontIndex([project.root / "fonts"], cache)
    files = {
        out / "sweep.md": markdown.encode(),
        out / "sweep.json": (payload + "\n").encode(),
        out / "sweep.pdf": sweep_pdf(
            game, module, cells, opts.games, opts.seed, markdown, font_index, cache
        ),
    }
    written = output.write_all(files, [out])  # the game's other files stay
    stopped = any(c.stats.stopped for c in cells)
    return {
        "markdown": markdown,
        "json": payload,
        "written": written,
        "cells": cells,
        "stopped": stopped,
    }


def probes(project: Project, game_id: str, opts: SimulateOptions, progress=None, say=None) -> dict:
    """Each of the module's STRATEGIES against a field of players: probes.md and probes.json."""
    import json

    from .rules import probes as probing
    from .rules import simulate as sim
    from .rules.modules import guarded

    game, module = _playable(project, game_id, opts.limits, say)
    if not module.STRATEGIES:
        raise BuildError(
            [
                Problem(
                    "error",
                    _(
                        "the rules module names no strategies to probe: add STRATEGIES "
                        "(docs/reference/rules.md)"
                    ),
                    SourceRef(module.RULES_REF.shown),
                )
            ]
        )
    players = _player_count(game, opts.players)
    options = _readings(module, {**_chosen(game, module), **opts.options})
    field = player_kinds(
        probing.FIELD if opts.kind == "random" and not opts.kind_given else opts.kind,
        players,
        module,
    )
    total = opts.games * len(module.STRATEGIES)
    if total > opts.limits.games:
        raise exceeded("games", _("{n:,} games", n=total), opts.limits.games, None)
    data = guarded(module, module.prepare, game)
    with sim.on_cluster(opts.scheduler):
        found = probing.run(module, data, players, field, opts.games, opts.seed, options, progress)
    markdown = probing.markdown(game.title, found, field, opts.games)
    payload = json.dumps(
        probing.to_json(found, field, opts.games), ensure_ascii=False, indent=1, sort_keys=True
    )
    if not found:  # stopped before any game finished
        raise KeyboardInterrupt
    out = project.output_for(opts.out) / game_id
    files = {out / "probes.md": markdown.encode(), out / "probes.json": (payload + "\n").encode()}
    return {
        "markdown": markdown,
        "json": payload,
        "written": output.write_all(files, [out]),
        "stopped": any(p.stopped for p in found),
    }


@dataclass
class SimulateOptions:
    """What `pnp simulate` was asked for."""

    players: int | None = None
    games: int = 1000  # rules.simulate.DEFAULT_GAMES
    seed: int = 1
    options: dict[str, str] = field(default_factory=dict)
    kind: str = "random"
    out: Path | None = None
    replay: int | None = None
    skill: bool = True
    limits: Limits = DEFAULT
    scheduler: str | None = None  # a Dask scheduler's address: the playouts run there
    kind_given: bool = False  # --players-kind was given (probes meet skilled players unless)


def simulate(
    project: Project, game_id: str, opts: SimulateOptions, progress=None, say=None
) -> dict:
    """Play a game many times by machine; write simulation.md/.json/.pdf; or replay one seed."""
    from .builders.simulation import report_files
    from .rules import engine
    from .rules.modules import guarded

    game, module = _playable(project, game_id, opts.limits, say)
    players = _player_count(game, opts.players)
    chosen = _chosen(game, module)
    if opts.replay is not None:
        options = _readings(module, {**chosen, **opts.options})
        kinds = player_kinds(opts.kind, players, module)
        data = guarded(module, module.prepare, game)
        result = guarded(
            module,
            engine.play,
            module,
            data,
            players,
            opts.replay,
            options,
            kinds,
            check=True,
            log=True,
        )
        return {"replay": result}
    from .rules import simulate as sim

    with sim.on_cluster(opts.scheduler):
        result = run_simulation(game, module, players, opts, progress, chosen)
    out = project.output_for(opts.out) / game_id
    cache = Cache.for_output(project.output_for(opts.out), True, frozenset([game_id]))
    font_index = FontIndex([project.root / "fonts"], cache)
    files = report_files(game, result, out, font_index, cache)
    written = output.write_all(files, [out])
    markdown, payload = (files[out / f"simulation-{players}p.{ext}"] for ext in ("md", "json"))
    return {
        "stats": result.stats,
        "findings": result.found,
        "markdown": markdown.decode("utf-8"),
        "json": payload.decode("utf-8").rstrip("\n"),
        "written": written,
        "stopped": result.stats.stopped,
    }


def _playable(project: Project, game_id: str, limits: Limits, say=None) -> tuple[Game, object]:
    """The game, loaded and sound, and its rules module; `say` hears that the project's code
    runs."""
    problems = Problems()
    game = load(project, game_id, problems, limits)
    if game is None or problems.has_errors:
        raise BuildError([p for p in problems.items if p.level == "error"])
    module = _rules_module(game)
    if say is not None:
        say(
            _(
                "{path}: runs the game's rules module, Python code from the project",
                path=module.RULES_REF.shown,
            )
        )
    return game, module


def _player_count(game: Game, players: int | None) -> int:
    """`players`, or the fewest the game allows; a count outside its range is the user's error."""
    lo, hi = game.manifest.players
    n = lo if players is None else players
    if not lo <= n <= hi:
        raise BuildError(
            _(
                "{title} is for {lo}–{hi} players, not {players}",
                title=game.title,
                lo=lo,
                hi=hi,
                players=n,
            )
        )
    return n


def _rules_module(game: Game):
    from .rules import modules

    module = modules.rules_for(game)
    if module is None:
        raise BuildError(
            [
                Problem(
                    "error",
                    _(
                        "{game} has no rules module to play: write {path} (pnp new {game} "
                        "--rules makes one to fill in; docs/reference/rules.md)",
                        game=game.id,
                        path=modules.rules_file(game).name,
                    ),
                    SourceRef(str(Path(game.manifest.where.file).parent / modules.RULES_FILE)),
                )
            ]
        )
    return module


def _readings(module, given: dict[str, str]) -> dict[str, str]:
    from .rules import engine

    try:
        return engine.resolve_options(module.OPTIONS, given)
    except engine.UnknownOption as exc:
        raise BuildError(str(exc)) from None


def player_kinds(text: str, players: int, module=None) -> tuple[str, ...]:
    """`--players-kind`: one kind for every seat, or one per seat separated by commas, the last
    filling the seats left (`ismcts:200,random` for any number of players); a probe names one
    of the module's STRATEGIES."""
    from .rules import engine

    try:
        kinds = tuple(engine.parse_kind(k) for k in text.split(","))
    except engine.UnknownOption as exc:
        raise BuildError(str(exc)) from None
    for kind in kinds:
        if module is not None and kind.startswith("probe:"):
            if kind[6:] not in module.STRATEGIES:
                raise BuildError(
                    _(
                        "{kind!r}: the rules module names no such strategy (its STRATEGIES: "
                        "{names})",
                        kind=kind,
                        names=", ".join(module.STRATEGIES) or _("none"),
                    )
                )
    if len(kinds) > players:
        raise BuildError(
            _(
                "--players-kind names {n} kinds for {players} players: give one for every seat, "
                "or one for all",
                n=len(kinds),
                players=players,
            )
        )
    return kinds + kinds[-1:] * (players - len(kinds))


def _chosen(game: Game, module) -> dict[str, str]:
    """game.toml's [readings]: simulate's defaults; one the module lacks stops it, at its line."""
    from .rules.modules import chosen_readings

    problems = Problems()
    chosen = chosen_readings(game, module, problems)
    problems.raise_if_errors()
    return chosen


def run_simulation(
    game: Game, module, players: int, opts: SimulateOptions, progress=None, chosen=None
):
    """One batch of playouts of `game` as `opts` ask (over the designer's [readings]), checked
    against the games limit."""
    from .builders.simulation import SimulationResult
    from .rules import simulate as sim
    from .rules.modules import guarded

    chosen = chosen or {}
    options = _readings(module, {**chosen, **opts.options})
    if opts.games > opts.limits.games:
        raise exceeded("games", _("{n:,} games", n=opts.games), opts.limits.games, None)
    kinds = player_kinds(opts.kind, players, module)
    data = guarded(module, module.prepare, game)
    stats, found = sim.batch(
        module,
        data,
        players,
        options,
        kinds,
        opts.games,
        opts.seed,
        opts.skill,
        progress,
        base=_readings(module, chosen),
    )
    return SimulationResult(module, stats, found)
