"""The layout editor of `pnp serve` (http://127.0.0.1:PORT/edit/GAME/COMPONENT/SIDE): one face
of one component, drawn as the build draws it, its boxes outlined over it; what the page changes
is written to the designer's layout file through layout/edit.py, and the gallery rebuilds.

What the page is sent (`state`): the piece's trim size, bleed and safe zone in mm, each box of
the layout in drawing order with its keys as the file writes them, where it is defined (the
file of an `extends` chain) and where this card draws it, the deck's cards to step through, the
columns a box can show, and the problems of the card in view. What it sends back (`apply`) is an
operation on one box, checked as the build checks a layout before anything is written; a write
names the digest of the file as the page read it, so two tabs never lose each other's changes.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

from . import base, colours, tomlfile
from .i18n import _
from .layout import boxes, edit, templates
from .layout import sheets as sheetlayout
from .layout.faces import COLOUR_KEYS, Face
from .layout.plan import laid_decks
from .layout.tuckbox import LAYOUTS as TUCKBOX_LAYOUTS
from .layout.units import MM, UnitError, to_pt
from .output import atomic_write
from .problems import BuildError, Problems, SourceRef
from .textfile import confine

DPI = 160  # the face under the boxes: sharp enough to place a box by eye at 0.1 mm
MOST_IMAGES = 256  # faces kept rendered; a long session's older ones are rendered again
NEW_BOX_MM = (30.0, 8.0)  # a box added from a column: its width and height
NEW_SHAPE_MM, NEW_SHAPE_FILL = (20.0, 12.0), "#DDDDDD"  # a rectangle or ellipse added
INTEGERS = {"max_lines", "min_dpi"}
NUMBERS = {"leading", "opacity"}


class Refused(Exception):
    """An operation the editor does not do, with the HTTP status to answer and a message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Piece:
    """One card (a row) of the deck as the editor steps through it."""

    label: str
    where: SourceRef
    face: Face


@dataclass
class Target:
    """One face of one component that a layout draws: what the editor edits."""

    game: str
    component: str  # its id
    side: str  # front, back; tuckbox-front, tuckbox-back, tuckbox-side
    title: str
    layout: str  # the layout's name
    names: dict  # W, H, bleed (and D for a tuck box's side) in points
    size: tuple[float, float]
    bleed: float
    safe: float
    columns: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.game}/{self.component}/{self.side}"


@dataclass(frozen=True)
class File:
    """A layout file of the chain a target's layout extends, from the layout itself up."""

    layout: str
    path: Path
    rel: str
    writable: bool  # the project's own (pnp's shipped layouts are read, never written)


def targets(plan, project) -> list[Target]:
    """Every face a layout of the game draws: fronts and backs of cards and tokens, boards, and
    the panels of tuck boxes."""
    game = plan.game
    comps = {c.id: c for c in game.manifest.components}
    out: list[Target] = []
    for laid, decks in laid_decks(plan):
        geometry = laid.geometry
        w, h = geometry.card
        names = {"W": w, "H": h, "bleed": geometry.bleed}
        faces = iter(laid.faces)
        for deck in decks:
            comp = comps[deck.id]
            sides = [("front", comp.front)] + ([("back", comp.back)] if comp.back else [])
            made = {
                side: Target(
                    game.id,
                    comp.id,
                    side,
                    f"{comp.name} · {side_word(side)}",
                    layout,
                    names,
                    (w, h),
                    geometry.bleed,
                    geometry.safe,
                    [c for c in deck.columns if not c.startswith("_")],
                )
                for side, layout in sides
            }
            backs: set[str] = set()  # the backs shown
            for card, (front, back) in zip(deck.cards, faces):
                for side, face in (("front", front), ("back", back)):
                    target = made.get(side)
                    if target is None or face is None:
                        continue
                    shown = target.pieces
                    if shown and shown[-1].where == card.where and shown[-1].face.key == face.key:
                        continue  # a copy of the row before
                    if side == "back" and face.key in backs:
                        continue  # a back every card shares: once
                    if side == "back":
                        backs.add(face.key)
                    shown.append(Piece(card.label(), card.where, face))
            out += made.values()
    if plan.boards:
        defs = sheetlayout.load_sheet_defs(project.layouts, project.rel)
        for board in plan.boards:
            comp = comps[board.id]
            w, h, _name = sheetlayout.card_size(defs, comp.size, comp.at("size"))
            target = Target(
                game.id,
                comp.id,
                "front",
                comp.name,
                comp.front,
                {"W": w, "H": h, "bleed": 0.0},
                (w, h),
                0.0,
                3 * MM,
            )
            target.pieces.append(Piece(comp.name, comp.where, board.face))
            out.append(target)
    for box in plan.tuckboxes:
        comp = comps[box.id]
        depth = box.inside[2]
        for panel in box.panels:
            side = f"tuckbox-{panel.name}"
            if panel.face is None or any(t.component == comp.id and t.side == side for t in out):
                continue
            layout = (comp.tuckbox or {}).get(panel.name, TUCKBOX_LAYOUTS[panel.name])
            target = Target(
                game.id,
                comp.id,
                side,
                f"{comp.name} · {side_word(side)}",
                layout,
                {"W": panel.w, "H": panel.h, "D": depth, "bleed": 0.0},
                (panel.w, panel.h),
                0.0,
                3 * MM,
            )
            target.pieces.append(Piece(box.name, comp.where, panel.face))
            out.append(target)
    return out


def side_word(side: str) -> str:
    return {
        "front": _("front"),
        "back": _("back"),
        "tuckbox-front": _("tuck box, front"),
        "tuckbox-back": _("tuck box, back"),
        "tuckbox-side": _("tuck box, side"),
    }.get(side, side)


class Editor:
    """The editor's side of the server: the state a page shows, the faces it draws under the
    boxes, and the operations it asks for."""

    def __init__(self, gallery):
        self.gallery = gallery
        self.token = secrets.token_urlsafe(24)  # the pages this server sent carry it
        self.images: dict[str, bytes] = {}
        self.lock = threading.Lock()
        self.wrote: dict[Path, str] = {}  # file -> the digest of the editor's last write to it

    # -- reading ---------------------------------------------------------------------------

    def target(self, game: str, component: str, side: str) -> Target:
        plan = self.gallery.plans.get(game)
        if plan is not None:
            for target in targets(plan, self.gallery.project):
                if target.component == component and target.side == side:
                    return target
        raise Refused(404, _("no layout to edit at {what}", what=f"{game}/{component}/{side}"))

    def chain(self, target: Target) -> list[File]:
        """The layout's file and those it extends, the layout's own first."""
        project = self.gallery.project
        files, name = [], target.layout
        while name and name not in {f.layout for f in files}:  # a loop: load_layout says so
            path = boxes.find_layout(project.layouts, target.game, name)
            if path is None:
                break
            files.append(File(name, path, project.rel(path), self._writable(path)))
            try:
                raw = tomlfile.read(path, SourceRef(project.rel(path)), _("layout")).data
            except BuildError:
                break
            name = raw.get("extends") if isinstance(raw.get("extends"), str) else None
        return files

    def _writable(self, path: Path) -> bool:
        if base.is_tools(path):
            return False
        try:
            confine(path, self.gallery.project.layouts, SourceRef(path.name), "layout")
        except BuildError:
            return False
        return path.is_file() and not path.is_symlink()

    def layout(self, target: Target) -> boxes.Layout:
        project = self.gallery.project
        return boxes.load_layout(
            project.layouts, target.game, target.layout, project.rel, target.names
        )

    def state(self, game: str, component: str, side: str, card: int) -> dict:
        target = self.target(game, component, side)
        files = self.chain(target)
        pieces = target.pieces
        index = max(0, min(card, len(pieces) - 1)) if pieces else 0
        piece = pieces[index] if pieces else None
        out = {
            "target": target.id,
            "title": target.title,
            "layout": target.layout,
            "size": [round(v / MM, 3) for v in target.size],
            "bleed": round(target.bleed / MM, 3),
            "safe": round(target.safe / MM, 3),
            "files": [
                {
                    "file": f.rel,
                    "layout": f.layout,
                    "writable": f.writable,
                    "digest": edit.digest(f.path.read_bytes()),
                }
                for f in files
            ],
            "cards": [{"label": p.label, "where": p.where.row_place} for p in pieces],
            "card": index,
            "columns": target.columns,
            "version": self.gallery.version,
            "boxes": [],
            "problems": [],
            "error": None,
        }
        try:
            layout = self.layout(target)
        except BuildError as exc:
            out["error"] = [p.format() for p in exc.problems]
            return out
        drawn = {}
        if piece is not None:
            for box in piece.face.boxes:
                drawn.setdefault(box.name, box)
            out["image"] = f"/edit/image/{self._image(target, piece.face)}.png"
        for spec in layout.boxes:
            out["boxes"].append(self._box(spec, drawn.get(spec.name), target, files))
        out["problems"] = self._problems(target, piece, files)
        return out

    def _box(self, spec: boxes.BoxSpec, drawn, target: Target, files: list[File]) -> dict:
        if drawn is not None:
            place = [drawn.x, drawn.y, drawn.w, drawn.h]
        else:
            try:
                place = [to_pt(spec.props[k], target.names) for k in boxes.GEOMETRY]
            except (KeyError, UnitError):
                place = [0.0, 0.0, 0.0, 0.0]
        allowed = sorted((boxes.COMMON | boxes.KEYS.get(spec.type, set())) - {"name", "type"})
        return {
            "name": spec.name,
            "type": spec.type,
            "x": round(place[0] / MM, 3),
            "y": round(place[1] / MM, 3),
            "w": round(place[2] / MM, 3),
            "h": round(place[3] / MM, 3),
            "drawn": drawn is not None,  # this card draws it (its `when` holds)
            "placed": spec.type not in boxes.WHOLE_PIECE,  # moved by x, y, w, h
            "keys": {k: v for k, v in spec.props.items() if k not in ("name", "type")},
            "allowed": allowed,
            "file": spec.where.file,
            "line": spec.where.row,
            "own": spec.where.file == files[0].rel if files else False,
        }

    def _problems(self, target: Target, piece: Piece | None, files: list[File]) -> list[str]:
        rels = {f.rel for f in files}
        row = piece.where.row_place if piece is not None and piece.where.row else None
        out = []
        for p in self.gallery.problems:
            if p.game not in (None, target.game) or p.where is None:
                continue
            if (row and p.where.row and p.where.row_place == row) or p.where.file in rels:
                out.append(p.format())
        return out

    def _image(self, target: Target, face: Face) -> str:
        from .render import fonts as render_fonts
        from .render.images import faces_to_png

        key = f"{face.key}-{round(target.bleed, 3)}"
        if key not in self.images:
            plan = self.gallery.plans[target.game]
            with self.gallery.lock:
                names = render_fonts.register(plan.fonts, self.gallery.cache())
                png = faces_to_png(plan.game.title, [face], target.size, target.bleed, names, DPI)[
                    0
                ]
            if len(self.images) >= MOST_IMAGES:
                self.images.clear()
            self.images[key] = png
        return key

    # -- writing ---------------------------------------------------------------------------

    def apply(self, request: dict) -> dict:
        """One operation the page asks for, written to its layout file, and the gallery built
        again: {ok, file, digest, before (the file as it was: an undo), notes}."""
        if not isinstance(request, dict):
            raise Refused(400, _("the editor sends an object"))
        op = request.get("op")
        game, component, side = (str(request.get(k, "")) for k in ("game", "component", "side"))
        with self.lock:  # one write at a time: each sees the file as the one before left it
            target = self.target(game, component, side)
            files = self.chain(target)
            if not files:
                raise Refused(404, _("layout '{name}' not found", name=target.layout))
            try:
                layout = self.layout(target)
            except BuildError as exc:
                layout = None
                if op != "restore":
                    raise Refused(409, "\n".join(p.format() for p in exc.problems)) from None
            digests = dict(request.get("digests") or {})
            copied = None
            if op != "restore" and base.is_tools(files[0].path):
                copied = self._copy(target, files[0])
                files = self.chain(target)
                digests[files[0].rel] = edit.digest(files[0].path.read_bytes())
            try:
                file, written = self._do(op, request, target, files, layout, digests)
            except (Refused, BuildError) as exc:
                if copied:  # nothing changed: pnp's own layout stays the one the game uses
                    files[0].path.unlink(missing_ok=True)
                if isinstance(exc, Refused):
                    raise
                if isinstance(exc, edit.Stale):
                    raise Refused(409, exc.problems[0].message) from None
                raise Refused(400, "\n".join(p.message for p in exc.problems)) from None
            self.wrote[file.path.resolve()] = written.digest  # before the watcher sees it
        if copied:
            written.notes.insert(0, copied)
        self.gallery.rebuild()
        return {
            "ok": True,
            "file": file.rel,
            "digest": written.digest,
            "before": written.before,
            "notes": written.notes,
        }

    def _copy(self, target: Target, file: File) -> str:
        """pnp's own layout copied into the game's layout folder under its name (where a build
        looks first), to be the designer's to change; what to tell them."""
        folder = self.gallery.project.layouts / target.game
        path = folder / file.path.name
        if path.exists() or path.is_symlink():
            raise Refused(
                409, _("{file} is in the way of a copy", file=self.gallery.project.rel(path))
            )
        confine(
            folder if folder.exists() else folder.parent,
            self.gallery.project.layouts,
            SourceRef(file.rel),
            "layout",
        )
        atomic_write(path, file.path.read_bytes())
        return _(
            "{layout} was pnp's own layout: copied into {file}, which this game now uses",
            layout=file.layout,
            file=self.gallery.project.rel(path),
        )

    def built(self, paths) -> bool:
        """Whether the saves `paths` are all the editor's own, each file as it wrote it (and
        built it then): the watcher's build of them would draw the same again."""
        with self.lock:
            for path in paths:
                path = Path(path).resolve()
                try:
                    now = edit.digest(path.read_bytes())
                except OSError:
                    return False
                if self.wrote.get(path) != now:
                    return False
            return bool(paths)

    def _do(self, op, request, target: Target, files: list[File], layout, digests):
        own = files[0]

        def expected(file: File) -> str:
            return str(digests.get(file.rel, ""))

        def writable(file: File) -> File:
            if not file.writable:
                raise Refused(
                    403,
                    _(
                        "{file} is not written by the editor: it is pnp's own, or lies outside "
                        "the project's layouts folder (a link out of it)",
                        file=file.rel,
                    ),
                )
            return file

        if op == "restore":
            file = next((f for f in files if f.rel == request.get("file")), None)
            if file is None:
                raise Refused(403, _("the editor writes only this layout's files"))
            text = request.get("text")
            if not isinstance(text, str):
                raise Refused(400, _("nothing to write back"))
            writable(file)
            return file, edit.restore(file.path, expected(file), text, file.rel)
        if op == "add":
            writable(own)
            values = self._new_box(request, target, layout)
            self._check(values["name"], values, target, layout, own)
            return own, edit.add(own.path, expected(own), values, None, own.rel)
        spec = self._spec(layout, request.get("box"))
        home = next((f for f in files if f.rel == spec.where.file), own)
        if op == "set":
            values = self._values(request.get("values"))
            override = bool(request.get("override")) or not home.writable
            file = writable(own if override else home)
            self._check(spec.name, values, target, layout, file, spec=spec)
            written = edit.change(
                file.path, expected(file), spec.name, values, file.rel, create=override
            )
            if file is not own:
                written.notes.append(
                    _(
                        "box '{box}' changed in {file}, where it is defined: every layout that "
                        "extends it changes too",
                        box=spec.name,
                        file=file.rel,
                    )
                )
            return file, written
        if op == "duplicate":
            name = _unused(spec.name, {b.name for b in layout.boxes})
            if home is own or (home.writable and not request.get("override")):
                return home, edit.duplicate(home.path, expected(home), spec.name, name, home.rel)
            values = {"name": name, "type": spec.type, **_plain(spec.props)}
            writable(own)
            return own, edit.add(own.path, expected(own), values, None, own.rel)
        if op == "delete":
            if home is own or (home.writable and not request.get("override")):
                return home, edit.remove(home.path, expected(home), spec.name, home.rel)
            writable(own)  # a box of a layout it extends: hidden here, there as it was
            written = edit.change(
                own.path, expected(own), spec.name, {"when": "false"}, own.rel, create=True
            )
            written.notes.append(
                _(
                    "box '{box}' comes from {file}: hidden in {own} with when = \"false\"",
                    box=spec.name,
                    file=home.rel,
                    own=own.rel,
                )
            )
            return own, written
        if op == "order":
            step = request.get("step")
            if step not in (-1, 1):
                raise Refused(400, _("a box moves one layer up or down"))
            file = writable(home)
            return file, edit.move(file.path, expected(file), spec.name, step, file.rel)
        raise Refused(400, _("unknown operation {op!r}", op=op))

    def _spec(self, layout, name) -> boxes.BoxSpec:
        for spec in layout.boxes:
            if spec.name == name:
                return spec
        raise Refused(404, _("no box '{name}' in layout '{layout}'", name=name, layout=layout.name))

    def _values(self, values) -> dict:
        """The panel's values as the layout writes them: geometry in mm (a number) or as an
        expression, flags true/false, whole numbers and numbers as numbers, "" taking a key out."""
        if not isinstance(values, dict) or not values:
            raise Refused(400, _("no value to write"))
        out: dict[str, object] = {}
        for key, value in values.items():
            if key in ("name", "type"):
                raise Refused(400, _("a box's {key} is not changed here", key=key))
            if isinstance(value, str):
                value = value.strip()
            if value in ("", None):
                if key in boxes.GEOMETRY:
                    raise Refused(400, _("box keys x, y, w and h cannot be empty"))
                out[key] = None
            elif key in boxes.GEOMETRY:
                out[key] = _mm(value)
            elif key in boxes.FLAGS:
                out[key] = value if isinstance(value, bool) else str(value).lower() == "true"
            elif key in INTEGERS | NUMBERS:
                try:
                    number = float(value)
                except (TypeError, ValueError):
                    out[key] = value
                else:
                    out[key] = int(number) if key in INTEGERS and number.is_integer() else number
            else:
                out[key] = value
        return out

    def _new_box(self, request, target: Target, layout) -> dict:
        """A box to add: a text box showing a column of the deck (`{{ cost }}`), or a shape
        (`rect`, `ellipse`), at the safe zone's top-left corner, to be placed by hand."""
        column = str(request.get("column") or "")
        shape = request.get("shape")
        if shape is None and column not in target.columns:
            raise Refused(400, _("no column {column!r} in this deck", column=column))
        if shape is not None and shape not in ("rect", "ellipse"):
            raise Refused(400, _("a shape is rect or ellipse, not {shape!r}", shape=shape))
        safe = target.safe / MM
        w, h = (v / MM for v in target.size)
        taken = {b.name for b in layout.boxes} if layout else set()
        size = NEW_SHAPE_MM if shape else NEW_BOX_MM
        values = {
            "name": _unused(shape or column, taken),
            "type": shape or "text",
            "x": f"{round(safe, 2):g}mm",
            "y": f"{round(safe, 2):g}mm",
            "w": f"{round(max(1.0, min(size[0], w - 2 * safe)), 2):g}mm",
            "h": f"{round(max(1.0, min(size[1], h - 2 * safe)), 2):g}mm",
        }
        if shape:
            values["fill"] = NEW_SHAPE_FILL
        else:
            values["text"] = (
                "{{ " + (column if column.isidentifier() else f"row[{column!r}]") + " }}"
            )
            values["size"] = "9pt"
        return values

    def _check(self, name, values, target, layout, file: File, spec=None) -> None:
        """The box as it would be after the change, checked as a build checks a layout: an
        unknown key, a length that does not read, a template that does not compile, a colour
        that is none. Nothing is written when one fails."""
        merged = dict(spec.props) if spec is not None else {}
        for key, value in values.items():
            if value is None:
                merged.pop(key, None)
            elif isinstance(value, float) and key in boxes.GEOMETRY:
                merged[key] = f"{value / MM:g}mm"
            else:
                merged[key] = value
        where = SourceRef(file.rel, spec.where.row if spec is not None else None)
        checked = boxes.BoxSpec(name, str(merged.get("type", "")), merged, where)
        problems = Problems()
        boxes.check_spec(checked, target.names, problems)
        for key in COLOUR_KEYS:
            value = merged.get(key)
            if key in values and isinstance(value, str) and not templates.is_template(value):
                if value.lower() != "none" and colours.colour(value) is None:
                    problems.error(
                        _(
                            "box '{box}': '{key}' must be a colour like #1F2A44, one of "
                            "{names} or 'none', got {value!r}",
                            box=name,
                            key=key,
                            names=colours.NAMES,
                            value=value,
                        ),
                        where,
                    )
        errors = [p for p in problems.items if p.level == "error"]
        if errors:
            raise Refused(400, "\n".join(p.message for p in errors))


def _mm(value) -> float | str:
    """A length from the panel: a number is mm (as points), text an expression kept as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value) * MM
    text = str(value)
    try:
        return float(text) * MM
    except ValueError:
        return text


def _plain(props: dict) -> dict:
    return {k: v for k, v in props.items() if k not in ("name", "type")}


def _unused(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name}-{n}" in taken:
        n += 1
    return f"{name}-{n}"


def words() -> dict[str, str]:
    """The page's own words, in the language pnp speaks."""
    return {
        "gallery": _("← every card"),
        "previous": _("previous card"),
        "next": _("next card"),
        "card": _("card"),
        "undo": _("undo"),
        "redo": _("redo"),
        "snap": _("snap"),
        "column": _("column"),
        "add": _("add a box"),
        "from_column": _("a box showing…"),
        "columns": _("a column of the deck"),
        "shapes": _("a shape"),
        "rect": _("rectangle"),
        "ellipse": _("ellipse"),
        "pick_column": _("pick the column the new box shows"),
        "none_selected": _("no box selected"),
        "hint": _(
            "Click a box to select it; drag it, or its corners; arrow keys move it 0.5 mm "
            "(with Shift 0.1 mm); Alt while dragging does not snap."
        ),
        "defined_in": _("defined in"),
        "not_drawn": _("this card does not draw it (its when)"),
        "override_in": _("change it only here, in"),
        "layers": _("layers (the top one is drawn last)"),
        "problems": _("this card's problems"),
        "no_problems": _("none"),
        "up": _("one layer up"),
        "down": _("one layer down"),
        "duplicate": _("duplicate"),
        "delete": _("delete"),
    }
