"""The only writer of build results: everything is rendered to bytes first, then written here.

Each file goes to a temporary name beside its target and is renamed into place only after every
file of the build has been written, so a failed build leaves the last good outputs untouched.
"""

from __future__ import annotations

import os
from pathlib import Path


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_all(files: dict[Path, bytes]) -> list[Path]:
    """Write every file or none: temporaries first, renames last."""
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(data)
            staged.append((tmp, path))
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, path in staged:
        os.replace(tmp, path)
    return [p for _, p in staged]


class Cache:
    """Derived files that make the next build faster (font subsets, metrics, the font index).

    Lives in `<out>/.cache/`. `pnp check` reads it but never writes (check writes nothing).
    """

    def __init__(self, folder: Path | None, writable: bool = True):
        self.folder = folder
        self.writable = writable and folder is not None

    @classmethod
    def for_output(cls, out: Path, writable: bool) -> Cache:
        return cls(out / ".cache", writable)

    def read(self, name: str) -> bytes | None:
        if self.folder is None:
            return None
        try:
            return (self.folder / name).read_bytes()
        except OSError:
            return None

    def write(self, name: str, data: bytes) -> None:
        if self.writable:
            atomic_write(self.folder / name, data)


NO_CACHE = Cache(None)
