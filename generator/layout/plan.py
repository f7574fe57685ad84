"""The layout stage for one game: every component imposed and laid out, the rulebook parsed, glyphs checked.

Fed by the model, the layout folders and font metrics; the `Plan` it returns is all the renderer
needs, so `pnp check` ends here having found every layout problem without drawing anything.
"""

from __future__ import annotations

import string
import tomllib
from dataclasses import dataclass, field

from .. import rulebook
from ..fonts import FontIndex, metrics
from ..model import Card, Deck, Game, freeze
from ..problems import BuildError, Problem, Problems, SourceRef
from ..project import Component, Project
from . import boxes, sheets
from . import faces as facelayout
from . import icons as iconlayout
from .units import MM

# Characters every document may print besides its text (page numbers, labels, the ruler).
ALWAYS = string.printable.strip() + " —〜・、。（）「」：×％/　○＋"
PROOF_LINES = (
    "このPDFは「実際のサイズ」（100%）で印刷してください。",
    "「用紙に合わせる」「縮小」で印刷すると、寸法が合いません。",
    "印刷したら、下のものさしが100 mmあるか定規で確かめてください。",
)
DUPLEX_LINE = "両面印刷は「長辺とじ」を選んでください。表の次のページが、その裏面です。"
HEADINGS = {"cards": "印刷用カードシート", "tokens": "印刷用トークンシート"}
BOARD_OVERLAP_MM = 10.0
# Columns that never need a layout: copies, and the provisional marker the check lists.
RESERVED_COLUMNS = {"count", "provisional"}


@dataclass(frozen=True)
class DeckSheets:
    """One component's cards (or tokens) on their sheets."""

    id: str
    name: str
    geometry: sheets.SheetGeometry
    faces: list  # (front Face, back Face or None) per card, deck order
    unit: str = "枚"
    output: str = "cards"


@dataclass(frozen=True)
class BoardPlan:
    id: str
    name: str
    face: facelayout.Face
    tilings: dict  # file name -> Tiling: on the chosen paper, and on A3 where that differs


@dataclass
class Plan:
    """Everything needed to render one game, laid out and checked."""

    game: Game
    fonts: facelayout.Fonts
    paper: tuple[float, float]
    paper_name: str
    sheets: dict[str, list[DeckSheets]] = field(default_factory=dict)  # output name -> decks
    boards: list[BoardPlan] = field(default_factory=list)
    book: rulebook.Rulebook | None = None
    samples: dict = field(default_factory=dict)  # (component, column) -> ([(label, Face)], size)
    summary_md: str = ""


def proof_text(title: str, output: str, decks: list[DeckSheets], paper: str) -> list[str]:
    lines = [f"{title}　{HEADINGS.get(output, '印刷用シート')}", *PROOF_LINES]
    if any(d.geometry.backs for d in decks):
        lines.append(DUPLEX_LINE)
    lines.append("")
    for d in decks:
        g = d.geometry
        lines.append(
            f"{d.name}：{len(d.faces)}{d.unit}　{g.card[0] / MM:g}×{g.card[1] / MM:g} mm　"
            f"{g.cols}×{g.rows}/シート　塗り足し {g.bleed / MM:g} mm　用紙 {paper.upper()}"
        )
    return lines


def guide_text(title: str, name: str, tiling: sheets.Tiling) -> list[str]:
    """What the first page of a tiled board says."""
    bw, bh = tiling.board
    return [
        f"{title}　{name}",
        f"{bw / MM:g}×{bh / MM:g} mm のボードを {len(tiling.tiles)} 枚に分けて印刷します"
        f"（のりしろ {tiling.overlap / MM:g} mm）。",
        *PROOF_LINES,
        "２枚目からは各ページの点線で切り、○＋の印を重ねて貼り合わせてください。",
        "A1 が左上です。数字は右へ、アルファベットは下へ進みます。",
    ]


def lay_out(
    project: Project,
    game: Game,
    paper: str,
    bleed_mm: float | None,
    font_index: FontIndex,
    problems: Problems,
) -> Plan:
    defs = sheets.load_sheet_defs(project.layouts, project.rel)
    if paper not in defs.paper:
        raise BuildError(f"unknown paper '{paper}' (papers: {', '.join(defs.paper)})")
    fonts = game_fonts(game, font_index)
    icons = iconlayout.load_icons(project.layouts, game.id, project.rel)
    plan = Plan(game, fonts, defs.paper[paper], paper)
    context = {"game": {"title": game.title, "id": game.id}, "vars": load_vars(project, game.id)}
    decks = {d.id: d for d in game.decks}
    for comp in game.manifest.components:
        if not comp.printed:
            continue
        if comp.kind == "board":
            plan.boards.append(
                _board(project, game, comp, defs, paper, context, fonts, icons, problems)
            )
            continue
        want = f"{bleed_mm}mm" if bleed_mm is not None else comp.bleed
        geometry = sheets.impose(defs, comp.sheet, comp.size, paper, want, problems, comp.where)
        w, h = geometry.card
        names = {"W": w, "H": h, "bleed": geometry.bleed}
        front = boxes.load_layout(project.layouts, game.id, comp.front, project.rel, names)
        back = (
            boxes.load_layout(project.layouts, game.id, comp.back, project.rel, names)
            if comp.back
            else None
        )
        deck = decks[comp.id]
        _warn_unused_columns(deck, [front, back], problems)
        laid = facelayout.lay_out_deck(deck, front, back, context, names, fonts, icons, problems)
        group = plan.sheets.setdefault(comp.output, [])
        if comp.kind == "token" and group and group[-1].geometry == geometry:
            # Tokens of one size share sheets: 24 cubes and 32 markers fill one page, not two.
            last = group.pop()
            group.append(
                DeckSheets(
                    f"{last.id}+{comp.id}",
                    f"{last.name}・{comp.name}",
                    geometry,
                    last.faces + laid,
                    comp.unit,
                    comp.output,
                )
            )
        else:
            group.append(DeckSheets(comp.id, comp.name, geometry, laid, comp.unit, comp.output))
    for output, group in plan.sheets.items():
        title, *lines = proof_text(game.title, output, group, paper)
        fonts.use("bold", title)
        for line in lines:
            fonts.use("body", line)
        for d in group:
            fonts.use("body", d.name)
    for board in plan.boards:
        for tiling in board.tilings.values():
            title, *lines = guide_text(game.title, board.name, tiling)
            fonts.use("bold", title + "".join(t.label for t in tiling.tiles))
            for line in lines:
                fonts.use("body", line)
    if game.rules_source is not None:
        plan.book = rulebook.render_source(game)
        _check_rulebook_glyphs(plan.book, game, fonts, problems)
        plan.samples = _samples(plan, game, problems)
        plan.summary_md = rulebook.summary_markdown(plan.book, game)
    return plan


def game_fonts(game: Game, font_index: FontIndex) -> facelayout.Fonts:
    """The manifest's font roles resolved to faces and measured; every role carries ALWAYS."""
    fonts = facelayout.Fonts(
        {
            role: metrics(
                font_index.find(spec["family"], spec.get("weight", "Regular")), font_index.cache
            )
            for role, spec in game.manifest.fonts.items()
        }
    )
    for role in ("body", "bold"):
        if role not in fonts.metrics:
            raise BuildError(
                [Problem("error", f"[fonts] needs a '{role}' font", game.manifest.where)]
            )
        fonts.use(role, ALWAYS)
    return fonts


VARS_FILE = "vars.toml"


def load_vars(project: Project, game: str) -> dict:
    """`vars` in templates: shared lookups such as colours per element (_shared, then the game's)."""
    merged: dict = {}
    for folder in (project.layouts / "_shared", project.layouts / game):
        path = folder / VARS_FILE
        if path.is_file():
            try:
                merged.update(tomllib.loads(path.read_text(encoding="utf-8")))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise BuildError(
                    [
                        Problem(
                            "error",
                            f"cannot read template variables: {exc}",
                            SourceRef(project.rel(path)),
                        )
                    ]
                ) from None
    return merged


def _board(
    project, game, comp: Component, defs, paper, context, fonts, icons, problems
) -> BoardPlan:
    w, h, _ = sheets.card_size(defs, comp.size, comp.where)
    names = {"W": w, "H": h, "bleed": 0.0}
    layout = boxes.load_layout(project.layouts, game.id, comp.front, project.rel, names)
    # A board is one "card" with the game's fields only.
    card = Card(comp.id, 0, freeze({"_label": comp.name}), comp.where)
    face = facelayout.lay_out_face(layout, card, context, names, fonts, icons, problems)
    margin = 5 * MM
    tilings = {
        f"{comp.output}.pdf": sheets.tile((w, h), defs.paper[paper], margin, BOARD_OVERLAP_MM * MM)
    }
    a3 = defs.paper.get("a3")
    if a3 and not tilings[f"{comp.output}.pdf"].single:
        a3_tiling = sheets.tile((w, h), a3, margin, BOARD_OVERLAP_MM * MM)
        if a3_tiling.single:
            tilings[f"{comp.output}-a3.pdf"] = a3_tiling
        else:
            problems.warning(
                f"{comp.name} ({w / MM:g}×{h / MM:g} mm) does not fit A3 either", comp.where
            )
    return BoardPlan(comp.id, comp.name, face, tilings)


def _warn_unused_columns(deck: Deck, layouts: list, problems: Problems) -> None:
    used: set[str] = set()
    for layout in layouts:
        if layout is not None:
            used |= layout.fields_used()
    quiet = RESERVED_COLUMNS | set(deck.component.unprinted_columns)
    names = " or ".join(layout.name for layout in layouts if layout is not None)
    for column in deck.columns:
        if column not in used and column not in quiet:
            problems.warning(
                f"column '{column}' is not used by layout {names}",
                deck.where.at(row=1, column=column),
            )


def _check_rulebook_glyphs(
    book: rulebook.Rulebook, game: Game, fonts: facelayout.Fonts, problems: Problems
) -> None:
    for line, text, role in rulebook.printed_text(book, game):
        missing = fonts.missing(role, text)
        if missing:
            chars = "、".join(f"「{ch}」(U+{ord(ch):04X})" for ch in missing)
            problems.error(
                f"the {role} font has no glyph for {chars}",
                book.where.at(row=line or None),
                fold=f"glyph:{line}:{chars}",
            )
        fonts.use(role, text)


def _samples(plan: Plan, game: Game, problems: Problems) -> dict:
    """`::: samples COMPONENT COLUMN`: the first card of each value of COLUMN, front side."""
    laid = {d.id: d for group in plan.sheets.values() for d in group}
    out = {}
    for block in plan.book.blocks:
        if block.kind != "directive" or block.text != "samples":
            continue
        if len(block.items) != 2:
            problems.error(
                "'::: samples' needs a component and a column, e.g. '::: samples klesha suit'",
                plan.book.where.at(row=block.line),
            )
            continue
        comp_id, column = block.items
        deck = next((d for d in game.decks if d.id == comp_id), None)
        if deck is None or column not in deck.columns or comp_id not in laid:
            problems.error(
                f"'::: samples {comp_id} {column}': no such printed component or column",
                plan.book.where.at(row=block.line),
            )
            continue
        sheet = laid[comp_id]
        firsts: dict = {}
        for card, (front, _) in zip(deck.cards, sheet.faces):
            firsts.setdefault(card.fields[column], front)
        out[block.items] = ([(str(k), f) for k, f in firsts.items()], sheet.geometry.card)
    return out
