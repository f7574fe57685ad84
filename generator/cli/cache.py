"""`pnp cache`: the caches pnp keeps."""

from __future__ import annotations

import click

from ..i18n import _
from ..problems import BuildError
from .common import lang_option, main, project_from, project_option, reports


@main.group()
@lang_option
def cache() -> None:
    """The caches of converted fonts that make builds fast: your own (shared by every project)
    and each project's output/.cache."""


@cache.command("clear")
@project_option
@lang_option
@reports
def cache_clear(project_dir) -> int:
    """Empty your font cache and, inside a project, its output/.cache (the next build converts
    the fonts again)."""
    from .. import cache as caches

    folders = [caches.user_cache_dir()]
    why = caches.refused()
    if why is not None:  # someone else's, or a link: not used, and not emptied either
        click.echo(_("{path}: not used and not emptied: {why}", path=folders[0], why=why))
        folders = []
    try:
        folders.append(project_from(project_dir).output / ".cache")
    except BuildError:
        if project_dir:
            raise
    cleared = caches.clear(folders)
    for folder, size in cleared:
        click.echo(_("emptied {path} ({mb:.1f} MB)", path=folder, mb=size / 1e6))
    if not cleared:
        click.echo(_("nothing to clear"))
    return 0
