"""Trust for a project's own code. A game's `rules.py` is Python that came with the project, and
it runs with the rights of whoever runs pnp: a project from someone else (a git clone, a zip)
must not run it unasked. The first time pnp would run a project's rules file it asks, at a
terminal; with no terminal to ask at, it refuses and says `pnp trust`. A yes is remembered in
the user's config (`trusted.toml`, beside printers.toml): the project's folder and the digest
of each file trusted, so an edited file, or the same file in another folder, asks again.

`PNP_TRUST_CODE=1` in the environment runs every project's code without asking: for a CI job
or a test suite run on projects that are your own. A project cannot set it.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import sys
from pathlib import Path

from .i18n import _
from .printers import read_config, write_config
from .problems import BuildError, SourceRef

FILE = "trusted.toml"
ENV = "PNP_TRUST_CODE"


class Untrusted(BuildError):
    """The project's code was not run: nobody said it may be."""


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read() -> tuple[list[dict], Path]:
    doc, path = read_config(FILE, _("trusted projects"))
    if doc is None:
        return [], path
    entries = doc.data.get("project", [])
    ok = isinstance(entries, list) and all(
        isinstance(e, dict)
        and isinstance(e.get("folder"), str)
        and isinstance(e.get("files", {}), dict)
        for e in entries
    )
    if not ok:
        message = _(
            'the file must be [[project]] tables, each with folder = "…" and a [project.files] '
            "table of file = digest; remove it, and pnp trust again"
        )
        raise BuildError(message, doc.at("project"))
    return entries, path


def trusted(root: Path) -> dict[str, str]:
    """The files of the project at `root` trusted, by path in the project, with their digest."""
    folder = str(root.resolve())
    entries, _path = _read()
    for entry in entries:
        if entry["folder"] == folder:
            return {k: v for k, v in entry.get("files", {}).items() if isinstance(v, str)}
    return {}


def rules_modules(root: Path, games, file: str) -> dict[str, str]:
    """The rules modules (`cards/GAME/<file>`) these games of the project at `root` have, by
    path in the project, with their digest: what `remember` takes."""
    found = {}
    for game in games:
        path = root / "cards" / game / file
        if path.is_file():
            found[f"cards/{game}/{file}"] = digest(path)
    return found


def remember(root: Path, files: dict[str, str]) -> Path:
    """Trust these files (path in the project -> digest) of the project at `root`, with those
    trusted before."""
    entries, path = _read()
    folder = str(root.resolve())
    mine = {**trusted(root), **files}
    _write(
        [*(e for e in entries if e["folder"] != folder), {"folder": folder, "files": mine}], path
    )
    return path


def forget(root: Path) -> bool:
    """Trust nothing of the project at `root` any more; whether anything was trusted."""
    if not trusted(root):
        return False
    entries, path = _read()
    folder = str(root.resolve())
    _write([e for e in entries if e["folder"] != folder], path)
    return True


def _write(entries: list[dict], path: Path) -> None:
    """The list of trusted projects, written whole."""
    import tomlkit

    book = tomlkit.document()
    book.add(tomlkit.comment("Projects whose code (rules.py) pnp may run: `pnp trust` adds one."))
    book.add(tomlkit.comment("A file is trusted as it was then: an edit asks again."))
    projects = tomlkit.aot()
    for entry in entries:
        table = tomlkit.table()
        table["folder"] = entry["folder"]
        table["files"] = dict(sorted(entry.get("files", {}).items()))
        projects.append(table)
    book["project"] = projects
    write_config(path, tomlkit.dumps(book), _("the list of trusted projects"))


def _at_a_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def require(root: Path, shown: str, file_digest: str) -> None:
    """Return if the project's file `shown` (its path in the project) with this sha256 may
    run: trusted as it is, or the user says yes now at the terminal (remembered). Else
    Untrusted, naming `pnp trust`."""
    if os.environ.get(ENV) == "1":
        return
    before = trusted(root)
    if before.get(shown) == file_digest:
        return
    changed = shown in before
    if _at_a_terminal():
        import click

        if changed:
            question = _(
                "{file} changed since you let pnp run it. It is Python code from the project "
                "and runs with your rights. Run it as it is now?",
                file=shown,
            )
        else:
            question = _(
                "{file} is Python code that came with this project ({folder}); it runs with "
                "your rights. Read it first if you did not write it. Run it?",
                file=shown,
                folder=root.resolve(),
            )
        if click.confirm(question, default=False, err=True):
            remember(root, {shown: file_digest})
            return
    message = _(
        "not run: this project's rules code has not been trusted{changed}; it is Python and "
        "would run with your rights. Read it, then `pnp trust --project {folder}` lets pnp run "
        "it as it is now (an edit asks again)",
        changed=_(" since it changed") if changed else "",
        folder=shlex.quote(str(root.resolve())),
    )
    raise Untrusted(message, SourceRef(shown))
