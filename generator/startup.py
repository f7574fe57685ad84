"""What a `pnp` process does before it imports the rest of pnp: the user's cache folder, and the
methods `dataclasses` writes for pnp's records, compiled once and kept there.

Python writes each dataclass's methods (`__init__`, `__eq__`, `__hash__`, `__repr__`, a frozen
one's `__setattr__`…) as source text and compiles that text every time the module defining the
class is imported: for pnp's sixty-odd records about 20 ms of every process, a sixth of a
rebuild after a one-row edit. `remember_dataclasses()` gives the dataclasses module an `exec`
of its own that takes each text's compiled code from a file in the user's cache folder (by the
exact text, for this Python and this dataclasses module) and compiles only texts it has not
seen; `keep_dataclasses()` adds what it compiled to the file when the command ends. The code
run is the code Python would compile from the same text (compiled as dataclasses compiles it:
no `__future__` flags inherited). Where the dataclasses module does not work this way (another
Python), or the file cannot be read, nothing changes; pnp used as a library is untouched.

Imports nothing of pnp's (its records are what it is for).
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
from pathlib import Path

KEPT_MOST = 4000  # texts kept in the file: beyond, it starts again with this process's


def user_cache_dir() -> Path:
    """The user's cache folder: PNP_CACHE_DIR, else platformdirs' for pnp (~/.cache/pnp)."""
    if os.environ.get("PNP_CACHE_DIR"):
        return Path(os.environ["PNP_CACHE_DIR"])
    import platformdirs

    return platformdirs.user_cache_path("pnp", appauthor=False)


class _Codes:
    """The compiled texts read from the file, those compiled by this process, and which were
    used."""

    def __init__(self, path: Path, stored: dict):
        self.path, self.stored = path, stored
        self.new: dict[str, object] = {}
        self.used: set[str] = set()
        self.compiled = 0  # texts this process compiled

    def exec(self, source, globals=None, locals=None):  # noqa: A002 - exec's own names
        if not isinstance(source, str):
            return builtins.exec(source, globals, locals)
        code = self.stored.get(source) or self.new.get(source)
        if code is None:
            code = self.new[source] = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled += 1
        self.used.add(source)
        return builtins.exec(code, globals, locals)


_codes: _Codes | None = None


def remember_dataclasses() -> None:
    """Give the dataclasses module the remembering `exec` (once, in a `pnp` process)."""
    global _codes
    import dataclasses

    if _codes is not None or not callable(getattr(dataclasses, "_create_fn", None)):
        return
    if "exec" in vars(dataclasses):
        return  # someone else's already
    try:
        st = os.stat(dataclasses.__file__)
        tag = f"{sys.implementation.cache_tag}-{st.st_size}-{st.st_mtime_ns}"
        path = user_cache_dir() / "code" / f"dataclasses-{tag}.marshal"
    except (OSError, TypeError, ImportError):
        return
    try:
        stored = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        stored = {}
    if not isinstance(stored, dict):
        stored = {}
    _codes = _Codes(path, stored)
    dataclasses.exec = _codes.exec  # type: ignore[attr-defined]


def keep_dataclasses() -> None:
    """Add what this process compiled to the file (written whole, then renamed into place)."""
    codes = _codes
    if codes is None or not codes.new:
        return
    kept = {**codes.stored, **codes.new}
    if len(kept) > KEPT_MOST:  # texts of many versions of pnp: start again
        kept = {t: c for t, c in kept.items() if t in codes.used}
    try:
        codes.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = codes.path.with_name(f"{codes.path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(kept))
        os.replace(tmp, codes.path)
    except (OSError, ValueError):
        return
    codes.stored, codes.new = kept, {}
