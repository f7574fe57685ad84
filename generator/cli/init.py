"""`pnp init`: a new project folder, or one of the shipped games in it (`--example`)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..i18n import _
from .common import lang_option, main, reports

FIRST_EXAMPLE = "fudaraku"  # one component, no board: the quickest to read


@main.command()
@click.argument("folder", type=click.Path(file_okay=False), default=".")
@click.option(
    "--example",
    metavar="[GAME]",
    is_flag=False,
    flag_value=FIRST_EXAMPLE,
    default=None,
    help="Put a shipped game in the project to build and read (fudaraku when none is named; "
    "nyanbaa and rumbling_seed have boards and tokens). In a project that exists, adds it.",
)
@lang_option
@reports
def init(folder, example) -> int:
    """Make a new project in FOLDER (default: here): cards/, layouts/_shared/ with the tool's
    paper, sizes, sheets and icons to change, and a README of the next steps."""
    from .. import base, scaffold
    from ..problems import BuildError

    names = base.examples()
    if example not in (None, *names) and folder == ".":
        # `pnp init --example mygames`: the option took the folder for a game
        raise BuildError(
            _(
                "no example game '{name}'; the examples are {names}. For a new project "
                "{name} with an example: pnp init {name} --example",
                name=example,
                names=", ".join(names),
            )
        )
    made = scaffold.init(Path(folder), example)
    for path in made:
        click.echo(_("made {path}", path=path))
    # quoted as the shell needs it: a folder name with a space (「ゲーム 制作」) is one word
    import shlex
    import subprocess

    shown = subprocess.list2cmdline([folder]) if os.name == "nt" else shlex.quote(folder)
    if example is not None:
        _trust_example(Path(folder), example)
        step = _("pnp build {game}", game=example)
    else:
        step = _("pnp new GAME --from YOUR_SPREADSHEET")
    if Path(folder).resolve() == Path.cwd().resolve():  # made here: no folder to go into
        click.echo(_("next: {step}", step=step))
    else:
        click.echo(_("next: cd {folder} && {step}", folder=shown, step=step))
    return 0


def _trust_example(root: Path, example: str) -> None:
    """The example's rules module is pnp's own code, written by the command the user ran: it
    may run as written (an edit asks again, as for any project's code)."""
    from .. import trust
    from ..rules.modules import RULES_FILE

    files = trust.rules_modules(root, [example], RULES_FILE)
    if files:
        trust.remember(root, files)
    for shown in files:
        click.echo(
            _(
                "trusted {file}: it came with pnp (`pnp trust --forget` takes that back)",
                file=shown,
            )
        )
