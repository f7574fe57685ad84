"""Dice: each die's six faces from six data rows, on a cube net to cut, fold and glue.

A component of kind `die` has a row per face. Its rows make dice six at a time, in order; with
a column named `die`, the rows of each value make one die (which must have six). The net is a
cross: a strip of four faces (2, 1, 5, 6 from the top) with faces 3 and 4 either side of
face 1, so opposite faces are 1–6, 2–5 and 3–4 (numbered dice add up to 7); seven glue tabs
close it. All in points, origin at the net's bottom-left corner.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _
from ..model import Deck
from ..problems import Problems
from .faces import Face

TAB = 0.28  # a glue tab's depth, of the face's side (at most 5 mm)
TAB_MOST_MM = 5.0
GAP_MM = 3.0  # between nets on a page
# Where face i (0-based: the die's first row is face 1) lies in the cross: (column, row from the
# top); and which of its edges carry a glue tab.
CELLS = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2), (1, 3))
TABS = {2: ("top", "left", "bottom"), 3: ("top", "right", "bottom"), 5: ("bottom",)}


@dataclass(frozen=True)
class DieNet:
    """One die's net: faces (x, y, side, Face, bleed sides), cut and fold lines, tab outlines."""

    label: str
    faces: tuple  # (x, y, Face, (left, bottom, right, top) bleed on each side)
    cuts: tuple[tuple[float, float, float, float], ...]
    folds: tuple[tuple[float, float, float, float], ...]
    tabs: tuple[tuple[tuple[float, float], ...], ...]


@dataclass(frozen=True)
class DiceSheets:
    """A component's dice as folding nets placed on pages."""

    id: str
    name: str
    side: float  # a face's side
    net: tuple[float, float]  # one net's size
    page: tuple[float, float]
    margin: float
    positions: tuple[tuple[float, float], ...]  # net origins on a page, reading order
    dice: tuple[DieNet, ...]
    bleed: float
    faces: tuple = ()  # each row's face, in deck order (what `pnp diff` compares)


def groups(deck: Deck, problems: Problems) -> list[tuple[str, list[int]]]:
    """The dice of a deck: (label, the indexes of its six cards)."""
    cards = deck.cards
    if "die" in deck.columns:
        order: dict[str, list[int]] = {}
        for i, card in enumerate(cards):
            order.setdefault(str(card.fields["die"]), []).append(i)
        out = []
        for name, idx in order.items():
            if len(idx) != 6:
                problems.error(
                    _(
                        "die {name!r} has {n} faces; a die has 6 (rows {rows})",
                        name=name,
                        n=len(idx),
                        rows=", ".join(str(cards[i].where.row) for i in idx),
                    ),
                    cards[idx[0]].where,
                )
                continue
            out.append((name, idx))
        return out
    if len(cards) % 6:
        problems.error(
            _(
                "{n} rows make no whole number of dice (six rows a die, in order; or a 'die' "
                "column naming each face's die)",
                n=len(cards),
            ),
            deck.where,
        )
        return []
    return [(str(i // 6 + 1), list(range(i, i + 6))) for i in range(0, len(cards), 6)]


def net(side: float, label: str, faces: list[Face], bleed: float) -> DieNet:
    """One die's net, its bottom-left corner at (0, 0)."""
    t = min(TAB * side, TAB_MOST_MM * 72 / 25.4)
    cell = {i: (t + col * side, t + (3 - row) * side) for i, (col, row) in enumerate(CELLS)}
    edges: dict[tuple, list[int]] = {}
    for i, (x, y) in cell.items():
        for edge in _edges(x, y, side).values():
            edges.setdefault(_key(edge), []).append(i)
    cuts, folds, tabs = [], [], []
    placed = []
    for i, (x, y) in cell.items():
        out = []
        for name, edge in _edges(x, y, side).items():
            shared = len(edges[_key(edge)]) > 1
            tabbed = name in TABS.get(i, ())
            if shared or tabbed:
                if not shared or i == min(edges[_key(edge)]):  # a shared fold drawn once
                    folds.append(edge)
            else:
                cuts.append(edge)
            if tabbed:
                tab = _tab(edge, name, t)
                tabs.append(tab)
                cuts += [(*a, *b) for a, b in zip(tab, tab[1:])]
            out.append(0.0 if shared or tabbed else bleed)
        left, bottom, right, top = out[3], out[2], out[1], out[0]
        placed.append((x, y, faces[i], (left, bottom, right, top)))
    return DieNet(label, tuple(placed), tuple(cuts), tuple(folds), tuple(tabs))


def size(side: float) -> tuple[float, float]:
    t = min(TAB * side, TAB_MOST_MM * 72 / 25.4)
    return 3 * side + 2 * t, 4 * side + t


def _edges(x: float, y: float, s: float) -> dict[str, tuple[float, float, float, float]]:
    return {
        "top": (x, y + s, x + s, y + s),
        "right": (x + s, y, x + s, y + s),
        "bottom": (x, y, x + s, y),
        "left": (x, y, x, y + s),
    }


def _key(edge) -> tuple:
    return tuple(round(v, 3) for v in edge)


def _tab(edge, name: str, t: float) -> tuple[tuple[float, float], ...]:
    """A trapezoid tab on an edge, outward: its ends slanted 45°."""
    x1, y1, x2, y2 = edge
    dx, dy = {"top": (0, t), "bottom": (0, -t), "left": (-t, 0), "right": (t, 0)}[name]
    if name in ("top", "bottom"):
        return ((x1, y1), (x1 + t, y1 + dy), (x2 - t, y2 + dy), (x2, y2))
    return ((x1, y1), (x1 + dx, y1 + t), (x2 + dx, y2 - t), (x2, y2))


def positions(
    net_size: tuple[float, float], page: tuple[float, float], margin: float, gap: float
) -> tuple[tuple[float, float], ...]:
    """Net origins on a page, centred, left to right and top to bottom."""
    nw, nh = net_size
    cols = max(0, int((page[0] - 2 * margin + gap) // (nw + gap)))
    rows = max(0, int((page[1] - 2 * margin + gap) // (nh + gap)))
    span_w, span_h = cols * nw + (cols - 1) * gap, rows * nh + (rows - 1) * gap
    x0, y0 = (page[0] - span_w) / 2, (page[1] - span_h) / 2
    return tuple(
        (x0 + c * (nw + gap), y0 + (rows - 1 - r) * (nh + gap))
        for r in range(rows)
        for c in range(cols)
    )
