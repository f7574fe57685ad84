"""`pnp release GAME VERSION`: a printed revision a playtest group can tell apart.

A release builds the game, records what it printed under its version in the project
(`cards/<game>/releases/<VERSION>.json`: every piece's fields and face keys, as `pnp diff`
compares them, and the rules source), and writes beside the build, in
`output/<game>/releases/<VERSION>/`:
- `changes.md`: what changed since the last release — cards added, removed and changed (named
  by their key, each changed column `old → new`), and the rules sentences removed and added;
- `changes.pdf`: the same on one page, the 「変更点」 sheet to hand the group;
- `reprint.pdf`: the changed and added cards only, with their backs, on print sheets, so a
  printed prototype is updated instead of printed again.
The first release says what it holds. Fed by the pipeline's build and diff.py's snapshots.
"""

from __future__ import annotations

import difflib
import json
import re
import time
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from . import diff as differ
from . import output, pipeline, printed
from .cache import Cache
from .i18n import _
from .problems import BuildError, SourceRef
from .project import Project
from .textfile import confine

_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z._+-]{0,39}")
_SENTENCE = re.compile(r"[^。！？\n]+[。！？]?")
RECORD = 1  # the layout of a release record; another is read as none


@dataclass
class Release:
    """One recorded release: its version, when, the pieces it printed and its rules source."""

    version: str
    when: float
    snapshot: differ.Snapshot
    rules: str


@dataclass
class Done:
    """What a release wrote and found."""

    result: pipeline.Result
    version: str
    previous: str | None
    changes: list
    rules: tuple[list[str], list[str]]  # sentences removed, added
    written: list[Path]


def release(project: Project, game: str, version: str, opts: pipeline.Options) -> Done:
    """Build `game`, record it as `version`, and write its changes since the last release."""
    if not _VERSION.fullmatch(version):
        raise BuildError(
            _(
                "'{version}' is no version name: use letters, digits, dots and dashes "
                "(0.3, 2026-12-01, v2-playtest)",
                version=version,
            )
        )
    project.manifest(game)  # a game of the project, named as one (else its error)
    record = folder_of(project, game) / f"{version}.json"
    # never written through a folder linked out of the project: said before anything is built
    confine(record.parent, project.root, SourceRef(project.rel(record)), _("the releases folder"))
    out = project.output_for(opts.out)
    cache = Cache.for_output(out, writable=True, writing=frozenset([game]))
    kept = releases(project, game)
    if version in kept:
        raise BuildError(
            _(
                "{game} {version} is released already (releases: {kept}); name this one anew",
                game=game,
                version=version,
                kept=", ".join(kept),
            )
        )
    # its plan, always, and the version printed on it
    result = pipeline.build(project, [game], replace(opts, reuse=False, version=version))
    if result.failed(opts.strict) or not result.plans:
        return Done(result, version, None, [], ([], []), [])
    plan = result.plans[0]
    now = differ.take(plan)  # its faces' keys leave the version out: no change in itself
    rules = plan.game.rules_source or ""
    previous = load(project, game, kept[-1]) if kept else None
    folder = out / game / "releases" / version
    title = plan.game.title
    if previous is None:
        changes, said = [], ([], [])
        md = _first(title, version, now, plan.game.manifest.language)
    else:
        changes = differ.compare(previous.snapshot, now)
        said = rules_changed(previous.rules, rules)
        md = _changes(title, previous.version, version, changes, said, plan.game.manifest.language)
    files: dict[Path, bytes | None] = {folder / "changes.md": md.encode()}
    from .render import changes as drawing

    files[folder / "changes.pdf"] = drawing.pdf(
        md, plan.fonts, cache, title, plan.game.manifest.language
    )
    if previous is not None:
        from .builders import reprint as reprinting

        decks = reprinting.decks_to_reprint(plan, differ.to_reprint(previous.snapshot, now))
        if decks:
            files[folder / "reprint.pdf"] = reprinting.pdf(plan, decks, cache, previous.version)
    written = output.write_all(files, [out / game])
    written.append(_record(project, game, Release(version, time.time(), now, rules)))
    # its faces too, on this machine, for `pnp diff --since VERSION` to draw old beside new
    cache.write(f"releases/{game}/{version}", differ.packed(now))
    return Done(result, version, previous.version if previous else None, changes, said, written)


def folder_of(project: Project, game: str) -> Path:
    """Where a game's releases are recorded: `cards/<game>/releases/`, one JSON file each, kept
    with the project (and its history, under git) rather than in output/."""
    return project.cards / game / "releases"


def releases(project: Project, game: str) -> list[str]:
    """The versions released, oldest first (by when each was made)."""
    found = []
    for path in sorted(folder_of(project, game).glob("*.json")):
        if (done := load(project, game, path.stem)) is not None:
            found.append((done.when, done.version))
    return [version for _when, version in sorted(found)]


def load(project: Project, game: str, version: str) -> Release | None:
    path = folder_of(project, game) / f"{version}.json"
    try:
        data = json.loads(path.read_text("utf-8"))
        if data.get("record") != RECORD:
            return None
        pieces = [
            differ.Entry(
                p["component"],
                p["label"],
                p["where"],
                p["fields"],
                p["front"],
                p["back"],
                tuple(p["size"]),
                tuple(p["ident"]),
                p.get("drawn"),
            )
            for p in data["pieces"]
        ]
        snap = differ.Snapshot([differ.pack(pieces)], [])
        return Release(data["version"], float(data["when"]), snap, data["rules"])
    except (OSError, ValueError, KeyError, TypeError):  # a record pnp did not write: none
        return None


def _record(project: Project, game: str, done: Release) -> Path:
    pieces = [
        {
            "component": e.component,
            "label": e.label,
            "where": e.where,
            "fields": e.fields,
            "front": e.front,
            "back": e.back,
            "size": list(e.size),
            "ident": list(e.ident),
            "drawn": e.drawn,
        }
        for e in done.snapshot.entries
    ]
    data = {
        "record": RECORD,
        "version": done.version,
        "when": done.when,
        "released": time.strftime("%Y-%m-%d %H:%M", time.localtime(done.when)),
        "rules": done.rules,
        "pieces": pieces,
    }
    path = folder_of(project, game) / f"{done.version}.json"  # confined by release()
    text = json.dumps(data, ensure_ascii=False, indent=1, default=str) + "\n"
    output.atomic_write(path, text.encode())
    return path


def faces_of(cache: Cache, game: str, version: str) -> differ.Snapshot | None:
    """A release's pieces with their faces, as this machine's `pnp release` kept them."""
    return differ.unpacked(cache.read(f"releases/{game}/{version}"))


def rules_changed(old: str, new: str) -> tuple[list[str], list[str]]:
    """The rules source's sentences the new one no longer says, and those it says anew."""

    def sentences(text: str) -> list[str]:
        text = re.sub(r"\{#.*?#\}|<!--.*?-->", "", text, flags=re.S)
        return [s.strip() for s in _SENTENCE.findall(text) if s.strip().strip("#").strip()]

    a, b = sentences(old), sentences(new)
    removed, added = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed += a[i1:i2]
        if tag in ("replace", "insert"):
            added += b[j1:j2]
    return removed, added


def _first(title: str, version: str, snap: differ.Snapshot, language: str) -> str:
    pieces = sum(1 for _ in snap.entries)
    say = partial(printed.say, language)
    return "\n".join(
        [
            "# " + say("{title} {version} 変更点", title=title, version=version),
            "",
            say(
                "最初のリリースです（{n}枚）。次のリリースでは、ここからの変更を挙げます。",
                n=pieces,
            ),
            "",
        ]
    )


def _changes(title, before: str, version: str, changes: list, said, language: str) -> str:
    say = partial(printed.say, language)
    added = [c for c in changes if c.old is None]
    removed = [c for c in changes if c.new is None]
    changed = [c for c in changes if c.old is not None and c.new is not None]
    out = [
        "# " + say("{title} {version} 変更点", title=title, version=version),
        "",
        say(
            "{before} からの変更：変更 {changed}枚、追加 {added}枚、削除 {removed}枚。",
            before=before,
            changed=len(changed),
            added=len(added),
            removed=len(removed),
        ),
        "",
    ]
    if changed:
        out += ["## " + say("変更されたカード"), ""]
        for c in changed:
            words = say("、").join(
                say("{name} {was}→{now}", name=n, was=was, now=now) for n, was, now in c.fields
            )
            out.append(f"- {c.named}{say('：')}{words or say('絵柄（レイアウト）')}")
        out.append("")
    if added:
        out += ["## " + say("追加されたカード"), ""] + [f"- {c.named}" for c in added] + [""]
    if removed:
        out += ["## " + say("削除されたカード"), ""] + [f"- {c.named}" for c in removed] + [""]
    gone, new = said
    if gone or new:
        out += ["## " + say("ルール"), ""]
        out += [f"- {say('削除')}{say('：')}「{s}」" for s in gone]
        out += [f"- {say('追加')}{say('：')}「{s}」" for s in new]
        out.append("")
    if not changes and not gone and not new:
        out += [say("変更はありません。"), ""]
    return "\n".join(out)
