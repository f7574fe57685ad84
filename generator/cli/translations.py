"""`pnp translations export|import`: a translator's file for one edition of a game."""

from __future__ import annotations

from pathlib import Path

import click

from ..i18n import _
from .common import lang_option, main, project_from, project_option, reports


@main.group()
def translations() -> None:
    """A translator's spreadsheet for an edition of a game in another language: export what is
    still to translate, import it back."""


@translations.command("export")
@click.argument("game")
@click.option(
    "--edition", "language", required=True, metavar="LANG", help="The edition's language, e.g. en."
)
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="Every text, translated or not (default: those still to translate).",
)
@click.option(
    "--to",
    "to",
    type=click.Path(dir_okay=False),
    help="The CSV to write; default: output/GAME/translations-LANG.csv.",
)
@project_option
@lang_option
@reports
def export(game, language, every, to, project_dir) -> int:
    """Write a CSV of GAME's texts to translate into LANG: key, context (the card, the
    manifest key), source text and translation so far, for a translator to fill in."""
    from .. import translations as t

    project = project_from(project_dir)
    path, n = t.export(project, game, language, Path(to) if to else None, every)
    click.echo(_("wrote {path}: {n} texts", path=path, n=n))
    return 0


@translations.command("import")
@click.argument("game")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--edition", "language", required=True, metavar="LANG", help="The edition's language, e.g. en."
)
@project_option
@lang_option
@reports
def import_(game, file, language, project_dir) -> int:
    """Bring a translations CSV back into GAME: each translation into its cell's name@LANG
    column, the title and component names into [edition.LANG]; a text the source no longer
    says is named, not written."""
    from .. import translations as t

    project = project_from(project_dir)
    written, said = t.import_(project, game, language, Path(file))
    for line in said:
        click.echo(_("warning: {line}", line=line), err=True)
    click.echo(_("{n} translations written", n=written))
    return 0
