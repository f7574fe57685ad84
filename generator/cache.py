"""Derived files that make the next build faster: font subsets, metrics, the font index.

Two layers: the project's `<out>/.cache/` (everything, the font index included), and the
user's cache folder (font subsets and metrics only, `fonts/…`: the same for every project, so a
new project's first build is warm). The user's folder is PNP_CACHE_DIR, else platformdirs'
user cache folder for pnp (~/.cache/pnp on Linux); `pnp cache clear` empties both.

Not a build result, so it is not output's business what goes in it; but output stays the only
module that writes, and the cache asks it to (`atomic_write`). `pnp check` reads the caches but
never writes (check writes nothing).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .output import atomic_write

SHARED = ("fonts/",)  # what the user's cache keeps: derived from font files alone


class Cache:
    """A folder of derived files, read freely, written only when the command may write. A
    `shared` cache behind it answers (and keeps) what every project derives alike."""

    def __init__(self, folder: Path | None, writable: bool = True, shared: Cache | None = None):
        self.folder = folder
        self.writable = writable and folder is not None
        self.shared = shared

    @classmethod
    def for_output(cls, out: Path, writable: bool) -> Cache:
        return cls(out / ".cache", writable, user_cache(writable))

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
        try:
            return (self.folder / name).read_bytes()
        except OSError:
            return None

    def write(self, name: str, data: bytes) -> None:
        """Keep a derived file; a cache that cannot be written only makes the next build slower."""
        self._write(name, data)
        if self.shared is not None and name.startswith(SHARED):
            self.shared.write(name, data)

    def _write(self, name: str, data: bytes) -> None:
        if self.writable:
            try:
                atomic_write(self.folder / name, data)
            except OSError:
                self.writable = False


def user_cache_dir() -> Path:
    if os.environ.get("PNP_CACHE_DIR"):
        return Path(os.environ["PNP_CACHE_DIR"])
    import platformdirs

    return platformdirs.user_cache_path("pnp", appauthor=False)


def user_cache(writable: bool) -> Cache:
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
