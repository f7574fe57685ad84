"""The game as frozen data: cards (copies expanded once, here), decks, and the game that holds them.

Built by validate from loaded rows; read by layout, the rulebook and the rules engine alike, so
what is printed and what is simulated are the same cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .i18n import _
from .problems import SourceRef
from .project import Component, Manifest


@dataclass(frozen=True)
class Card:
    """One card (or piece) of a deck: a copy of a data row, its values typed."""

    component: str
    index: int  # position in the deck, 0-based, copies expanded
    fields: Mapping[str, object]  # typed values: str, int, or colour "#RRGGBB"
    where: SourceRef  # the row it came from
    copy: int = 1  # which copy of its row (1-based)

    def __getitem__(self, key: str) -> object:
        return self.fields[key]

    def label(self) -> str:
        """How messages name a card: its key fields, e.g. '貪欲 5'."""
        return self.fields.get("_label") or _("card {n}", n=self.index + 1)  # type: ignore[return-value]

    @property
    def provisional(self) -> str:
        """Why the row is provisional (its `provisional` column), or '' when it is settled."""
        return str(self.fields.get("provisional") or "").strip()


@dataclass(frozen=True)
class Deck:
    """A component's cards in deck order, copies expanded."""

    component: Component
    cards: tuple[Card, ...]
    columns: tuple[str, ...]
    where: SourceRef

    @property
    def id(self) -> str:
        return self.component.id

    def provisional(self) -> dict[str, list[Card]]:
        """The deck's provisional rows by reason, in deck order (a row once, not per copy)."""
        out: dict[str, list[Card]] = {}
        for card in self.cards:
            if card.copy == 1 and card.provisional:
                out.setdefault(card.provisional, []).append(card)
        return out

    def values(self, column: str) -> list:
        """Distinct values of a column, in first-seen order."""
        seen: dict = {}
        for card in self.cards:
            seen.setdefault(card.fields[column], None)
        return list(seen)


@dataclass(frozen=True)
class Game:
    """A game as read: its manifest, decks and rules source."""

    manifest: Manifest
    decks: tuple[Deck, ...]
    rules_source: str | None = None
    rules_where: SourceRef | None = None

    @property
    def id(self) -> str:
        return self.manifest.id

    @property
    def title(self) -> str:
        return self.manifest.title

    def deck(self, component_id: str) -> Deck:
        for d in self.decks:
            if d.id == component_id:
                return d
        raise KeyError(component_id)


def freeze(values: dict) -> Mapping[str, object]:
    return MappingProxyType(dict(values))


def matches(fields, when: dict) -> bool:
    """A card is in a composition group when each `when` column has the value given, or one of
    a list of values."""
    return all(
        fields.get(k) in v if isinstance(v, list) else fields.get(k) == v for k, v in when.items()
    )


def when_label(when: dict) -> str:
    """A group's `when` as words: 'シード', 'スキップ・リバース'."""
    return " ".join(
        "・".join(map(str, v)) if isinstance(v, list) else str(v)
        for v in when.values()
        if v not in ("", None)
    )


NAME_COLUMNS = ("name", "名前", "名称", "カード名", "title", "タイトル")  # a column naming a card


def name_column(columns) -> str | None:
    """The column that names each card (名前, name…), if the component has one."""
    return next((c for c in columns if c.strip().lower() in NAME_COLUMNS), None)


def group_label(group: dict) -> str | None:
    """A composition group's name for people (`label = "1月"`), unless `label` is one of the
    group's key columns (then it lists that column's values)."""
    label = group.get("label")
    return label if isinstance(label, str) and "label" not in group.get("key", []) else None
