"""`pnp simulate`: play a game many times by machine, sweep readings, probe strategies."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from ..i18n import _
from ..problems import BuildError
from .common import (
    lang_option,
    limit_option,
    limits_from,
    main,
    out_option,
    parse_pairs,
    project_from,
    project_option,
    reports,
)


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
    from .. import playouts

    result = playouts.sweep(
        project,
        game,
        playouts.SweepOptions(
            players=counts,
            kinds=kinds,
            sweep=sweep,
            games=games,
            seed=seed,
            options=parse_pairs(options),
            out=Path(out_dir) if out_dir else None,
            limits=limits_from(limits),
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
    "--show",
    type=click.Choice(["hands"]),
    help="With --replay: print each player's hand and the moves the rules allow before each "
    "decision.",
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
@reports
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
    show,
    probes,
    scheduler,
    out_dir,
    limits,
) -> int:
    """Play GAME many times by machine and report where the rules do not hold together; with
    --sweep (or several player counts or kinds), a grid of readings, counts and kinds."""
    from .. import playouts

    project = project_from(project_dir)
    counts = _player_counts(players)
    sweep = _parse_sweep(sweeps)
    kind_list = list(kinds) or ["random"]
    if show and replay is None:
        raise BuildError(_("--show hands shows a replay: give --replay SEED too"))
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
        options=parse_pairs(options),
        kind=kind_list[0],
        out=Path(out_dir) if out_dir else None,
        replay=replay,
        show_hands=show == "hands",
        limits=limits_from(limits),
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
