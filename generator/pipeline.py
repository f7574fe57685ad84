"""The whole build on one screen: load, validate, model, check, lay out, render, write — in that order.

`check()` is `build()` without rendering and writing. Everything is read and checked before
anything is written; output is the only writer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import output, validate
from .fonts import FontIndex
from .layout.plan import Plan, lay_out
from .load import read_table
from .model import Game
from .problems import BuildError, Problem, Problems, SourceRef
from .project import Project
from .rules.checks import check_rules


@dataclass
class Options:
    paper: str = "a4"
    out: Path | None = None
    bleed_mm: float | None = None
    strict: bool = False


@dataclass
class Result:
    problems: Problems
    written: list[Path] = field(default_factory=list)
    plans: list[Plan] = field(default_factory=list)

    def failed(self, strict: bool) -> bool:
        return self.problems.has_errors or (strict and self.problems.count("warning") > 0)


def build(project: Project, game_ids: list[str], options: Options) -> Result:
    out = options.out or project.root / "output"
    cache = output.Cache.for_output(out, writable=True)
    # Printing does not wait for the game to hold together: playouts are check's business.
    result = check(project, game_ids, options, cache, play=False)
    if result.failed(options.strict):
        return result
    files: dict[Path, bytes] = {}
    from .render.game import render  # ReportLab is needed from here on only

    for plan in result.plans:
        files.update(render(plan, out / plan.game.id, cache, result.problems))
    result.written = output.write_all(files)
    return result


def check(
    project: Project,
    game_ids: list[str],
    options: Options,
    cache: output.Cache | None = None,
    play: bool = True,
) -> Result:
    problems = Problems()
    result = Result(problems)
    out = options.out or project.root / "output"
    cache = cache or output.Cache.for_output(
        out, writable=False
    )  # check reads the cache, writes nothing
    font_index = FontIndex([project.root / "fonts"], cache)
    for gid in game_ids or project.game_ids():
        try:
            game = load(project, gid, problems)
            if game is None:
                continue
            check_rules(game, problems, play=play)
            result.plans.append(
                lay_out(project, game, options.paper, options.bleed_mm, font_index, problems)
            )
        except BuildError as exc:
            problems.extend(exc.problems)
    return result


def load(project: Project, game_id: str, problems: Problems) -> Game | None:
    """Manifest, spreadsheets and rules source to a validated model; None if the data is broken."""
    manifest = project.manifest(game_id)
    problems.extend(manifest.warnings)
    errors_before = problems.count("error")
    decks = []
    for comp in manifest.components:
        if comp.data is None:
            continue  # a board: drawn from its layout alone
        path = manifest.folder / comp.data
        table = read_table(path, SourceRef(project.rel(path)), comp.sheet_name)
        decks.append(validate.build_deck(comp, table, problems))
    rules_source, rules_where = None, None
    if manifest.rules:
        path = manifest.folder / manifest.rules
        rules_where = SourceRef(project.rel(path))
        if not path.is_file():
            raise BuildError([Problem("error", "rules source not found", rules_where)])
        try:
            rules_source = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise BuildError(
                [Problem("error", "the rules source must be saved as UTF-8", rules_where)]
            ) from None
    if any(not d.cards for d in decks) or problems.count("error") > errors_before:
        return None  # checking rules or layouts against half a deck would only mislead
    return Game(manifest, tuple(decks), rules_source, rules_where)


@dataclass
class SimulateOptions:
    players: int | None = None
    games: int = 1000
    seed: int = 1
    options: dict[str, str] = field(default_factory=dict)
    kind: str = "random"
    out: Path | None = None
    replay: int | None = None
    skill: bool = True


def simulate(project: Project, game_id: str, opts: SimulateOptions, progress=None) -> dict:
    """Play a game many times by machine; write simulation.md/.json/.pdf; or replay one seed."""
    from .rules import engine, report
    from .rules import simulate as sim
    from .rules.games import REGISTRY

    if game_id not in REGISTRY:
        raise BuildError(
            f"the rules engine cannot play '{game_id}' yet (it plays: {', '.join(sorted(REGISTRY))})"
        )
    module = REGISTRY[game_id]
    problems = Problems()
    game = load(project, game_id, problems)
    if game is None or problems.has_errors:
        raise BuildError([p for p in problems.items if p.level == "error"])
    lo, hi = game.manifest.players
    players = opts.players or lo
    if not lo <= players <= hi:
        raise BuildError(f"{game.title} is for {lo}–{hi} players, not {players}")
    try:
        options = engine.resolve_options(module.OPTIONS, opts.options)
    except engine.UnknownOption as exc:
        raise BuildError(str(exc)) from None
    data = module.prepare(game)
    kinds = (opts.kind,) * players
    if opts.replay is not None:
        result = engine.play(
            module, data, players, opts.replay, options, kinds, check=True, log=True
        )
        return {"replay": result}
    rows = sim.run(game_id, data, players, opts.games, opts.seed, options, kinds, progress=progress)
    stats = sim.statistics(game_id, players, opts.seed, options, kinds, rows)
    if opts.skill:
        stats.skill = sim.skill_signal(
            game_id, data, players, min(opts.games, 600), opts.seed, options
        )
    found = sim.findings(module, stats)
    stats.alternatives = sim.alternatives(module, game_id, data, stats, found)
    text = report.markdown(game.title, module, stats, found)
    import json

    payload = json.dumps(sim.to_json(stats, found), ensure_ascii=False, indent=1, sort_keys=True)
    out = (opts.out or project.root / "output") / game_id
    files = {
        out / f"simulation-{players}p.md": text.encode("utf-8"),
        out / f"simulation-{players}p.json": (payload + "\n").encode("utf-8"),
        out / f"simulation-{players}p.pdf": _report_pdf(
            project, game, module, stats, found, text, opts
        ),
    }
    written = output.write_all(files)
    return {
        "stats": stats,
        "findings": found,
        "markdown": text,
        "json": payload,
        "written": written,
    }


def _report_pdf(project, game, module, stats, found, text, opts) -> bytes:
    from .layout.plan import game_fonts
    from .render import fonts as render_fonts
    from .render import report as render_report

    cache = output.Cache.for_output(opts.out or project.root / "output", writable=True)
    fonts = game_fonts(game, FontIndex([project.root / "fonts"], cache))
    for role in fonts.metrics:
        fonts.use(role, text + game.title + "シミュレーション人・ゲーム")
    return render_report.report_pdf(
        game.title, module, stats, found, render_fonts.register(fonts, cache)
    )
