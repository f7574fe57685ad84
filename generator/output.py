"""The only writer of build results: everything is rendered to bytes first, then written here.

A game's outputs are one set, switched whole: `output/<game>` is a link to a folder under
`output/.sets/`. A build makes a new set (the files it wrote, beside the previous set's others,
hard-linked), and only when every game's new set is complete does it point each game's link at
its new set, one rename each. A kill at any instant leaves every game with either its complete
previous set or its complete new one; the next build removes what an interrupted one left.
Where links cannot be made (some Windows set-ups), the folders themselves are swapped: the
previous set is renamed into `.sets/` and the new one into place. A kill between those two
renames leaves the complete previous set under `.sets/`, and the next build puts it back first.

A file-system failure (permissions, a file where a folder should be, a full disk) is a message
naming the path and what to do, never a traceback.

The output folder is pnp's own (`own`): one it made (its marker file), an empty one, or an older
pnp's. Below it pnp follows no link it did not make: `.sets` and `.cache` are real folders, a
game's link points into `.sets`, and a set's files are carried into the next set only when
they are plain files. Builds into one folder take turns (`LOCK`), so `pnp watch` and a
`pnp build` typed beside it never lose a set.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import time
from pathlib import Path

from .i18n import _
from .problems import BuildError

TMP_SUFFIX = ".tmp"
SETS = ".sets"
MARK = ".pnp-output"  # in every output folder pnp made or took on
LOCK = ".pnp-lock"  # held while a build writes into the folder
WAIT_S = 120  # how long a build waits for another one writing into the same folder
# What an output folder may hold besides pnp's own when pnp takes it on: an older pnp's
# output, a placeholder a repository keeps, a desktop's notes.
HARMLESS = {SETS, ".cache", ".gitkeep", ".gitignore", ".DS_Store", "Thumbs.db", "desktop.ini"}


class NotOurs(OSError):
    """Something below an output folder pnp did not make: refused, never followed."""


def own(base: Path, writing: frozenset[str] = frozenset()) -> None:
    """Make sure pnp may write in output folder `base`, or raise NotOurs naming what is in the
    way: a new or empty folder is marked as pnp's, as is an older pnp's output; a folder
    holding other things is not pnp's to fill (the folders being `writing` are told apart
    later: a file where one goes is in the way). Below it, `.sets` and `.cache` must be real
    folders and every link must be a game's link into `.sets`."""
    if base.exists() and not base.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "a file is in the way", str(base))
    base.mkdir(parents=True, exist_ok=True)
    no_links(base)
    entries = list(os.scandir(base))
    names = {e.name for e in entries}
    if MARK in names:
        return
    others = [
        e.name
        for e in entries
        if e.name not in HARMLESS | writing and not e.is_symlink() and not _temporary(e.name)
    ]
    if others:
        raise NotOurs(
            errno.EEXIST, _("a folder pnp did not make, holding {name}", name=others[0]), str(base)
        )
    (base / MARK).write_text(
        "This folder is pnp's output: pnp build replaces what is in it.\n", encoding="utf-8"
    )


def no_links(base: Path) -> None:
    """Raise NotOurs where a link below output folder `base` is not one pnp made: `.sets` and
    `.cache` (and all below it) are real folders, and a link beside them is a game's link
    into `.sets`. Nothing pnp writes or removes there can then land elsewhere."""
    if not base.is_dir():
        return
    for e in os.scandir(base):
        if e.name in (SETS, ".cache") and (e.is_symlink() or not e.is_dir(follow_symlinks=False)):
            raise NotOurs(errno.EPERM, _("a link or file pnp did not make"), e.path)
        if e.is_symlink() and not _our_link(base, e.name):
            raise NotOurs(errno.EPERM, _("a link pnp did not make"), e.path)
    cache = base / ".cache"
    if cache.is_dir():  # its writes and trims go nowhere else
        for top, dirs, files in os.walk(cache, followlinks=False):
            for name in dirs + files:
                if os.path.islink(os.path.join(top, name)):
                    raise NotOurs(
                        errno.EPERM, _("a link pnp did not make"), os.path.join(top, name)
                    )


def _our_link(base: Path, name: str) -> bool:
    """`base/name` is a game's link as pnp makes it: `.sets/<set>`, a real folder (or none,
    when a build was killed before it was written)."""
    target = Path(os.readlink(base / name))
    if target.is_absolute() or len(target.parts) != 2 or target.parts[0] != SETS:
        return False
    if target.parts[1] in ("", ".", ".."):
        return False
    pointed = base / target
    return not pointed.is_symlink() and (pointed.is_dir() or not pointed.exists())


@contextlib.contextmanager
def _turn(base: Path):
    """Hold the folder's lock while a build writes into it: another build waits its turn (up
    to WAIT_S), then is told who holds it. No lock where the system has none (fcntl)."""
    try:
        import fcntl
    except ImportError:  # Windows: builds do not queue
        yield
        return
    with open(base / LOCK, "a+") as handle:
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(
                        errno.EBUSY, "another pnp is writing into this folder", str(base)
                    ) from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _tmp(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")


def atomic_write(path: Path, data: bytes) -> None:
    """One file, renamed into place (for caches: a set is written with `write_all`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp(path)
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_all(files: dict[Path, bytes | None], roots: list[Path] | None = None) -> list[Path]:
    """Write the files, each game's (under its folder in `roots`, subfolders and all; without
    roots, each file's folder) as one set: every new set is complete before the first switch,
    so a failure while writing changes nothing, and each game shows either its whole old set
    or its whole new one. A file given None is left out of the new set (one now out of date)."""
    groups: dict[Path, dict[str, bytes]] = {}
    for path, data in files.items():
        root = next((r for r in roots or () if r in path.parents), path.parent)
        groups.setdefault(root, {})[path.relative_to(root).as_posix()] = data
    current: Path | None = None
    prepared: list[tuple[Path, Path]] = []  # (the set's folder as users see it, the new set)
    switched = 0
    bases = sorted({folder.parent for folder in groups})
    try:
        with contextlib.ExitStack() as turns:
            for base in bases:
                current = base
                own(base, frozenset(f.name for f in groups if f.parent == base))
                turns.enter_context(_turn(base))
            for folder, contents in groups.items():
                current = folder
                prepared.append((folder, _prepare(folder, contents)))
            for folder, new_set in prepared:
                current = folder
                _switch(folder, new_set)
                switched += 1
            for folder, _ in prepared:
                _tidy(folder)
    except OSError as exc:
        for _, new_set in prepared[switched:]:
            shutil.rmtree(new_set, ignore_errors=True)
        raise BuildError(describe(exc, current)) from None
    return [
        folder / name
        for folder, contents in groups.items()
        for name, data in contents.items()
        if data is not None
    ]


def _prepare(folder: Path, contents: dict[str, bytes | None]) -> Path:
    """A complete new set for `folder`: the previous set's other files, and `contents`."""
    base = folder.parent
    if base.exists() and not base.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "a file is in the way", str(base))
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(errno.EEXIST, "a file is in the way", str(folder))
    sets = base / SETS
    sets.mkdir(parents=True, exist_ok=True)
    _recover(folder)
    staging = sets / f"{folder.name}@{os.getpid()}.staging"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir()
    # A subfolder the build writes (png/card, tts) is replaced whole: no stale image stays.
    written_dirs = {Path(name).parent for name in contents} - {Path(".")}
    try:
        if folder.is_dir():
            for old in _plain_files(folder):
                rel = old.relative_to(folder)
                if rel.as_posix() in contents or _temporary(old.name):
                    continue
                if any(d == rel.parent or d in rel.parent.parents for d in written_dirs):
                    continue
                (staging / rel).parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(old, staging / rel, follow_symlinks=False)
                except OSError:
                    shutil.copy2(old, staging / rel, follow_symlinks=False)
        for name, data in contents.items():
            if data is None:  # dropped from the set
                continue
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_bytes(data)
        final = sets / f"{folder.name}@{time.time_ns()}-{os.getpid()}"
        os.rename(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return final


def _plain_files(folder: Path) -> list[Path]:
    """The plain files below a set, in order, following no link (a link in a set is nothing
    pnp wrote: it is not carried into the next set)."""
    found = []
    for top, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            path = Path(top) / name
            if stat.S_ISREG(os.lstat(path).st_mode):
                found.append(path)
    return found


def _switch(folder: Path, new_set: Path) -> None:
    """Point `folder` at `new_set` with one rename (a real folder is moved into .sets first)."""
    link = folder.parent / f".{folder.name}.{os.getpid()}.link"
    if link.is_symlink() or link.exists():
        link.unlink()
    try:
        os.symlink(Path(SETS) / new_set.name, link, target_is_directory=True)
    except (OSError, NotImplementedError):
        link = None  # no links here: the folders themselves are swapped
    if folder.is_dir() and not folder.is_symlink():
        os.rename(folder, new_set.parent / f"{folder.name}{OLD}{os.getpid()}")
    if link is None:
        os.rename(new_set, folder)
    else:
        os.replace(link, folder)


OLD = "@old-"  # a previous set moved aside: `.sets/<game>@old-<pid>`


def _recover(folder: Path) -> None:
    """A build killed between moving the previous set aside and moving the new one into place
    left no `folder`: put the previous set back."""
    if folder.exists() or folder.is_symlink():
        return
    aside = sorted(
        (p for p in (folder.parent / SETS).glob(f"{folder.name}{OLD}*") if p.is_dir()),
        key=lambda p: p.stat().st_mtime_ns,
    )
    if aside:
        os.rename(aside[-1], folder)


def _temporary(name: str) -> bool:
    return name.startswith(".") and (name.endswith(TMP_SUFFIX) or name.endswith(".link"))


def _tidy(folder: Path) -> None:
    """Remove what this or an interrupted build left for `folder`: sets no link points at,
    staging folders, stray links and temporaries."""
    base = folder.parent
    live = Path(os.readlink(folder)).name if folder.is_symlink() else None
    sets = base / SETS
    if sets.is_symlink() or not sets.is_dir():
        return  # not pnp's (own refuses such a folder before any build writes)
    for entry in sets.iterdir():
        owner = entry.name.rsplit("@", 1)[0]  # "<game>@<stamp>", "<game>@<pid>.staging"
        if owner != folder.name or entry.name == live:
            continue
        if entry.is_symlink() or not entry.is_dir():
            entry.unlink(missing_ok=True)  # the entry itself, never what it points at
        else:
            shutil.rmtree(entry, ignore_errors=True)
    for entry in base.iterdir():
        if entry.name.startswith(f".{folder.name}.") and _temporary(entry.name):
            entry.unlink(missing_ok=True)
    if folder.is_dir():
        for entry in folder.iterdir():
            if _temporary(entry.name):
                entry.unlink(missing_ok=True)


def describe(exc: OSError, path: Path | None) -> str:
    """A file-system failure in words: what, where, and what to do about it."""
    where = exc.filename or path
    if isinstance(exc, NotOurs):
        return _(
            "will not write into {path}: {what}; pnp writes only into an output folder it "
            "made and follows no link there it did not make. Remove it, or build elsewhere "
            "with --out DIR (a new or empty folder)",
            path=where,
            what=exc.strerror,
        )
    if isinstance(exc, TimeoutError):
        return _(
            "another pnp (pnp watch, or a build in another window) has been writing into "
            "{path} for {s} s; wait for it to finish, or stop it, and build again",
            path=where,
            s=WAIT_S,
        )
    if isinstance(exc, PermissionError):
        return _(
            "cannot write {path}: permission denied; make the folder writable, or build "
            "elsewhere with --out DIR",
            path=where,
        )
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return _(
            "cannot write into {path}: a file is in the way where a folder should be; move "
            "it, or build elsewhere with --out DIR",
            path=where,
        )
    if exc.errno == errno.ENOSPC:
        return _("the disk is full writing {path}; free some space and build again", path=where)
    if exc.errno == errno.EROFS:
        return _(
            "cannot write {path}: the disk is read-only; build elsewhere with --out DIR",
            path=where,
        )
    return _("cannot write {path}: {error}", path=where, error=exc.strerror or exc)
