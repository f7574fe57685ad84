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
"""

from __future__ import annotations

import errno
import os
import shutil
import time
from pathlib import Path

from .i18n import _
from .problems import BuildError, Problem

TMP_SUFFIX = ".tmp"
SETS = ".sets"


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
    try:
        for folder, contents in groups.items():
            current = folder
            prepared.append((folder, _prepare(folder, contents)))
        for folder, new_set in prepared:
            current = folder
            _switch(folder, new_set)
            switched += 1
    except OSError as exc:
        for _, new_set in prepared[switched:]:
            shutil.rmtree(new_set, ignore_errors=True)
        raise BuildError([Problem("error", describe(exc, current))]) from None
    for folder, _ in prepared:
        _tidy(folder)
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
            for old in sorted(folder.rglob("*")):
                rel = old.relative_to(folder)
                if not old.is_file() or rel.as_posix() in contents or _temporary(old.name):
                    continue
                if any(d == rel.parent or d in rel.parent.parents for d in written_dirs):
                    continue
                (staging / rel).parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(old, staging / rel)
                except OSError:
                    shutil.copy2(old, staging / rel)
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
    live = folder.resolve() if folder.is_symlink() else None
    sets = base / SETS
    for entry in sets.iterdir() if sets.is_dir() else ():
        owner = entry.name.rsplit("@", 1)[0]  # "<game>@<stamp>", "<game>@<pid>.staging"
        if owner == folder.name and entry.resolve() != live:
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
