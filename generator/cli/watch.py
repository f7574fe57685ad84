"""`pnp watch`: build again on every save."""

from __future__ import annotations

from pathlib import Path

import click

from .. import pipeline
from .common import (
    lang_option,
    main,
    out_option,
    paper_option,
    print_problems,
    project_from,
    project_option,
    reports,
    say_now,
)


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@paper_option
@out_option
@click.option(
    "--format",
    "formats",
    metavar="NAME[,NAME…]",
    multiple=True,
    help="What to write on each save (as for build); default: every default format.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@reports
def watch(games, project_dir, paper, out_dir, formats, strict) -> int:
    """Build GAMES, then build again on every save under cards/, layouts/ and fonts/, saying
    which cards and files changed. A broken save prints its problems and keeps the last good
    outputs. Ctrl-C stops."""
    from .. import watch as watcher

    project = project_from(project_dir)
    picked = [f.strip() for value in formats for f in value.split(",") if f.strip()]
    opts = pipeline.Options(
        paper=paper,
        out=Path(out_dir) if out_dir else None,
        strict=strict,
        formats=picked or None,
        reuse=False,  # every build's plans, to say what changed
        snapshot=False,  # drafts: `pnp diff` still compares with the last `pnp build`
    )

    return watcher.run(
        project, list(games), opts, lambda result: print_problems(result, strict), say_now
    )
