"""`pnp release`: build a game as a named revision, with what changed since the last one."""

from __future__ import annotations

import click

from .. import pipeline
from ..i18n import _, ngettext
from .common import (
    lang_option,
    main,
    out_option,
    paper_option,
    print_problems,
    project_from,
    project_option,
    reports,
)


@main.command()
@click.argument("game")
@click.argument("version")
@project_option
@lang_option
@paper_option
@out_option
@reports
def release(game, version, project_dir, paper, out_dir) -> int:
    """Build GAME as release VERSION (0.3, 2026-12-01, v2-playtest) and write, in
    output/GAME/releases/VERSION/, changes.md and changes.pdf (the 変更点 sheet: cards added,
    removed and changed, rules sentences changed, since the last release) and reprint.pdf (only
    the changed and added cards, with their backs, to update a printed prototype)."""
    from pathlib import Path

    from ..release import release as releasing

    project = project_from(project_dir)
    opts = pipeline.Options(paper=paper, out=Path(out_dir) if out_dir else None)
    done = releasing(project, game, version, opts)
    code = print_problems(done.result, False)
    if code:
        return code
    if done.previous is None:
        click.echo(_("{game} {version}: the first release", game=game, version=version))
    else:
        click.echo(
            ngettext(
                "{game} {version}: {n} piece changed since {before}",
                "{game} {version}: {n} pieces changed since {before}",
                len(done.changes),
                game=game,
                version=version,
                before=done.previous,
            )
        )
    for path in done.written:
        click.echo(_("wrote {path}", path=path))
    return 0
