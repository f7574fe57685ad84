"""`pnp watch`: build, then build again on every save, saying what changed.

A save under `cards/<game>/` or `layouts/<game>/` rebuilds that game; under `layouts/_shared/`
or `fonts/`, every game. Bursts of saves (an editor writing a temporary file, then renaming)
are taken as one (watchfiles' debounce). A broken save prints its problems and leaves the last
good outputs as they are (a build writes nothing when it fails). What changed is worked out by
comparing each face's key (a digest of everything drawn) and each file's bytes with the last
good build's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path

from . import i18n, pipeline
from .builds import bytes_digest
from .diff import counted
from .i18n import _, ngettext
from .layout.plan import laid_decks
from .problems import BuildError
from .project import Project
from .session import Session

DEBOUNCE_MS = 300
IGNORED_SUFFIXES = ("~", ".swp", ".swx", ".tmp", ".part", ".crdownload")


@dataclass
class GameState:
    """What the last good build of one game drew: each component's cards (label and face
    keys, in deck order) and each file's digest."""

    pieces: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)


def snapshot(result: pipeline.Result, out: Path) -> dict[str, GameState]:
    states: dict[str, GameState] = {}
    for plan in result.plans:
        state = states[plan.game.id] = GameState()
        for laid, decks in laid_decks(plan):
            keys = [front.key + (back.key if back else "") for front, back in laid.faces]
            at = 0
            for deck in decks:  # tokens of one size share sheets: their cards follow on
                cards = deck.cards
                pieces = state.pieces.setdefault(deck.component.name, [])
                pieces += zip([card.label() for card in cards], keys[at : at + len(cards)])
                at += len(cards)
        for board in plan.boards:
            state.pieces[board.name] = [(board.name, board.face.key)]
        for dice in plan.dice:
            state.pieces[dice.name] = [
                (net.label, "".join(face.key for _x, _y, face, _b in net.faces))
                for net in dice.dice
            ]
        folder = out / plan.game.id
        for path in result.written:
            if path.is_relative_to(folder):
                digest = result.digests.get(path) or bytes_digest(path.read_bytes())
                state.files[path.relative_to(folder).as_posix()] = digest
    return states


def changes(game: str, before: GameState | None, after: GameState) -> str:
    """One line: which cards of which component changed, and which files."""
    if before is None:
        return _("{game}: built", game=game)
    parts = []
    for name, cards in after.pieces.items():
        old = before.pieces.get(name, [])
        changed = [label for (label, key), (_l, was) in zip(cards, old) if key != was]
        runs = [(label, len(list(copies))) for label, copies in groupby(changed)]
        shown = i18n.listed(counted(label, n) for label, n in runs[:6])
        shown += "…" if len(runs) > 6 else ""
        if changed:
            parts.append(
                ngettext(
                    "{name}: {n} changed: {cards}",
                    "{name}: {n} changed: {cards}",
                    len(changed),
                    name=name,
                    cards=shown,
                )
            )
        if len(cards) != len(old):
            parts.append(_("{name}: {old} → {new}", name=name, old=len(old), new=len(cards)))
    files = sorted(name for name, digest in after.files.items() if before.files.get(name) != digest)
    if files:
        parts.append(_("files: {files}", files=", ".join(files)))
    if not parts:
        return _("{game}: no change", game=game)
    return f"{game}: " + "; ".join(parts)


def linked(project: Project) -> dict[Path, str]:
    """The spreadsheets games read from outside their folders (`pnp new --link`), each with
    its game: a save there rebuilds that game."""
    out: dict[Path, str] = {}
    cards = project.cards.resolve()
    for game in project.game_ids():
        try:
            manifest = project.manifest(game)
        except BuildError:  # a broken manifest: its build says why
            continue
        for comp in manifest.components:
            if comp.data:
                path = (manifest.folder / comp.data).resolve()
                if cards not in path.parents:
                    out[path] = game
    return out


def affected(project: Project, paths: set[Path], games: list[str]) -> list[str]:
    """The games a set of changed paths touches (every game for shared files)."""
    out: set[str] = set()
    spreadsheets = linked(project)
    for path in paths:
        game = spreadsheets.get(path.parent.resolve() / path.name)
        if game in games:
            out.add(game)
        try:  # the folder resolved, not the file: a file made a link out is still this game's
            rel = (path.parent.resolve() / path.name).relative_to(project.root.resolve())
        except ValueError:
            continue
        parts = rel.parts
        if parts[0] == "fonts" or parts[:2] == ("layouts", "_shared"):
            return list(games)
        if len(parts) >= 2 and parts[0] in ("cards", "layouts") and parts[1] in games:
            out.add(parts[1])
    return [g for g in games if g in out]


def saves(project: Project, stop: threading.Event | None = None):
    """Each burst of saves under cards/, layouts/ and fonts/ (as a set of paths) until `stop`
    is set or Ctrl-C (KeyboardInterrupt)."""
    import watchfiles

    for batch in watchfiles.watch(
        *watched(project),
        watch_filter=_interesting,
        debounce=DEBOUNCE_MS,
        step=50,
        stop_event=stop,
        raise_interrupt=True,
    ):
        yield {Path(p) for _change, p in batch}


def watched(project: Project) -> list[Path]:
    """The folders a save in which builds again: cards/, layouts/, fonts/, and the folders of
    spreadsheets a game reads from where they are (`pnp new --link`)."""
    folders = [project.cards, project.layouts, project.root / "fonts"]
    folders += sorted({path.parent for path in linked(project)})
    return [p for p in dict.fromkeys(folders) if p.is_dir()]


def _interesting(_change, path: str) -> bool:
    name = Path(path).name
    return not (name.startswith((".", "~$", ".#")) or name.endswith(IGNORED_SUFFIXES))


def run(
    project: Project,
    games: list[str],
    options: pipeline.Options,
    report: Callable[[pipeline.Result], int],
    echo: Callable[[str], None],
    stop: threading.Event | None = None,
) -> int:
    """Build, then rebuild on every save until `stop` is set (or Ctrl-C)."""
    named = list(games)
    games = named or project.game_ids()
    out = project.output_for(options.out)
    states: dict[str, GameState] = {}
    session = Session()  # kept across saves: a rebuild lays out only what the save changed

    def build(which: list[str]) -> None:
        try:
            result = pipeline.build(project, which, options, session)
        except BuildError as exc:
            for p in exc.problems:
                echo(p.format())
            echo(_("not built; the last good outputs stay as they were"))
            return
        failed = report(result)
        if failed:
            echo(_("not built; the last good outputs stay as they were"))
            return
        for game, state in snapshot(result, out).items():
            echo(changes(game, states.get(game), state))
            states[game] = state

    build(games)
    echo(
        _(
            "watching {folders} (Ctrl-C stops)",
            folders=", ".join(project.rel(p) for p in watched(project)),
        )
    )
    try:
        for paths in saves(project, stop):
            # A game added while watching is watched too, unless games were named.
            which = affected(project, paths, named or project.game_ids())
            if which:
                build(which)
    except KeyboardInterrupt:
        pass
    echo(_("stopped"))
    return 0
