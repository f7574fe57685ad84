"""The game as frozen data: cards (copies expanded once, here), decks, and the game that holds them.

Built by validate from loaded rows; read by layout, the rulebook and the rules engine alike, so
what is printed and what is simulated are the same cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType

from .i18n import _
from .problems import SourceRef, rel
from .project import Component, Manifest

__all__ = ["Card", "Component", "Deck", "Folders", "Game", "Manifest", "freeze"]


@dataclass(frozen=True, slots=True)  # one per card: no __dict__ each
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

    @cached_property
    def alike(self) -> list[tuple[Card, int]]:
        """The deck's cards as `alike` groups them (each distinct card once, with its count)."""
        return alike(self.cards)

    def provisional(self) -> dict[str, list[Card]]:
        """The deck's provisional rows by reason, in deck order (a row once, not per copy)."""
        out: dict[str, list[Card]] = {}
        if not any(card.provisional for card, _n in self.alike):
            return out
        for card in self.cards:
            if card.copy == 1 and card.provisional:
                out.setdefault(card.provisional, []).append(card)
        return out

    def values(self, column: str) -> list:
        """Distinct values of a column, in first-seen order."""
        seen: dict = {}
        for card, _n in self.alike:
            seen.setdefault(card.fields[column], None)
        return list(seen)


@dataclass(frozen=True)
class Game:
    """A game as read: its manifest, decks and rules source."""

    manifest: Manifest
    decks: tuple[Deck, ...]
    rules_source: str | None = None
    rules_where: SourceRef | None = None
    words: tuple[str, ...] = ()  # words never split across lines (the game's words.txt)
    # an edition's data files and the columns it took from their translations (`name@en`)
    translated: tuple[tuple[str, tuple[str, ...]], ...] = ()

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


_FIELDS = attrgetter("fields")


def alike(cards: Sequence[Card]) -> list[tuple[Card, int]]:
    """Cards grouped by their fields (one mapping, read-only, is shared by the copies of a row
    and by rows written alike): each group's first card and how many cards it has, in the
    order the groups first appear. What depends on the fields alone is read once a group, not
    once a card: a deck of 7,200 cards printed from 40 rows is 40 groups. Cards with equal
    fields in mappings of their own are groups of their own (read more often, as before)."""
    ids = list(map(id, map(_FIELDS, cards)))
    counts = Counter(ids)  # in the order the groups first appear
    if len(counts) == len(ids):
        return [(card, 1) for card in cards]
    first = dict(zip(reversed(ids), range(len(ids) - 1, -1, -1)))  # each group's first card
    return [(cards[first[i]], n) for i, n in counts.items()]


def freeze(values: dict) -> Mapping[str, object]:
    return MappingProxyType(dict(values))


def matches(fields, when: dict) -> bool:
    """A card is in a composition group when each `when` column has the value given, or one of
    a list of values."""
    return all(
        fields.get(k) in v if isinstance(v, list) else fields.get(k) == v for k, v in when.items()
    )


def alike_of_group(deck: Deck, when: dict) -> list[tuple[Card, int]]:
    """The deck's cards alike (Deck.alike) that a composition group's `when` takes."""
    return [(card, n) for card, n in deck.alike if matches(card.fields, when)]


def of_group(deck: Deck, when: dict) -> list[Card]:
    """The deck's cards that a composition group's `when` takes, in deck order (each distinct
    card matched once)."""
    if not when:
        return list(deck.cards)
    taken = {id(card.fields) for card, _n in alike_of_group(deck, when)}
    return [card for card in deck.cards if id(card.fields) in taken]


def when_label(when: dict, named=None) -> str:
    """A group's `when` as words: 'シード', 'スキップ・リバース'; `named(column, value)`, if
    given, says each value (a component's labels: 数字２)."""
    say = named or (lambda _column, value: str(value))
    return " ".join(
        "・".join(say(c, x) for x in (v if isinstance(v, list) else [v]))
        for c, v in when.items()
        if v not in ("", None)
    )


NAME_COLUMNS = ("name", "名前", "名称", "カード名", "title", "タイトル")  # a column naming a card
ID_COLUMNS = ("id", "no", "no.", "番号", "ｉｄ")  # a column numbering the cards (lowered)


def name_column(columns) -> str | None:
    """The column that names each card (名前, name…), if the component has one."""
    return next((c for c in columns if c.strip().lower() in NAME_COLUMNS), None)


def group_label(group: dict) -> str | None:
    """A composition group's name for people (`label = "1月"`), unless `label` is one of the
    group's key columns (then it lists that column's values)."""
    label = group.get("label")
    return label if isinstance(label, str) and "label" not in group.get("key", []) else None


@dataclass(frozen=True)
class Folders:
    """Where a project's files are, as the stages after loading read them: its root (paths in
    messages are named from it) and its layouts."""

    root: Path

    @property
    def layouts(self) -> Path:
        return self.root / "layouts"

    def rel(self, path: Path) -> str:
        return rel(path, self.root)
