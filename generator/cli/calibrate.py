"""`pnp calibrate`: a duplex test page to measure a printer's back-page offset."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..i18n import _
from ..problems import BuildError
from .common import lang_option, main, paper_option, reports


@main.command()
@lang_option
@paper_option
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False),
    help="Where to write it; default: calibration-PAPER.pdf in the current folder.",
)
@reports
def calibrate(paper, out_file) -> int:
    """Write a duplex calibration sheet: crosses on the front, scales on the back. Print it as
    you print cards, read where the crosses show through, then save the reading with
    `pnp printer save NAME --back-offset X,Y,R`."""
    from ..builders.calibration import calibration_pdf
    from ..layout.sheets import load_sheet_defs, paper_size
    from ..problems import rel

    defs = load_sheet_defs(Path.cwd() / "layouts", lambda p: rel(p, Path.cwd()))
    size = paper_size(defs, paper)  # an unknown one: said at [paper], before anything
    path = Path(out_file) if out_file else Path(f"calibration-{paper}.pdf")
    data = calibration_pdf(size, paper)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        raise BuildError(_("cannot write {path}: {error}", path=path, error=exc.strerror)) from None
    click.echo(_("wrote {path}", path=path))
    return 0
