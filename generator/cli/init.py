"""`pnp init`: a new project folder."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..i18n import _
from .common import lang_option, main, run_action


@main.command()
@click.argument("folder", type=click.Path(file_okay=False), default=".")
@lang_option
def init(folder) -> None:
    """Make a new project in FOLDER (default: here): cards/, layouts/_shared/ with the tool's
    paper, sizes, sheets and icons to change, and a README of the next steps."""

    def action() -> int:
        from .. import scaffold

        made = scaffold.init(Path(folder))
        for path in made:
            click.echo(_("made {path}", path=path))
        # quoted as the shell needs it: a folder name with a space (「ゲーム 制作」) is one word
        import shlex
        import subprocess

        shown = subprocess.list2cmdline([folder]) if os.name == "nt" else shlex.quote(folder)
        if Path(folder).resolve() == Path.cwd().resolve():  # made here: no folder to go into
            click.echo(_("next: pnp new GAME --from YOUR_SPREADSHEET"))
        else:
            click.echo(_("next: cd {folder} && pnp new GAME --from YOUR_SPREADSHEET", folder=shown))
        return 0

    run_action(action)
