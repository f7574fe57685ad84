"""`pnp` as a process: the command line's entry point (the `pnp` script and `python -m generator`).

A build started afresh after an edit spends most of its time starting up and ending, not
building, so two things Python does by default are tuned here, for this process only (pnp used
as a library keeps Python's defaults):

- the cycle collector runs less often (`gc.set_threshold`): a build makes many objects that
  live to its end (faces, metrics, parsed files) and few cycles, and at the default threshold the
  collector walked them again and again — about 2 % of an edit's rebuild;
- a command that ran to its end in the main thread alone leaves with `os._exit` once the
  functions registered to run at exit (`atexit`: temporary folders and the like) have run and
  the output is flushed, instead of tearing down every module and object one by one — about
  4 % of an edit's rebuild. Everything pnp writes is closed before a command returns. While
  another thread runs (serve, watch, a Dask cluster), or under a profiler or a tracer
  (`python -m cProfile`, coverage), Python ends the process its own way.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading

# Generation 0 is collected after this many more allocations than deallocations (Python's
# default: 700); the older generations as by default.
GC_THRESHOLD = 20_000


def tune() -> None:
    """The collector's threshold as `pnp` runs with it."""
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


def run() -> None:
    tune()
    from .cli import main

    try:
        main()
        code = 0
    except SystemExit as exc:
        if not (exc.code is None or isinstance(exc.code, int)):
            raise  # a message for Python to print
        code = exc.code or 0
    if threading.active_count() > 1 or sys.getprofile() or sys.gettrace():
        sys.exit(code)  # a thread runs, or a profiler or tracer wants to write its report
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # a closed pipe or the like: Python's own ending says it as it would
        sys.exit(code)
    os._exit(code)
