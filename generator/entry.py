"""`pnp` as a process: the command line's entry point (the `pnp` script and `python -m
generator`). The process runs and ends as Python runs and ends any program: no collector
tuning, no early exit."""

from __future__ import annotations


def run() -> None:
    from .cli import main

    main()
