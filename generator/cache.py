"""Derived files that take seconds to make again: font subsets and metrics, the font index,
and what a build leaves for the next (a record of each game's inputs and files, so a build with
nothing changed draws nothing; the snapshot `pnp diff` compares with).

Two layers: the project's `<out>/.cache/` (all of it), and the user's cache folder (what
depends on nothing of a project's but font files: subsets and metrics, `fonts/…`, and the font
index, so a new project's first build, or one into a new output folder, is warm). The user's
folder is PNP_CACHE_DIR, else platformdirs' user cache folder for pnp (~/.cache/pnp on Linux);
`pnp cache clear` empties both. What one process keeps between builds (faces, templates) is a
Session's, in memory (session.py).

Not a build result, so it is not output's business what goes in it; but output stays the only
module that writes, and the cache asks it to (`atomic_write`). `pnp check` reads the caches but
never writes (check writes nothing).

Every entry is sealed with an HMAC under a key of this user's (`key` in the user's cache
folder, made on first use): a project folder may be someone else's, and one that ships an
`output/.cache` of its own must not have its pickles loaded. An entry whose seal does not hold
is no entry (the work is done again). The user's folder is this user's alone: made 0700 (one
of theirs found open to others is closed), the key a 0600 file of theirs (one another could
have read is replaced); a folder (or key) owned by someone else, or a link, is not used at all
(then nothing is cached across runs, and `pnp cache` says why).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import shutil
import stat
import time
from functools import lru_cache
from pathlib import Path

from .i18n import _
from .output import atomic_write

# What the user's cache keeps too, read through it: derived from font files alone (subsets,
# metrics, the index of faces found).
SHARED = ("fonts/", "font-index.json")


class Cache:
    """A folder of derived files, read freely, written only when the command may write. A
    `shared` cache behind it answers (and keeps) what every project derives alike."""

    def __init__(self, folder: Path | None, writable: bool = True, shared: Cache | None = None):
        self.folder = folder
        self.writable = writable and folder is not None
        self.shared = shared

    @classmethod
    def for_output(cls, out: Path, writable: bool, writing: frozenset[str] = frozenset()) -> Cache:
        """The output folder's cache; a command that writes first makes the folder pnp's own
        (output.own, `writing` the games' folders it will write), so no link below it leads a
        cache write or trim elsewhere."""
        if writable:
            from .output import describe, own

            try:
                own(out, writing)
            except OSError as exc:
                from .problems import BuildError

                raise BuildError(describe(exc, out)) from None
        return cls(out / ".cache", writable, user_cache(writable))

    def path(self, name: str) -> Path:
        """Where entry `name` is kept: its name and SUFFIX (a sealed entry is a file no
        earlier pnp looks for, so going back a version reads none of them)."""
        assert self.folder is not None
        return self.folder / f"{name}{SUFFIX}"

    def read(self, name: str) -> bytes | None:
        data = self._read(name)
        if data is None and self.shared is not None and name.startswith(SHARED):
            data = self.shared.read(name)
            if data is not None:
                self._write(name, data)  # the project keeps its own copy too
        return data

    def _read(self, name: str) -> bytes | None:
        if self.folder is None:
            return None
        path = self.path(name)
        try:
            data = _opened(name, path.read_bytes())
        except OSError:
            return None
        if data is None:  # not sealed by this user: someone else's, or torn
            return None
        if self.writable and name.split("/", 1)[0] in BOUNDS:
            _touch(path)  # used: the last to go when the folder is trimmed (see _trim)
        return data

    def write(self, name: str, data: bytes) -> None:
        """Keep a derived file; a cache that cannot be written only makes the next build slower."""
        self._write(name, data)
        if self.shared is not None and name.startswith(SHARED):
            self.shared.write(name, data)

    def _write(self, name: str, data: bytes) -> None:
        if self.writable:
            path = self.path(name)
            try:
                atomic_write(path, _sealed(name, data))
            except OSError:
                self.writable = False
                return
            folder = name.split("/", 1)[0]
            if folder in BOUNDS:
                _trim(self.folder / folder, *BOUNDS[folder])


def _touch(path: Path) -> None:
    """An entry marked used, with the time to the nanosecond, not the file system's (a tick of
    some ms: a build reads many entries within one, and their order would be lost)."""
    now = time.time_ns()
    with contextlib.suppress(OSError):
        os.utime(path, ns=(now, now))


# Font subsets are made per set of characters: every edit that brings a new character makes
# one, so the folder is trimmed, least recently used first, to these bounds (BOUNDS).
FONTS_MOST_FILES = 400
FONTS_MOST_BYTES = 256 * 1024 * 1024
BOUNDS = {"fonts": (FONTS_MOST_FILES, FONTS_MOST_BYTES)}


def _trim(folder: Path, most_files: int, most_bytes: int) -> None:
    """Remove the least recently used files of `folder` beyond `most_files` files or
    `most_bytes` bytes (a read touches a file: what builds use stays)."""
    try:
        stats = [(e.stat(), e.path) for e in os.scandir(folder)]
        entries = [(st.st_mtime_ns, st.st_size, path) for st, path in stats]
    except OSError:
        return
    total = sum(size for _t, size, _p in entries)
    if len(entries) <= most_files and total <= most_bytes:
        return
    entries.sort()  # oldest first
    count = len(entries)
    for _t, size, path in entries[:-1]:  # never the newest: the one just written
        if count <= most_files and total <= most_bytes:
            break
        try:
            os.remove(path)
        except OSError:
            continue
        count -= 1
        total -= size


@lru_cache(maxsize=1)
def code_digest() -> str:
    """pnp's own source and data (base layouts, presets, catalogs), so a new version of the
    tool lays every face out and builds every file afresh: each file by its path, size and
    time of change, as Python tells a changed module from its compiled copy (reading every
    byte of them was a twentieth of a rebuild after an edit)."""
    root = Path(__file__).resolve().parent
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            st = os.stat(os.path.join(folder, name))
            rel = Path(folder, name).relative_to(root).as_posix()
            found.append((rel, st.st_size, st.st_mtime_ns))
    return hashlib.blake2b(repr(sorted(found)).encode(), digest_size=16).hexdigest()


SEAL = 32  # bytes of HMAC-SHA256 before each entry
SUFFIX = ".sealed"  # of every entry's file


def _sealed(name: str, data: bytes) -> bytes:
    return hmac.new(_key(), name.encode() + b"\0" + data, hashlib.sha256).digest() + data


def _opened(name: str, blob: bytes) -> bytes | None:
    """The entry's data if this user's key sealed it under this name, else None."""
    seal, data = blob[:SEAL], blob[SEAL:]
    good = hmac.new(_key(), name.encode() + b"\0" + data, hashlib.sha256).digest()
    return data if len(blob) >= SEAL and hmac.compare_digest(seal, good) else None


def user_cache_dir() -> Path:
    """The user's cache folder: PNP_CACHE_DIR, else platformdirs' for pnp (~/.cache/pnp)."""
    if os.environ.get("PNP_CACHE_DIR"):
        return Path(os.environ["PNP_CACHE_DIR"])
    import platformdirs

    return platformdirs.user_cache_path("pnp", appauthor=False)


def _mine(st: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or st.st_uid == os.getuid()


def refused() -> str | None:
    """Why the user's cache folder is not used (None: it is): it is not this user's alone. A
    folder not there yet is made 0700 when the key is first kept (_key)."""
    return not_private(user_cache_dir())


def not_private(folder: Path) -> str | None:
    """Why `folder` is not this user's alone (None: it is, or it is not there): a link, a file,
    another user's. One of this user's that is open to others is closed (0700) first."""
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return exc.strerror
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        return _("not a folder of its own (a link or a file)")
    if not _mine(st):
        return _("owned by another user")
    if hasattr(os, "getuid") and st.st_mode & 0o077:  # ours, open to others: close it
        try:
            os.chmod(folder, 0o700)
        except OSError as exc:
            return exc.strerror
    return None


@lru_cache(maxsize=1)
def _key() -> bytes:
    """This user's sealing key: kept in the user's cache folder (a 0600 file of this user's),
    made at random on first use; where it cannot be kept, or the folder is not the user's
    alone, one for this process only (caches then last one run)."""
    path = user_cache_dir() / "key"
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        pass
    if refused() is not None:
        return os.urandom(32)
    try:
        st = os.lstat(path)
        if stat.S_ISREG(st.st_mode) and _mine(st) and not st.st_mode & 0o077:
            key = path.read_bytes()
            if len(key) == 32:
                return key
    except OSError:
        pass
    key = os.urandom(32)
    try:
        if os.path.lexists(path):  # torn, or one others could read: a new key (every entry
            path.unlink()  # sealed with the old one goes)
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(key)
        kept = path.read_bytes()
        return kept if len(kept) == 32 else key
    except OSError:
        return key


def user_cache(writable: bool) -> Cache:
    if refused() is not None:
        return NO_CACHE
    return Cache(user_cache_dir(), writable)


def clear(folders: list[Path]) -> list[tuple[Path, int]]:
    """Empty cache folders; returns each one that held something, with the bytes it held."""
    out = []
    for folder in folders:
        if not folder.is_dir():
            continue
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        shutil.rmtree(folder, ignore_errors=True)
        out.append((folder, size))
    return out


NO_CACHE = Cache(None)
