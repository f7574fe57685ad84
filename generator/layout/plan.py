"""The layout stage for one game: every component laid out by its kind's strategy, the rules
source rendered and parsed, glyphs checked.

Fed by the model, the layout folders and font metrics; the `Plan` it returns is all the builders
need, so `pnp check` ends here having found every layout problem without drawing anything. The
words a builder prints around the game's own (proof pages, guides, footers) are the builder's.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import i18n, tomlfile
from ..cache import code_digest
from ..fonts import FontIndex, metrics
from ..i18n import N_, _, ngettext
from ..model import Card, Component, Deck, Folders, Game, freeze
from ..problems import BuildError, Problems, SourceRef
from ..textfile import confine
from . import boxes, presets, rulebook, sheets, tuckbox
from . import dice as dicelayout
from . import faces as facelayout
from . import icons as iconlayout
from . import images as imagelayout
from .units import MM

BOARD_OVERLAP_MM = 10.0
BOARD_MARGIN_MM = 5.0
ONE_PIECE = ("a3", "a2")  # papers a tiled board is also printed on whole, the smallest that fits
# Columns that never need a layout: copies, and the provisional marker the check lists.
RESERVED_COLUMNS = {"count", "provisional"}


@dataclass(frozen=True)
class DeckSheets:
    """One component's cards (or tokens) on their sheets."""

    id: str
    name: str
    geometry: sheets.SheetGeometry
    faces: facelayout.FaceStore  # (front Face, back Face or None) per card, deck order
    unit: str = "枚"
    output: str = "cards"


def laid_decks(plan: Plan):
    """Each deck's sheets with the decks laid out on them, in order: (DeckSheets, [Deck]).
    Tokens of one size share sheets (`DeckSheets.id` "a+b"): their cards follow one another."""
    decks = {d.id: d for d in plan.game.decks}
    for group in plan.sheets.values():
        for laid in group:
            yield laid, [decks[part] for part in laid.id.split("+")]


def laid_cards(plan: Plan):
    """Every card (or token) laid out on sheets, in deck order: (the card, its component's
    name, its front Face, its back Face or None, the sheets it is on)."""
    for laid, decks in laid_decks(plan):
        names = {d.id: d.component.name for d in decks}
        cards = [c for d in decks for c in d.cards]
        for card, (front, back) in zip(cards, laid.faces):
            yield card, names[card.component], front, back, laid


@dataclass(frozen=True)
class BoardPlan:
    """A board's face and how it tiles each paper it is printed on."""

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
    tuckboxes: list = field(default_factory=list)  # layout/tuckbox.TuckBox per card deck
    dice: list = field(default_factory=list)  # layout/dice.DiceSheets per component of dice
    samples: dict = field(default_factory=dict)  # (component, column) -> ([(label, Face)], size)
    pictures: dict = field(default_factory=dict)  # the rulebook's pictures: file -> ImageRef|None
    icons: iconlayout.IconSet | None = None  # `:name:` in the rules text draws these too
    proof: bool = False  # draw the trim line, bleed edge and safe zone over every card
    presets: dict = field(default_factory=dict)  # print-shop presets by name
    outputs: dict = field(default_factory=dict)  # what the picked formats were asked for
    # faces laid out this build, taken as the last build laid them out, and in all
    faces_laid: tuple[int, int, int] = (0, 0, 0)
    back_offset: object = None  # printers.BackOffset: back pages moved to land behind fronts


@dataclass
class _Stage:
    """What every component's layout needs: the folders, sheets, fonts, icons, template names."""

    folders: Folders
    game: Game
    plan: Plan
    defs: sheets.SheetDefs
    paper: str
    bleed_mm: float | None
    context: dict
    fonts: facelayout.Fonts
    icons: iconlayout.IconSet
    problems: Problems
    margin_mm: float | None = None
    images: imagelayout.ImageSet | None = None
    memo: facelayout.FaceMemo | None = None
    held: int = 0  # cards whose faces the plan holds (facelayout.HELD at most)

    def face(self, layout: boxes.Layout, card: Card, names: dict) -> facelayout.Face:
        """One face of one piece, through the game's memo."""
        return facelayout.lay_out_face(
            layout,
            card,
            self.context,
            names,
            self.fonts,
            self.icons,
            self.problems,
            self.images,
            self.memo,
            self.extra(names),
        )

    def extra(self, names: dict) -> str:
        """What every face of one piece size shares besides its layout and row (the memo's)."""
        return repr((sorted(names.items()), facelayout.context_digest(self.context)))

    def layout(self, name: str, names: dict, where: SourceRef | None = None) -> boxes.Layout:
        """The layout `name`; `where` is the manifest key naming it, for a message."""
        layouts = self.folders.layouts
        edition = self.game.manifest.edition
        return boxes.load_layout(
            layouts, self.game.id, name, self.folders.rel, names, where=where, language=edition
        )


def lay_out(
    folders: Folders,
    game: Game,
    paper: str,
    bleed_mm: float | None,
    font_index: FontIndex,
    problems: Problems,
    margin_mm: float | None = None,
    memos: dict | None = None,
    tuckboxes_drawn: bool = True,
) -> Plan:
    """The game laid out; `memos` (a Session's) holds each game's faces from its last build
    and is given this build's. `tuckboxes_drawn`: whether the tuckbox format is drawn (else a
    tuck box's errors are warnings: they stop no build of what is printed)."""
    defs = sheets.load_sheet_defs(folders.layouts, folders.rel)
    paper_size = sheets.paper_size(defs, paper)
    fonts = game_fonts(game, font_index)
    icons = iconlayout.load_icons(folders.layouts, game.id, folders.rel)
    plan = Plan(game, fonts, paper_size, paper)
    plan.presets = presets.load_presets(folders.layouts, folders.rel)
    facts = {"title": game.title, "id": game.id}
    if game.manifest.version:  # only then: a game without one lays out exactly as before
        facts["version"] = game.manifest.version
    context = {"game": facts, "vars": load_vars(folders, game.id)}
    images = imagelayout.ImageSet(folders.root, game.manifest.folder, folders.rel)
    salt = _memo_salt(game, fonts, icons)
    held = (memos or {}).get(game.id)
    memo = facelayout.FaceMemo(
        salt, held.stored if held is not None and held.salt == salt else None
    )
    stage = _Stage(
        folders,
        game,
        plan,
        defs,
        paper,
        bleed_mm,
        context,
        fonts,
        icons,
        problems,
        margin_mm,
        images,
        memo,
    )
    for comp in game.manifest.components:
        if comp.printed:
            STRATEGIES[comp.kind_of.layout](stage, comp)
    _lay_out_tuckboxes(stage, tuckboxes_drawn)
    _report_lacking_art(images, problems)
    if memos is not None:
        memos.pop(game.id, None)  # a memo overflowed holds nothing to keep
        if not memo.overflowed:
            memos[game.id] = facelayout.FaceMemo(salt, memo.live)
    plan.faces_laid = (memo.misses, memo.hits, memo.faces)
    if game.rules_source is not None:
        plan.book = rulebook.render_source(game)
        if plan.book.summary_chosen:
            _say_summary_chosen(plan.book, problems)
        _check_rulebook_glyphs(plan.book, game, fonts, problems)
        plan.samples = _samples(plan, game, problems)
        plan.pictures = _pictures(folders, game, plan.book, images, fonts, problems)
        plan.icons = icons
    return plan


def _lay_out_sheets(stage: _Stage, comp: Component) -> None:
    """Many faces, each from one data row, imposed on the component's sheet definition."""
    want = f"{stage.bleed_mm}mm" if stage.bleed_mm is not None else comp.bleed
    one_sided = stage.defs.sheets.get(comp.sheet, {}).get("backs") == "none"
    if comp.back and one_sided:  # pieces given a back print it, whatever their sheet
        stage.problems.notice(
            _(
                "{name} has a back ({back}) and its sheet '{sheet}' prints one side: the backs "
                "print on pages of their own, behind the fronts (a long-edge flip)",
                name=comp.name,
                back=comp.back,
                sheet=comp.sheet,
            ),
            comp.at("back"),
        )
    geometry = sheets.impose(
        stage.defs,
        comp.sheet,
        comp.size,
        stage.paper,
        want,
        stage.problems,
        comp.where,
        comp.at,
        margin_mm=stage.margin_mm,
        backs="long-edge" if comp.back and one_sided else None,
    )
    w, h = geometry.card
    names = {"W": w, "H": h, "bleed": geometry.bleed}
    front = stage.layout(comp.front, names, comp.at("front"))
    back = stage.layout(comp.back, names, comp.at("back")) if comp.back else None
    deck = stage.game.deck(comp.id)
    if stage.game.manifest.version:  # which printing: small in the front's safe area
        front = with_version(front, geometry.safe)
    if not stage.game.manifest.edition:  # the source's layouts are the ones to tidy
        _warn_unused_columns(deck, [front, back], stage.problems)
    hold = stage.held + len(deck.cards) <= facelayout.HELD  # beyond: laid out where drawn
    stage.held += len(deck.cards) if hold else 0
    laid = facelayout.lay_out_deck(
        deck,
        front,
        back,
        stage.context,
        names,
        stage.fonts,
        stage.icons,
        stage.problems,
        stage.images,
        stage.memo,
        hold,
    )
    group = stage.plan.sheets.setdefault(comp.output, [])
    if comp.kind_of.shares_sheets and group and group[-1].geometry == geometry:
        # Tokens of one size share sheets: 24 cubes and 32 markers fill one page, not two.
        last = group.pop()
        merged = DeckSheets(
            f"{last.id}+{comp.id}",
            f"{last.name}・{comp.name}",
            geometry,
            facelayout.FaceStore.joined(last.faces, laid),
            comp.unit,
            comp.output,
        )
        group.append(merged)
    else:
        group.append(DeckSheets(comp.id, comp.name, geometry, laid, comp.unit, comp.output))


def _lay_out_single(stage: _Stage, comp: Component) -> None:
    """One piece from its layout alone (a board): on one page when the paper holds it, else
    tiled as a poster, and in one piece on A3 or A2 where that fits."""
    w, h, _size = sheets.card_size(stage.defs, comp.size, comp.at("size"))
    names = {"W": w, "H": h, "bleed": 0.0}
    layout = stage.layout(comp.front, names, comp.at("front"))
    # A board is one "card" with the game's fields only.
    card = Card(comp.id, 0, freeze({"_label": comp.name}), comp.where)
    face = stage.face(layout, card, names)
    margin, overlap = BOARD_MARGIN_MM * MM, BOARD_OVERLAP_MM * MM
    main = f"{comp.output}.pdf"
    tilings = {main: sheets.tile((w, h), stage.defs.paper[stage.paper], margin, overlap)}
    if not tilings[main].single:
        # In one piece too, on the smallest of the larger papers that holds it (a print shop's
        # A3 or A2), or said so.
        larger = [p for p in ONE_PIECE if p in stage.defs.paper and p != stage.paper]
        for paper in larger:
            whole = sheets.tile((w, h), stage.defs.paper[paper], margin, overlap)
            if whole.single:
                tilings[f"{comp.output}-{paper}.pdf"] = whole
                break
        else:
            if larger:
                stage.problems.warning(
                    _(
                        "{name} ({w:g}×{h:g} mm) does not fit {papers} in one piece either",
                        name=comp.name,
                        w=round(w / MM, 1),
                        h=round(h / MM, 1),
                        papers=" / ".join(p.upper() for p in larger),
                    ),
                    comp.where,
                )
    _check_spaces(stage, comp, face)
    stage.plan.boards.append(BoardPlan(comp.id, comp.name, face, tilings))


def _check_spaces(stage: _Stage, comp: Component, face) -> None:
    """A board's spaces that say what they hold (`holds = "elder"`): each must take a piece of
    that component, either way round, and no box drawn after it may cover it (a panel over a
    pile)."""
    components = stage.game.manifest.components
    boxes = face.boxes
    for i, space in enumerate(boxes):
        held = space.props.get("holds")
        if not held:
            continue
        other = next((c for c in components if held in (c.id, c.name)), None)
        if other is None or other.size is None:
            names = ", ".join(c.id for c in components if c.size is not None and c is not comp)
            stage.problems.warning(
                _(
                    "{board}: space '{space}' holds '{held}', which is no component of this "
                    "game (components: {names})",
                    board=comp.name,
                    space=space.name,
                    held=held,
                    names=names,
                ),
                space.where,
            )
            continue
        pw, ph, _size = sheets.card_size(stage.defs, other.size, other.at("size"))
        tol = 0.05 * MM
        fits = (space.w + tol >= pw and space.h + tol >= ph) or (
            space.w + tol >= ph and space.h + tol >= pw
        )
        if not fits:
            stage.problems.warning(
                _(
                    "{board}: space '{space}' ({w:g}×{h:g} mm) is smaller than the {name} it "
                    "holds ({pw:g}×{ph:g} mm)",
                    board=comp.name,
                    space=space.name,
                    w=round(space.w / MM, 1),
                    h=round(space.h / MM, 1),
                    name=other.name,
                    pw=round(pw / MM, 1),
                    ph=round(ph / MM, 1),
                ),
                space.where,
            )
        x0, y0, x1, y1 = space.x, space.y, space.x + space.w, space.y + space.h
        for above in boxes[i + 1 :]:
            covers = above.type == "image" or (
                above.type in ("rect", "ellipse", "polygon") and above.props.get("fill")
            )
            if not covers or above.props.get("holds"):
                continue
            ax0, ay0, ax1, ay1 = above.x, above.y, above.x + above.w, above.y + above.h
            if x0 <= ax0 and y0 <= ay0 and ax1 <= x1 and ay1 <= y1:
                continue  # drawn inside the space: its own mark or label
            w, h = min(x1, ax1) - max(x0, ax0), min(y1, ay1) - max(y0, ay0)
            if w > 1 * MM and h > 1 * MM:
                stage.problems.warning(
                    _(
                        "{board}: '{above}' is drawn over space '{space}', where the {name} go",
                        board=comp.name,
                        above=above.name,
                        space=space.name,
                        name=other.name,
                    ),
                    above.where,
                )


DIE_BLEED_MM = 1.0


def _lay_out_dice(stage: _Stage, comp: Component) -> None:
    """Each die's six faces from its rows, on a cube net; as many nets a page as fit."""
    w, h, _size = sheets.card_size(stage.defs, comp.size, comp.at("size"))
    if abs(w - h) > 0.05 * MM:
        raise BuildError(
            _(
                "{name}: a die's faces are square; its size is {w:g}×{h:g} mm",
                name=comp.name,
                w=w / MM,
                h=h / MM,
            ),
            comp.at("size"),
        )
    bleed = DIE_BLEED_MM * MM
    names = {"W": w, "H": w, "bleed": bleed}
    front = stage.layout(comp.front, names, comp.at("front"))
    deck = stage.game.deck(comp.id)
    _warn_unused_columns(deck, [front], stage.problems, quiet={"die"})
    faces = [stage.face(front, card, names) for card in deck.cards]
    nets = tuple(
        dicelayout.net(w, label, [faces[i] for i in idx], bleed)
        for label, idx in dicelayout.groups(deck, stage.problems)
    )
    margin = (stage.margin_mm if stage.margin_mm is not None else BOARD_MARGIN_MM) * MM
    net_size = dicelayout.size(w)
    paper = stage.defs.paper[stage.paper]
    spots = dicelayout.positions(net_size, paper, margin, dicelayout.GAP_MM * MM)
    if not spots:
        raise BuildError(
            _(
                "{name}: a die net of {w:.0f}×{h:.0f} mm does not fit {paper} inside "
                "the {margin:g} mm margin",
                name=comp.name,
                w=net_size[0] / MM,
                h=net_size[1] / MM,
                paper=stage.paper.upper(),
                margin=margin / MM,
            ),
            comp.at("size"),
        )
    stage.plan.dice.append(
        dicelayout.DiceSheets(
            comp.id, comp.name, w, net_size, paper, margin, spots, nets, bleed, tuple(faces)
        )
    )


# Layout strategies by name (kinds.Kind.layout): how a kind's pieces become faces on pages.
STRATEGIES = {"sheets": _lay_out_sheets, "single": _lay_out_single, "dice": _lay_out_dice}


def _lay_out_tuckboxes(stage: _Stage, drawn: bool) -> None:
    """A tuck box for every printed deck of cards, sized from its cards (the tuckbox format
    draws them; laid out here so `check` and the layout editor find them too). Unless `drawn`,
    what stops a tuck box's faces is a warning: an old tuck-box layout of the project's stops no
    build of its cards."""
    for comp in stage.game.manifest.components:
        if comp.kind == "card":
            tuckbox.settings(comp)  # what game.toml sets wrong is an error all the same
    own = Problems()
    _tuckboxes(replace(stage, problems=own), drawn)
    for p in own.items:
        if p.level == "error" and not drawn:
            p = replace(p, level="warning", message=p.message + " " + _(NOT_DRAWN))
        stage.problems.items.append(p)


NOT_DRAWN = N_("(only --format tuckbox draws tuck boxes)")


def _tuckboxes(stage: _Stage, drawn: bool) -> None:
    laid = {d.id: d for group in stage.plan.sheets.values() for d in group}
    for comp in stage.game.manifest.components:
        if comp.kind != "card" or comp.id not in laid:
            continue
        deck = laid[comp.id]
        try:
            box = tuckbox.lay_out(stage, comp, deck.geometry.card, len(deck.faces))
        except BuildError as exc:
            # The tool's own tuck-box layouts fit cards from about 30×40 mm: smaller cards get
            # none, said so, and their sheets are built. A mistake in the project's own
            # layouts or [component.tuckbox] stays an error at its line (when drawn).
            mine = not all(p.where.file.startswith("pnp:") for p in exc.problems)
            if mine and drawn:
                raise
            if mine:
                stage.problems.extend(exc.problems)
                continue
            card_w, card_h = deck.geometry.card
            stage.problems.notice(
                _(
                    "{name}: no tuck box: its {w:g}×{h:g} mm cards are too small for the tool's "
                    "tuck-box layouts (layouts/_shared/tuckbox_front.toml of your own can hold "
                    "them)",
                    name=comp.name,
                    w=round(card_w / MM, 1),
                    h=round(card_h / MM, 1),
                ),
                comp.where,
            )
            continue
        margin = deck.geometry.margin
        paper = stage.defs.paper[stage.paper]
        page = tuckbox.fit_page(box.size, [paper], margin)
        if page is None and "a3" in stage.defs.paper:
            page = tuckbox.fit_page(box.size, [stage.defs.paper["a3"]], margin)
            if page is not None:
                stage.problems.notice(
                    _(
                        "{name}: its tuck box ({w:.0f}×{h:.0f} mm unfolded) does not fit "
                        "{paper}; it is printed on A3",
                        name=comp.name,
                        w=box.size[0] / MM,
                        h=box.size[1] / MM,
                        paper=stage.paper.upper(),
                    ),
                    comp.where,
                )
        if page is None:
            stage.problems.warning(
                _(
                    "{name}: its tuck box ({w:.0f}×{h:.0f} mm unfolded) fits no paper; "
                    "it is left out (split the deck, or set a thinner [component.tuckbox] "
                    "thickness)",
                    name=comp.name,
                    w=box.size[0] / MM,
                    h=box.size[1] / MM,
                ),
                comp.where,
            )
            continue
        stage.plan.tuckboxes.append(replace(box, page=page, margin=margin))


def _memo_salt(game: Game, fonts: facelayout.Fonts, icons: iconlayout.IconSet) -> str:
    """What every face of a game depends on besides its own layout and row: pnp's code, the
    fonts (file, size and time), the icons, the words never split and the language its
    messages were written in."""
    faces = []
    for role, m in sorted(fonts.metrics.items()):
        st = m.face.path.stat()
        faces.append((role, str(m.face.path), m.face.index, st.st_size, st.st_mtime_ns))
    icon_text = repr(sorted((k, v.shapes, v.advance) for k, v in icons.icons.items()))
    return hashlib.blake2b(
        repr((code_digest(), game.id, faces, icon_text, i18n.language(), fonts.words)).encode(),
        digest_size=16,
    ).hexdigest()


def _say_summary_chosen(book, problems: Problems) -> None:
    """The rules mark no part for the summary: which sections it took, and how to choose."""
    how = _("mark parts with <!-- summary: TITLE --> … <!-- /summary --> to choose")
    if book.summary:
        message = _(
            "no part is marked for the summary: it shows the sections {titles} ({how})",
            titles=i18n.listed(f"「{s.title}」" for s in book.summary),
            how=how,
        )
    else:
        message = _(
            "no part is marked for the summary and no section is on setup, turns or the end: "
            "the summary has the title only ({how})",
            how=how,
        )
    problems.notice(message, book.where)


def _report_lacking_art(images: imagelayout.ImageSet, problems: Problems) -> None:
    """One notice per image box whose pictures are not all there yet: which cards still show a
    stand-in (the fallback picture or the placeholder)."""
    for (file, box), lacking in images.lacking.items():
        unique = list(dict.fromkeys(card for card, _name in lacking))
        names = list(dict.fromkeys(name for _card, name in lacking if name))
        shown = i18n.listed(unique[:8]) + ("…" if len(unique) > 8 else "")
        message = ngettext(
            "box '{box}': {n} card still lacks its art (a stand-in is drawn): {cards}",
            "box '{box}': {n} cards still lack their art (a stand-in is drawn): {cards}",
            len(unique),
            box=box,
            cards=shown,
        )
        if names:
            files = ", ".join(names[:8]) + ("…" if len(names) > 8 else "")
            message += "; " + ngettext(
                "{n} file to make in {folder}/: {files}",
                "{n} files to make in {folder}/: {files}",
                len(names),
                folder=images.rel(images.folder),
                files=files,
            )
        problems.notice(message, SourceRef(file))
        for name in names:  # the art saved under a name near the one the data writes
            twin = images.near_twin(name)
            moved = None if twin else images.elsewhere(name)
            if moved:
                problems.warning(
                    _(
                        "box '{box}': {name} is in the project's folder ({found}), not the "
                        "game's: move it into {folder}/ (a stand-in is drawn)",
                        box=box,
                        name=name,
                        found=moved,
                        folder=images.rel(images.folder),
                    ),
                    SourceRef(file),
                )
            if twin:
                problems.warning(
                    _(
                        "box '{box}': {name} is not there, {file} is: rename it, or write its "
                        "name in the data (a stand-in is drawn)",
                        box=box,
                        name=name,
                        file=twin,
                    ),
                    SourceRef(file),
                )


def game_fonts(game: Game, font_index: FontIndex) -> facelayout.Fonts:
    """The manifest's font roles resolved to faces and measured; body and bold must exist."""

    def face(role: str, spec: dict):
        try:
            return font_index.find(spec["family"], spec.get("weight", "Regular"))
        except BuildError as exc:  # named where game.toml asks for it
            at = game.manifest.at("fonts", role)
            raise BuildError([replace(p, where=p.where or at) for p in exc.problems]) from None

    fonts = facelayout.Fonts(
        {
            role: metrics(face(role, spec), font_index.cache)
            for role, spec in game.manifest.fonts.items()
        },
        words=game.words,
    )
    for role in ("body", "bold"):
        if role not in fonts.metrics:
            raise BuildError(_("[fonts] needs a '{role}' font", role=role), game.manifest.where)
    return fonts


VARS_FILE = "vars.toml"


VERSION_BOX = "version"


def with_version(layout: boxes.Layout, safe: float) -> boxes.Layout:
    """The layout with the game's version printed small at the foot of the safe zone, on top of
    the rest, unless the layout prints it itself (a box reading `game.version`, or one named
    `version`: its place and style, the designer's)."""
    for box in layout.boxes:
        if box.name == VERSION_BOX or "game.version" in repr(box.props):
            return layout
    props = {
        "name": VERSION_BOX,
        "type": "text",
        "x": f"{safe}pt",
        "y": f"H - {safe + 7}pt",
        "w": f"W - {2 * safe}pt",
        "h": "6pt",
        "text": "{{ game.version }}",
        "font": "body",
        "size": "4.5pt",
        "min_size": "4pt",
        "align": "right",
        "valign": "bottom",
        "color": "#8C8C8C",
    }
    where = SourceRef(layout.file)
    return boxes.Layout(
        layout.name, layout.file, [*layout.boxes, boxes.BoxSpec(VERSION_BOX, "text", props, where)]
    )


def load_vars(folders: Folders, game: str) -> dict:
    """`vars` in templates: shared lookups such as colours per element (_shared, then the
    game's)."""
    merged: dict = {}
    for folder in (folders.layouts / "_shared", folders.layouts / game):
        path = folder / VARS_FILE
        if path.is_file():
            where = SourceRef(folders.rel(path))
            confine(path, folders.root, where, "vars.toml")
            merged.update(tomlfile.read(path, where, _("template variables")).data)
    return merged


def _warn_unused_columns(
    deck: Deck, layouts: list, problems: Problems, quiet: set[str] = frozenset()
) -> None:
    used: set[str] = set()
    for layout in layouts:
        if layout is not None:
            used |= layout.fields_used()
    quiet = RESERVED_COLUMNS | set(deck.component.unprinted_columns) | set(quiet)
    quiet.add(deck.component.copies_column or "count")
    names = _(" or ").join(layout.name for layout in layouts if layout is not None)
    for column in deck.columns:
        if column not in used and column not in quiet:
            problems.warning(
                _(
                    "column '{column}' is not used by layout {layouts}",
                    column=column,
                    layouts=names,
                ),
                deck.where.at(row=1, column=column),
            )


def _check_rulebook_glyphs(
    book: rulebook.Rulebook, game: Game, fonts: facelayout.Fonts, problems: Problems
) -> None:
    for line, text, role in rulebook.printed_text(book, game):
        missing = fonts.missing(role, text)
        if missing:
            chars = i18n.listed(f"「{ch}」(U+{ord(ch):04X})" for ch in missing)
            problems.error(
                _("the {role} font has no glyph for {chars}", role=role, chars=chars),
                book.where.at(row=line or None),
                fold=f"glyph:{line}:{chars}",
            )
        fonts.use(role, text)


def _pictures(folders: Folders, game: Game, book, images, fonts, problems: Problems) -> dict:
    """The rulebook's pictures (`![準備の図](setup.png)` on a line of its own), by the file
    named, found beside the rules source: None for one not there yet (a stand-in with its
    name is printed, and a warning says so); a file that is no picture is an error."""
    out: dict = {}
    try:
        beside = (folders.root / book.where.file).parent.relative_to(game.manifest.folder)
    except ValueError:
        beside = Path(".")
    for block in book.blocks:
        if block.kind != "image" or block.items[0] in out:
            continue
        src, where = block.items[0], book.where.at(row=block.line)
        try:
            found = images.find((beside / src).as_posix(), where)
        except imagelayout.ImageError as exc:
            problems.error(str(exc), where)
            found = None
        else:
            if found is None:
                problems.warning(
                    _(
                        "the picture {file} is not there yet: the rulebook prints a stand-in "
                        "with its name",
                        file=src,
                    ),
                    where,
                )
        if found is None:
            fonts.use("body", src)  # the stand-in's label
        out[src] = found
    return out


def _samples(plan: Plan, game: Game, problems: Problems) -> dict:
    """`::: samples COMPONENT COLUMN`: the first card of each value of COLUMN, front side."""
    laid = {d.id: d for group in plan.sheets.values() for d in group}
    out = {}
    for block in plan.book.blocks:
        if block.kind != "directive" or block.text != "samples":
            continue
        if len(block.items) != 2:
            problems.error(
                _("'::: samples' needs a component and a column, e.g. '::: samples klesha suit'"),
                plan.book.where.at(row=block.line),
            )
            continue
        comp_id, column = block.items
        deck = next((d for d in game.decks if d.id == comp_id), None)
        if deck is None or column not in deck.columns or comp_id not in laid:
            problems.error(
                f"'::: samples {comp_id} {column}': " + _("no such printed component or column"),
                plan.book.where.at(row=block.line),
            )
            continue
        sheet = laid[comp_id]
        firsts: dict = {}
        for i, card in enumerate(deck.cards):
            if card.fields[column] not in firsts:
                mark = rulebook.PROVISIONAL if card.provisional else ""
                front = sheet.faces[i][0]  # only these: a large deck's are laid out again
                firsts[card.fields[column]] = (f"{card.fields[column]}{mark}", front)
                plan.fonts.use("body", f"{card.fields[column]}{mark}")
        out[block.items] = (list(firsts.values()), sheet.geometry.card)
    return out
