"""`pnp new`: a new game (or a component of one) from a spreadsheet or sample cards."""

from __future__ import annotations

import re

import click

from ..i18n import _, ngettext
from ..kinds import KINDS
from ..printed import WORDS
from ..problems import BuildError
from .common import (
    lang_option,
    limit_option,
    limits_from,
    main,
    project_from,
    project_option,
    reports,
)


@main.command()
@click.argument("game")
@project_option
@lang_option
@click.option(
    "--from",
    "source",
    metavar="FILE[#SHEET]",
    help="The spreadsheet of cards (.csv, .xlsx, .xls, .ods), a row per card, a header row first; "
    "copied into the game. Without it, three sample cards.",
)
@click.option(
    "--size",
    help="Card size: poker (the default), bridge, mini, tarot, square, or WIDTHxHEIGHT in mm "
    "(e.g. 50x70); with --kind token 25x25, die 18x18 unless given.",
)
@click.option("--title", help="The title printed on the cards and the rulebook; default: GAME.")
@click.option(
    "--players", default="2-4", show_default=True, metavar="MIN-MAX", help="Player counts."
)
@click.option(
    "--rules",
    "with_rules",
    is_flag=True,
    help="Also write rules.py, a rules module that already plays, for check and simulate; for "
    "a game that exists, write only that.",
)
@click.option(
    "--header",
    type=click.IntRange(min=1),
    metavar="ROW",
    help="The spreadsheet row the column names are on, when a title or a row of group names "
    "is above them (game.toml's header = ROW).",
)
@click.option(
    "--add",
    "add_id",
    metavar="ID",
    help="Add another deck to GAME, a game that exists: a component with id ID read from "
    "--from's spreadsheet (another sheet of the same workbook too), with its own layouts.",
)
@click.option(
    "--kind",
    type=click.Choice(list(KINDS)),
    default="card",
    show_default=True,
    help="With --add: what the rows make: cards, punch-out tokens (one-sided, on the tokens "
    "sheet) or dice (a row per face; six rows a die, or a 'die' column); or a board (no "
    "--from: a score track round its edge to start from, 400x280 unless --size).",
)
@click.option(
    "--name",
    "component_name",
    help="With --add: the name printed for the new deck (sheet labels, the rulebook's "
    "components table); default: the sheet's name, else the file's.",
)
@click.option(
    "--style",
    metavar="NAME",
    help="How the front sets the columns: list (every column, a line each), classic (a corner "
    "index, the name in a band, a picture, a type line, a rules box), number (a big number "
    "in the middle) or minimal (text only); default: the one the columns ask for.",
)
@click.option(
    "--language",
    type=click.Choice(sorted({"ja", *WORDS})),
    help="The language the game prints in (game.toml's languages: the rulebook's and the "
    "sheets' own words, the names pnp gives); default: ja where the spreadsheet holds "
    "Japanese, else en.",
)
@click.option(
    "--link",
    is_flag=True,
    help="Keep --from's spreadsheet where it is (inside the project) and read it from there: "
    "editing it is what rebuilds. Without it, it is copied into the game's folder.",
)
@limit_option
@reports
def new(
    game,
    project_dir,
    source,
    size,
    title,
    players,
    with_rules,
    header,
    add_id,
    kind,
    component_name,
    style,
    language,
    link,
    limits,
) -> int:
    """Make GAME in the project: game.toml (columns, types and a composition read from the
    spreadsheet), front and back layouts that print every column, a rules.md skeleton; with
    --rules a rules module (rules.py) too; with --add, another deck for a game that exists."""
    from .. import scaffold

    project = project_from(project_dir)
    if link and not source:
        raise BuildError(_("--link keeps --from's spreadsheet where it is: give --from FILE"))
    if add_id is not None:
        given = [
            o
            for o, v in (("--title", title), ("--rules", with_rules), ("--language", language))
            if v
        ]
        if given:
            raise BuildError(
                _(
                    "{options} goes with a new game, not with --add (a deck added to "
                    "{game}: its title and rules are the game's)",
                    options=" ".join(given),
                    game=game,
                )
            )
        made = scaffold.add(
            project.root,
            game,
            add_id,
            source,
            size,
            limits_from(limits),
            header,
            kind,
            component_name,
        )
        _made(project, made)
        click.echo(_("next: pnp build {game}", game=game))
        return 0
    if with_rules and not source and game in project.game_ids():
        path = scaffold.rules_module(project, game)
        click.echo(_("made {path}", path=project.rel(path)))
        _trust_written(project, [path])
        click.echo(_("next: pnp simulate {game}", game=game))
        return 0
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", players)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2) or m.group(1)):
        raise BuildError(_("--players {value!r}: use MIN-MAX, e.g. 2-4", value=players))
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if component_name is not None:
        raise BuildError(
            _(
                "--name goes with --add (the name of a deck added to a game); a new game's "
                "title is --title"
            )
        )
    if kind != "card":
        raise BuildError(
            _(
                "--kind {kind} goes with --add: a game starts with a deck of cards, then "
                "pnp new {game} --from FILE --add ID --kind {kind}",
                kind=kind,
                game=game,
            )
        )
    made = scaffold.new(
        project.root,
        game,
        source,
        size or "poker",
        title,
        (lo, hi),
        limits_from(limits),
        with_rules,
        header,
        link,
        style,
        language,
    )
    _made(project, made)
    names = {"ja": _("Japanese"), "en": _("English")}
    click.echo(
        _(
            "prints in {language}: its rulebook and sheets say pnp's own words so "
            "(languages in game.toml; another: --language)",
            language=names.get(made.language, made.language),
        )
    )
    _trust_written(project, list(made.files))
    click.echo(_("next: pnp build {game}", game=game))
    return 0


def _trust_written(project, paths) -> None:
    """A rules module pnp itself just wrote, at its user's command, is trusted as written (an
    edit asks again, as for any)."""
    from .. import trust
    from ..rules.modules import RULES_FILE

    files = {project.rel(p): trust.digest(p) for p in paths if p.name == RULES_FILE and p.is_file()}
    if files:
        trust.remember(project.root, files)


def _made(project, made) -> None:
    """What `pnp new` wrote and guessed, for the designer to confirm."""
    for path in made.files:
        if path in made.replaced:  # game.toml, a deck appended
            click.echo(_("added to {path}", path=project.rel(path)))
        else:
            click.echo(_("made {path}", path=project.rel(path)))
    if made.kind == "board":  # drawn by its layout: no rows, no columns
        return
    if made.kind == "token":
        counted = ngettext(
            "{n} token; columns (type guessed from the values):",
            "{n} tokens; columns (type guessed from the values):",
            made.cards,
        )
    elif made.kind == "die":
        counted = ngettext(
            "{n} die face; columns (type guessed from the values):",
            "{n} die faces; columns (type guessed from the values):",
            made.cards,
        )
    else:
        counted = ngettext(
            "{n} card; columns (type guessed from the values):",
            "{n} cards; columns (type guessed from the values):",
            made.cards,
        )
    click.echo("\n" + counted)
    for c in made.columns:
        click.echo(f"  {c.name}: {c.type}")
    if made.kind == "card":
        click.echo(_("front: the {style} style (another: --style NAME)", style=made.style))
    click.echo(_("composition guessed from the data (confirm it in game.toml):"))
    for line in made.composition:
        click.echo(f"  {line}" if line else "")
    for note in made.notes:
        click.echo(note)
