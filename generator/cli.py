"""`pnp`: the command line. Thin: parses options, runs the pipeline, prints problems, sets the
exit code.

User errors become a clean message and exit code 1, never a traceback.
"""

from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import fields
from pathlib import Path

import click

from . import i18n, pipeline
from .builders import REGISTRY
from .i18n import _, ngettext
from .kinds import KINDS
from .limits import DEFAULT
from .problems import BuildError
from .project import find_project


def _project(path: str | None):
    """The project `--project` names, else the one this folder is in: here, or the nearest
    folder above with cards/ and layouts/ (a designer working in cards/GAME/)."""
    if path:
        return find_project(Path(path))
    here = Path.cwd()
    if not (here / "cards").is_dir():
        for folder in here.resolve().parents:
            if (folder / "cards").is_dir() and (folder / "layouts").is_dir():
                return find_project(folder)
    return find_project(here)


def _report(result: pipeline.Result, strict: bool, quiet: bool = False) -> int:
    for line in result.problems.folded("warning" if quiet else "notice"):
        click.echo(line, err=True)
    errors, warnings = result.problems.said("error"), result.problems.said("warning")
    if errors or warnings:
        click.echo(
            _(
                "{errors}, {warnings}",
                errors=ngettext("{n} error", "{n} errors", errors),
                warnings=ngettext("{n} warning", "{n} warnings", warnings),
            ),
            err=True,
        )
    return 1 if result.failed(strict) else 0


def _say_now(line: str) -> None:
    """A line for a command that keeps running (watch, serve): out at once, even to a pipe."""
    click.echo(line)
    sys.stdout.flush()


def _run(action) -> None:
    try:
        code = action()
    except BuildError as exc:
        for p in exc.problems:
            click.echo(p.format(), err=True)
        code = 1
    except KeyboardInterrupt:  # Ctrl-C before anything was finished
        click.echo(_("stopped"), err=True)
        code = 130
    except BrokenPipeError:  # `pnp simulate … --replay N | head`: the reader has had enough
        # what is left to flush goes nowhere (Python's own advice for SIGPIPE), not to a
        # closed pipe on the way out
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    except Exception as exc:  # a bug of ours: say so briefly, keep the traceback for PNP_DEBUG=1
        if os.environ.get("PNP_DEBUG"):
            raise
        click.echo(
            _(
                "internal error: {error}\n"
                "This is a bug in pnp, not in your files; PNP_DEBUG=1 shows the traceback.",
                error=f"{type(exc).__name__}: {exc}",
            ),
            err=True,
        )
        code = 2
    sys.exit(code)


limit_option = click.option(
    "--limit",
    "limits",
    multiple=True,
    metavar="NAME=N",
    help="Raise a bound on what is read or made (repeatable): "
    + ", ".join(f"{f.name}={getattr(DEFAULT, f.name):,}" for f in fields(DEFAULT))
    + ".",
)


def _limits(pairs: tuple[str, ...]):
    return DEFAULT.with_given(_parse_options(pairs, "--limit"))


project_option = click.option(
    "--project",
    "project_dir",
    type=click.Path(file_okay=False),
    help="The project folder (holding cards/ and layouts/); default: the current folder.",
)


paper_option = click.option(
    "--paper",
    default="a4",
    show_default=True,
    help="The paper: a4, letter, a3, a5, b5, b4 (JIS), or one the project's sheets.toml defines.",
)
out_option = click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    help="Output folder; default: PROJECT/output.",
)


def _speak(ctx, param, value) -> None:
    if value or ctx.parent is None:  # the group always picks; a command only when told
        i18n.use(i18n.pick(value))


LANG_HELP = "Language of messages: en or ja; default: PNP_LANG, else LANGUAGE, LC_ALL or LANG."
lang_option = click.option(
    "--lang",
    type=click.Choice(i18n.LANGUAGES),
    expose_value=False,
    is_eager=True,
    callback=_speak,
    help=LANG_HELP,
)


class _Commands(click.Group):
    """pnp's commands: a command line click cannot take (an unknown option, a file given where
    a folder is asked for) is the user's mistake like any other, exit 1 (exit 2 is pnp's own
    internal error), said as click says it."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as exc:
            exc.show()
            asked_help = getattr(click.exceptions, "NoArgsIsHelpError", ())  # `pnp` alone
            sys.exit(0 if isinstance(exc, asked_help) else 1)
        except click.exceptions.Abort:
            click.echo(_("Aborted."), err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@lang_option
def main() -> None:
    """Print-and-play components from spreadsheets: card sheets, rulebook, summary."""


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@paper_option
@out_option
@click.option(
    "--bleed",
    type=click.FloatRange(0, 3),
    help="Bleed in mm (0–3); default: the sheet's, 3 mm where it fits.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--margin",
    type=click.FloatRange(0, 20),
    help="Printer margin in mm: nothing is printed nearer the paper's edge; default: the "
    "sheet's (5 mm).",
)
@click.option(
    "--no-bleed",
    is_flag=True,
    help="No bleed: images (--format png) cut at the trim, sheets without bleed.",
)
@click.option(
    "--preset",
    metavar="NAME",
    help="The print-shop preset of --format printshop (presets.toml); default: generic.",
)
@click.option(
    "--dpi", type=click.IntRange(36, 1200), help="Resolution of --format png images (300)."
)
@click.option(
    "--url-base",
    metavar="URL",
    help="With --format tts: where the images will be hosted; default: file:/// URLs of the "
    "exported images.",
)
@click.option(
    "--proof",
    is_flag=True,
    help="Draw the trim line, bleed edge and safe zone over every card (for checking, not "
    "for printing).",
)
@click.option(
    "--back-offset",
    metavar="X,Y[,R]",
    help="Move the back pages of duplex sheets X mm right and Y mm up (and turn them R degrees), "
    "as seen on the back: what pnp calibrate measured. Overrides --printer.",
)
@click.option(
    "--printer",
    metavar="NAME",
    help="Use the back-page offset saved for this printer (pnp printer save); default: the "
    "saved default printer, if any.",
)
@click.option(
    "--format",
    "formats",
    metavar="NAME[,NAME…]",
    help="What to write (repeatable or comma-separated): "
    + "; ".join(f"{name}{' (default)' if b.default else ''}" for name, b in REGISTRY.items())
    + ". Default: every default format.",
    multiple=True,
)
@click.option("--quiet", "-q", is_flag=True, help="Print only warnings and errors.")
@click.option(
    "--verbose", "-v", is_flag=True, help="Also print how long each step took and what was reused."
)
@limit_option
def build(
    games,
    project_dir,
    paper,
    out_dir,
    bleed,
    strict,
    margin,
    no_bleed,
    preset,
    dpi,
    url_base,
    proof,
    back_offset,
    printer,
    formats,
    quiet,
    verbose,
    limits,
) -> None:
    """Build GAMES (all games when none are named) into the output folder."""

    def action() -> int:
        from . import printers, progress

        if sys.stderr.isatty() and not quiet:
            progress.show(sys.stderr)

        project = _project(project_dir)
        offset = printers.pick(printer, back_offset)
        picked = [f.strip() for value in formats for f in value.split(",") if f.strip()]
        opts = pipeline.Options(
            paper=paper,
            out=Path(out_dir) if out_dir else None,
            bleed_mm=0.0 if no_bleed else bleed,
            margin_mm=margin,
            proof=proof,
            preset=preset,
            dpi=dpi,
            no_bleed=no_bleed,
            url_base=url_base,
            strict=strict,
            formats=picked or None,
            limits=_limits(limits),
            back_offset=offset,
        )
        if offset:
            click.echo(_("back pages moved by {offset}", offset=offset.words()), err=True)
        result = pipeline.build(project, list(games), opts)
        code = _report(result, strict, quiet)
        if not quiet:
            for game in result.reused:
                click.echo(
                    _(
                        "{game}: nothing changed since the last build; its files are kept",
                        game=game,
                    )
                )
            for path in result.written:
                click.echo(_("wrote {path}", path=path))
        if verbose:
            for plan in result.plans:
                n = plan.faces_laid[2]
                click.echo(_("{game}: {n} faces laid out", game=plan.game.id, n=n), err=True)
                kept = result.unchanged.get(plan.game.id)
                if kept:
                    click.echo(
                        _(
                            "{game}: kept as the last build wrote them (nothing they show "
                            "changed): {files}",
                            game=plan.game.id,
                            files=", ".join(kept),
                        ),
                        err=True,
                    )
            click.echo(
                _(
                    "check and layout {check:.2f} s, drawing {draw:.2f} s, writing {write:.2f} s",
                    check=result.seconds.get("check", 0.0),
                    draw=result.seconds.get("draw", 0.0),
                    write=result.seconds.get("write", 0.0),
                ),
                err=True,
            )
        if code:
            click.echo(
                _("build failed: nothing was written; earlier outputs are untouched"), err=True
            )
            sound = _games_without_errors(project, games, result)
            if sound:
                click.echo(
                    _(
                        "the games with no error build on their own: pnp build {games}",
                        games=" ".join(sound),
                    ),
                    err=True,
                )
        return code

    _run(action)


def _games_without_errors(project, games: tuple, result) -> list[str]:
    """Of the games a failed build of several was asked for, those no error was found for,
    when some other game has the errors."""
    wanted = list(games) or project.game_ids()
    if len(wanted) < 2:
        return []

    named = {p.game for p in result.problems.items if p.level == "error"}
    if not named or not named <= set(wanted):
        return []  # an error of no one game (a shared layout, an option): all fail alike
    return [g for g in wanted if g not in named]


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@paper_option
@click.option("--bleed", type=click.FloatRange(0, 3), help="Bleed in mm (0–3).")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--margin", type=click.FloatRange(0, 20), help="Printer margin in mm (as for build).")
@click.option(
    "--no-play",
    is_flag=True,
    help="Skip the short simulation of each game (data and static rule checks only).",
)
@limit_option
def check(games, project_dir, paper, bleed, strict, margin, no_play, limits) -> None:
    """Load, validate and lay out GAMES without writing anything; list every problem, and play each
    game a few hundred times by machine to find where its rules do not hold together."""

    def action() -> int:
        project = _project(project_dir)
        result = pipeline.check(
            project,
            list(games),
            pipeline.Options(
                paper=paper,
                bleed_mm=bleed,
                margin_mm=margin,
                strict=strict,
                limits=_limits(limits),
            ),
            play=not no_play,
        )
        code = _report(result, strict)
        if not code:
            click.echo(_("ok: {games}", games=", ".join(p.game.id for p in result.plans)))
        return code

    _run(action)


@main.command()
@click.argument("folder", type=click.Path(file_okay=False), default=".")
@lang_option
def init(folder) -> None:
    """Make a new project in FOLDER (default: here): cards/, layouts/_shared/ with the tool's
    paper, sizes, sheets and icons to change, and a README of the next steps."""

    def action() -> int:
        from . import scaffold

        made = scaffold.init(Path(folder))
        for path in made:
            click.echo(_("made {path}", path=path))
        # quoted as the shell needs it: a folder name with a space (「ゲーム 制作」) is one word
        import shlex
        import subprocess

        shown = subprocess.list2cmdline([folder]) if os.name == "nt" else shlex.quote(folder)
        if Path(folder).resolve() == Path.cwd().resolve():  # made here: no folder to go into
            click.echo(_("next: pnp new GAME --from YOUR_SPREADSHEET"))
        else:
            click.echo(_("next: cd {folder} && pnp new GAME --from YOUR_SPREADSHEET", folder=shown))
        return 0

    _run(action)


@main.command()
@click.argument("game")
@project_option
@lang_option
@click.option(
    "--from",
    "source",
    metavar="FILE[#SHEET]",
    help="The spreadsheet of cards (.csv, .xlsx, .xls, .ods), a row per card, a header row first; "
    "copied into the game. Without it, three sample cards.",
)
@click.option(
    "--size",
    help="Card size: poker (the default), bridge, mini, tarot, square, or WIDTHxHEIGHT in mm "
    "(e.g. 50x70); with --kind token 25x25, die 18x18 unless given.",
)
@click.option("--title", help="The title printed on the cards and the rulebook; default: GAME.")
@click.option(
    "--players", default="2-4", show_default=True, metavar="MIN-MAX", help="Player counts."
)
@click.option(
    "--rules",
    "with_rules",
    is_flag=True,
    help="Also write rules.py, a rules module that already plays, for check and simulate; for "
    "a game that exists, write only that.",
)
@click.option(
    "--header",
    type=click.IntRange(min=1),
    metavar="ROW",
    help="The spreadsheet row the column names are on, when a title or a row of group names "
    "is above them (game.toml's header = ROW).",
)
@click.option(
    "--add",
    "add_id",
    metavar="ID",
    help="Add another deck to GAME, a game that exists: a component with id ID read from "
    "--from's spreadsheet (another sheet of the same workbook too), with its own layouts.",
)
@click.option(
    "--kind",
    type=click.Choice(list(KINDS)),
    default="card",
    show_default=True,
    help="With --add: what the rows make: cards, punch-out tokens (one-sided, on the tokens "
    "sheet) or dice (a row per face; six rows a die, or a 'die' column); or a board (no "
    "--from: a score track round its edge to start from, 400x280 unless --size).",
)
@click.option(
    "--name",
    "component_name",
    help="With --add: the name printed for the new deck (sheet labels, the rulebook's "
    "components table); default: the sheet's name, else the file's.",
)
@limit_option
def new(
    game,
    project_dir,
    source,
    size,
    title,
    players,
    with_rules,
    header,
    add_id,
    kind,
    component_name,
    limits,
) -> None:
    """Make GAME in the project: game.toml (columns, types and a composition read from the
    spreadsheet), front and back layouts that print every column, a rules.md skeleton; with
    --rules a rules module (rules.py) too; with --add, another deck for a game that exists."""

    def action() -> int:
        from . import scaffold

        project = _project(project_dir)
        if add_id is not None:
            given = [o for o, v in (("--title", title), ("--rules", with_rules)) if v]
            if given:
                raise BuildError(
                    _(
                        "{options} goes with a new game, not with --add (a deck added to "
                        "{game}: its title and rules are the game's)",
                        options=" ".join(given),
                        game=game,
                    )
                )
            made = scaffold.add(
                project.root,
                game,
                add_id,
                source,
                size,
                _limits(limits),
                header,
                kind,
                component_name,
            )
            _made(project, made)
            click.echo(_("next: pnp build {game}", game=game))
            return 0
        if with_rules and not source and game in project.game_ids():
            path = scaffold.rules_module(project, game)
            click.echo(_("made {path}", path=project.rel(path)))
            _trust_written(project, [path])
            click.echo(_("next: pnp simulate {game}", game=game))
            return 0
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", players)
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2) or m.group(1)):
            raise BuildError(_("--players {value!r}: use MIN-MAX, e.g. 2-4", value=players))
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if component_name is not None:
            raise BuildError(
                _(
                    "--name goes with --add (the name of a deck added to a game); a new game's "
                    "title is --title"
                )
            )
        if kind != "card":
            raise BuildError(
                _(
                    "--kind {kind} goes with --add: a game starts with a deck of cards, then "
                    "pnp new {game} --from FILE --add ID --kind {kind}",
                    kind=kind,
                    game=game,
                )
            )
        made = scaffold.new(
            project.root,
            game,
            source,
            size or "poker",
            title,
            (lo, hi),
            _limits(limits),
            with_rules,
            header,
        )
        _made(project, made)
        _trust_written(project, list(made.files))
        click.echo(_("next: pnp build {game}", game=game))
        return 0

    _run(action)


def _trust_written(project, paths) -> None:
    """A rules module pnp itself just wrote, at its user's command, is trusted as written (an
    edit asks again, as for any)."""
    from . import trust
    from .rules.modules import RULES_FILE

    files = {project.rel(p): trust.digest(p) for p in paths if p.name == RULES_FILE and p.is_file()}
    if files:
        trust.remember(project.root, files)


def _made(project, made) -> None:
    """What `pnp new` wrote and guessed, for the designer to confirm."""
    for path in made.files:
        if path in made.replaced:  # game.toml, a deck appended
            click.echo(_("added to {path}", path=project.rel(path)))
        else:
            click.echo(_("made {path}", path=project.rel(path)))
    if made.kind == "board":  # drawn by its layout: no rows, no columns
        return
    if made.kind == "token":
        counted = ngettext(
            "{n} token; columns (type guessed from the values):",
            "{n} tokens; columns (type guessed from the values):",
            made.cards,
        )
    elif made.kind == "die":
        counted = ngettext(
            "{n} die face; columns (type guessed from the values):",
            "{n} die faces; columns (type guessed from the values):",
            made.cards,
        )
    else:
        counted = ngettext(
            "{n} card; columns (type guessed from the values):",
            "{n} cards; columns (type guessed from the values):",
            made.cards,
        )
    click.echo("\n" + counted)
    for c in made.columns:
        click.echo(f"  {c.name}: {c.type}")
    click.echo(_("composition guessed from the data (confirm it in game.toml):"))
    for line in made.composition:
        click.echo(f"  {line}")
    for note in made.notes:
        click.echo(note)


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@paper_option
@out_option
@click.option(
    "--format",
    "formats",
    metavar="NAME[,NAME…]",
    multiple=True,
    help="What to write on each save (as for build); default: every default format.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def watch(games, project_dir, paper, out_dir, formats, strict) -> None:
    """Build GAMES, then build again on every save under cards/, layouts/ and fonts/, saying
    which cards and files changed. A broken save prints its problems and keeps the last good
    outputs. Ctrl-C stops."""

    def action() -> int:
        from . import watch as watcher

        project = _project(project_dir)
        picked = [f.strip() for value in formats for f in value.split(",") if f.strip()]
        opts = pipeline.Options(
            paper=paper,
            out=Path(out_dir) if out_dir else None,
            strict=strict,
            formats=picked or None,
            reuse=False,  # every build's plans, to say what changed
        )

        return watcher.run(
            project, list(games), opts, lambda result: _report(result, strict), _say_now
        )

    _run(action)


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
def serve(games, project_dir, port, paper, out_dir) -> None:
    """A web page on this machine (http://127.0.0.1:PORT/) with every card of GAMES (all games
    when none are named), each with its data row and the problems that name it, the rulebook and
    summary a click away; it rebuilds and reloads itself on every save. Ctrl-C stops."""

    def action() -> int:
        from . import serve as server

        project = _project(project_dir)
        # Every build's plans, to show every card (the faces still come from the memo).
        opts = pipeline.Options(paper=paper, out=Path(out_dir) if out_dir else None, reuse=False)

        try:
            return server.run(project, list(games), opts, port, _say_now)
        except OSError as exc:
            raise BuildError(
                _("cannot serve on port {port}: {error}", port=port, error=exc.strerror)
            ) from None

    _run(action)


@main.command()
@click.argument("game")
@project_option
@lang_option
@click.option(
    "--since",
    metavar="REV|DATE",
    help="Compare with the project at this git revision, or with the build made by this time "
    "(2026-11-28, 2026-11-28 18:00: the last 30 builds that changed something are kept), "
    "instead of the last build.",
)
@paper_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    help="Output folder (where the last build is, and diff.pdf goes); default: PROJECT/output.",
)
@click.option(
    "--reprint",
    is_flag=True,
    help="Also write output/GAME/reprint.pdf: the changed and added cards (every copy) on print "
    "sheets with their backs, to print and swap into the deck you printed (--since the day "
    "you printed it, or a git tag of it).",
)
@click.option(
    "--printer",
    metavar="NAME",
    help="With --reprint: the back-page offset saved for this printer (as for pnp build).",
)
def diff(game, project_dir, since, paper, out_dir, reprint, printer) -> None:
    """Which of GAME's cards changed since the last build (or git revision REV): their names
    and changed fields, and output/GAME/diff.pdf with each old face beside its new one; with
    --reprint, those cards on print sheets too."""

    def action() -> int:
        from . import printers
        from .comparing import compare

        project = _project(project_dir)
        out = project.output_for(Path(out_dir) if out_dir else None)
        offset = printers.pick(printer, None) if reprint else None
        opts = pipeline.Options(paper=paper, out=out, back_offset=offset)
        result, lines = compare(project, game, opts, since, reprint, click.echo)
        if result.failed(False):
            return _report(result, False)
        for line in lines:
            click.echo(line)
        return 0

    _run(action)


@main.command()
@lang_option
@paper_option
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False),
    help="Where to write it; default: calibration-PAPER.pdf in the current folder.",
)
def calibrate(paper, out_file) -> None:
    """Write a duplex calibration sheet: crosses on the front, scales on the back. Print it as
    you print cards, read where the crosses show through, then save the reading with
    `pnp printer save NAME --back-offset X,Y,R`."""

    def action() -> int:
        from .builders.calibration import calibration_pdf
        from .layout.sheets import load_sheet_defs, paper_size
        from .problems import rel

        defs = load_sheet_defs(Path.cwd() / "layouts", lambda p: rel(p, Path.cwd()))
        size = paper_size(defs, paper)  # an unknown one: said at [paper], before anything
        path = Path(out_file) if out_file else Path(f"calibration-{paper}.pdf")
        data = calibration_pdf(size, paper)
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError as exc:
            raise BuildError(
                _("cannot write {path}: {error}", path=path, error=exc.strerror)
            ) from None
        click.echo(_("wrote {path}", path=path))
        return 0

    _run(action)


@main.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@click.option("--forget", is_flag=True, help="Trust none of the project's code any more.")
def trust(games, project_dir, forget) -> None:
    """Let pnp run the project's rules modules (cards/GAME/rules.py; all games when none are
    named) as they are now. They are Python that came with the project and run with your
    rights: read them first if you did not write them. An edit, or the same file in another
    folder, asks again."""

    def action() -> int:
        from . import trust as trusting
        from .rules.modules import RULES_FILE

        project = _project(project_dir)
        if forget:
            if trusting.forget(project.root):
                click.echo(
                    _("pnp will ask again before it runs code of {folder}", folder=project.root)
                )
            else:
                click.echo(_("nothing of {folder} was trusted", folder=project.root))
            return 0
        files = {}
        for gid in games or project.game_ids():
            project.manifest(gid)  # a game of the project, named as one
            path = project.cards / gid / RULES_FILE
            if path.is_file():
                files[f"cards/{gid}/{RULES_FILE}"] = trusting.digest(path)
        if not files:
            click.echo(
                _(
                    "no rules modules to trust: no cards/GAME/rules.py in {folder}",
                    folder=project.root,
                )
            )
            return 0
        saved = trusting.remember(project.root, files)
        for shown, digest in files.items():
            click.echo(
                _("trusted {file} as it is now (sha256 {digest}…)", file=shown, digest=digest[:16])
            )
        click.echo(_("remembered in {path}", path=saved))
        return 0

    _run(action)


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
def printer_save(name, back_offset, make_default) -> None:
    """Save printer NAME's back-page offset."""

    def action() -> int:
        from . import printers

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

    _run(action)


@printer.command("list")
@lang_option
def printer_list() -> None:
    """The saved printers and their offsets."""

    def action() -> int:
        from . import printers

        saved, default = printers.saved()
        if not saved:
            click.echo(_("no printers saved yet (pnp calibrate, then pnp printer save NAME)"))
        for name, offset in saved.items():
            mark = " *" if name == default else ""
            click.echo(f"{name}{mark}: {offset.words()}")
        return 0

    _run(action)


@main.group()
@lang_option
def cache() -> None:
    """The caches of converted fonts that make builds fast: your own (shared by every project)
    and each project's output/.cache."""


@cache.command("clear")
@project_option
@lang_option
def cache_clear(project_dir) -> None:
    """Empty your font cache and, inside a project, its output/.cache (the next build converts
    the fonts again)."""

    def action() -> int:
        from . import cache as caches

        folders = [caches.user_cache_dir()]
        why = caches.refused()
        if why is not None:  # someone else's, or a link: not used, and not emptied either
            click.echo(_("{path}: not used and not emptied: {why}", path=folders[0], why=why))
            folders = []
        try:
            folders.append(_project(project_dir).output / ".cache")
        except BuildError:
            if project_dir:
                raise
        cleared = caches.clear(folders)
        for folder, size in cleared:
            click.echo(_("emptied {path} ({mb:.1f} MB)", path=folder, mb=size / 1e6))
        if not cleared:
            click.echo(_("nothing to clear"))
        return 0

    _run(action)


def _parse_options(pairs: tuple[str, ...], flag: str = "--option") -> dict[str, str]:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise BuildError(_("{flag} takes NAME=VALUE, got '{pair}'", flag=flag, pair=pair))
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def _player_counts(text: str | None) -> list[int]:
    if not text:
        return []
    try:
        counts = [int(n) for n in text.split(",")]
    except ValueError:
        raise BuildError(
            _("--players {value!r}: a number, or numbers like 3,4", value=text)
        ) from None
    return counts


def _parse_sweep(values: tuple[str, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for value in values:
        name, sep, rest = value.partition("=")
        choices = [v.strip() for v in rest.split(",") if v.strip()]
        if not sep or not name.strip() or not choices:
            raise BuildError(_("--sweep takes NAME=V1,V2…, got {value!r}", value=value))
        out[name.strip()] = choices
    return out


def _games_progress():
    """Progress of playouts on a terminal, with the time left estimated from the pace so far."""
    if not sys.stderr.isatty():
        return None
    start = time.monotonic()

    def progress(done: int, total: int) -> None:
        spent = time.monotonic() - start
        left = spent * (total - done) / done if done else 0.0
        text = _("{done}/{total} games", done=done, total=total)
        if done < total and spent > 1:
            text += " " + _("(about {seconds:.0f} s left)", seconds=left)
        click.echo("\r" + text + " " * 8, err=True, nl=done >= total)

    return progress


def _report_out(result: dict, as_json: bool) -> int:
    click.echo(result["json"] if as_json else result["markdown"])
    for path in result["written"]:
        click.echo(_("wrote {path}", path=path), err=True)
    if result.get("stopped"):
        click.echo(_("stopped: the games finished so far are the report above"), err=True)
        return 130
    return 0


def _sweep(
    project, game, counts, kinds, sweep, games, seed, options, out_dir, limits, as_json, scheduler
):
    from . import playouts

    result = playouts.sweep(
        project,
        game,
        playouts.SweepOptions(
            players=counts,
            kinds=kinds,
            sweep=sweep,
            games=games,
            seed=seed,
            options=_parse_options(options),
            out=Path(out_dir) if out_dir else None,
            limits=_limits(limits),
            scheduler=scheduler,
        ),
        _games_progress(),
        say=lambda text: click.echo(text, err=True),
    )
    return _report_out(result, as_json)


@main.command()
@click.argument("game")
@project_option
@lang_option
@click.option(
    "--players",
    metavar="N[,N…]",
    help="Number of players; default: the fewest the game allows. Several (3,4): a sweep.",
)
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    help="Master seed; playout i uses a seed derived from it.",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A reading of the rules (repeatable).",
)
@click.option(
    "--players-kind",
    "kinds",
    multiple=True,
    metavar="KIND[,KIND…]",
    help="How the machine players choose: random (default), greedy, varied, ismcts (a search: "
    "ismcts:N iterations or ismcts:Nms a move); one for every seat, or one per seat "
    "(ismcts:200,random: the last fills the other seats). Given more than once: a sweep.",
)
@click.option(
    "--sweep",
    "sweeps",
    multiple=True,
    metavar="NAME=V1,V2…",
    help="Play every listed reading of NAME (repeatable): with --players and --players-kind, a "
    "grid of cells side by side in sweep.md/.json.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the statistics as JSON instead of Markdown."
)
@click.option(
    "--replay",
    type=int,
    metavar="SEED",
    help="Play the game with this seed and print it move by move.",
)
@click.option(
    "--probes",
    is_flag=True,
    help="Play each strategy the rules module names (STRATEGIES) in every seat against the "
    "--players-kind field (default ismcts:50): probes.md/.json say which beat the field.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run the playouts on the Dask cluster whose scheduler is at ADDRESS "
    "(tcp://host:8786); the game's rules module is sent to its workers. Same results as here.",
)
@out_option
@limit_option
def simulate(
    game,
    project_dir,
    players,
    games,
    seed,
    options,
    kinds,
    sweeps,
    as_json,
    replay,
    probes,
    scheduler,
    out_dir,
    limits,
) -> None:
    """Play GAME many times by machine and report where the rules do not hold together; with
    --sweep (or several player counts or kinds), a grid of readings, counts and kinds."""

    def action() -> int:
        from . import playouts

        project = _project(project_dir)
        counts = _player_counts(players)
        sweep = _parse_sweep(sweeps)
        kind_list = list(kinds) or ["random"]
        if probes and (sweep or len(counts) > 1 or len(kind_list) > 1 or replay is not None):
            raise BuildError(
                _("--probes plays one player count against one field: no --sweep or --replay")
            )
        if sweep or len(counts) > 1 or len(kind_list) > 1:
            if replay is not None:
                raise BuildError(_("--replay plays one game: name one reading, count and kind"))
            return _sweep(
                project,
                game,
                counts,
                kind_list,
                sweep,
                games,
                seed,
                options,
                out_dir,
                limits,
                as_json,
                scheduler,
            )
        opts = playouts.SimulateOptions(
            players=counts[0] if counts else None,
            games=games,
            seed=seed,
            options=_parse_options(options),
            kind=kind_list[0],
            out=Path(out_dir) if out_dir else None,
            replay=replay,
            limits=_limits(limits),
            scheduler=scheduler,
            kind_given=bool(kinds),
        )
        if probes:
            result = playouts.probes(
                project, game, opts, _games_progress(), say=lambda t: click.echo(t, err=True)
            )
            return _report_out(result, as_json)
        result = playouts.simulate(
            project, game, opts, _games_progress(), say=lambda text: click.echo(text, err=True)
        )
        if "replay" in result:
            r = result["replay"]
            for line in r.log:
                click.echo(line)
            return 0
        return _report_out(result, as_json)

    _run(action)
