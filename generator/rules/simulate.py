"""Many playouts of one game, reproducibly, on every core (or a Dask cluster): batches run in
index order, and `batch()`, what `pnp simulate` reports, with its statistics (statistics.py)
and findings (findings.py).

Fed by a game module and its prepared data; feeds `pnp simulate` (Markdown, JSON, the PDF report
drawn by the renderer) and the rules section of `pnp check`. No ReportLab here.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice

from ..i18n import _
from ..problems import BuildError, SourceRef
from . import engine, modules
from .findings import Finding, findings
from .statistics import Stats, statistics, wilson

DEFAULT_GAMES = 1000  # playouts of one batch unless asked otherwise
SKILL_GAMES = 600  # at most this many for the skill signal
COVERAGE_GAMES = 200  # at most this many varied-player games, to see every kind of action
POOL_THRESHOLD = 400  # fewer playouts than this run in-process: a pool costs more than it saves
# At most this many games a task: progress moves and Ctrl-C stops within a second or two.
CHUNK = 2000


def _summary(r: engine.Playout) -> tuple:
    return (
        r.seed,
        r.finished,
        r.dead_end,
        r.capped,
        r.steps,
        r.rounds,
        tuple(r.scores),
        tuple(r.winners),
        r.tied_before,
        tuple(sorted(r.counters.items())),
        tuple(sorted(r.actions.items())),
        r.factions,
    )


_WORKER: dict = {}


def _init(ref, data: bytes, check: bool, worker: bool = False) -> None:
    """A worker's (or this process's) module and data, once: tasks then say only which cell."""
    if worker:  # Ctrl-C is the parent's to handle: it keeps what is finished
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    module = modules.load(ref)  # before the data: its classes may live in the module
    _WORKER.update(module=module, data=pickle.loads(data), check=check)


def _remote(shipped: tuple, data: bytes, check: bool, task: tuple) -> list[tuple]:
    """One task on a Dask worker: the project's module (shipped as code) and the data loaded
    once per worker, then the same `_run` as on this machine, so the results are the same."""
    key = (shipped[0], hashlib.sha256(data).hexdigest(), check)
    if _WORKER.get("key") != key:
        module = modules.load_shipped(*shipped)
        _WORKER.update(module=module, data=pickle.loads(data), check=check, key=key)
    return _run(task)


def _held(value):
    """A value the workers fetch from the task that returns it: Dask computes it again on
    another worker when the one that held it is lost (scattered data is lost with it)."""
    return value


_SCHEDULER: list[str | None] = [None]


@contextmanager
def on_cluster(address: str | None):
    """Within: every batch runs on the Dask cluster whose scheduler is at `address`."""
    _SCHEDULER.append(address)
    try:
        yield
    finally:
        _SCHEDULER.pop()


def _run(task: tuple) -> list[tuple]:
    """One task: the playouts of `seeds` for a player count, readings and player kinds."""
    players, options, kinds, seeds = task
    w = _WORKER
    module, data, check = w["module"], w["data"], w["check"]
    out = []
    for s in seeds:
        try:
            playout = engine.play(module, data, players, s, options, kinds, check, types=True)
        except (BuildError, engine.InvariantError):
            raise
        except Exception as exc:  # the project's code: told at its line, with the seed
            error = modules.code_error(module.RULES_REF, exc)
            defaults = {k: o.default for k, o in module.OPTIONS.items()}
            replay = replay_words(module.GAME_ID, players, kinds, options, defaults, s)
            raise PlayoutError(s, error.shown, error.line, error.text, replay) from None
        out.append(_summary(playout))
    return out


class PlayoutError(Exception):
    """The project's rules code raised in the playout of `seed` (picklable: plain args);
    `replay` is the command that plays that game again."""

    def __init__(self, seed: int, shown: str, line: int | None, text: str, replay: str = ""):
        super().__init__(seed, shown, line, text, replay)
        self.seed, self.error = seed, modules.RulesCodeError(shown, line, text)
        self.replay = replay


def replay_words(
    game: str, players: int, kinds: tuple, options: dict, base: dict, seed: int
) -> str:
    """`pnp simulate GAME --players N [--players-kind …] [--option …] --replay SEED`: the
    command that plays one playout again, naming the readings that differ from `base` (what
    simulate plays without --option; naming more plays the same game)."""
    words = [f"pnp simulate {game} --players {players}"]
    if set(kinds) != {"random"}:
        words.append(f"--players-kind {kinds[0] if len(set(kinds)) == 1 else ','.join(kinds)}")
    words += [f"--option {k}={v}" for k, v in sorted(options.items()) if base.get(k) != v]
    return " ".join([*words, f"--replay {seed}"])


@dataclass(frozen=True)
class Batch:
    """Playouts to run: `games` of `players` under `options` and `kinds`, seeds derived from
    `seed` (playout i: derive_seed(seed, i)), so any batch and any game in it replays alone."""

    players: int
    games: int
    seed: int
    options: dict
    kinds: tuple

    def tasks(self, chunk: int) -> Iterator[tuple]:
        for start in range(0, self.games, chunk):
            stop = min(self.games, start + chunk)
            seeds = [engine.derive_seed(self.seed, i) for i in range(start, stop)]
            yield (self.players, self.options, self.kinds, seeds)


def run(*args, **kwargs) -> list[tuple]:
    """Playout summaries in index order, whatever the number of processes, as a list (the
    arguments of `iter_run`)."""
    return list(iter_run(*args, **kwargs))


def iter_run(
    module,
    data,
    players: int,
    games: int,
    seed: int,
    options: dict[str, str],
    kinds: tuple[str, ...],
    check: bool = False,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[tuple]:
    """Playout summaries one by one, in index order: seeds are made as they are needed and only
    a few batches are in flight, so memory stays flat however many games are asked for."""
    batch = Batch(players, games, seed, dict(options), tuple(kinds))
    for _index, part in run_batches(module, data, [batch], check, workers, progress):
        yield from part


def run_batches(
    module,
    data,
    batches: list[Batch],
    check: bool = False,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[tuple[int, list[tuple]]]:
    """(batch index, a part of its summaries), in batch order and index order within a batch,
    from one pool of worker processes for all the batches (a sweep's cells share it)."""
    try:
        yield from _run_batches(module, data, batches, check, workers, progress)
    except PlayoutError as exc:
        raise exc.error.problem(exc.seed, exc.replay) from None


def _run_batches(module, data, batches, check, workers, progress):
    workers = workers or os.cpu_count() or 1
    total = sum(b.games for b in batches)
    try:
        packed = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # a lambda, an open file, a generator… in what prepare() returned
        raise BuildError(
            _(
                "prepare() returned data that cannot be sent to the worker processes "
                "({error}): keep it plain — lists, dicts, numbers, strings, and classes "
                "defined at the top of the module",
                error=f"{type(exc).__name__}: {exc}",
            ),
            SourceRef(module.RULES_REF.shown),
        ) from None
    if _SCHEDULER[-1]:
        yield from _on_dask(_SCHEDULER[-1], module, packed, batches, check, total, progress)
        return
    initargs = (module.RULES_REF, packed, check)
    if total < POOL_THRESHOLD or workers == 1:  # here: a pool would cost more than it saves
        _init(*initargs)
        yield from _in_order(_Ready.run, batches, 1, total, progress)
        return
    pool = ProcessPoolExecutor(workers, initializer=_init, initargs=(*initargs, True))
    try:
        yield from _in_order(
            lambda task: pool.submit(_run, task), batches, workers, total, progress
        )
    finally:  # also on Ctrl-C or an error: what is queued is dropped, not waited for
        pool.shutdown(wait=True, cancel_futures=True)


class _Ready:
    """A task run here and now, with a future's `result()`."""

    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value

    @classmethod
    def run(cls, task: tuple) -> _Ready:
        return cls(_run(task))


def _in_order(submit, batches, workers: int, total: int, progress):
    """(batch index, summaries) of every task, in order, with a few tasks a worker in flight:
    `submit(task)` returns a future (a process pool's or Dask's). Stops between tasks on
    Ctrl-C (`_STOP`)."""
    chunk = max(50, min(total // (workers * 8), CHUNK))
    tasks = ((i, t) for i, b in enumerate(batches) for t in b.tasks(chunk))
    pending: deque = deque((i, submit(t)) for i, t in islice(tasks, workers * 4))
    done = 0
    while pending:
        index, future = pending.popleft()
        part = future.result()
        following = next(tasks, None)
        if following is not None:
            pending.append((following[0], submit(following[1])))
        done += len(part)
        yield index, part
        if progress:
            progress(done, total)
        if _STOP[0]:
            return


def _on_dask(address, module, packed, batches, check, total, progress):
    """The same tasks on a Dask cluster: the module's code and the data sent once, tasks in
    flight a few per worker, results taken in order (Dask reruns a lost worker's tasks)."""
    try:
        from distributed import Client, KilledWorker
    except ImportError:  # an optional extra
        raise BuildError(
            _(
                "--scheduler runs playouts on a Dask cluster, which needs pnp's cluster extra: "
                "pip install 'pnp-generator[cluster]' (or pipx inject pnp-generator distributed)"
            )
        ) from None
    try:
        client = Client(address, timeout=10, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise BuildError(
            _("cannot reach the Dask scheduler at {address}: {error}", address=address, error=exc)
        ) from None
    try:
        shipped = modules.shipped(module.RULES_REF)
        code, data = client.submit(_held, shipped), client.submit(_held, packed)
        workers = max(1, sum(client.nthreads().values()))
        yield from _in_order(
            lambda task: client.submit(_remote, code, data, check, task, pure=False),
            batches,
            workers,
            total,
            progress,
        )
    except (CancelledError, KilledWorker) as exc:  # the cluster's trouble, not the project's
        raise BuildError(
            _(
                "the Dask cluster at {address} could not finish the run ({error}): a worker "
                "died running it, or the cluster lost what was sent to its workers",
                address=address,
                error=f"{type(exc).__name__}: {exc}",
            )
        ) from None
    finally:
        client.close()


def batch(
    module,
    data,
    players: int,
    options: dict[str, str],
    kinds: tuple[str, ...],
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    skill: bool = True,
    progress: Callable[[int, int], None] | None = None,
    base: dict[str, str] | None = None,
    workers: int | None = None,
) -> tuple[Stats, list[Finding]]:
    """One batch of playouts: statistics (with the skill signal and the other readings behind
    each error) and findings — what `pnp simulate` and the simulation builder report. The
    skill signal's and coverage's playouts share one pool, as do the other readings'."""
    stopped: list[bool] = []
    # The skill signal's and coverage's playouts depend on nothing the batch finds: they run
    # through the batch's own pool, after its games (progress counts the batch's alone).
    main = Batch(players, games, seed, dict(options), tuple(kinds))
    gauge = skill_batches(players, min(games, SKILL_GAMES), seed, options) if skill else []
    cover = coverage_batches(module, main, min(games, COVERAGE_GAMES))
    extra: list[list[tuple]] = [[] for _ in gauge + cover]

    def shown(done: int, total: int) -> None:
        if progress is not None and done <= games:
            progress(done, games)

    def rows() -> Iterator[tuple]:
        for index, part in run_batches(module, data, [main, *gauge, *cover], False, workers, shown):
            if index:
                extra[index - 1] += part
            else:
                yield from part

    stats = statistics(
        module.GAME_ID, players, seed, options, kinds, until_interrupted(rows(), stopped)
    )
    stats.base = dict(base or {})
    stats.planned = games
    if stopped:  # Ctrl-C: the finished games as a partial report, nothing more played
        stats.stopped = True
        return stats, findings(module, stats)
    if skill:
        stats.skill = skill_of(players, extra[: len(gauge)])
    _count_coverage(stats, extra[len(gauge) :])
    found = findings(module, stats)
    stats.alternatives = alternatives(module, data, stats, found, workers=workers)
    return stats, found


def _played(module, data, batches: list[Batch], workers: int | None = None) -> list[list[tuple]]:
    """Each batch's playout summaries, the batches run through one pool."""
    parts: list[list[tuple]] = [[] for _ in batches]
    if batches:
        for index, part in run_batches(module, data, batches, workers=workers):
            parts[index] += part
    return parts


_STOP = [False]  # set by Ctrl-C within until_interrupted(): the runs end after the task in hand


def until_interrupted(rows: Iterable, stopped: list[bool]) -> Iterator:
    """The rows until Ctrl-C; then `stopped` holds True and the rows so far are all there is.
    Ctrl-C only sets a flag that the runs look at between tasks, so wherever it lands (in the
    statistics of a row, in a wait) no half-counted game is left."""
    _STOP[0] = False

    def stop(signum, frame) -> None:
        _STOP[0] = True

    try:
        previous = signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread: Ctrl-C is not ours to handle
        previous = None
    try:
        yield from rows
    except KeyboardInterrupt:
        _STOP[0] = True
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if _STOP[0]:
        stopped.append(True)
        _STOP[0] = False


def coverage_batches(module, st: Stats | Batch, games: int) -> list[Batch]:
    """Varied players (every kind of action the rules allow, engine.VariedPlayer) in every
    seat: which kinds of action some player can take at all (none without ACTION_TYPES)."""
    if not getattr(module, "ACTION_TYPES", None) or games <= 0:
        return []
    return [Batch(st.players, games, st.seed * 17 + 3, dict(st.options), ("varied",) * st.players)]


def _count_coverage(st: Stats, parts: list[list[tuple]]) -> None:
    for rows in parts:
        for row in rows:
            st.coverage_games += 1
            for name, _n in row[10]:
                st.coverage[name] = st.coverage.get(name, 0) + 1


def coverage(module, data, st: Stats, games: int) -> None:
    """The coverage playouts of coverage_batches, counted into `st.coverage`."""
    _count_coverage(st, _played(module, data, coverage_batches(module, st, games)))


def skill_batches(players: int, games: int, seed: int, options: dict) -> list[Batch]:
    """One greedy player among random ones, in every seat in turn (a solo game: then a random
    player on the same deals)."""
    per_seat = max(1, games // players)
    out = [
        Batch(
            players,
            per_seat,
            seed * 31 + seat,
            dict(options),
            tuple("greedy" if i == seat else "random" for i in range(players)),
        )
        for seat in range(players)
    ]
    if players == 1:
        out.append(Batch(1, per_seat, seed * 31, dict(options), ("random",)))
    return out


def skill_of(players: int, parts: list[list[tuple]]) -> dict:
    """Does playing well pay? Counted over the games one seat won (a tie is no seat's: a game
    that often ties would put the greedy player below a fair share it can never reach); a solo
    game over every game finished, against the random player's rate."""
    won = played = 0
    for seat in range(players):
        for row in parts[seat]:
            finished, winners = row[1], row[7]
            if finished and (players == 1 or len(winners) == 1):
                played += 1
                won += winners == (seat,)
    low, high = wilson(won, played)
    baseline = 1 / players
    if players == 1:
        ended = [row for row in parts[1] if row[1]]
        baseline = sum(row[7] == (0,) for row in ended) / len(ended) if ended else 0.0
    return {
        "greedy_wins": won,
        "games": played,
        "rate": won / played if played else 0.0,
        "ci": (low, high),
        "baseline": baseline,
        **({"solo": True} if players == 1 else {}),  # other games' reports as they were
    }


def alternatives(
    module, data, st: Stats, found: list[Finding], games: int = 300, workers: int | None = None
) -> list[dict]:
    """For each option behind an error, every other value: does that reading make the game whole?"""
    involved: list[str] = []
    for f in found:
        if f.severity == "error":
            involved += [name for name in f.options if name not in involved]
    readings = [
        (name, value)
        for name in involved
        for value in module.OPTIONS[name].choices
        if value != st.options[name]
    ]
    batches = [
        Batch(st.players, games, st.seed, dict(st.options, **{name: value}), st.kinds)
        for name, value in readings
    ]
    out = []
    for (name, value), b, rows in zip(readings, batches, _played(module, data, batches, workers)):
        alt = statistics(module.GAME_ID, st.players, st.seed, b.options, st.kinds, rows)
        out.append(
            {
                "option": name,
                "value": value,
                "games": alt.games,
                "finished": alt.finished,
                "dead_ends": alt.dead_ends,
                "capped": alt.capped,
            }
        )
    return out
