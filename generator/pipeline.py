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
    result = check(project, game_ids, options, cache)
    if result.failed(options.strict):
        return result
    files: dict[Path, bytes] = {}
    from .render.game import render   # ReportLab is needed from here on only

    for plan in result.plans:
        files.update(render(plan, out / plan.game.id, cache, result.problems))
    result.written = output.write_all(files)
    return result


def check(project: Project, game_ids: list[str], options: Options, cache: output.Cache | None = None) -> Result:
    problems = Problems()
    result = Result(problems)
    out = options.out or project.root / "output"
    cache = cache or output.Cache.for_output(out, writable=False)   # check reads the cache, writes nothing
    font_index = FontIndex([project.root / "fonts"], cache)
    for gid in game_ids or project.game_ids():
        try:
            game = load(project, gid, problems)
            if game is None:
                continue
            check_rules(game, problems)
            result.plans.append(lay_out(project, game, options.paper, options.bleed_mm, font_index, problems))
        except BuildError as exc:
            problems.items.extend(exc.problems)
    return result


def load(project: Project, game_id: str, problems: Problems) -> Game | None:
    """Manifest, spreadsheets and rules source to a validated model; None if the data is broken."""
    manifest = project.manifest(game_id)
    problems.items.extend(manifest.warnings)
    decks = []
    for comp in manifest.components:
        if comp.data is None:
            continue            # a board: drawn from its layout alone
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
            raise BuildError([Problem("error", "the rules source must be saved as UTF-8", rules_where)]) from None
    if any(not d.cards for d in decks):
        return None
    return Game(manifest, tuple(decks), rules_source, rules_where)
