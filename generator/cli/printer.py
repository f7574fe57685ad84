"""`pnp printer`: saved printers and their back-page offsets."""

from __future__ import annotations

import click

from ..i18n import _
from .common import lang_option, main, reports


@main.group()
@lang_option
def printer() -> None:
    """Printers and the back-page offset each one's duplex needs (kept in your user config,
    not in a project)."""


@printer.command("save")
@click.argument("name")
@lang_option
@click.option("--back-offset", required=True, metavar="X,Y[,R]", help="As read from pnp calibrate.")
@click.option("--default", "make_default", is_flag=True, help="Use it for every build.")
@reports
def printer_save(name, back_offset, make_default) -> int:
    """Save printer NAME's back-page offset."""
    from .. import printers

    offset = printers.parse(back_offset)
    path = printers.save(name, offset, make_default)
    click.echo(
        _(
            "saved printer {name}: {offset} in {path}",
            name=name,
            offset=offset.words(),
            path=path,
        )
    )
    return 0


@printer.command("list")
@lang_option
@reports
def printer_list() -> int:
    """The saved printers and their offsets."""
    from .. import printers

    saved, default = printers.saved()
    if not saved:
        click.echo(_("no printers saved yet (pnp calibrate, then pnp printer save NAME)"))
    for name, offset in saved.items():
        mark = " *" if name == default else ""
        click.echo(f"{name}{mark}: {offset.words()}")
    return 0
