"""`pnp diff` as a command's work: lay the game out now, find what to compare it with (the last
build's snapshot, a kept build by date, or the project at a git revision), write diff.pdf (and
reprint.pdf), and return the lines to tell; the command line only prints them."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from . import diff as differ
from . import i18n, output, pipeline, printed
from .builders import diffpdf
from .cache import Cache
from .i18n import _, ngettext
from .problems import BuildError
from .project import Project


def _released(project: Project, cache: Cache, game: str, since: str):
    """The release named `since`, with its faces; None when there is none of that name."""
    from . import release

    if since not in release.releases(project, game):
        return None
    kept = release.faces_of(cache, game, since)
    if kept is None:
        raise BuildError(
            _(
                "release {version} of {game} is recorded in the project, but its faces are not "
                "kept on this machine (pnp release keeps them in output/.cache): compare with "
                "the git revision you released instead (--since TAG)",
                version=since,
                game=game,
            )
        )
    return kept


def compare(project: Project, game: str, opts: pipeline.Options, since, reprint: bool, say):
    """(the check's result, the lines to tell): a result that failed means the game does not
    lay out now (nothing compared, no lines). `say` hears at once which kept build is
    compared with."""
    out = opts.out
    result = pipeline.check(project, [game], opts, play=False)
    if result.failed(False):
        return result, []
    lines: list[str] = []
    plan = result.plans[0]
    new = differ.take(plan)
    cache = Cache.for_output(out, writable=True, writing=frozenset([game]))
    released = _released(project, cache, game, since) if since else None
    moment = differ.moment(since) if since and released is None else None
    language = plan.game.manifest.language

    def words(text: str, **fields) -> str:  # what the PDFs print, in the game's language
        return printed.say(language, text, **fields)

    with tempfile.TemporaryDirectory() as tmp:
        if released is not None:  # a name of `pnp release`: what the group holds
            old, what = released, words("リリース {version}", version=since)
            say(_("compared with release {version}", version=since))
        elif moment is not None:
            found = differ.load_by(cache, game, moment)
            if found is None:
                kept = differ.builds(cache, game)
                first = _local(kept[0][0]) if kept else None
                raise BuildError(
                    _(
                        "no build of {game} kept from {since} or before (the earliest kept: "
                        "{first}; pnp keeps the last {n} builds that changed something)",
                        game=game,
                        since=since,
                        first=first or _("none"),
                        n=differ.HISTORY,
                    )
                )
            old, when = found
            what = words("{when} のビルド", when=_local(when))
            say(_("compared with the build of {when}", when=_local(when)))
        elif since:
            root = differ.at_revision(project.root, since, Path(tmp))
            then = pipeline.check(Project(root), [game], opts, play=False)
            if then.failed(False) or not then.plans:
                raise BuildError(
                    _(
                        "{game} at {rev} does not lay out, so there is nothing to compare",
                        game=game,
                        rev=since,
                    )
                )
            old = differ.take(then.plans[0])
            what = since
        else:
            old = differ.load(cache, game)
            if old is None:
                raise BuildError(
                    _(
                        "no earlier build of {game} to compare with: run pnp build first, "
                        "or compare with a git revision (--since REV)",
                        game=game,
                    )
                )
            what = words("前回のビルド")
        changes = differ.compare(old, new)
        if not changes:
            lines.append(_("{game}: no change", game=game))
            return result, lines  # a reprint made before stays: it may be at the printer's
        data = diffpdf.pdf(plan.game.title, what, changes, old, new, plan.fonts, cache, language)
        path = out / game / "diff.pdf"
        files: dict[Path, bytes | None] = {path: data}
        decks = []
        if reprint:
            from .builders import reprint as reprinting

            decks = reprinting.decks_to_reprint(plan, differ.to_reprint(old, new))
            if decks:
                files.update(_kept_reprint(out / game))
                files[out / game / "reprint.pdf"] = reprinting.pdf(plan, decks, cache, what)
        output.write_all(files, [out / game])
    added = sum(1 for c in changes if c.old is None)
    removed = sum(1 for c in changes if c.new is None)
    shown = i18n.listed(c.named for c in changes[:8]) + ("…" if len(changes) > 8 else "")
    lines.append(
        _(
            "{game}: {changed} changed, {added} added, {removed} removed: {cards}",
            game=game,
            changed=len(changes) - added - removed,
            added=added,
            removed=removed,
            cards=shown,
        )
    )
    for c in changes:
        for name, was, now in c.fields:
            lines.append(f"  {c.named} ({c.entry.where}) {name}: {was!r} → {now!r}")
    lines.append(_("wrote {path}", path=path))
    if reprint and decks:
        n = sum(len(d.faces) for d in decks)
        lines.append(
            ngettext(
                "wrote {path}: {n} piece to print and swap in",
                "wrote {path}: {n} pieces to print and swap in",
                n,
                path=out / game / "reprint.pdf",
            )
        )
    elif reprint:
        dice = {d.name for d in plan.dice}
        boards = {b.name for b in plan.boards}
        rolled = sorted({c.new.label for c in changes if c.new and c.new.component in dice})
        drawn = sorted({c.new.label for c in changes if c.new and c.new.component in boards})
        if rolled:  # dice are not on card sheets: their nets are in dice.pdf
            lines.append(
                _(
                    "no card or token to reprint: print the changed dice ({dice}) from dice.pdf",
                    dice=i18n.listed(rolled),
                )
            )
        if drawn:
            lines.append(
                _(
                    "no card or token to reprint: print the changed board ({boards}) from its PDF",
                    boards=i18n.listed(drawn),
                )
            )
        if not rolled and not drawn:
            lines.append(_("nothing to reprint: the cards were only removed"))
    return result, lines


def _local(epoch: float) -> str:
    """A kept build's time as the designer's clock shows it."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch))


def _kept_reprint(folder: Path) -> dict[Path, bytes]:
    """The reprint.pdf a new one replaces, kept beside it under the time it was made
    (reprint-20261202-1347.pdf): an earlier reprint may be the one at the printer's."""
    import time

    last = folder / "reprint.pdf"
    if not last.is_file():
        return {}
    made = time.strftime("%Y%m%d-%H%M", time.localtime(last.stat().st_mtime))
    kept = folder / f"reprint-{made}.pdf"
    n = 2
    while kept.exists():
        kept, n = folder / f"reprint-{made}-{n}.pdf", n + 1
    return {kept: last.read_bytes()}
