"""`pnp docs`: the documentation that came with pnp, listed, printed or opened."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..i18n import _
from .common import lang_option, main, reports


@main.command()
@click.argument("name", required=False)
@click.option("--open", "open_it", is_flag=True, help="Open it with your system's viewer.")
@lang_option
@reports
def docs(name, open_it) -> int:
    """The documentation that came with pnp: with no NAME, the list of documents; with one
    (tutorial, guide, manifest, errors, …), the document itself, in your language where it is
    written in it."""
    from .. import base, i18n

    found = _documents(base.DOCS)
    if not found:  # an install made without them (a copy of the package alone)
        from ..problems import BuildError

        raise BuildError(
            _(
                "no documentation is installed with this pnp (looked in {folder})",
                folder=base.DOCS,
            )
        )
    if name is None:  # each once, titled in the language of messages where translated
        names = [n for n in found if n.rsplit(".", 1)[-1] not in i18n.LANGUAGES]
        width = max(len(n) for n in names)
        for shown in names:
            path = found.get(f"{shown}.{i18n.language()}", found[shown])
            click.echo(f"{shown:<{width}}  {_title(path)}")
        click.echo(_("in {folder}; pnp docs NAME shows one", folder=base.DOCS))
        return 0
    path = _pick(found, name, i18n.language())
    if open_it:
        click.echo(_("opening {path}", path=path))
        click.launch(str(path))
    elif sys.stdout.isatty():
        click.echo_via_pager(path.read_text(encoding="utf-8"))
    else:
        click.echo(path.read_text(encoding="utf-8"), nl=False)
    return 0


def _documents(folder: Path) -> dict[str, Path]:
    """Every document by the name `pnp docs` takes: its path in docs/ without `.md`."""
    return {
        p.relative_to(folder).with_suffix("").as_posix(): p for p in sorted(folder.rglob("*.md"))
    }


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def _pick(found: dict[str, Path], name: str, language: str) -> Path:
    """The document NAME names: its whole name (reference/manifest) or its last part
    (manifest), in the language of messages where there is a translation (tutorial.ja)."""
    from ..problems import BuildError, did_you_mean

    wanted = name.removesuffix(".md")
    matches = [n for n in found if n == wanted or n.rsplit("/", 1)[-1] == wanted]
    if len(matches) > 1:
        raise BuildError(
            _("'{name}' is more than one document: {names}", name=name, names=", ".join(matches))
        )
    if not matches:
        short = {n.rsplit("/", 1)[-1] for n in found}
        raise BuildError(
            _(
                "no document '{name}'{hint}; pnp docs lists them",
                name=name,
                hint=did_you_mean(wanted, short | set(found)),
            )
        )
    translated = f"{matches[0]}.{language}"
    return found.get(translated, found[matches[0]])
