"""A tuck box for each deck of cards: the net (panels, flaps, cut and fold lines) sized from the
card size and the deck's thickness, and its faces laid out from layouts.

The box holds the deck with `clearance` to spare in each direction: inside it is
(card width + c) × (card height + c) × (cards × thickness + c). The net, left to right: a glue
flap (glued inside the back, so it is as wide however thin the deck), a side, the front, the
other side and the back; above and below the back a lid with its
tuck flap, above and below each side a dust flap; a thumb notch in the front's top edge. All in
points, origin at the net's bottom-left corner (PDF coordinates); the renderer places it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import colours, printed
from ..i18n import _
from ..model import Card, freeze
from ..problems import BuildError
from .faces import Face
from .units import MM, UnitError, to_pt

THICKNESS, CLEARANCE = "0.3mm", "1mm"
LAYOUTS = {"front": "tuckbox_front", "back": "tuckbox_back", "side": "tuckbox_side"}
TUCK_MM, GLUE_MM = 12.0, 10.0  # the lid's tuck flap and the glue flap
BLEED_MM = 2.0  # the box's colour runs this far past every cut


@dataclass(frozen=True)
class Panel:
    """A face of the box on the net: where it lies and what is drawn on it."""

    name: str  # front, back, side
    x: float
    y: float
    w: float
    h: float
    face: Face | None


@dataclass(frozen=True)
class TuckBox:
    """A deck's tuck box: the net's size and panels for the cards it holds."""

    id: str  # the deck's component id
    name: str
    count: int  # cards it holds
    inside: tuple[float, float, float]  # width, height, depth inside the box (points)
    thickness: float  # one card (points)
    size: tuple[float, float]  # the whole net, flaps included
    panels: tuple[Panel, ...]
    cuts: tuple  # ("line", x1, y1, x2, y2) and ("notch", cx, cy, r): solid lines to cut
    folds: tuple[tuple[float, float, float, float], ...]  # dashed lines to fold
    pieces: tuple[tuple[tuple[float, float], ...], ...]  # every piece's outline (the colour)
    glue: tuple[tuple[float, float], ...]  # the glue flap's outline (hatched)
    color: str
    page: tuple[float, float] = (0.0, 0.0)  # the paper it prints on, turned as it fits
    margin: float = 0.0  # nothing printed nearer the paper's edge


def _polyline(points) -> list[tuple]:
    return [("line", *a, *b) for a, b in zip(points, points[1:])]


def net(w: float, h: float, d: float) -> dict:
    """The net of a box w × h × d inside (points): panels, cut and fold lines, pieces."""
    tuck = min(TUCK_MM * MM, 0.9 * w)
    glue = min(GLUE_MM * MM, 0.5 * w)  # it glues inside the back
    dust = min(d, w / 2) * 0.9  # a dust flap's height: under the lid, clear of the far side
    inset = min(3 * MM, d / 4)  # the slant of a flap's ends
    # glue | side | front | side | back
    xs = [0.0, glue, glue + d, glue + d + w, glue + 2 * d + w, glue + 2 * d + 2 * w]
    yb = tuck + d  # the body's bottom and top
    yt = yb + h
    size = (xs[5], yt + d + tuck)
    panels = {
        "side1": (xs[1], yb, d, h),
        "front": (xs[2], yb, w, h),
        "side2": (xs[3], yb, d, h),
        "back": (xs[4], yb, w, h),
    }
    cuts: list[tuple] = []
    folds: list[tuple[float, float, float, float]] = []
    pieces: list[tuple] = []
    for x in xs[1:5]:  # the glue flap's fold, and between the body's panels
        folds.append((x, yb, x, yt))
    cuts.append(("line", xs[5], yb, xs[5], yt))  # the back's free edge
    notch = min(10 * MM, w / 4)
    cx = xs[2] + w / 2
    cuts += _polyline([(xs[2], yt), (cx - notch, yt)])
    cuts.append(("notch", cx, yt, notch))
    cuts += _polyline([(cx + notch, yt), (xs[3], yt)])
    cuts += _polyline([(xs[2], yb), (xs[3], yb)])
    for edge, out in ((yt, 1), (yb, -1)):  # above and below the body
        for x0 in (xs[1], xs[3]):  # dust flaps on both sides
            top = edge + out * dust
            outline = [(x0, edge), (x0 + inset, top), (x0 + d - inset, top), (x0 + d, edge)]
            cuts += _polyline(outline)
            folds.append((x0, edge, x0 + d, edge))
            pieces.append(tuple(outline))
        lid_end = edge + out * d  # the lid, off the back
        x0, x1 = xs[4], xs[5]
        cuts += _polyline([(x0, edge), (x0, lid_end)])
        cuts += _polyline([(x1, edge), (x1, lid_end)])
        folds.append((x0, edge, x1, edge))
        folds.append((x0, lid_end, x1, lid_end))
        pieces.append(((x0, edge), (x0, lid_end), (x1, lid_end), (x1, edge)))
        end = lid_end + out * tuck
        outline = [
            (x0, lid_end),
            (x0 + inset, end),
            (x1 - inset, end),
            (x1, lid_end),
        ]
        cuts += _polyline(outline)
        pieces.append(tuple(outline))
    slant = min(3 * MM, glue / 2)
    glue_outline = (
        (xs[1], yb),
        (xs[0], yb + slant),
        (xs[0], yt - slant),
        (xs[1], yt),
    )
    cuts += _polyline(list(glue_outline))
    pieces.append(glue_outline)
    for x, y, pw, ph in panels.values():
        pieces.append(((x, y), (x, y + ph), (x + pw, y + ph), (x + pw, y)))
    return {
        "size": size,
        "panels": panels,
        "cuts": tuple(cuts),
        "folds": tuple(folds),
        "pieces": tuple(pieces),
        "glue": glue_outline,
    }


def fit_page(
    size: tuple[float, float], papers: list[tuple[float, float]], margin: float
) -> tuple[float, float] | None:
    """The first paper (upright, else turned) holding a net of `size` with its bleed inside
    the margin, or None."""
    need_w, need_h = size[0] + 2 * BLEED_MM * MM, size[1] + 2 * BLEED_MM * MM
    for pw, ph in papers:
        for page in ((pw, ph), (ph, pw)):
            if need_w <= page[0] - 2 * margin + 1e-6 and need_h <= page[1] - 2 * margin + 1e-6:
                return page
    return None


def settings(comp) -> tuple[float, float, str]:
    """What `[component.tuckbox]` sets: one card's thickness and the clearance (points), and
    the box's colour; BuildError at its line for a value out of range."""
    spec = comp.tuckbox
    try:
        thickness = to_pt(spec.get("thickness", THICKNESS))
        clearance = to_pt(spec.get("clearance", CLEARANCE))
        if not 0 < thickness <= 5 * MM or not 0 <= clearance <= 10 * MM:
            raise UnitError(_("thickness must be above 0 and at most 5 mm, clearance 0–10 mm"))
    except UnitError as exc:
        raise BuildError(_("tuckbox: {error}", error=exc), comp.at("tuckbox")) from None
    written = spec.get("color", "#FFFFFF")
    colour = colours.colour(written)
    if colour is None:
        raise BuildError(
            _(
                "tuckbox: color must be a colour like #1F2A44 or one of {names}, got {value!r}",
                names=colours.NAMES,
                value=written,
            ),
            comp.at("tuckbox", "color"),
        )
    return thickness, clearance, colour


def lay_out(stage, comp, card_size: tuple[float, float], count: int) -> TuckBox:
    """The tuck box of card component `comp` holding `count` cards of `card_size` (points):
    its net, and its front, back and side faces from their layouts. `stage` supplies layouts,
    fonts, icons and problems, and lays out each face (`stage.face`, layout/plan.py)."""
    spec = comp.tuckbox
    thickness, clearance, colour = settings(comp)
    w, h = card_size[0] + clearance, card_size[1] + clearance
    d = count * thickness + clearance
    shape = net(w, h, d)
    fields = {
        "deck": comp.name,
        "count": count,
        "unit": printed.unit(stage.game.manifest.language, comp.unit, count),  # 「枚」, " cards"
        "id": comp.id,
        "depth_mm": round(d / MM, 1),
        "gap": printed.say(stage.game.manifest.language, "　"),  # between two names on a line
        "_label": _("{name}'s tuck box", name=comp.name),
    }
    card = Card(comp.id, 0, freeze(fields), comp.at("tuckbox") if spec else comp.where)
    faces: dict[str, Face | None] = {}
    for role, default in LAYOUTS.items():
        pw, ph = (d, h) if role == "side" else (w, h)
        names = {"W": pw, "H": ph, "D": d, "bleed": 0.0}
        layout = stage.layout(spec.get(role, default), names)
        faces[role] = stage.face(layout, card, names)
    panels = tuple(
        Panel(name.rstrip("12"), x, y, pw, ph, faces[name.rstrip("12")])
        for name, (x, y, pw, ph) in shape["panels"].items()
    )
    return TuckBox(
        comp.id,
        comp.name,
        count,
        (w, h, d),
        thickness,
        shape["size"],
        panels,
        shape["cuts"],
        shape["folds"],
        shape["pieces"],
        shape["glue"],
        colour,
    )
