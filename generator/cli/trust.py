"""`pnp trust`: let a project's rules.py run (or forget it)."""

from __future__ import annotations

import click

from ..i18n import _
from .common import lang_option, main, project_from, project_option, reports


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@click.option("--forget", is_flag=True, help="Trust none of the project's code any more.")
@reports
def trust(games, project_dir, forget) -> int:
    """Let pnp run the project's rules modules (cards/GAME/rules.py; all games when none are
    named) as they are now. They are Python that came with the project and run with your
    rights: read them first if you did not write them. An edit, or the same file in another
    folder, asks again."""
    from .. import trust as trusting
    from ..rules.modules import RULES_FILE

    project = project_from(project_dir)
    if forget:
        if trusting.forget(project.root):
            click.echo(_("pnp will ask again before it runs code of {folder}", folder=project.root))
        else:
            click.echo(_("nothing of {folder} was trusted", folder=project.root))
        return 0
    named = games or project.game_ids()
    for gid in named:
        project.manifest(gid)  # a game of the project, named as one
    files = trusting.rules_modules(project.root, named, RULES_FILE)
    if not files:
        click.echo(
            _(
                "no rules modules to trust: no cards/GAME/rules.py in {folder}",
                folder=project.root,
            )
        )
        return 0
    saved = trusting.remember(project.root, files)
    for shown, digest in files.items():
        click.echo(
            _("trusted {file} as it is now (sha256 {digest}…)", file=shown, digest=digest[:16])
        )
    click.echo(_("remembered in {path}", path=saved))
    return 0
