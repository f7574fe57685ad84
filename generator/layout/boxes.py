"""Layout files (TOML: geometry as data, Jinja only inside values) and their merge with one card.

Read before any card is merged, so a bad length or key is reported with its template and line
whatever the data. `resolve()` turns a layout plus a card's fields into plain drawing boxes
(points, top-left origin) for the renderer.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import TemplateError

from .. import base, tomlfile
from ..i18n import _, translated
from ..problems import BuildError, Problems, SourceRef, did_you_mean, unknown_key
from ..textfile import confine
from . import templates
from .units import MM, UnitError, to_pt

GEOMETRY = ("x", "y", "w", "h")


@dataclass(frozen=True)
class BoxType:
    """One type of layout box, the one place it is described: the keys it takes besides
    COMMON's, whether it needs a width and a height (`area`), and whether it is placed by its
    points (`by_points`: without x, y, w, h its box is the piece's whole frame). Its work at
    layout, if any, is faces.LAY_OUT's; how it is drawn, render/draw.DRAW's (a test holds the
    three and the schema to one list of types; docs/internals.md has the recipe)."""

    keys: frozenset[str]
    area: bool = False
    by_points: bool = False


_STROKED = {"stroke", "stroke_width", "dash"}
TYPES = {
    # holds: on a board, the component (id or name) a space is drawn for (checked to fit it)
    "rect": BoxType(frozenset({"fill", "radius", "bleed", "holds", *_STROKED})),
    "ellipse": BoxType(frozenset({"fill", "holds", *_STROKED})),
    "polygon": BoxType(frozenset({"points", "fill", *_STROKED}), by_points=True),
    "line": BoxType(frozenset({"points", *_STROKED}), by_points=True),
    "icon": BoxType(frozenset({"icon"}), area=True),
    "image": BoxType(
        frozenset(
            {"src", "fit", "align", "valign", "radius", "opacity", "fallback", "placeholder"}
            | {"min_dpi"}
        ),
        area=True,
    ),
    "text": BoxType(
        frozenset(
            {"text", "font", "size", "min_size", "leading", "color", "align", "valign"}
            | {"max_lines", "direction", "ruby", "markup"}
        ),
        area=True,
    ),
}
KEYS = {name: set(t.keys) for name, t in TYPES.items()}
COMMON = {"name", "type", "when", *GEOMETRY}
# Lines and polygons are placed by their points: without x, y, w, h their box is the piece's
# whole frame, so a point ["W / 2", "0mm"] is on the piece's top edge.
WHOLE_PIECE = {name for name, t in TYPES.items() if t.by_points}
WHOLE = {"x": "0mm", "y": "0mm", "w": "W", "h": "H"}
# Other words for an alignment, as designers write them: one reading each.
SAME_AS = {
    "align": {"centre": "center", "middle": "center"},
    "valign": {"center": "middle", "centre": "middle"},
}
LAYOUT_KEYS = {"extends", "box", "description"}
MOST_EXTENDS = 32  # layouts one above another in an `extends` chain (a design has two or three)
# Values that are lengths (parsed at load) rather than text/colours.
LENGTHS = {"stroke_width", "radius", "size", "min_size", "dash"}


@dataclass(frozen=True)
class BoxSpec:
    """One box of a layout as its TOML file writes it."""

    name: str
    type: str
    props: dict
    where: SourceRef  # template file and the line the box starts on
    lines: dict = field(default_factory=dict, compare=False)  # key -> line, for messages

    def at(self, key: str) -> SourceRef:
        """Where a key of this box is written (the box's line if it was inherited)."""
        return self.where.at(row=self.lines.get(key, self.where.row))


@dataclass
class Layout:
    """A face's layout: its boxes in drawing order, read from its file and `extends` chain."""

    name: str
    file: str
    boxes: list[BoxSpec]
    _compiled: dict = field(default_factory=dict, repr=False)

    @property
    def digest(self) -> str:
        """Everything the layout draws (its boxes, `extends` merged), as a key."""
        if "digest" not in self._compiled:
            text = repr(
                [(b.name, b.type, sorted(b.props.items(), key=str), b.where) for b in self.boxes]
            )
            self._compiled["digest"] = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
        return self._compiled["digest"]

    def fields_used(self) -> set[str]:
        used: set[str] = set()
        for box in self.boxes:
            for key, value in box.props.items():
                if key == "when":
                    used |= templates.names_used_in_expression(value)
                elif templates.is_template(value):
                    used |= templates.names_used(value)
        return used


@dataclass(frozen=True, slots=True)
class Box:
    """One resolved box of one card, in points from the card's top-left trim corner."""

    name: str
    type: str
    x: float
    y: float
    w: float
    h: float
    props: dict
    where: SourceRef | None = field(default=None, compare=False, repr=False)  # its layout line


NOT_LAYOUTS = {"sheets", "icons", "vars", "presets", "printers"}  # other files beside layouts


def find_layout(layouts_dir: Path, game: str, name: str) -> Path | None:
    """The layout file `name` names: the game's folder first, then the shared one. A name is a
    file name, not a path: nothing outside the layout folders is found."""
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    for folder in (layouts_dir / game, *base.shared_dirs(layouts_dir)):
        path = folder / f"{name}.toml"
        if path.is_file():
            return path
    return None


def load_layout(
    layouts_dir: Path,
    game: str,
    name: str,
    rel,
    names: dict[str, float],
    _chain: tuple[str, ...] = (),
    where: SourceRef | None = None,
    language: str = "",
) -> Layout:
    """A layout with its `extends` chain merged: boxes of the same name override field by field.
    `where`: the key that names it (game.toml's front or back, a layout's extends); `language`:
    the edition it is read for (a box's `text@en` over its `text`; "" the source's)."""
    path = find_layout(layouts_dir, game, name)
    if path is None:
        folders = [[layouts_dir / game], base.shared_dirs(layouts_dir)]
        known = [
            {p.stem for f in group if f.is_dir() for p in f.glob("*.toml")} - NOT_LAYOUTS
            for group in folders
        ]
        own_hint = did_you_mean(name, known[0])
        hint = own_hint or did_you_mean(name, known[1])  # the game's first
        message = (
            _(
                "layout '{name}' not found in {own}/ or {shared}/",
                name=name,
                own=rel(layouts_dir / game),
                shared=rel(layouts_dir / "_shared"),
            )
            + hint
        )
        if not own_hint and re.fullmatch(r"[\w.-]+", name) and not name.startswith("."):
            new = rel(layouts_dir / game / f"{name}.toml")
            message += _("; a new layout is a file of its own: {file}", file=new)
        raise BuildError(message, where)
    if name in _chain:
        raise BuildError(
            f"{rel(path)}: "
            + _(
                "layout '{name}' extends itself ({chain})",
                name=name,
                chain=" -> ".join(_chain + (name,)),
            )
        )
    file = rel(path)
    if len(_chain) >= MOST_EXTENDS:
        message = _(
            "layout '{name}' is more than {most} layouts down an extends chain ({first} -> "
            "… -> {name}): more than any design needs; is it a loop of generated files?",
            name=name,
            most=MOST_EXTENDS,
            first=_chain[0],
        )
        raise BuildError(message, where)
    if not base.is_tools(path):
        confine(path, layouts_dir.parent, SourceRef(file), _("layout '{name}'", name=name))
    doc = tomlfile.read(path, SourceRef(file), _("layout"))
    raw = doc.data
    boxes: list[BoxSpec] = []
    if "extends" in raw:
        boxes = list(
            load_layout(
                layouts_dir,
                game,
                raw["extends"],
                rel,
                names,
                _chain + (name,),
                doc.at("extends"),
                language,
            ).boxes
        )
    problems = Problems()
    unknown_top = set(raw) - LAYOUT_KEYS
    for key in sorted(unknown_top):
        problems.error(
            _("unknown key '{key}' (a layout has: extends, description, [[box]])", key=key),
            doc.at(key),
        )
    own: dict[str, SourceRef] = {}  # the boxes this file writes, by name: each once
    for i, props in enumerate(raw.get("box", [])):
        where = SourceRef(file, doc.line("box", i))
        props, came = edition_props(props, language) if isinstance(props, dict) else (props, {})
        key_lines = {key: doc.line("box", i, came.get(key, key)) for key in props}
        key_lines = {key: line for key, line in key_lines.items() if line}
        name_ = props.get("name")
        if not isinstance(name_, str) or not name_:
            problems.error(_("every [[box]] needs a name"), where)
            continue
        if name_ in own:  # the second would silently take the first's keys
            problems.error(
                _(
                    "a second box named '{name}' in this layout (the first is at line {line}): "
                    "give each box a name of its own",
                    name=name_,
                    line=own[name_].row,
                ),
                where,
            )
            continue
        own[name_] = where
        inherited = next((b for b in boxes if b.name == name_), None)
        merged = dict(inherited.props) if inherited else {}
        merged.update(props)
        if str(merged.get("type")) in WHOLE_PIECE:  # its points are where it is: the frame
            merged = {**WHOLE, **merged}
        for key, words in SAME_AS.items():  # valign = "center", as CSS and editors say it
            if isinstance(merged.get(key), str) and merged[key] in words:
                merged[key] = words[merged[key]]
        spec = BoxSpec(name_, merged.get("type", ""), merged, where, key_lines)
        check_spec(spec, names, problems)
        if inherited:
            boxes[boxes.index(inherited)] = spec
        else:
            boxes.append(spec)
    problems.raise_if_errors()
    return Layout(name, file, boxes)


def edition_props(props: dict, language: str) -> tuple[dict, dict]:
    """A box's keys as an edition reads them: `text@en` over `text` in the English edition,
    every such key left out of the others (so a translation never changes the source's). Also
    which key each came from (for the line a problem points at)."""
    if not any("@" in k for k in props):
        return props, {}
    out, came = {}, {}
    for key, value in props.items():
        said = translated(key)
        if said is None:
            out.setdefault(key, value)
        elif said[1] == language:
            out[said[0]] = value
            came[said[0]] = key
    return out, came


def check_spec(spec: BoxSpec, names: dict[str, float], problems: Problems) -> None:
    where = spec.where
    if not isinstance(spec.type, str) or spec.type not in KEYS:
        problems.error(
            _box(spec)
            + _("unknown type {type!r} (types: {types})", type=spec.type, types=", ".join(KEYS)),
            spec.at("type"),
        )
        return
    for key in spec.props:
        if key not in COMMON and key not in KEYS[spec.type]:
            of_type = _("a box of type {type}", type=spec.type)
            problems.error(
                _box(spec) + unknown_key(key, COMMON | KEYS[spec.type], of_type), spec.at(key)
            )
    for key in GEOMETRY:
        if key not in spec.props:
            problems.error(_box(spec) + _("missing '{key}'", key=key), where)
    for key, value in spec.props.items():
        if key == "points":
            try:
                _points(value, names)
            except (UnitError, TypeError, ValueError) as exc:
                problems.error(
                    _box(spec)
                    + _("'points' must be a list of [x, y] lengths ({error})", error=exc),
                    spec.at(key),
                )
            continue
        if key in FLAGS and not isinstance(value, bool):
            problems.error(
                _box(spec)
                + _("'{key}' must be true or false, got {value!r}", key=key, value=value),
                spec.at(key),
            )
            continue
        if key in GEOMETRY and _bare(value):
            problems.error(
                _box(spec)
                + _(
                    "'{key}' = {value} has no unit: write it with one, e.g. \"{value}mm\" (a "
                    "bare number would be points, {mm:.1f} mm)",
                    key=key,
                    value=value,
                    mm=value / MM,
                ),
                spec.at(key),
            )
            continue
        if key == "leading" and not _number(value, above=0):
            problems.error(
                _box(spec)
                + _(
                    "'leading' is the line spacing as a multiple of the size (1.25: a quarter "
                    "more than the size), got {value!r}",
                    value=value,
                ),
                spec.at(key),
            )
            continue
        if key in GEOMETRY or key in LENGTHS:
            if templates.is_template(value):
                problems.error(
                    _box(spec) + _("'{key}' is geometry and cannot be a template", key=key),
                    spec.at(key),
                )
                continue
            try:
                length = to_pt(value, names)
            except UnitError as exc:
                problems.error(_box(spec) + f"'{key}': {exc}", spec.at(key))
                continue
            if length <= 0 and (key in POSITIVE or (key in ("w", "h") and spec.type in AREA)):
                problems.error(
                    _box(spec) + _("'{key}' = {value} must be above 0", key=key, value=value),
                    spec.at(key),
                )
        elif templates.is_template(value) or key == "when":
            try:
                if key == "when":
                    templates.environment().compile_expression(value)
                else:
                    templates.compiled(value)
            except TemplateError as exc:
                problems.error(
                    _box(spec) + f"'{key}': " + _("template error: {error}", error=exc),
                    spec.at(key),
                )


POSITIVE = {"size", "min_size"}  # a text's size
FLAGS = {"bleed", "ruby", "markup"}  # true or false
AREA = {name for name, t in TYPES.items() if t.area}  # a line may have no width or height


def _number(value, above: float) -> bool:
    """A number (or a number written as text) greater than `above`."""
    try:
        return not isinstance(value, bool) and float(value) > above
    except (TypeError, ValueError):
        return False


def _bare(value) -> bool:
    """A position or size written as a bare number other than 0 (x = 3): meant in mm, most
    likely, and read as points it would be a third of that."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0


def _box(spec: BoxSpec) -> str:
    """The start of a message about one box: "box 'title': "."""
    return _("box '{name}'", name=spec.name) + ": "


def _points(value, names: dict[str, float]) -> tuple[tuple[float, float], ...]:
    """Polygon and line points: [[x, y], …] as lengths, relative to the box's top-left corner."""
    if not isinstance(value, list) or len(value) < 2:
        raise ValueError(_("at least two points"))
    out = []
    for point in value:
        if not isinstance(point, list) or len(point) != 2:
            raise ValueError(_("{point!r} is not an [x, y] pair", point=point))
        out.append((to_pt(point[0], names), to_pt(point[1], names)))
    return tuple(out)


@dataclass(slots=True)
class _Step:
    """How one box of a layout is resolved for a deck's piece size: what reads the card (its
    `when` and templates) and what does not, worked out once. A box reading nothing of the
    card is one Box for every card (`box`)."""

    spec: BoxSpec
    when: object = None  # the compiled `when`, if any
    templated: tuple = ()  # (key, compiled template, names it reads or None, renderings)
    box: Box | None = None  # the box as every card has it, with its values that are templates
    # still unrendered (lengths and geometry are never templates)


def _steps(layout: Layout, names: dict[str, float]) -> list[_Step]:
    """The layout's boxes as steps for these names (kept with the layout: a deck's one names
    table is seen again for every card)."""
    held = layout._compiled.get("steps")
    if held is not None and held[0] is names:
        return held[1]
    key = ("steps", tuple(sorted(names.items())))
    steps = layout._compiled.get(key)
    if steps is None:
        env = templates.environment()
        steps = []
        for spec in layout.boxes:
            step = _Step(spec)
            when = spec.props.get("when")
            if when is not None:
                step.when = env.compile_expression(when, undefined_to_none=False)
            step.templated = tuple(
                (k, templates.compiled(v), _reads(v), {})
                for k, v in spec.props.items()
                if k not in ("name", "type", "when") and templates.is_template(v)
            )
            step.box = _box_of(spec, dict(_values(spec)), names)
            steps.append(step)
        layout._compiled[key] = steps
    layout._compiled["steps"] = (names, steps)
    return steps


def _reads(source: str) -> tuple[str, ...] | None:
    """The names a template reads, when what it renders follows from their values alone (a
    card's colour rendered once per colour, not once per card); None when it reads the whole
    row or draws at random."""
    names = templates.names_used(source)
    if templates.ROW in names or templates.at_random(source):
        return None
    return tuple(sorted(names))


def _rendered(tmpl, reads, renderings: dict, fields: dict, context: dict) -> str:
    """A template's text for one card: from `renderings` when a card with the same values of
    the names it reads rendered it before. A value that is not hashable (the `game` table, the
    same object for a whole build) stands by its identity, and is held by `renderings` so that
    no other object takes that identity while the rendering is kept."""
    if reads is None:
        return templates.render(tmpl, context)
    key, held = [], []
    for name in reads:
        value = fields.get(name, _ABSENT)
        kind = type(value)  # 1, 1.0 and True are equal keys, rendered apart
        if value.__hash__ is None:
            held.append(value)
            value = id(value)
        key.append((kind, value))
    try:
        text = renderings.get(tuple(key))
    except TypeError:  # a value holding one that is not hashable
        return templates.render(tmpl, context)
    if text is None:
        if len(renderings) >= RENDERED_MOST:  # values all different: memory stays flat
            renderings.clear()
        text = renderings[tuple(key)] = templates.render(tmpl, context)
        if held:
            renderings.setdefault(_HELD, []).extend(held)
    return text


RENDERED_MOST = 4_096  # renderings kept per template value


_ABSENT = object()
_UNDEFINED = re.compile(r"'(.+)' is undefined")  # Jinja's message for a name not there
_HELD = object()  # the key under which `renderings` holds the unhashable values it keys by id


def _values(spec: BoxSpec):
    return ((k, v) for k, v in spec.props.items() if k not in ("name", "type", "when"))


def _box_of(spec: BoxSpec, props: dict, names: dict[str, float]) -> Box:
    x, y, w, h = (to_pt(props.pop(k), names) for k in GEOMETRY)
    for key in LENGTHS & props.keys():
        props[key] = to_pt(props[key], names)
    if "points" in props:
        props["points"] = _points(props["points"], names)
    return Box(spec.name, spec.type, x, y, w, h, props, spec.where)


def resolve(
    layout: Layout,
    fields: dict,
    names: dict[str, float],
    card_name: str,
    card_where: SourceRef,
    problems: Problems,
    origin: list[int] | None = None,
) -> list[Box]:
    """The boxes a card shows: `when` applied, templates rendered with the card's fields. With
    `origin`, each box's place among the layout's boxes is appended to it when the box is the
    same on every card (no `when`, no template), -1 when it is not."""
    out: list[Box] = []
    context = None  # the card's fields as the templates see them, made on first need
    source = source_context = None  # the same with the source's words, for file names
    for i, step in enumerate(_steps(layout, names)):
        if step.when is None and not step.templated:
            out.append(step.box)
            if origin is not None:
                origin.append(i)
            continue
        spec = step.spec
        if context is None:
            context = {**templates.environment().globals, **fields}
        current = "when"
        try:
            if step.when is not None and not step.when(**fields):
                continue
            rendered = {}
            for key, tmpl, reads, renderings in step.templated:
                current = key
                if key in FILE_KEYS:  # a file's name: the same picture in every edition
                    if source is None:
                        source = _source_fields(fields)
                        source_context = {**context, **source} if source is not fields else context
                    rendered[key] = _rendered(tmpl, reads, renderings, source, source_context)
                else:
                    rendered[key] = _rendered(tmpl, reads, renderings, fields, context)
        except templates.UndefinedError as exc:
            names = sorted(k for k in fields if not k.startswith("_"))
            missing = _UNDEFINED.fullmatch(exc.message or "")
            problems.error(
                _(
                    "box '{name}' uses a field the data does not have ({error}) for card "
                    "{card} ({where}); fields: {fields}",
                    name=spec.name,
                    error=exc.message,
                    card=card_name,
                    where=card_where,
                    fields=", ".join(names),
                )
                + (did_you_mean(missing.group(1), names) if missing else ""),
                spec.at(current),
                fold=f"undefined:{layout.file}:{spec.name}:{exc.message}",
            )
            continue
        except Exception as exc:  # noqa: BLE001 - a template is the designer's code: any error is theirs
            why = templates.failure(exc)
            problems.error(
                _box(spec)
                + _(
                    "template error for card {card} ({where}): {error}",
                    card=card_name,
                    where=card_where,
                    error=why,
                ),
                spec.at(current),
                fold=f"tmpl:{layout.file}:{spec.name}:{why}",
            )
            continue
        box = step.box
        out.append(with_props(box, {**box.props, **rendered}) if rendered else box)
        if origin is not None:
            origin.append(-1)
    return out


FILE_KEYS = ("src", "fallback")  # keys that name a file: read with the source's words


def _source_fields(fields: dict) -> dict:
    """A card's fields with the source's words where an edition translated them (`suit` from
    `suit@ja`): a picture named after a card is one file for every edition. The fields
    themselves when nothing is translated."""
    swapped = {t[0]: v for k, v in fields.items() if (t := translated(k)) and t[0] in fields}
    return {**fields, **swapped} if swapped else fields


def with_props(box: Box, props: dict) -> Box:
    """The box with other values (dataclasses.replace is several times slower, and a deck's
    every box of every card passes here)."""
    return Box(box.name, box.type, box.x, box.y, box.w, box.h, props, box.where)
