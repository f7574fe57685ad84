"""Every card's front and back laid out: boxes resolved, text fitted, glyphs and colours checked.

Fed by the model, the loaded layouts and font metrics; the result (`Face` per card side) is all
the renderer needs, so `pnp check` finds overflow and missing glyphs without drawing anything.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .. import colours, i18n, limits, progress, typeset
from ..fonts import Metrics
from ..i18n import _
from ..model import Card, Deck
from ..problems import Problems, did_you_mean
from . import images as art
from . import markup, templates
from . import text as textfit
from .boxes import Box, Layout, resolve, with_props
from .icons import IconSet
from .units import MM

COLOUR_KEYS = ("fill", "stroke", "color")
ALIGN = {"left", "center", "right"}
VALIGN = {"top", "middle", "bottom"}


@dataclass(frozen=True, slots=True)
class Face:
    """One side of one card, ready to draw: boxes in points from the top-left trim corner."""

    boxes: tuple[Box, ...]
    key: str  # a digest of the boxes: equal keys draw identically (one drawing, reused)
    # Runs of boxes every card of the layout draws alike (start, end, a digest of the run): a
    # PDF draws each once as a form and places it on every card (see render/pdf.py).
    layers: tuple[tuple[int, int, str], ...] = ()


@dataclass
class Fonts:
    """Font roles of a game (body, bold, ...) with their metrics, and every character each must
    carry."""

    metrics: dict[str, Metrics]
    chars: dict[str, set[str]] = field(default_factory=dict)
    recorder: list | None = field(default=None, repr=False)  # (role, text) while a face is laid out
    # Text boxes fitted in this build with no problem, by their box: a text many cards print
    # alike (a deck's rules line, a back's title) is fitted once. Value: (props, uses).
    fitted: dict = field(default_factory=dict, repr=False)
    words: tuple[str, ...] = ()  # the game's words never split across lines (words.txt)

    def use(self, role: str, text: str) -> None:
        chars = self.chars.setdefault(role, set())
        chars.update(text)  # at C speed, the line breaks and tabs taken out after
        chars.difference_update("\n\r\t")
        if self.recorder is not None:
            self.recorder.append((role, text))

    def missing(self, role: str, text: str) -> list[str]:
        m = self.metrics[role]
        seen: dict[str, None] = {}
        for ch in text:
            if ch not in "\n\r\t " and not m.has(ch):
                seen.setdefault(ch, None)
        return list(seen)


class FaceMemo:
    """Laid-out faces by everything they depend on: the layout (its boxes, `extends` merged),
    the card's fields, label and row, the template context, the piece's size, the fonts, icons
    and pnp's own code (`salt`), and the picture files a face drew (checked by their size and
    time on every use). A face found here is not laid out again: its problems are reported, its
    characters registered and its missing art noted as they were the first time. Within one
    build a deck's copies are laid out once; a Session keeps a game's memo from one build to the
    next (`pnp watch`, `pnp serve`), so after a one-row edit only that row's faces are laid out."""

    MOST = 50_000  # faces held; a larger deck keeps none between builds

    def __init__(self, salt: str, stored: dict | None = None):
        self.salt = salt
        self.stored = stored or {}  # the last build's faces
        self.live: dict[str, tuple] = {}  # this build's
        self.hits = self.misses = self.faces = 0  # from the last build, laid out, all
        # More faces than MOST: none is held (a 100,000-card deck would otherwise hold tens of
        # thousands of faces for nothing).
        self.overflowed = False

    def key(self, layout: Layout, card: Card | None, extra: str, place: bool = True) -> str:
        """The key of one card's face; without `place`, of the face every row with the same
        fields draws; with no card, of the face a layout that reads no field of the row draws
        for every card (see lay_out_face)."""
        digest = hashlib.blake2b(repr((self.salt, layout.digest, extra)).encode(), digest_size=16)
        if card is not None:
            w = card.where
            row = (w.file, w.row, w.column, w.sheet) if place else None
            digest.update(repr((sorted(card.fields.items()), row)).encode())
        return digest.hexdigest()

    def get(self, key: str, images) -> tuple | None:
        entry = self.live.get(key) or self.stored.get(key)
        if entry is None:
            return None
        if images is not None and not images.unchanged(entry[4]):
            return None
        self.keep(key, entry)
        return entry

    def keep(self, key: str, entry: tuple) -> None:
        """An entry this build used, kept for the next, up to MOST (then none at all)."""
        if not self.overflowed:
            self.live[key] = entry
            if len(self.live) > self.MOST:
                self.overflowed, self.live = True, {}


def lay_out_face(
    layout: Layout,
    card: Card,
    context: dict,
    names: dict[str, float],
    fonts: Fonts,
    icons: IconSet,
    problems: Problems,
    images: art.ImageSet | None = None,
    memo: FaceMemo | None = None,
    extra: str = "",
) -> Face:
    """One side of one card; with `memo`, taken from it when nothing it depends on changed
    (`extra`: a digest of the context and names, the same for a whole deck)."""
    limits.in_time(card.where)
    if memo is None:
        return _lay_out_face(layout, card, context, names, fonts, icons, problems, images)
    # Three keys, tried in turn: the face every card of a layout that reads no field draws;
    # the face of every row with these fields (a card repeated on rows of its own); this row's.
    shared = memo.key(layout, None, extra) if reads_no_row(layout, context) else None
    alike = memo.key(layout, card, extra, place=False)
    memo.faces += 1
    entry = None if shared is None else memo.get(shared, images)
    key = shared
    if entry is None:
        key, entry = alike, memo.get(alike, images)
    if entry is None:
        key = memo.key(layout, card, extra)
        entry = memo.get(key, images)
    if entry is None:
        memo.misses += 1
        mine, uses, lacking, files = Problems(), [], [], []
        fonts.recorder = uses
        if images is not None:
            images.recorder, images.files = lacking, files
        try:
            face = _lay_out_face(layout, card, context, names, fonts, icons, mine, images)
        finally:
            fonts.recorder = None
            if images is not None:
                images.recorder = images.files = None
        entry = (face, tuple(mine.items), tuple(uses), tuple(lacking), tuple(files))
        # A face with no problem serves every row with the same fields (its missing art noted
        # under each card's own name); one that names no card at all, every card alike.
        if shared and not mine.items and not lacking:
            memo.keep(shared, entry)
        else:
            memo.keep(alike if not mine.items else key, entry)
    else:
        memo.hits += key in memo.stored  # as the last build laid it out
        for role, text in entry[2]:
            fonts.use(role, text)
        if images is not None:
            for where, (_name, src) in entry[3]:
                images.note_lacking(where, (_lacking_name(card), src))
    face, found = entry[0], entry[1]
    problems.items.extend(found)
    return face


def _lacking_name(card: Card) -> str:
    """How the notice of missing art names a card: '貪欲 1 (cards/…/kleshas.csv:2)'."""
    return f"{card.label()} ({card.where.row_place})"


def reads_no_row(layout: Layout, context: dict) -> bool:
    """Whether the layout draws the same for every card: its templates and `when` conditions
    read nothing but the deck's context (game, vars), so a deck's back is laid out once."""
    found = layout._compiled.get("reads_no_row")
    if found is None or found[0] != context.keys():
        known = context.keys() | templates.environment().globals.keys()
        try:
            alone = layout.fields_used() <= known and not any(
                templates.at_random(v)
                for box in layout.boxes
                for v in box.props.values()
                if templates.is_template(v)
            )
        except templates.TemplateSyntaxError:  # reported where the layout is checked
            alone = False
        found = layout._compiled["reads_no_row"] = (set(context), alone)
    return found[1]


def _lay_out_face(
    layout: Layout,
    card: Card,
    context: dict,
    names: dict[str, float],
    fonts: Fonts,
    icons: IconSet,
    problems: Problems,
    images: art.ImageSet | None = None,
) -> Face:
    # A column named like a context name (`game`, `vars`, `row` itself) is still there as
    # row["game"]: the context's names come last.
    fields = {**card.fields, **context, templates.ROW: card.fields}
    origin: list[int] = []
    boxes = resolve(layout, fields, names, card.label(), card.where, problems, origin)
    out, kept = [], []
    for box, at in zip(boxes, origin):
        box = _check_colours(box, layout, card, problems)
        step = LAY_OUT.get(box.type)
        if step is not None:
            box = step(box, layout, card, fonts, icons, images, problems)
        if box is not None:
            out.append(box)
            kept.append(at)
    _check_digits(out, layout, card, problems)
    # The key is a digest of everything drawn (not where the layout wrote it): equal keys draw
    # identically.
    key = _digest(out)
    return Face(tuple(out), key, _layers(layout, names, out, kept))


_FULL_DIGITS = frozenset("０１２３４５６７８９")


def _check_digits(boxes: list[Box], layout: Layout, card: Card, problems: Problems) -> None:
    """A card that prints 「リソース1個」 beside 「１個ごとに」 writes its digits two ways: a
    notice (the card prints them as written). Digits inside Latin words, decimals and times
    (VP3, 1.5倍, 10:30) are not counted, as the rulebook's digit setting leaves them, nor a
    box that prints a number alone (a corner's index)."""
    texts = ["".join(b.props.get("lines", ())) for b in boxes if b.type == "text"]
    # A box of a number alone (a corner's index, a track's step) is a figure, not running text.
    text = "\n".join(t for t in texts if t.strip() and not t.strip().isdecimal())
    full = next((i for i, ch in enumerate(text) if ch in _FULL_DIGITS), None)
    if full is None:
        return
    zen = typeset.set_digits(text, "full")
    half = next((i for i, (a, b) in enumerate(zip(text, zen)) if a != b), None)
    if half is None:
        return

    def around(i: int) -> str:  # the digit and a few characters of its own box about it
        start, end = text.rfind("\n", 0, i) + 1, text.find("\n", i)
        end = len(text) if end < 0 else end
        return typeset.base_text(text[max(start, i - 3) : min(end, i + 4)])

    problems.add(
        "notice",
        _(
            "card {card}: its text writes digits two ways, 「{half}」 and 「{full}」; write "
            "them one way (the card prints them as written; a number from a column prints "
            "full-width with {{{{ column | zen }}}})",
            card=card.label(),
            half=around(half),
            full=around(full),
        ),
        card.where,
        f"digits:{layout.file}",
        3,
    )


def _digest(boxes: list[Box]) -> str:
    """What the boxes draw, as a key (plain tuples: a dataclass's repr costs several times
    more; where the layout wrote them is left out)."""
    drawn = repr([(b.name, b.type, b.x, b.y, b.w, b.h, b.props) for b in boxes])
    return hashlib.blake2b(drawn.encode(), digest_size=16).hexdigest()


def key_apart_from(face: Face, name: str) -> str:
    """The face's key as if the box `name` were not on it: what a comparison of two printings
    goes by, when that box is the printing's version (on every card, and no change to it)."""
    if not any(b.name == name for b in face.boxes):
        return face.key
    return _digest([b for b in face.boxes if b.name != name])


# A run of boxes the same on every card becomes a form when drawing it takes more than a form's
# own few operators: two boxes or more, or one that sets text, a shape or a picture.
_WORTH_A_FORM = {"text", "icon", "polygon", "image"}


def _layers(layout: Layout, names: dict, out: list[Box], kept: list[int]) -> tuple:
    """The runs of `out` that every card of the layout draws alike (`kept`: each box's place in
    the layout, -1 when it reads the card), each with a digest of what it draws (worked out
    once per layout and piece size)."""
    layers = []
    start = 0
    for end in range(len(out) + 1):
        if end < len(out) and kept[end] >= 0:
            continue
        run = out[start:end]
        if len(run) >= 2 or (run and run[0].type in _WORTH_A_FORM):
            key = ("layer", tuple(sorted(names.items())), tuple(kept[start:end]))
            digest = layout._compiled.get(key)
            if digest is None:
                digest = layout._compiled[key] = _digest(run)
            layers.append((start, end, digest))
        start = end + 1
    return tuple(layers)


def _icon_box(
    box: Box, layout: Layout, card: Card, icons: IconSet, problems: Problems
) -> Box | None:
    name = str(box.props.get("icon", "")).strip()
    icon = icons.icons.get(name)
    if icon is None:
        problems.error(
            _(
                "card {card}: box '{box}' names icon {name!r}, which is not in icons.toml "
                "(icons: {icons})",
                card=card.label(),
                box=box.name,
                name=name,
                icons=", ".join(sorted(icons.icons)),
            ),
            box.where,
            fold=f"icon:{layout.file}:{box.name}:{name}",
        )
        return None
    return with_props(box, dict(box.props, shapes=icon.shapes))


def _image_box(
    box: Box,
    layout: Layout,
    card: Card,
    fonts: Fonts,
    images: art.ImageSet | None,
    problems: Problems,
) -> Box | None:
    """Where the picture lies in the box, its file, and a warning when it prints coarsely; a
    fallback picture or a labelled stand-in while the card's own is missing."""
    p = box.props
    fold = f"image:{layout.file}:{box.name}"
    fit, align, valign = (
        p.get("fit", "contain"),
        p.get("align", "center"),
        p.get("valign", "middle"),
    )
    allowed = {"fit": art.FITS, "align": sorted(ALIGN), "valign": sorted(VALIGN)}
    for key, value in (("fit", fit), ("align", align), ("valign", valign)):
        if value not in allowed[key]:
            problems.error(
                _(
                    "box '{box}': {key} must be one of {allowed}, got {value!r} for card {card} "
                    "({where})",
                    box=box.name,
                    key=key,
                    allowed=", ".join(allowed[key]),
                    value=value,
                    card=card.label(),
                    where=card.where,
                ),
                box.where,
                fold=f"{fold}:{key}:{value}",
            )
            return None
    try:
        opacity = float(p.get("opacity", 1.0))
        min_dpi = int(p.get("min_dpi", art.MIN_DPI))
        if not 0 <= opacity <= 1 or min_dpi < 1:
            raise ValueError
    except (TypeError, ValueError):
        problems.error(
            _(
                "box '{box}': opacity must be a number from 0 to 1 and min_dpi a whole number "
                "of at least 1",
                box=box.name,
            ),
            box.where,
            fold=fold + ":numbers",
        )
        return None
    if box.w <= 0 or box.h <= 0:
        problems.error(_("box '{box}' has no area", box=box.name), box.where, fold=fold + ":area")
        return None
    if images is None:  # a face with no game folder (never a designer's layout)
        return None
    src = str(p.get("src", "")).strip()
    image, own = None, False
    for name in (src, str(p.get("fallback", "")).strip()):
        if not name:
            continue
        try:
            image = images.find(name, card.where)
        except art.ImageError as exc:
            problems.error(
                _(
                    "card {card}: box '{box}': {error}",
                    card=card.label(),
                    box=box.name,
                    error=str(exc),
                ),
                _cell_naming(card, name),
                fold=f"{fold}:{exc}",
            )
            return None
        if image is not None:
            own = name == src
            break
    placeholder = p.get("placeholder")
    if not own:
        if image is None and placeholder in (None, False, ""):
            what = (
                _("image {path} not found", path=src)
                if src
                else _("names no image (its 'src' is empty)")
            )
            twin = images.near_twin(src) if src else None
            if twin:
                what += _(" ({file} is there: rename it, or write its name in the data)", file=twin)
            problems.error(
                _(
                    "card {card}: box '{box}': {what} (a 'fallback' picture or a 'placeholder' "
                    "draws a stand-in until the art is there)",
                    card=card.label(),
                    box=box.name,
                    what=what,
                ),
                card.where,
                fold=f"{fold}:missing:{src}",  # one line for every card naming it
            )
            return None
        images.note_lacking((layout.file, box.name), (_lacking_name(card), src))
    props = dict(p, fit=fit, align=align, valign=valign, opacity=opacity, image=image)
    if image is None:  # a labelled stand-in
        label = src.rsplit("/", 1)[-1] if placeholder is True else str(placeholder)
        label = label or box.name
        metrics = fonts.metrics["body"]
        width = metrics.width(label, 1.0) or 1.0
        size = max(4.0, min(9.0, 0.85 * box.w / width, 0.4 * box.h))
        fonts.use("body", label)
        props.update(
            placeholder=label,
            label_size=size,
            label_width=width * size,
            ascent=metrics.ascent,
        )
        return with_props(box, props)
    props["placeholder"] = None
    x, y, w, h = art.place((box.w, box.h), image.px, fit, align, valign)
    props["draw"] = (x, y, w, h)
    if image.kind != "svg":
        printed = art.dpi(image.px, (w, h))
        if printed < min_dpi - 0.5:
            problems.warning(
                _(
                    "card {card}: image {path} prints at {dpi:.0f} dpi in box '{box}' "
                    "({w:g}×{h:g} px over {mw:.1f}×{mh:.1f} mm; at least {least} dpi prints "
                    "sharp)",
                    card=card.label(),
                    path=image.rel,
                    dpi=printed,
                    box=box.name,
                    w=image.px[0],
                    h=image.px[1],
                    mw=w / MM,
                    mh=h / MM,
                    least=min_dpi,
                ),
                card.where,
                fold=f"{fold}:dpi:{image.digest}",
            )
    return with_props(box, props)


def _cell_naming(card: Card, written: str):
    """Where a message about `written` (a picture's path the layout made from the card's
    fields) points: the cell whose text is the longest part of it, else the card's row."""
    flat = written.replace("\\", "/")
    found = [
        (len(value), column)
        for column, value in card.fields.items()
        if isinstance(value, str) and value.strip() and value.replace("\\", "/") in flat
    ]
    return card.where.at(column=max(found)[1]) if found else card.where


def _check_colours(box: Box, layout: Layout, card: Card, problems: Problems) -> Box:
    """The box with its colours as the renderer takes them (#RRGGBB, or None for 'none'); a
    value that is no colour is an error at the layout's key, and draws nothing."""
    p = box.props
    changed: dict[str, object] = {}
    for key in COLOUR_KEYS:
        value = p.get(key)
        if value is None:
            continue
        text = str(value).strip()
        nothing = text.lower() in {"", "none"}
        read = None if nothing else colours.colour(text)
        if read is None and not nothing:
            spec = next((s for s in layout.boxes if s.name == box.name), None)
            problems.error(
                _(
                    "box '{box}': '{key}' must be a colour like #1F2A44, one of {names} or "
                    "'none', got {value!r} for card {card} ({where})",
                    box=box.name,
                    key=key,
                    names=colours.NAMES,
                    value=text,
                    card=card.label(),
                    where=card.where,
                ),
                spec.at(key) if spec is not None else box.where,
                fold=f"colour:{layout.file}:{box.name}:{key}:{text}",
            )
        if read != value:
            changed[key] = read
    return with_props(box, {**p, **changed}) if changed else box


FITTED_MOST = 2_000  # text boxes kept fitted; texts a deck repeats recur well within this


def _fit_text(
    box: Box, layout: Layout, card: Card, fonts: Fonts, icons: IconSet, problems: Problems
) -> Box | None:
    """The text box with its lines fitted; the same box fitted before without a problem is
    taken as it was (its characters registered again)."""
    # with each value's type: True and 1 are equal keys, but `ruby = 1` reads no ruby
    p = box.props
    key = (box.w, box.h, tuple(p.items()), tuple(map(type, p.values())), id(icons))
    try:
        done = fonts.fitted.get(key)
    except TypeError:  # a value that is not hashable (a list)
        key = (box.w, box.h, repr(p), id(icons))
        done = fonts.fitted.get(key)
    if done is not None:
        for role, plain in done[1]:
            fonts.use(role, plain)
        return with_props(box, done[0])
    found, recorder = len(problems.items), fonts.recorder
    uses: list = []
    fonts.recorder = uses
    try:
        fitted = _fit(box, layout, card, fonts, icons, problems)
    finally:
        fonts.recorder = recorder
        if recorder is not None:
            recorder.extend(uses)
    if fitted is not None and len(problems.items) == found:
        if len(fonts.fitted) >= FITTED_MOST:  # a deck of all-different texts: memory stays flat
            fonts.fitted.clear()
        fonts.fitted[key] = (fitted.props, tuple(uses))
    return fitted


# What picks a glyph's form and is no glyph of its own (the emoji presentation selector in
# "🗡️", a joiner): no font needs it, so a card's text does not ask for it.
_UNSEEN = re.compile("[\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def _fit(
    box: Box, layout: Layout, card: Card, fonts: Fonts, icons: IconSet, problems: Problems
) -> Box | None:
    p = box.props
    where = box.where
    role = p.get("font", "body")
    if role not in fonts.metrics:
        problems.error(
            _(
                "box '{box}': font role '{role}' is not in the manifest's [fonts] (roles: {roles})",
                box=box.name,
                role=role,
                roles=", ".join(fonts.metrics),
            )
            + did_you_mean(str(role), fonts.metrics),
            where,
            fold=f"role:{layout.file}:{box.name}",
        )
        return None
    align, valign = p.get("align", "left"), p.get("valign", "top")
    if align not in ALIGN or valign not in VALIGN:
        problems.error(
            _(
                "box '{box}': align must be one of {align} and valign one of {valign}",
                box=box.name,
                align=", ".join(sorted(ALIGN)),
                valign=", ".join(sorted(VALIGN)),
            ),
            where,
            fold=f"align:{layout.file}:{box.name}",
        )
        return None
    text = _UNSEEN.sub("", str(p.get("text", "")))
    most = limits.active().box_chars
    if len(text) > most:  # fitting it would take minutes, for a box nobody could read
        problems.error(
            _(
                "card {card}: box '{box}' of {layout} would print {n:,} characters, more than "
                "the limit box_chars = {most:,} (a card holds a few hundred); if it really "
                "prints that many, raise it with --limit box_chars=N",
                card=card.label(),
                box=box.name,
                layout=layout.file,
                n=len(text),
                most=most,
            ),
            card.where,
            fold=f"box_chars:{layout.file}:{box.name}",
        )
        return None
    unknown: list[str] = []
    content = icons.inline(text, unknown)
    vertical = p.get("direction") == "vertical"
    styles: tuple = ()
    if p.get("markup") is True:
        if vertical:
            problems.error(
                _("box '{box}': markup is read in horizontal text only", box=box.name),
                where,
                fold=f"markup:{layout.file}:{box.name}",
            )
            return None
        content, styles, unread = markup.parse(content, p.get("size", 10.0))
        for why in unread:
            problems.warning(
                _(
                    "card {card}: markup in box '{box}' printed as typed: {why}",
                    card=card.label(),
                    box=box.name,
                    why=why,
                ),
                card.where,
                fold=f"markup:{layout.file}:{box.name}:{why}",
            )
    if p.get("ruby") is True:
        content = typeset.parse_ruby(content)
    for name in unknown:
        problems.warning(
            _(
                "card {card}: ':{name}:' in box '{box}' is not an icon (icons: {icons}); printed "
                "as typed",
                card=card.label(),
                name=name,
                box=box.name,
                icons=", ".join(sorted(icons.icons)),
            ),
            card.where,
            fold=f"inline:{layout.file}:{box.name}:{name}",
        )
    by_role: dict[str, str] = {}
    for style, run in markup.runs(content, styles) if styles else [(None, content)]:
        used_role = "bold" if style is not None and style.bold else role
        plain, _icons = icons.strip(run)
        plain = typeset.base_text(plain) + typeset.readings(plain)
        if vertical:
            plain = typeset.vertical_chars(plain)
        by_role[used_role] = by_role.get(used_role, "") + plain
    for used_role, plain in by_role.items():
        missing = fonts.missing(used_role, plain)
        if missing:
            chars = i18n.listed(f"「{ch}」(U+{ord(ch):04X})" for ch in missing)
            # The cell to mend: of the card's that hold one of them, the one this box prints
            # (the longest, where one value is part of another), else the first (else the
            # character is the layout's own text, mended at its line).
            holding = [
                (name, value)
                for name, value in card.fields.items()
                if isinstance(value, str) and any(ch in value for ch in missing)
            ]  # (not _cell_naming: a character, not a text the cell holds whole)
            shown = [(n, v) for n, v in holding if v.strip() in str(content)]
            column = max(shown, key=lambda nv: len(nv[1].strip()))[0] if shown else None
            column = column or next((name for name, _value in holding), None)
            problems.error(
                _(
                    "card {card}: the font for '{role}' ({family}) has no glyph for {chars} in "
                    "box '{box}' (take it out, or give '{role}' a font that has it in game.toml's "
                    "[fonts])",
                    card=card.label(),
                    role=used_role,
                    family=fonts.metrics[used_role].face.family,
                    chars=chars,
                    box=box.name,
                ),
                card.where.at(column=column) if column else box.where or card.where,
                # one line for every card it prints on: the font is the likely mend
                fold=f"glyph:{layout.file}:{box.name}:{used_role}:{chars}",
            )
        fonts.use(used_role, plain)
    metrics = fonts.metrics[role]

    def measure(text: str, size: float) -> float:
        if styles:
            width = 0.0
            for style, run in markup.runs(text, styles):
                rest, ems = icons.strip(run)
                scaled = size * style.size
                face = fonts.metrics["bold" if style.bold else role]
                width += face.width(typeset.base_text(rest), scaled) + ems * scaled
            return width
        rest, ems = icons.strip(text)
        return metrics.width(typeset.base_text(rest), size) + ems * size

    def down(text: str, size: float) -> float:  # a vertical column's length
        rest, ems = icons.strip(text)
        return typeset.vertical_length(rest, size, metrics.width) + ems * size

    size = p.get("size", 10.0)
    min_size = min(p.get("min_size", size), size)
    leading = float(p.get("leading", 1.25))
    max_lines = p.get("max_lines")
    if max_lines is not None and (not isinstance(max_lines, int) or max_lines < 1):
        problems.error(
            _("box '{box}': max_lines must be a whole number of at least 1", box=box.name),
            where,
            fold=f"maxlines:{layout.file}:{box.name}",
        )
        max_lines = None
    if vertical:  # columns across the box, each as long as the box is tall
        across, along, measure = box.h, box.w, down
    else:
        across, along = box.w, box.h
    if typeset.has_ruby(content):  # readings need room above each line (beside, vertical)
        leading = max(leading, 1 + typeset.RUBY_SIZE + 0.1)
        along -= typeset.RUBY_SIZE * size
    fitted = textfit.fit(
        content,
        across,
        along,
        size,
        min_size,
        leading,
        measure,
        max_lines=max_lines,
        carry=markup.carry if styles else None,
        hang=not vertical and align == "left",
        words=fonts.words,
    )
    if not fitted.fits:
        problems.warning(
            _(
                "card {card}: text in box '{box}' does not fit even at {size:g} pt ({lines} "
                "lines): {text!r}",
                card=card.label(),
                box=box.name,
                size=fitted.size,
                lines=len(fitted.lines),
                text=markup.plain(content)[:30],
            ),
            _cell_naming(card, markup.plain(content)),  # the cell whose text it is
            fold=f"fit:{layout.file}:{box.name}",  # many cards: the box is too small
            each=3,  # a few: each card to mend named
        )
    if vertical and "align" not in p:
        align = "right"  # vertical text starts at the right
    props = dict(
        p,
        lines=fitted.lines,
        size=fitted.size,
        leading=fitted.leading,
        ascent=metrics.ascent,
        font=role,
        align=align,
        valign=valign,
        direction="vertical" if vertical else "horizontal",
    )
    if styles:
        props["styles"] = styles
    props["widths"] = tuple(measure(line, fitted.size) for line in fitted.lines)
    if fitted.indents:  # steps and items: later lines under the text after the mark
        props["indents"] = fitted.indents
    used = {ch: icons.by_char(ch) for ch in content if icons.is_icon(ch)}
    if used:
        props["inline_icons"] = {ch: (icon.shapes, icon.advance) for ch, icon in used.items()}
    return with_props(box, props)


Pair = tuple[Face, Face | None]  # a card's front and its back (None: no back layout)


class FaceStore:
    """A deck's laid-out faces, one (front, back) pair per card in deck order, and how often
    each face and each shared layer is drawn, so the renderer draws a repeated face once and
    places it many times. A face the deck repeats (its back) is held as one object.

    A store made with `again` holds no face, only those counts: reading card i lays it out
    again (`again(i)`, the same face: layout is a function of its inputs). A large deck's faces
    held beside the pages ReportLab keeps until it saves would double a build's memory."""

    def __init__(self, again: Callable[[int], Pair] | None = None) -> None:
        self.pairs: list[Pair] = []
        self.again = again
        self.count = 0
        self._interned: dict[str, Face] = {}
        self.uses: Counter[str] = Counter()
        self.layer_uses: Counter[str] = Counter()

    def append(self, pair: Pair) -> None:
        for face in pair:
            if face is not None:
                self.uses[face.key] += 1
                for _s, _e, layer in face.layers:
                    self.layer_uses[layer] += 1
        self.count += 1
        if self.again is None:
            keep = self._interned.setdefault
            self.pairs.append(tuple(None if f is None else keep(f.key, f) for f in pair))  # type: ignore[arg-type]

    @classmethod
    def joined(cls, *stores: FaceStore) -> FaceStore:
        if all(s.again is None for s in stores):
            out = cls()
            for store in stores:
                for pair in store:
                    out.append(pair)
            return out
        starts = [0]
        for store in stores:
            starts.append(starts[-1] + len(store))

        def again(i: int) -> Pair:
            n = bisect.bisect_right(starts, i) - 1
            return stores[n][i - starts[n]]

        out = cls(again)
        out.count = starts[-1]
        for store in stores:
            out.uses.update(store.uses)
            out.layer_uses.update(store.layer_uses)
        return out

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Pair]:
        if self.again is None:
            return iter(self.pairs)
        return map(self.again, range(self.count))

    def __getitem__(self, i: int) -> Pair:
        if self.again is None:
            return self.pairs[i]
        if not 0 <= i < self.count:
            raise IndexError(i)
        return self.again(i)

    def runs(self, size: int) -> Iterator[list[Pair]]:
        """The pairs in consecutive lists of `size` (the last may be shorter): one per sheet."""
        for at in range(0, self.count, size):
            if self.again is None:
                yield self.pairs[at : at + size]
            else:
                yield [self.again(i) for i in range(at, min(at + size, self.count))]


# Cards whose faces a game's plan holds, as many as a memo holds: a deck beyond them is laid
# out card by card with no memo, and again wherever it is read.
HELD = FaceMemo.MOST


def lay_out_deck(
    deck: Deck,
    front: Layout,
    back: Layout | None,
    context: dict,
    names: dict[str, float],
    fonts: Fonts,
    icons: IconSet,
    problems: Problems,
    images: art.ImageSet | None = None,
    memo: FaceMemo | None = None,
    hold: bool = True,
) -> FaceStore:
    """Every card's front and back, in deck order; without `hold`, the store keeps none of
    them and lays a card out again (its problems said once, here) each time it is read."""
    extra = repr((sorted(names.items()), context_digest(context)))

    def again(i: int) -> Pair:
        card, quiet = deck.cards[i], Problems()
        args = (card, context, names, fonts, icons, quiet, images, None, extra)
        with art.unnoted(images):
            return (lay_out_face(front, *args), lay_out_face(back, *args) if back else None)

    store = FaceStore(None if hold else again)
    memo = memo if hold else None  # a memo would hold every face the store does not
    with progress.step(deck.component.name, len(deck.cards)) as shown:
        for card in deck.cards:
            args = (card, context, names, fonts, icons, problems, images, memo, extra)
            store.append((lay_out_face(front, *args), lay_out_face(back, *args) if back else None))
            shown.advance()
    return store


# The work a box type needs at layout, by type (layout/boxes.TYPES): the box, its layout and
# card, the fonts, icons, pictures and problems in; the box as drawn out (None: not drawn).
LAY_OUT = {
    "text": lambda box, layout, card, fonts, icons, images, problems: _fit_text(
        box, layout, card, fonts, icons, problems
    ),
    "icon": lambda box, layout, card, fonts, icons, images, problems: _icon_box(
        box, layout, card, icons, problems
    ),
    "image": lambda box, layout, card, fonts, icons, images, problems: _image_box(
        box, layout, card, fonts, images, problems
    ),
}


def context_digest(context: dict) -> str:
    return hashlib.blake2b(repr(context).encode(), digest_size=12).hexdigest()
