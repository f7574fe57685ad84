"""`pnp build`: check the games, draw and write their files."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import pipeline
from ..i18n import _
from .common import (
    lang_option,
    limit_option,
    limits_from,
    main,
    out_option,
    paper_option,
    print_problems,
    project_from,
    project_option,
    reports,
)


class _FormatOption(click.Option):
    """--format, whose help names every builder: looked up when the help is shown, so a build
    with nothing to do imports no builder."""

    def get_help_record(self, ctx):
        from ..builders import REGISTRY

        names = "; ".join(f"{n}{' (default)' if b.default else ''}" for n, b in REGISTRY.items())
        self.help = f"What to write (repeatable or comma-separated): {names}. Default: every "
        self.help += "default format."
        return super().get_help_record(ctx)


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@paper_option
@out_option
@click.option(
    "--bleed",
    type=click.FloatRange(0, 3),
    help="Bleed in mm (0–3); default: the sheet's, 3 mm where it fits.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--margin",
    type=click.FloatRange(0, 20),
    help="Printer margin in mm: nothing is printed nearer the paper's edge; default: the "
    "sheet's (5 mm).",
)
@click.option(
    "--no-bleed",
    is_flag=True,
    help="No bleed: images (--format png) cut at the trim, sheets without bleed.",
)
@click.option(
    "--preset",
    metavar="NAME",
    help="The print-shop preset of --format printshop (presets.toml); default: generic.",
)
@click.option(
    "--dpi", type=click.IntRange(36, 1200), help="Resolution of --format png images (300)."
)
@click.option(
    "--url-base",
    metavar="URL",
    help="With --format tts: where the images will be hosted; default: file:/// URLs of the "
    "exported images.",
)
@click.option(
    "--proof",
    is_flag=True,
    help="Draw the trim line, bleed edge and safe zone over every card (for checking, not "
    "for printing).",
)
@click.option(
    "--back-offset",
    metavar="X,Y[,R]",
    help="Move the back pages of duplex sheets X mm right and Y mm up (and turn them R degrees), "
    "as seen on the back: what pnp calibrate measured. Overrides --printer.",
)
@click.option(
    "--printer",
    metavar="NAME",
    help="Use the back-page offset saved for this printer (pnp printer save); default: the "
    "saved default printer, if any.",
)
@click.option("--format", "formats", metavar="NAME[,NAME…]", multiple=True, cls=_FormatOption)
@click.option(
    "--edition",
    metavar="LANG|all",
    help="Build the game in another of its [game] languages, into output/GAME/LANG/ (all: "
    "every language); default: the source language only.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only warnings and errors.")
@click.option(
    "--verbose", "-v", is_flag=True, help="Also print how long each step took and what was reused."
)
@limit_option
@reports
def build(
    games,
    project_dir,
    paper,
    out_dir,
    bleed,
    strict,
    margin,
    no_bleed,
    preset,
    dpi,
    url_base,
    proof,
    back_offset,
    printer,
    formats,
    edition,
    quiet,
    verbose,
    limits,
) -> int:
    """Build GAMES (all games when none are named) into the output folder."""
    from .. import printers, progress

    if sys.stderr.isatty() and not quiet:
        progress.show(sys.stderr)

    project = project_from(project_dir)
    offset = printers.pick(printer, back_offset)
    picked = [f.strip() for value in formats for f in value.split(",") if f.strip()]
    opts = pipeline.Options(
        paper=paper,
        out=Path(out_dir) if out_dir else None,
        bleed_mm=0.0 if no_bleed else bleed,
        margin_mm=margin,
        proof=proof,
        preset=preset,
        dpi=dpi,
        no_bleed=no_bleed,
        url_base=url_base,
        strict=strict,
        formats=picked or None,
        limits=limits_from(limits),
        back_offset=offset,
        edition=edition,
    )
    if offset:
        click.echo(_("back pages moved by {offset}", offset=offset.words()), err=True)
    result = pipeline.build(project, list(games), opts)
    code = print_problems(result, strict, quiet)
    if not quiet:
        for game in result.reused:
            click.echo(
                _(
                    "{game}: nothing changed since the last build; its files are kept",
                    game=game,
                )
            )
        for path in result.written:
            click.echo(_("wrote {path}", path=path))
    if verbose:
        for plan in result.plans:
            n = plan.faces_laid[2]
            click.echo(_("{game}: {n} faces laid out", game=plan.game.id, n=n), err=True)
            kept = result.unchanged.get(plan.game.id)
            if kept:
                click.echo(
                    _(
                        "{game}: kept as the last build wrote them (nothing they show "
                        "changed): {files}",
                        game=plan.game.id,
                        files=", ".join(kept),
                    ),
                    err=True,
                )
        click.echo(
            _(
                "check and layout {check:.2f} s, drawing {draw:.2f} s, writing {write:.2f} s",
                check=result.seconds.get("check", 0.0),
                draw=result.seconds.get("draw", 0.0),
                write=result.seconds.get("write", 0.0),
            ),
            err=True,
        )
    if code:
        click.echo(_("build failed: nothing was written; earlier outputs are untouched"), err=True)
        sound = _games_without_errors(project, games, result)
        if sound:
            click.echo(
                _(
                    "the games with no error build on their own: pnp build {games}",
                    games=" ".join(sound),
                ),
                err=True,
            )
    return code


def _games_without_errors(project, games: tuple, result) -> list[str]:
    """Of the games a failed build of several was asked for, those no error was found for,
    when some other game has the errors."""
    wanted = list(games) or project.game_ids()
    if len(wanted) < 2:
        return []

    named = {p.game for p in result.problems.items if p.level == "error"}
    if not named or not named <= set(wanted):
        return []  # an error of no one game (a shared layout, an option): all fail alike
    return [g for g in wanted if g not in named]
