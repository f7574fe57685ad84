"""What a `pnp` process does before it imports the rest of pnp: the user's cache folder, and
work Python does afresh in every process, done once and kept there.

Two things Python compiles every time a module is imported, and again in every process:

- the methods `dataclasses` writes for each record (`__init__`, `__eq__`, `__hash__`,
  `__repr__`, a frozen one's `__setattr__`…), as source text compiled by `exec`: for pnp's
  sixty-odd records about 20 ms;
- each regular expression (the module-level patterns of pnp, jinja2 and ReportLab, and those
  a check builds), parsed and turned into the regex engine's code in Python: about 15 ms.

Together a quarter of a rebuild after a one-row edit. `remember()` (the `pnp` process only;
pnp used as a library is untouched) gives the dataclasses module an `exec` that takes each
text's compiled code from a file in the user's cache folder, and the regex compiler a
`compile` that takes each pattern's engine code from another, doing only what they have not
seen; `keep()` adds what this process did to the files when the command ends. What runs is
what Python makes of the same text: the code compiled as dataclasses compiles it (no
`__future__` flags inherited), the pattern built by the regex engine from the code its own
compiler gave for the same pattern and flags. Each file is for one Python and one version of
the module it stands in for (its size and time); where a module does not work this way
(another Python), or a file cannot be read, that part is left as Python has it.

Imports nothing of pnp's (its records are what it is for).
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
import threading
from pathlib import Path

KEPT_MOST = 4000  # entries kept in a file: beyond, it starts again with this process's


def user_cache_dir() -> Path:
    """The user's cache folder: PNP_CACHE_DIR, else platformdirs' for pnp (~/.cache/pnp)."""
    if os.environ.get("PNP_CACHE_DIR"):
        return Path(os.environ["PNP_CACHE_DIR"])
    import platformdirs

    return platformdirs.user_cache_path("pnp", appauthor=False)


class _Kept:
    """A dict kept in a marshal file of the user's cache folder: what was read from it, what
    this process added, which entries it used, and how many it made."""

    def __init__(self, name: str, module) -> None:
        st = os.stat(module.__file__)
        tag = f"{sys.implementation.cache_tag}-{st.st_size}-{st.st_mtime_ns}"
        self.path = user_cache_dir() / "code" / f"{name}-{tag}.marshal"
        try:
            stored = marshal.loads(self.path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            stored = {}
        self.stored: dict = stored if isinstance(stored, dict) else {}
        self.new: dict = {}
        self.used: set = set()
        self.made = 0

    def get(self, key):
        found = self.stored.get(key)
        if found is None:
            found = self.new.get(key)
        if found is not None:
            self.used.add(key)
        return found

    def add(self, key, value) -> None:
        self.new[key] = value
        self.used.add(key)
        self.made += 1

    def save(self) -> None:
        """Add what this process made to the file (written whole, then renamed into place)."""
        if not self.new:
            return
        kept = {**self.stored, **self.new}
        if len(kept) > KEPT_MOST:  # entries of many versions of pnp and projects: start again
            kept = {k: v for k, v in kept.items() if k in self.used}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(marshal.dumps(kept))
            os.replace(tmp, self.path)
        except (OSError, ValueError):
            return
        self.stored, self.new = kept, {}


_kept: dict[str, _Kept] = {}


def remember() -> None:
    """Dataclasses' `exec` and the regex compiler's `compile` remembering what they make
    (once, in a `pnp` process)."""
    if _kept:
        return
    _dataclasses()
    _patterns()


def keep() -> None:
    for kept in _kept.values():
        kept.save()


def _dataclasses() -> None:
    import dataclasses

    if not callable(getattr(dataclasses, "_create_fn", None)) or "exec" in vars(dataclasses):
        return  # not the dataclasses this was written for, or someone else's exec already
    try:
        codes = _kept["dataclasses"] = _Kept("dataclasses", dataclasses)
    except (OSError, TypeError, ImportError):
        return

    def exec_(source, globals=None, locals=None):  # noqa: A002 - exec's own names
        if not isinstance(source, str):
            return builtins.exec(source, globals, locals)
        code = codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            codes.add(source, code)
        return builtins.exec(code, globals, locals)

    dataclasses.exec = exec_  # type: ignore[attr-defined]


def _patterns() -> None:
    """re's compiler, remembering for each pattern and flags the arguments it gives the regex
    engine (`_sre.compile`): the pattern, its flags, the engine's code, its groups."""
    try:
        import _sre
        import re._compiler as compiler
    except ImportError:
        return
    real = getattr(compiler, "compile", None)
    if not callable(real) or getattr(compiler, "_sre", None) is not _sre:
        return
    try:
        kept = _kept["patterns"] = _Kept("patterns", compiler)
    except (OSError, TypeError):
        return
    lock = threading.Lock()

    class _Engine:
        """_sre as the compiler sees it, noting what it is asked to build."""

        def __init__(self):
            self.asked = None

        def __getattr__(self, name):
            return getattr(_sre, name)

        def compile(self, pattern, flags, code, *rest):
            # as plain ints to marshal (the compiler's opcodes are named int constants)
            self.asked = (pattern, int(flags), list(map(int, code)), *rest)
            return _sre.compile(pattern, flags, code, *rest)

    engine = _Engine()

    def compile_(p, flags=0):
        if not isinstance(p, str | bytes) or flags & compiler.SRE_FLAG_DEBUG:
            with lock:  # never while another thread's compile is being noted
                return real(p, flags)
        key = (p, int(flags))  # a RegexFlag is an int to marshal
        args = kept.get(key)
        if args is not None:
            return _sre.compile(*args)
        with lock:
            compiler._sre = engine
            try:
                found = real(p, flags)
            finally:
                compiler._sre = _sre
            if engine.asked is not None:
                kept.add(key, engine.asked)
                engine.asked = None
        return found

    compiler.compile = compile_
