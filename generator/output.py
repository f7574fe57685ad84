"""The only writer of build results: everything is rendered to bytes first, then written here.

Each file goes to a temporary name beside its target and is renamed into place only after every
file of the build has been written, so a failed build leaves the last good outputs untouched.
Temporaries an interrupted build left behind are removed by the next one. A file-system
failure (permissions, a file where a folder should be, a full disk) is a message naming the
path and what to do, never a traceback.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .problems import BuildError, Problem

TMP_SUFFIX = ".tmp"


def _tmp(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp(path)
    tmp.write_bytes(data)
    os.replace(tmp, path)


def remove_stale(folder: Path, names: set[str]) -> None:
    """Temporaries of `names` that an interrupted build left in `folder` (ours are rewritten)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        n = entry.name
        if n.startswith(".") and n.endswith(TMP_SUFFIX):
            target = n[1:].rsplit(".", 2)[0]
            if target in names:
                entry.unlink(missing_ok=True)


def write_all(files: dict[Path, bytes]) -> list[Path]:
    """Write every file or none: temporaries first, renames last."""
    staged: list[tuple[Path, Path]] = []
    current: Path | None = None
    try:
        folders: dict[Path, set[str]] = {}
        for path in files:
            folders.setdefault(path.parent, set()).add(path.name)
        for folder, names in folders.items():
            current = folder
            if folder.exists() and not folder.is_dir():
                raise FileExistsError(errno.EEXIST, "a file is in the way", str(folder))
            folder.mkdir(parents=True, exist_ok=True)
            remove_stale(folder, names)
        for path, data in files.items():
            current = path
            tmp = _tmp(path)
            tmp.write_bytes(data)
            staged.append((tmp, path))
        for tmp, path in staged:
            current = path
            os.replace(tmp, path)
    except OSError as exc:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise BuildError([Problem("error", describe(exc, current))]) from None
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    return [p for _, p in staged]


def describe(exc: OSError, path: Path | None) -> str:
    """A file-system failure in words: what, where, and what to do about it."""
    where = exc.filename or path
    if isinstance(exc, PermissionError):
        return (
            f"cannot write {where}: permission denied; make the folder writable, or build "
            "elsewhere with --out DIR"
        )
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return (
            f"cannot write into {where}: a file is in the way where a folder should be; move "
            "it, or build elsewhere with --out DIR"
        )
    if exc.errno == errno.ENOSPC:
        return f"the disk is full writing {where}; free some space and build again"
    if exc.errno == errno.EROFS:
        return f"cannot write {where}: the disk is read-only; build elsewhere with --out DIR"
    return f"cannot write {where}: {exc.strerror or exc}"
