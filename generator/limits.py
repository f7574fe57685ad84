"""Bounds on what one build reads and makes, so a folder you did not write cannot exhaust the
machine: each has a documented default, each is named in its error, and `--limit NAME=N` on
the command line raises it for a project that really is that large.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import time
from dataclasses import dataclass, fields, replace

from .i18n import _
from .problems import BuildError, SourceRef


@dataclass(frozen=True)
class Limits:
    """The bounds a build stops at (rows, cells, file sizes, cards); `--limit NAME=N`."""

    rows: int = 100_000  # rows of one table (a CSV file or a workbook sheet)
    columns: int = 200  # cells of one row
    cell: int = 10_000  # characters of one cell
    file_mb: int = 64  # size of a CSV file or rules source, in MB, checked before reading
    workbook_mb: int = 200  # uncompressed size of a workbook, in MB, checked before parsing
    cards: int = 200_000  # cards (copies counted) of one game
    games: int = 100_000_000  # playouts of one `pnp simulate`
    template_chars: int = 1_000_000  # characters (or items) one template render may make
    template_steps: int = 1_000_000  # loop steps and pieces of output of one template render
    box_chars: int = 10_000  # characters one text box prints (a card holds a few hundred)
    seconds: int = 900  # wall-clock seconds one build or check may spend laying out and drawing

    def with_given(self, given: dict[str, str]) -> Limits:
        """These limits with NAME=N pairs from the command line applied."""
        known = {f.name for f in fields(self)}
        changes = {}
        for name, value in given.items():
            if name not in known:
                raise BuildError(
                    _(
                        "unknown limit '{name}' (limits: {limits})",
                        name=name,
                        limits=", ".join(sorted(known)),
                    )
                )
            if not value.isdigit() or int(value) < 1:
                raise BuildError(
                    _(
                        "--limit {name}= takes a whole number of at least 1, got {value!r}",
                        name=name,
                        value=value,
                    )
                )
            changes[name] = int(value)
        return replace(self, **changes)


DEFAULT = Limits()


def exceeded(name: str, what: str, limit: int, where: SourceRef | None) -> BuildError:
    """The error for a limit passed: what, the limit, and how to raise it."""
    message = _(
        "{what}: more than the limit {name} = {limit:,}; if the project really is this "
        "large, raise it with --limit {name}=N",
        what=what,
        name=name,
        limit=limit,
    )
    return BuildError(message, where)


# The limits of the build or check running in this thread (and its deadline), for the code
# deep inside it (templates, text fitting) that no argument reaches.
_IN_FORCE: contextvars.ContextVar[tuple[Limits, float]] = contextvars.ContextVar(
    "pnp_limits", default=(DEFAULT, math.inf)
)


@contextlib.contextmanager
def in_force(limits: Limits):
    """Run a build or a check under `limits`, its clock started now; inside one already
    running, the outer one's limits and clock hold."""
    if _IN_FORCE.get()[1] != math.inf:
        yield
        return
    token = _IN_FORCE.set((limits, time.monotonic() + limits.seconds))
    try:
        yield
    finally:
        _IN_FORCE.reset(token)


def active() -> Limits:
    """The limits in force (the defaults outside a build)."""
    return _IN_FORCE.get()[0]


def out_of_time() -> str | None:
    """What to say once the build in force has run past its `seconds` (None before)."""
    limits, deadline = _IN_FORCE.get()
    if time.monotonic() <= deadline:
        return None
    return _(
        "the build has run for more than the limit seconds = {s:,}; if the project really takes "
        "this long, raise it with --limit seconds=N",
        s=limits.seconds,
    )


def in_time(where: SourceRef | None = None) -> None:
    """An error at `where` once the build in force has run past its `seconds`."""
    said = out_of_time()
    if said is not None:
        raise BuildError(said, where)
