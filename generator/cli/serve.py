"""`pnp serve`: the cards in a browser, rebuilt on every save."""

from __future__ import annotations

from pathlib import Path

import click

from .. import pipeline
from ..i18n import _
from ..problems import BuildError
from .common import (
    lang_option,
    main,
    out_option,
    paper_option,
    project_from,
    project_option,
    reports,
    say_now,
)


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The port on this machine (0: any free one).",
)
@paper_option
@out_option
@reports
def serve(games, project_dir, port, paper, out_dir) -> int:
    """A web page on this machine (http://127.0.0.1:PORT/) with every card of GAMES (all games
    when none are named), each with its data row and the problems that name it, the rulebook and
    summary a click away; it rebuilds and reloads itself on every save. Ctrl-C stops."""
    from .. import serve as server

    project = project_from(project_dir)
    # Every build's plans, to show every card (the faces still come from the memo); no
    # snapshot: serve's builds are drafts, and `pnp diff` compares with the last `pnp build`.
    out = Path(out_dir) if out_dir else None
    opts = pipeline.Options(paper=paper, out=out, reuse=False, snapshot=False)

    try:
        return server.run(project, list(games), opts, port, say_now)
    except OSError as exc:
        raise BuildError(
            _("cannot serve on port {port}: {error}", port=port, error=exc.strerror)
        ) from None
