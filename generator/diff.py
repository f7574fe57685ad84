"""`pnp diff`: which cards changed since the last build (or a git revision), old beside new.

Every successful build keeps a snapshot of each game in its cache (`snapshots/<game>`): per
card its component, label, row, fields and the keys of its faces, and the faces as the deck's
face store packed them (pickled and deflated a chunk at a time, so a 100,000-card snapshot costs
the build no more than its compressed bytes; faces are unpacked only to find the changed ones).
`diff` lays the game out as it is now, matches cards by component, label and occurrence, and
lists those whose faces differ (with the fields that changed), and cards added or removed.
With `--since REV` the old side is the project's files at that git revision, laid out afresh.
"""

from __future__ import annotations

import pickle
import subprocess
import tarfile
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .i18n import _
from .layout.faces import Face, pack, unpack
from .layout.plan import laid_cards
from .problems import BuildError

VERSION = 2
ENTRIES = 1024  # entries pickled and deflated together


@dataclass(frozen=True)
class Entry:
    component: str  # its printed name
    label: str
    where: str  # file:row
    fields: dict
    front: str  # face keys
    back: str | None
    size: tuple[float, float]  # the card's trim size, points


@dataclass
class Snapshot:
    entry_chunks: list[bytes] = field(default_factory=list)  # lists of Entry, packed
    face_chunks: list[bytes] = field(default_factory=list)  # lists of (front, back), packed

    @property
    def entries(self) -> Iterator[Entry]:
        for chunk in self.entry_chunks:
            yield from unpack(chunk)

    def faces(self, keys: Iterable[str]) -> dict[str, Face]:
        """The faces with these keys (one pass over the packed faces)."""
        wanted, found = set(keys), {}
        for chunk in self.face_chunks if wanted else ():
            for pair in unpack(chunk):
                for face in pair:
                    if face is not None and face.key in wanted:
                        found[face.key] = face
        return found


@dataclass(frozen=True)
class Change:
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
    """A game's cards as laid out in `plan`: its faces are the chunks the face stores hold."""
    snap = Snapshot()
    for group in plan.sheets.values():
        for laid in group:
            snap.face_chunks += laid.faces.packed()
    entries: list[Entry] = []
    for card, name, front, back, laid in laid_cards(plan):
        entries.append(
            Entry(
                name,
                card.label(),
                card.where.row_place,
                {k: v for k, v in card.fields.items() if not k.startswith("_")},
                front.key,
                back.key if back else None,
                laid.geometry.card,
            )
        )
        if len(entries) == ENTRIES:
            snap.entry_chunks.append(pack(entries))
            entries = []
    if entries:
        snap.entry_chunks.append(pack(entries))
    return snap


def save(snap: Snapshot, cache, game: str) -> None:
    data = (VERSION, snap.entry_chunks, snap.face_chunks)
    cache.write(f"snapshots/{game}", pickle.dumps(data, protocol=5))


def load(cache, game: str) -> Snapshot | None:
    data = cache.read(f"snapshots/{game}")
    if not data:
        return None
    try:
        version, entry_chunks, face_chunks = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a torn or foreign cache file is no snapshot
        return None
    return Snapshot(entry_chunks, face_chunks) if version == VERSION else None


def keyed(snap: Snapshot) -> dict[tuple, Entry]:
    """Each card by (component, label, occurrence): the nth card of one name matches the nth."""
    seen: Counter = Counter()
    out = {}
    for e in snap.entries:
        seen[(e.component, e.label)] += 1
        out[(e.component, e.label, seen[(e.component, e.label)])] = e
    return out


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
    try:
        top = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise BuildError(
            _("--since needs the project in a git repository ({path} is not)", path=root)
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
