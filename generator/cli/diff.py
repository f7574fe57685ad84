"""`pnp diff`: which cards changed since the last build or a git revision."""

from __future__ import annotations

from pathlib import Path

import click

from .. import pipeline
from .common import (
    lang_option,
    main,
    paper_option,
    print_problems,
    project_from,
    project_option,
    reports,
)


@main.command()
@click.argument("game")
@project_option
@lang_option
@click.option(
    "--since",
    metavar="VERSION|REV|DATE",
    help="Compare with a release (pnp release), the project at this git revision, or the build "
    "made by this time (2026-11-28, 2026-11-28 18:00: the last 30 builds that changed something "
    "are kept), instead of the last build.",
)
@paper_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    help="Output folder (where the last build is, and diff.pdf goes); default: PROJECT/output.",
)
@click.option(
    "--reprint",
    is_flag=True,
    help="Also write output/GAME/reprint.pdf: the changed and added cards (every copy) on print "
    "sheets with their backs, to print and swap into the deck you printed (--since the day "
    "you printed it, or a git tag of it).",
)
@click.option(
    "--printer",
    metavar="NAME",
    help="With --reprint: the back-page offset saved for this printer (as for pnp build).",
)
@reports
def diff(game, project_dir, since, paper, out_dir, reprint, printer) -> int:
    """Which of GAME's cards changed since the last build (or git revision REV): their names
    and changed fields, and output/GAME/diff.pdf with each old face beside its new one; with
    --reprint, those cards on print sheets too."""
    from .. import printers
    from ..comparing import compare

    project = project_from(project_dir)
    out = project.output_for(Path(out_dir) if out_dir else None)
    offset = printers.pick(printer, None) if reprint else None
    opts = pipeline.Options(paper=paper, out=out, back_offset=offset)
    result, lines = compare(project, game, opts, since, reprint, click.echo)
    if result.failed(False):
        return print_problems(result, False)
    for line in lines:
        click.echo(line)
    return 0
