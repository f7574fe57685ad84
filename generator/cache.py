"""Derived files that make the next build faster: font subsets, metrics, the font index.

Lives in `<out>/.cache/`. Not a build result, so it is not output's business what goes in it;
but output stays the only module that writes, and the cache asks it to (`atomic_write`).
`pnp check` reads the cache but never writes (check writes nothing).
"""

from __future__ import annotations

from pathlib import Path

from .output import atomic_write


class Cache:
    """A folder of derived files, read freely, written only when the command may write."""

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
        """Keep a derived file; a cache that cannot be written only makes the next build slower."""
        if self.writable:
            try:
                atomic_write(self.folder / name, data)
            except OSError:
                self.writable = False


NO_CACHE = Cache(None)
