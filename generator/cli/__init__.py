"""`pnp`: the command line. Thin: parses options, runs the pipeline, prints problems, sets the
exit code. One module per command; what they share is common.py's.

User errors become a clean message and exit code 1, never a traceback.
"""

from __future__ import annotations

from . import (  # noqa: F401 - each registers its command with the group
    build,
    cache,
    calibrate,
    check,
    diff,
    docs,
    init,
    new,
    printer,
    release,
    serve,
    simulate,
    translations,
    trust,
    watch,
)
from .common import main

__all__ = ["main"]
