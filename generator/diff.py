"""`pnp diff`: which cards changed since the last build (or a git revision), old beside new.

Every successful build keeps a snapshot of each game in its cache (`snapshots/<game>`): per
card its component, label, row, fields and the keys of its faces, and each face once (pickled
and deflated a chunk at a time, so a 100,000-card snapshot costs the build no more than its
compressed bytes; faces are unpacked only to find the changed ones).
`diff` lays the game out as it is now, matches cards by component and id (the composition's
key or an id column, where it tells the rows apart: a renamed card is a change), else by label,
and occurrence, and lists those whose faces differ (with the fields that changed), and cards
added or removed.
With `--since REV` the old side is the project's files at that git revision, laid out afresh.
"""

from __future__ import annotations

import calendar
import pickle
import time
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from .cache import SUFFIX
from .i18n import _
from .layout.faces import Face, key_apart_from
from .layout.plan import VERSION_BOX, laid_decks
from .model import ID_COLUMNS
from .problems import BuildError

VERSION = 5  # 3: dice faces and boards are entries too; 5: each face kept once
ENTRIES = 1024  # entries pickled and deflated together


@dataclass(frozen=True)
class Entry:
    """One piece as a build drew it: its row, its fields and its faces' keys."""

    component: str  # its printed name
    label: str
    where: str  # file:row
    fields: dict
    front: str  # face keys
    back: str | None
    size: tuple[float, float]  # the card's trim size, points
    # What names the card whatever its words say: the values of its deck's composition key or
    # id column, where they tell the deck's rows apart (a rename is then a change); () if none.
    ident: tuple = ()
    # The front face's own key, where it prints the version and `front` leaves that out: the
    # face to draw old beside new
    drawn: str | None = None

    @property
    def face(self) -> str:
        """The key of the front face as drawn."""
        return self.drawn or self.front


@dataclass
class Snapshot:
    """A game's pieces as one build laid them out, kept packed a chunk at a time: its entries in
    deck order, and each face they name once."""

    entry_chunks: list[bytes] = field(default_factory=list)  # lists of Entry, packed
    face_chunks: list[bytes] = field(default_factory=list)  # lists of distinct Faces, packed

    @property
    def entries(self) -> Iterator[Entry]:
        for chunk in self.entry_chunks:
            yield from unpack(chunk)

    def faces(self, keys: Iterable[str]) -> dict[str, Face]:
        """The faces with these keys (one pass over the packed faces)."""
        wanted = set(keys)
        found = {}
        for chunk in self.face_chunks if wanted else ():
            found.update((f.key, f) for f in unpack(chunk) if f.key in wanted)
        return found


def pack(items: list) -> bytes:
    """Objects pickled and deflated together (fast deflate: a snapshot is kept, not shipped)."""
    return zlib.compress(pickle.dumps(items, protocol=5), 1)


def unpack(chunk: bytes) -> list:
    return pickle.loads(zlib.decompress(chunk))


class _Packer:
    """Entries and faces added one by one, packed ENTRIES at a time as they come (the faces of
    a large deck are never all pickled at once)."""

    def __init__(self) -> None:
        self.snap = Snapshot()
        self.entries: list[Entry] = []
        self.faces: list[Face] = []
        self.seen: set[str] = set()

    def add(self, entry: Entry, *faces: Face | None) -> None:
        self.entries.append(entry)
        for face in faces:
            if face is not None and face.key not in self.seen:
                self.seen.add(face.key)
                self.faces.append(face)
        self.flush(ENTRIES)

    def flush(self, at: int = 1) -> Snapshot:
        if len(self.entries) >= at:
            self.snap.entry_chunks.append(pack(self.entries))
            self.entries = []
        if len(self.faces) >= at:
            self.snap.face_chunks.append(pack(self.faces))
            self.faces = []
        return self.snap


@dataclass(frozen=True)
class Change:
    """A piece that changed between two builds, with the fields that differ."""

    old: Entry | None  # None: a card added
    new: Entry | None  # None: a card removed
    fields: tuple[tuple[str, object, object], ...]  # (column, old value, new value)
    copies: int = 1  # the copies of one row that changed alike, told once

    @property
    def entry(self) -> Entry:
        return self.new or self.old  # type: ignore[return-value]

    @property
    def named(self) -> str:
        """The card's label, with how many copies changed: 'りんご ×4'."""
        return counted(self.entry.label, self.copies)


def counted(label: str, n: int) -> str:
    return f"{label} ×{n}" if n > 1 else label


def take(plan) -> Snapshot:
    """A game's pieces as laid out in `plan`: cards and tokens, each die face as a row (no
    back), each board as one face."""
    packer = _Packer()
    for laid, on in laid_decks(plan):
        cards = [c for d in on for c in d.cards]
        names = {d.id: d.component.name for d in on}
        idents = {d.id: identity(d) for d in on}
        for card, (front, back) in zip(cards, laid.faces):
            entry = _entry(names[card.component], card, front, back, laid.geometry.card)
            if idents[card.component]:
                entry = replace(entry, ident=ident_of(card, idents[card.component]))
            packer.add(entry, front, back)
    decks = {d.id: d for d in plan.game.decks}
    for dice in plan.dice:  # not on card sheets: not reprinted, their nets are in dice.pdf
        for card, face in zip(decks[dice.id].cards, dice.faces):
            packer.add(_entry(dice.name, card, face, None, (dice.side, dice.side)), face)
    for board in plan.boards:
        size = next(iter(board.tilings.values())).board
        where = plan.game.manifest.where.row_place
        packer.add(Entry(board.name, board.name, where, {}, board.face.key, None, size), board.face)
    return packer.flush()


def identity(deck) -> tuple[str, ...]:
    """The columns that tell a deck's rows apart whatever the cards' words say: its
    composition's key, else an id column (id, No., 番号), when each value (or combination)
    belongs to one row of the spreadsheet; () when none does."""
    comp = deck.component
    key = list(comp.composition.get("key") or [])
    if not key:
        key = [c for c in comp.columns if c.strip().lower() in ID_COLUMNS][:1]
    if not key or not deck.cards:
        return ()
    rows: dict[tuple, set] = {}
    for card in deck.cards:
        rows.setdefault(tuple(card.fields.get(k) for k in key), set()).add(card.where.row)
    return tuple(key) if all(len(r) == 1 for r in rows.values()) else ()


def _entry(name: str, card, front: Face, back: Face | None, size) -> Entry:
    """A piece as compared: its faces' keys leave out the version printed on them (a new
    version is a new printing, not a change to every card)."""
    fields = {k: v for k, v in card.fields.items() if not k.startswith("_")}
    back_key = key_apart_from(back, VERSION_BOX) if back else None
    front_key = key_apart_from(front, VERSION_BOX)
    drawn = front.key if front_key != front.key else None
    return Entry(
        name, card.label(), card.where.row_place, fields, front_key, back_key, size, drawn=drawn
    )


HISTORY = 30  # builds kept for `diff --since DATE`, the newest
HISTORY_BYTES = 128 * 1024 * 1024  # and no more than this (a 100,000-card deck: about ten)
STAMP = "%Y%m%dT%H%M%SZ"  # a kept build's name: when it was made (UTC; milliseconds added)


def packed(snap: Snapshot) -> bytes:
    """A snapshot as the cache keeps it."""
    return pickle.dumps((VERSION, snap.entry_chunks, snap.face_chunks), protocol=5)


def save(snap: Snapshot, cache, game: str, now: float | None = None) -> None:
    """The snapshot the next `diff` compares with, and a copy under the build's time (the
    last HISTORY builds that changed something): `diff --since DATE` compares with the
    build made by then, the one printed."""
    data = packed(snap)
    cache.write(f"snapshots/{game}", data)
    history = _history(cache, game)
    if history is None or not cache.writable:
        return
    now = time.time() if now is None else now
    stamp = time.strftime(STAMP, time.gmtime(now)).replace("Z", f".{int(now * 1000) % 1000:03d}Z")
    # Written every time, so a build's file operations do not depend on the build before
    # (the killed-build test counts them); the same cards as the build before keep its time.
    cache.write(f"snapshots/{game}.builds/{stamp}", data)
    kept = [path for _when, path in _kept(history)]
    named = f"snapshots/{game}.builds/"
    before = cache.read(named + _stamp_of(kept[-2])) if len(kept) >= 2 else None
    if kept[-1:] and _stamp_of(kept[-1]) == stamp and before == data:
        kept.pop().unlink(missing_ok=True)
    for old in kept[:-HISTORY]:
        old.unlink(missing_ok=True)
    kept = kept[-HISTORY:]
    sizes = [path.stat().st_size if path.exists() else 0 for path in kept]
    while len(kept) > 1 and sum(sizes) > HISTORY_BYTES:  # a huge deck keeps fewer
        kept.pop(0).unlink(missing_ok=True)
        sizes.pop(0)


def _stamp_of(path: Path) -> str:
    """A kept build's name (its time) from its file's."""
    return path.name.removesuffix(SUFFIX)


def _history(cache, game: str) -> Path | None:
    """The folder of a game's kept builds (None: a cache with no folder)."""
    folder = getattr(cache, "folder", None)
    return None if folder is None else folder / "snapshots" / f"{game}.builds"


def builds(cache, game: str) -> list[tuple[float, str]]:
    """The kept builds of `game`: (when, as a UTC epoch; the name), oldest first."""
    history = _history(cache, game)
    return [(when, _stamp_of(path)) for when, path in _kept(history)] if history else []


def _kept(history: Path) -> list[tuple[float, Path]]:
    """The files of a game's kept builds with their times (UTC epochs), oldest first."""
    out = []
    for path in history.glob(f"*Z{SUFFIX}") if history.is_dir() else ():
        whole, _dot, part = _stamp_of(path)[:-1].partition(".")  # 20261130T220237.123Z
        date, t, clock = whole.partition("T")
        if not (len(date) == 8 and t and len(clock) == 6 and (date + clock + part).isdigit()):
            continue
        fields = (date[:4], date[4:6], date[6:], clock[:2], clock[2:4], clock[4:])
        when = calendar.timegm(tuple(map(int, fields))) + int(part or 0) / 1000  # as STAMP
        out.append((float(when), path))
    return sorted(out)


def load_by(cache, game: str, moment: float) -> tuple[Snapshot, float] | None:
    """The newest kept build of `game` made at or before `moment` (a UTC epoch), and when."""
    made = [(when, name) for when, name in builds(cache, game) if when <= moment]
    for when, name in reversed(made):
        snap = unpacked(cache.read(f"snapshots/{game}.builds/{name}"))
        if snap is not None:
            return snap, when
    return None


def moment(text: str) -> float | None:
    """`--since` as a time on this machine's clock (2026-11-28, 2026-11-28 18:00,
    2026-11-28T18:00:30), as a UTC epoch; a date alone is the end of that day (the last build
    of the day it was printed). None when the text is no date: a git revision."""
    import datetime as dt
    import re

    text = text.strip()
    if not re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?", text):
        return None
    bad = BuildError(
        _(
            '--since {text}: no such day or time (a day 2026-11-28, or a time "2026-11-28 18:00")',
            text=text,
        )
    )
    try:
        if len(text) <= 10:
            day = dt.date.fromisoformat("-".join(f"{int(p):02d}" for p in text.split("-")))
            when = dt.datetime.combine(day, dt.time(23, 59, 59))
        else:
            day_text, _sep, clock = text.replace("T", " ").partition(" ")
            day = "-".join(f"{int(p):02d}" for p in day_text.split("-"))
            when = dt.datetime.fromisoformat(
                f"{day} {int(clock.split(':')[0]):02d}:{':'.join(clock.split(':')[1:])}"
            )
    except ValueError:
        raise bad from None
    return when.timestamp()  # a naive time: this machine's local time


def load(cache, game: str) -> Snapshot | None:
    return unpacked(cache.read(f"snapshots/{game}"))


def unpacked(data: bytes | None) -> Snapshot | None:
    try:
        version, entry_chunks, face_chunks = pickle.loads(data) if data else (None, [], [])
    except Exception:  # noqa: BLE001 - a torn or foreign cache file is no snapshot
        return None
    return Snapshot(entry_chunks, face_chunks) if version == VERSION else None


def keyed(snap: Snapshot) -> dict[tuple, Entry]:
    """Each card by (component, what names it, occurrence): its id (`Entry.ident`) where its
    deck has one, else its label; the nth card of one name matches the nth."""
    seen: Counter = Counter()
    out = {}
    for e in snap.entries:
        name = named(e.component, e.label, e.ident)
        seen[name] += 1
        out[(*name, seen[name])] = e
    return out


def ident_of(card, columns: tuple[str, ...]) -> tuple[str, ...]:
    """A card's values in its deck's `identity` columns, as the snapshot keeps them."""
    return tuple(str(card.fields.get(k)) for k in columns)


def named(component: str, label: str, ident: tuple) -> tuple:
    """What matches a card across two builds: its component and its id, else its label."""
    return (component, ("id", *ident) if ident else label)


def to_reprint(old: Snapshot, new: Snapshot) -> set[tuple]:
    """The keys (see `keyed`) of the cards now in the deck whose faces are new or changed:
    what to print again and swap into a printed deck, every copy."""
    before = {k: (e.front, e.back) for k, e in keyed(old).items()}
    return {k for k, e in keyed(new).items() if before.get(k) != (e.front, e.back)}


def compare(old: Snapshot, new: Snapshot) -> list[Change]:
    """Cards whose faces differ, added or removed, in the new deck order (removed ones last)."""
    before, after = keyed(old), keyed(new)
    changes = []
    for key, e in after.items():
        was = before.get(key)
        if was is None:
            changes.append(Change(None, e, ()))
        elif (was.front, was.back) != (e.front, e.back):
            names = list(dict.fromkeys([*was.fields, *e.fields]))
            diffs = tuple(
                (n, was.fields.get(n), e.fields.get(n))
                for n in names
                if was.fields.get(n) != e.fields.get(n)
            )
            changes.append(Change(was, e, diffs))
    changes += [Change(e, None, ()) for key, e in before.items() if key not in after]
    # The copies of one row changed alike are one change, told once with their count.
    alike: dict[tuple, Change] = {}
    for c in changes:
        sign = tuple((e.where, e.front, e.back) if e else None for e in (c.old, c.new))
        sign += (repr(c.fields),)
        was = alike.get(sign)
        alike[sign] = c if was is None else Change(c.old, c.new, c.fields, was.copies + 1)
    return list(alike.values())


def at_revision(root: Path, rev: str, into: Path) -> Path:
    """The project's cards/, layouts/ and fonts/ as they were at git revision `rev`."""
    import subprocess  # here: only --since REV needs git (a build need not import these)
    import tarfile
    import tempfile

    try:
        top = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise BuildError(
            _(
                "--since {rev}: a git revision needs the project in a git repository ({path} "
                "is not); to compare with a build made by a day or time, --since 2026-11-28 or "
                '--since "2026-11-28 18:00"',
                rev=rev,
                path=root,
            )
        ) from None
    prefix = root.resolve().relative_to(Path(top).resolve()).as_posix()
    paths = [f"{prefix}/{p}" if prefix != "." else p for p in ("cards", "layouts", "fonts")]
    present = [
        p
        for p in paths
        if subprocess.run(
            ["git", "-C", top, "cat-file", "-e", f"{rev}:{p}"], capture_output=True
        ).returncode
        == 0
    ]
    if not present:
        raise BuildError(
            _("{rev}: no such git revision, or the project had no cards/ then", rev=rev)
        )
    archive = subprocess.run(
        ["git", "-C", top, "archive", "--format=tar", rev, *present], capture_output=True
    )
    if archive.returncode:
        raise BuildError(_("{rev}: no such git revision", rev=rev))
    with tempfile.TemporaryFile() as f:
        f.write(archive.stdout)
        f.seek(0)
        with tarfile.open(fileobj=f) as tar:
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
                tar.extractall(into, filter="data")
            else:  # the same care by hand: plain files and folders inside `into` only
                safe = [
                    m
                    for m in tar.getmembers()
                    if (m.isfile() or m.isdir())
                    and not m.name.startswith(("/", "\\"))
                    and ".." not in Path(m.name).parts
                ]
                tar.extractall(into, members=safe)  # noqa: S202 - members checked above
    return into / prefix if prefix != "." else into
