"""What `pnp simulate` plays, worked out from a loaded game and its rules module: the player
count, each seat's kind, the readings, and the batches of playouts of a simulation, a sweep and
a probe. Returns plain data; playouts.py writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..i18n import _
from ..limits import DEFAULT, Limits, exceeded
from ..model import Game
from ..problems import BuildError, Problems, SourceRef
from . import engine, modules


@dataclass
class SimulateOptions:
    """What `pnp simulate` was asked for."""

    players: int | None = None
    games: int = 1000  # rules.simulate.DEFAULT_GAMES
    seed: int = 1
    options: dict[str, str] = field(default_factory=dict)
    kind: str = "random"
    out: Path | None = None
    replay: int | None = None
    show_hands: bool = False  # the replay prints each hand and the legal moves at each decision
    skill: bool = True
    limits: Limits = DEFAULT
    scheduler: str | None = None  # a Dask scheduler's address: the playouts run there
    kind_given: bool = False  # --players-kind was given (probes meet skilled players unless)


@dataclass
class SweepOptions:
    """What `pnp simulate --sweep` was asked for."""

    players: list[int]  # none: the fewest the game allows
    kinds: list[str]  # --players-kind values, each a cell's kinds
    sweep: dict[str, list[str]]  # reading -> the values to play
    games: int = 1000
    seed: int = 1
    options: dict[str, str] = field(default_factory=dict)  # readings held fixed
    out: Path | None = None
    limits: Limits = DEFAULT
    scheduler: str | None = None  # a Dask scheduler's address: the playouts run there


def rules_module(game: Game):
    """The game's rules module, loaded (trusted by its user); none is the user's error."""
    module = modules.rules_for(game)
    if module is None:
        raise BuildError(
            _(
                "{game} has no rules module to play: write {path} (pnp new {game} "
                "--rules makes one to fill in; docs/reference/rules.md)",
                game=game.id,
                path=modules.rules_file(game).name,
            ),
            SourceRef(str(Path(game.manifest.where.file).parent / modules.RULES_FILE)),
        )
    return module


def player_count(game: Game, players: int | None) -> int:
    """`players`, or the fewest the game allows; a count outside its range is the user's error."""
    lo, hi = game.manifest.players
    n = lo if players is None else players
    if not lo <= n <= hi:
        raise BuildError(
            _(
                "{title} is for {lo}–{hi} players, not {players}",
                title=game.title,
                lo=lo,
                hi=hi,
                players=n,
            )
        )
    return n


def readings(module, given: dict[str, str]) -> dict[str, str]:
    try:
        return engine.resolve_options(module.OPTIONS, given)
    except engine.UnknownOption as exc:
        raise BuildError(str(exc)) from None


def player_kinds(text: str, players: int, module=None) -> tuple[str, ...]:
    """`--players-kind`: one kind for every seat, or one per seat separated by commas, the last
    filling the seats left (`ismcts:200,random` for any number of players); a probe names one
    of the module's STRATEGIES."""
    try:
        kinds = tuple(engine.parse_kind(k) for k in text.split(","))
    except engine.UnknownOption as exc:
        raise BuildError(str(exc)) from None
    for kind in kinds:
        if module is not None and kind.startswith("probe:"):
            if kind[6:] not in module.STRATEGIES:
                raise BuildError(
                    _(
                        "{kind!r}: the rules module names no such strategy (its STRATEGIES: "
                        "{names})",
                        kind=kind,
                        names=", ".join(module.STRATEGIES) or _("none"),
                    )
                )
    if len(kinds) > players:
        raise BuildError(
            _(
                "--players-kind names {n} kinds for {players} players: give one for every seat, "
                "or one for all",
                n=len(kinds),
                players=players,
            )
        )
    return kinds + kinds[-1:] * (players - len(kinds))


def chosen(game: Game, module) -> dict[str, str]:
    """game.toml's [readings]: simulate's defaults; one the module lacks stops it, at its line."""
    problems = Problems()
    found = modules.chosen_readings(game, module, problems)
    problems.raise_if_errors()
    return found


def _within(total: int, limits: Limits) -> None:
    if total > limits.games:
        raise exceeded("games", _("{n:,} games", n=total), limits.games, None)


def replay(game: Game, module, opts: SimulateOptions):
    """One game played again from its seed, checked and logged move by move."""
    players = player_count(game, opts.players)
    options = readings(module, {**chosen(game, module), **opts.options})
    kinds = player_kinds(opts.kind, players, module)
    data = modules.guarded(module, module.prepare, game)
    args = (module, data, players, opts.replay, options, kinds)
    return modules.guarded(
        module, engine.play, *args, check=True, log=True, show_hands=opts.show_hands
    )


def simulation(game: Game, module, opts: SimulateOptions, progress=None):
    """One batch of playouts as `opts` ask (over the designer's [readings]): (stats, findings)."""
    from . import simulate as sim

    players = player_count(game, opts.players)
    base = chosen(game, module)
    options = readings(module, {**base, **opts.options})
    _within(opts.games, opts.limits)
    kinds = player_kinds(opts.kind, players, module)
    data = modules.guarded(module, module.prepare, game)
    with sim.on_cluster(opts.scheduler):
        return sim.batch(
            module,
            data,
            players,
            options,
            kinds,
            opts.games,
            opts.seed,
            opts.skill,
            progress,
            base=readings(module, base),
        )


def sweep(game: Game, module, opts: SweepOptions, progress=None) -> tuple[list, str, dict]:
    """The grid of readings × player counts × player kinds played: its cells, sweep.md's text
    and sweep.json's data. Every reading and kind is checked before anything is played."""
    from . import simulate as sim
    from . import sweep as sweeps

    base = {**chosen(game, module), **opts.options}
    readings(module, base)
    for name, values in opts.sweep.items():
        for value in values:
            readings(module, {**base, name: value})
    counts = [player_count(game, n) for n in opts.players or [None]]
    for kinds_text in opts.kinds:
        for n in counts:
            player_kinds(kinds_text, n, module)
    cells = sweeps.grid(opts.sweep, counts, [(k,) for k in opts.kinds], opts.seed)
    for cell in cells:
        cell.kinds = player_kinds(cell.kinds[0], cell.players, module)
        cell.fixed = dict(opts.options)
    _within(opts.games * len(cells), opts.limits)
    data = modules.guarded(module, module.prepare, game)
    with sim.on_cluster(opts.scheduler):
        cells = sweeps.run(module, data, cells, base, opts.games, progress=progress)
    if not cells:  # stopped before any cell had a game
        raise KeyboardInterrupt
    markdown = sweeps.markdown(game.title, module, cells, opts.games, opts.seed)
    return cells, markdown, sweeps.to_json(cells, opts.games, opts.seed)


def probes(game: Game, module, opts: SimulateOptions, progress=None) -> tuple[list, str, dict]:
    """Each of the module's STRATEGIES against a field of players: what each found, probes.md's
    text and probes.json's data."""
    from . import probes as probing
    from . import simulate as sim

    if not module.STRATEGIES:
        raise BuildError(
            _(
                "the rules module names no strategies to probe: add STRATEGIES "
                "(docs/reference/rules.md)"
            ),
            SourceRef(module.RULES_REF.shown),
        )
    players = player_count(game, opts.players)
    options = readings(module, {**chosen(game, module), **opts.options})
    kind = probing.FIELD if opts.kind == "random" and not opts.kind_given else opts.kind
    field_ = player_kinds(kind, players, module)
    _within(opts.games * (len(module.STRATEGIES) + 1), opts.limits)  # and the baseline
    data = modules.guarded(module, module.prepare, game)
    with sim.on_cluster(opts.scheduler):
        found = probing.run(module, data, players, field_, opts.games, opts.seed, options, progress)
    if not found:  # stopped before any game finished
        raise KeyboardInterrupt
    markdown = probing.markdown(game.title, found, field_, opts.games)
    return found, markdown, probing.to_json(found, field_, opts.games)
