"""The whole build on one screen: load, validate, model, check, lay out, render, write — in that order.

`check()` is `build()` without rendering and writing. Everything is read and checked before
anything is written; output is the only writer.
"""
from __future__ import annotations

import string
from dataclasses import dataclass, field
from pathlib import Path

from . import output, rulebook, validate
from .fonts import FontIndex, metrics
from .layout import boxes, faces as facelayout, sheets
from .layout.units import to_pt
from .load import read_table
from .model import Game
from .problems import BuildError, Problem, Problems, SourceRef
from .project import Project
from .rules.checks import check_rules

# Characters every document may print besides its text (page numbers, labels, the ruler).
ALWAYS = string.printable.strip() + " —〜・、。（）「」：×％/　"


@dataclass
class Options:
    paper: str = "a4"
    out: Path | None = None
    bleed_mm: float | None = None
    strict: bool = False


@dataclass
class Plan:
    """Everything needed to render one game, laid out and checked."""
    game: Game
    decks: list = field(default_factory=list)           # render.pdf.DeckSheets
    book: rulebook.Rulebook | None = None
    samples: dict = field(default_factory=dict)         # (component, column) -> [(label, Face)]
    fonts: facelayout.Fonts | None = None
    summary_md: str = ""
    paper: tuple[float, float] = (0.0, 0.0)
    paper_name: str = "a4"


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
            result.plans.append(lay_out(project, game, options, font_index, problems))
        except BuildError as exc:
            problems.items.extend(exc.problems)
    return result


def load(project: Project, game_id: str, problems: Problems) -> Game | None:
    """Manifest, spreadsheets and rules source to a validated model; None if the data is broken."""
    manifest = project.manifest(game_id)
    problems.items.extend(manifest.warnings)
    decks = []
    for comp in manifest.components:
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


def lay_out(project: Project, game: Game, options: Options, font_index: FontIndex,
            problems: Problems) -> Plan:
    from .render.pdf import DeckSheets, proof_text  # the page texts live beside their drawing

    defs = sheets.load_sheet_defs(project.layouts, project.rel)
    fonts = facelayout.Fonts({role: metrics(font_index.find(spec.get("family", ""), spec.get("weight", "Regular")),
                                            font_index.cache)
                              for role, spec in game.manifest.fonts.items()})
    for role in ("body", "bold"):
        if role not in fonts.metrics:
            raise BuildError([Problem("error", f"[fonts] needs a '{role}' font", game.manifest.where)])
        fonts.use(role, ALWAYS)
    plan = Plan(game, fonts=fonts, paper=defs.paper.get(options.paper, (0, 0)), paper_name=options.paper)
    context = {"game": {"title": game.title, "id": game.id}}
    for deck in game.decks:
        comp = deck.component
        want = f"{options.bleed_mm}mm" if options.bleed_mm is not None else comp.bleed
        geometry = sheets.impose(defs, comp.sheet, comp.size, options.paper, want, problems, comp.where)
        w, h = geometry.card
        names = {"W": w, "H": h, "bleed": geometry.bleed}
        front = boxes.load_layout(project.layouts, game.id, comp.front, project.rel, names)
        back = boxes.load_layout(project.layouts, game.id, comp.back, project.rel, names)
        used = front.fields_used() | back.fields_used()
        for column in deck.columns:
            if column not in used and column != "count":
                problems.warning(f"column '{column}' is not used by layout {comp.front} or {comp.back}",
                                 deck.where.at(row=1, column=column))
        laid = facelayout.lay_out_deck(deck, front, back, context, names, fonts, problems)
        plan.decks.append(DeckSheets(comp.name, geometry, laid))
    title, *lines = proof_text(game.title, plan.decks, options.paper)
    fonts.use("bold", title)
    for line in lines:
        fonts.use("body", line)
    for d in plan.decks:
        fonts.use("body", d.name)
    if game.rules_source is not None:
        plan.book = rulebook.render_source(game)
        _check_rulebook_glyphs(plan.book, game, fonts, problems)
        plan.samples = _samples(plan, game, problems)
        plan.summary_md = rulebook.summary_markdown(plan.book, game)
    return plan


def _check_rulebook_glyphs(book: rulebook.Rulebook, game: Game, fonts: facelayout.Fonts,
                           problems: Problems) -> None:
    for line, text, role in rulebook.printed_text(book, game):
        missing = fonts.missing(role, text)
        if missing:
            chars = "、".join(f"「{ch}」(U+{ord(ch):04X})" for ch in missing)
            problems.error(f"the {role} font has no glyph for {chars}", book.where.at(row=line or None),
                           fold=f"glyph:{line}:{chars}")
        fonts.use(role, text)


def _samples(plan: Plan, game: Game, problems: Problems) -> dict:
    """`::: samples COMPONENT COLUMN`: the first card of each value of COLUMN, front side."""
    out = {}
    for block in plan.book.blocks:
        if block.kind != "directive" or block.text != "samples":
            continue
        if len(block.items) != 2:
            problems.error("'::: samples' needs a component and a column, e.g. '::: samples klesha suit'",
                           plan.book.where.at(row=block.line))
            continue
        comp_id, column = block.items
        index = next((i for i, d in enumerate(game.decks) if d.id == comp_id), None)
        if index is None or column not in game.decks[index].columns:
            problems.error(f"'::: samples {comp_id} {column}': no such component or column",
                           plan.book.where.at(row=block.line))
            continue
        deck, sheet = game.decks[index], plan.decks[index]
        firsts: dict = {}
        for card, (front, _) in zip(deck.cards, sheet.faces):
            firsts.setdefault(card.fields[column], front)
        out[block.items] = ([(str(k), f) for k, f in firsts.items()], sheet.geometry.card)
    return out


def render(plan: Plan, out: Path, cache: output.Cache, problems: Problems) -> dict[Path, bytes]:
    from .render import fonts as render_fonts, pdf, rulebook as render_book

    names = render_fonts.register(plan.fonts, cache)
    files = {out / "cards.pdf": pdf.cards_pdf(plan.game.title, plan.decks, plan.paper_name, names)}
    if plan.book:
        page = plan.paper
        files[out / "rulebook.pdf"] = render_book.rulebook_pdf(plan.book, plan.game, plan.samples, names, page)
        data, one_page = render_book.summary_pdf(plan.book, plan.game, names, page,
                                                 f"{plan.book.title} クイックリファレンス")
        if not one_page:
            problems.warning("the marked summary parts do not fit one page even at 6.5 pt; "
                             "mark less with <!-- summary: … -->", plan.book.where)
        files[out / "summary.pdf"] = data
        files[out / "summary.md"] = plan.summary_md.encode("utf-8")
    return files


