"""`pnp check`: read, check and lay out everything; write nothing."""

from __future__ import annotations

import click

from .. import pipeline
from ..i18n import _
from .common import (
    lang_option,
    limit_option,
    limits_from,
    main,
    paper_option,
    print_problems,
    project_from,
    project_option,
    reports,
)


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@paper_option
@click.option("--bleed", type=click.FloatRange(0, 3), help="Bleed in mm (0–3).")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--margin", type=click.FloatRange(0, 20), help="Printer margin in mm (as for build).")
@click.option(
    "--no-play",
    is_flag=True,
    help="Skip the short simulation of each game (data and static rule checks only).",
)
@click.option(
    "--edition",
    metavar="LANG|all",
    help="Check the game in another of its [game] languages too (all: every language): "
    "missing translations, and text that overflows in that language.",
)
@limit_option
@reports
def check(games, project_dir, paper, bleed, strict, margin, no_play, edition, limits) -> int:
    """Load, validate and lay out GAMES without writing anything; list every problem, and play each
    game a few hundred times by machine to find where its rules do not hold together."""
    project = project_from(project_dir)
    result = pipeline.check(
        project,
        list(games),
        pipeline.Options(
            paper=paper,
            bleed_mm=bleed,
            margin_mm=margin,
            strict=strict,
            limits=limits_from(limits),
            edition=edition,
        ),
        play=not no_play,
    )
    code = print_problems(result, strict)
    if not code:
        names = dict.fromkeys(p.game.manifest.out_name for p in result.plans)
        click.echo(_("ok: {games}", games=", ".join(names)))
    return code
