"""Builds that need not happen: a game whose inputs are as they were at its last build, and
whose files are still in the output folder as that build wrote them, is not built again.

The inputs are every file of the project outside the output folder (path, size and time: an
edit anywhere rebuilds), the options that shape the files, the language of the messages, pnp's
own code and data, and the font files the game used. The record (in the project's cache,
`builds/<game>`) keeps that digest, the game's problems (said again when the build is skipped)
and a digest of each file written, checked against the files on disk before anything is
reused: a file removed or changed since makes a real build.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

from . import i18n
from .cache import code_digest

VERSION = 1
SKIPPED_DIRS = {".git", ".hg", ".svn", ".venv", "__pycache__", "node_modules"}


@dataclass(frozen=True)
class Record:
    """What a game's last build read and wrote: its inputs' digest, problems, files and fonts."""

    inputs: str
    problems: tuple  # the game's Problem objects, as its build reported them
    files: tuple[tuple[str, str], ...]  # (path under output/<game>/, digest of its bytes)
    fonts: tuple[tuple[str, int, int], ...]  # (font file, size, time) the game was set in


def bytes_digest(data: bytes) -> str:
    """A file's content as a key: what a build remembers of each file it wrote."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def inputs(tree_digest: str, game: str, options) -> str:
    """A digest of everything a game's build reads (see the module's words); `tree_digest`
    is `tree()`'s."""
    h = hashlib.blake2b(tree_digest.encode(), digest_size=16)
    picked = sorted(options.formats) if options.formats else None
    h.update(
        repr(
            (
                VERSION,
                code_digest(),
                i18n.language(),
                game,
                options.paper,
                options.bleed_mm,
                options.margin_mm,
                options.proof,
                options.preset,
                options.dpi,
                options.no_bleed,
                options.url_base,
                options.strict,
                picked,
                repr(options.back_offset),
            )
        ).encode()
    )
    return h.hexdigest()


def tree(project, out: Path) -> str:
    """Every file of the project outside the output folder: its path, size and time."""
    h = hashlib.blake2b(digest_size=16)
    root = project.root
    skip = out.resolve()
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in SKIPPED_DIRS and not d.startswith(".") and (here / d).resolve() != skip
        )
        for name in sorted(names):
            path = here / name
            try:
                st = path.stat()
            except OSError:
                continue
            rel = path.relative_to(root).as_posix()
            h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


def reusable(cache, game: str, digest: str, out: Path) -> Record | None:
    """The last build's record of a game, if nothing it read has changed and its files are
    there as written."""
    data = cache.read(f"builds/{game}")
    if not data:
        return None
    try:
        version, record = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a torn or foreign cache file: build
        return None
    if version != VERSION or record.inputs != digest or not record.files:
        return None
    for path, size, mtime in record.fonts:
        try:
            st = os.stat(path)
        except OSError:
            return None
        if (st.st_size, st.st_mtime_ns) != (size, mtime):
            return None
    return record if as_written(out / game, record.files) is not None else None


def file_digests(files: dict[Path, bytes], folder: Path) -> tuple[tuple[str, str], ...]:
    """(path under `folder`, digest of its bytes) of each file a build wrote, in path order."""
    return tuple(
        sorted((p.relative_to(folder).as_posix(), bytes_digest(d)) for p, d in files.items())
    )


def as_written(folder: Path, files) -> dict[Path, bytes] | None:
    """The files (path under `folder`, digest) as they are on disk, when each is still as it
    was written; None when one was changed or removed since."""
    out: dict[Path, bytes] = {}
    for name, want in files:
        try:
            content = (folder / name).read_bytes()
        except OSError:
            return None
        if bytes_digest(content) != want:
            return None
        out[folder / name] = content
    return out


def remember(cache, game: str, digest: str, problems, files: dict, out: Path, plan) -> None:
    """Keep what the next build needs to skip this game: written before the outputs are
    switched (the switch stays the build's last step), and trusted only once the files on disk
    match the digests kept here."""
    folder = out / game
    mine = tuple(p for p in problems.items if _belongs(p, game))
    fonts = []
    for m in plan.fonts.metrics.values():
        st = m.face.path.stat()
        fonts.append((str(m.face.path), st.st_size, st.st_mtime_ns))
    record = Record(
        digest,
        mine,
        file_digests(files, folder),
        tuple(sorted(set(fonts))),
    )
    cache.write(f"builds/{game}", pickle.dumps((VERSION, record), protocol=5))


def _belongs(problem, game: str) -> bool:
    """A problem found for this game (or for no one game)."""
    return problem.game in (None, game)
