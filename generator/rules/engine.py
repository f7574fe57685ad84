"""The rules engine's common ground: seeds and random streams, options, players, and one playout.

Fed by a game's rules module (cards/<id>/rules.py) and the data its `prepare()` takes from the
model; returns plain results. Runs without ReportLab. The hot path is the game's own
`legal_actions()` and `apply()`; this module stays out of its way.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..i18n import _
from ..problems import BuildError


def known(values: tuple | list, card, column: str) -> int:
    """The index of a card's value among those the rules give meaning to (the three resource
    colours, the four elements); any other value is the designer's to fix, named by its cell."""
    value = card.fields[column]
    if value in values:
        return values.index(value)
    raise BuildError(
        _(
            "the rules engine knows {column} {values}, not {value!r} (card {card})",
            column=column,
            values=", ".join(map(str, values)),
            value=value,
            card=card.label(),
        ),
        card.where.at(column=column),
    )


class InvariantError(AssertionError):
    """A rule of the engine itself broke (cards lost, a dead end...): a bug or a rules hole."""


class UnknownOption(ValueError):
    pass


@dataclass(frozen=True)
class Option:
    """One reading of the rules where the text allows more than one (or says nothing)."""

    default: str
    choices: dict[str, str]  # value -> what it means, in a few words
    rule: str  # the sentence of the rules it comes from
    why: str  # what the text leaves open


def resolve_options(declared: dict[str, Option], given: dict[str, str] | None) -> dict[str, str]:
    out = {name: opt.default for name, opt in declared.items()}
    for name, value in (given or {}).items():
        if name not in declared:
            raise UnknownOption(
                _(
                    "unknown option '{name}' (options: {names})",
                    name=name,
                    names=", ".join(sorted(declared)) or _("none"),
                )
            )
        if value not in declared[name].choices:
            raise UnknownOption(
                _(
                    "option '{name}' must be one of {choices}, got '{value}'",
                    name=name,
                    choices=", ".join(declared[name].choices),
                    value=value,
                )
            )
        out[name] = value
    return out


def derive_seed(master: int, index: int) -> int:
    """Playout `index` of a run with `master` seed: stable across machines and Python versions."""
    digest = hashlib.sha256(f"{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def stream(seed: int, name: str) -> random.Random:
    """A random stream of its own for chance ("chance") and for each player's choices ("p0"…)."""
    digest = hashlib.sha256(f"{seed}/{name}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class RandomPlayer:
    kind = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.bits = rng.getrandbits

    def choose(self, state, actions: list) -> Any:
        return actions[self.rng.randrange(len(actions))] if len(actions) > 1 else actions[0]


class GreedyPlayer:
    """The game's own one-step heuristic (`greedy_value(state, action)`); ties broken at random."""

    kind = "greedy"

    def __init__(self, rng: random.Random, value: Callable):
        self.rng, self.value = rng, value

    def choose(self, state, actions: list) -> Any:
        if len(actions) == 1:
            return actions[0]
        best, picks = None, []
        for a in actions:
            v = self.value(state, a)
            if best is None or v > best:
                best, picks = v, [a]
            elif v == best:
                picks.append(a)
        return picks[self.rng.randrange(len(picks))] if len(picks) > 1 else picks[0]


def type_names(kind) -> tuple[str, ...]:
    """What a module's `action_type()` returns, as a tuple of names (a play that spends a
    resource and uses a skill is of several types at once)."""
    return kind if isinstance(kind, tuple) else (kind,)


def no_types(state, action) -> str:
    return "action"


class VariedPlayer:
    """Takes every kind of action the rules allow: first a kind of action at random among those
    legal (`action_type()`), then one of that kind. Random players rarely take a kind that has
    few actions (one hero card among a hand of eight); this one does, so every rule is tried."""

    kind = "varied"

    def __init__(self, rng: random.Random, typer: Callable):
        self.rng, self.typer = rng, typer

    def choose(self, state, actions: list) -> Any:
        if len(actions) == 1:
            return actions[0]
        by: dict = {}
        for a in actions:
            by.setdefault(self.typer(state, a), []).append(a)
        groups = list(by.values())
        pick = groups[self.rng.randrange(len(groups))]
        return pick[self.rng.randrange(len(pick))] if len(pick) > 1 else pick[0]


KINDS = ("random", "greedy", "varied", "ismcts", "probe")


def parse_kind(text: str) -> str:
    """A player kind as written on the command line: random, greedy, varied, ismcts (200
    iterations), ismcts:N (N iterations), ismcts:Nms (N milliseconds a move), either followed by
    :MOVES or :end (how far its playouts look: see search.py), or probe:NAME (a strategy the
    rules module names in STRATEGIES)."""
    name, _colon, budget = text.strip().partition(":")
    if name == "probe":
        if not budget:
            raise UnknownOption(
                _("{kind!r}: name the strategy, e.g. probe:always_chant", kind=text)
            )
        return text.strip()
    if name not in KINDS or (budget and name != "ismcts"):
        raise UnknownOption(
            _("unknown player kind {kind!r} (kinds: {kinds})", kind=text, kinds=", ".join(KINDS))
        )
    if budget:
        from .search import parse_budget, parse_horizon

        budget, _colon, moves = budget.partition(":")
        try:
            iterations, seconds = parse_budget(budget)
        except ValueError:
            iterations, seconds = 0, None
        if (iterations or 0) <= 0 and not seconds:
            raise UnknownOption(
                _(
                    "{kind!r}: give the search a budget, e.g. ismcts:200 (iterations) or "
                    "ismcts:50ms",
                    kind=text,
                )
            )
        try:
            parse_horizon(moves, None)
        except ValueError:
            raise UnknownOption(
                _(
                    "{kind!r}: a playout's horizon is a number of moves or 'end', e.g. "
                    "ismcts:200:30 or ismcts:200:end",
                    kind=text,
                )
            ) from None
    return text.strip()


@dataclass
class Playout:
    """One game played: how it ended and what it showed."""

    seed: int
    players: int
    kinds: tuple[str, ...]
    finished: bool = False  # reached a terminal state
    dead_end: bool = False  # a non-terminal state with no legal action
    capped: bool = False  # the step cap stopped it
    steps: int = 0
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)  # after tie-breakers
    tied_before: bool = False  # more than one best before tie-breakers
    rounds: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    log: list[str] | None = None
    actions: dict[str, int] = field(default_factory=dict)  # action type -> times taken
    factions: tuple[str, ...] = ()  # each seat's faction (tribe, element…), if the game has them


def make_players(module, kinds: tuple[str, ...], seed: int) -> list:
    out = []
    typer = getattr(module, "action_type", no_types)
    for i, kind in enumerate(kinds):
        rng = stream(seed, f"p{i}")
        if kind == "greedy":
            out.append(GreedyPlayer(rng, module.greedy_value))
        elif kind == "varied":
            out.append(VariedPlayer(rng, typer))
        elif kind.startswith("probe:"):
            out.append(GreedyPlayer(rng, module.STRATEGIES[kind[6:]][1]))
        elif kind.startswith("ismcts"):
            from .search import IsmctsPlayer, parse_budget, parse_horizon

            _name, _colon, spec = kind.partition(":")
            budget, _colon, moves = spec.partition(":")
            iterations, seconds = parse_budget(budget or "200")
            horizon = parse_horizon(moves, module.ROLLOUT_MOVES)
            out.append(IsmctsPlayer(rng, module.STEP_CAP, iterations, seconds, horizon))
        else:
            out.append(RandomPlayer(rng))
    return out


def shown_hands(state, actions) -> list[str]:
    """What a player sees before a decision, for a replay: every hand (the module's
    `show_hand(seat)`, else its `hands` with each card by `card_name(card)` or the data's
    `names`) and the moves the rules allow, as the module describes them."""
    out = []
    show = getattr(state, "show_hand", None)
    hands = getattr(state, "hands", None)
    if show is not None or isinstance(hands, list):
        seats = range(len(hands)) if isinstance(hands, list) else range(state.players)
        name = getattr(state, "card_name", None)
        names = getattr(state, "data", {}).get("names") if name is None else None
        parts = []
        for seat in seats:
            if show is not None:
                text = show(seat)
            else:
                cards = hands[seat]
                text = "・".join(
                    name(c) if name else names[c] if names and isinstance(c, int) else str(c)
                    for c in cards
                )
            parts.append(f"P{seat + 1}［{text}］")
        out.append("　手札　" + "　".join(parts))
    moves = [state.describe(a).split("：", 1)[-1] for a in actions]
    out.append("　選べる手　" + " | ".join(moves))
    return out


def play(
    module,
    data,
    players: int,
    seed: int,
    options: dict[str, str],
    kinds: tuple[str, ...] | None = None,
    check: bool = False,
    log: bool = False,
    types: bool = False,
    show_hands: bool = False,
) -> Playout:
    """One game from its seed to the end (or the step cap), with invariants checked if asked;
    with `types`, how often each type of action was taken (the module's `action_type()`)."""
    kinds = kinds or ("random",) * players
    state = module.new_state(data, players, seed, options)
    agents = make_players(module, kinds, seed)
    result = Playout(seed, players, kinds, log=[] if log else None)
    cap = module.STEP_CAP
    steps = 0
    typer = getattr(module, "action_type", None) if types else None
    taken = result.actions
    legal, apply, over = state.legal_actions, state.apply, state.is_terminal
    if not (log or check or typer) and all(type(a) is RandomPlayer for a in agents):
        # the hot loop of random players, their choice (RandomPlayer.choose) written out
        bits = [agent.bits for agent in agents]
        while not over():
            if steps >= cap:
                result.capped = True
                break
            actions = legal()
            n = len(actions)
            if n > 1:
                get, k = bits[state.current_player], n.bit_length()
                r = get(k)
                while r >= n:
                    r = get(k)
                apply(actions[r])
            elif n:
                apply(actions[0])
            else:
                result.dead_end = True
                break
            steps += 1
    while not result.capped and not result.dead_end and not state.is_terminal():
        if steps >= cap:
            result.capped = True
            break
        actions = state.legal_actions()
        if not actions:
            result.dead_end = True
            break
        player = state.current_player
        if log and show_hands:
            result.log += shown_hands(state, actions)
        action = agents[player].choose(state, actions)
        if log:
            line = state.describe(action)
        if typer is not None:
            for name in type_names(typer(state, action)):
                taken[name] = taken.get(name, 0) + 1
        state.apply(action)
        if log:
            note = getattr(state, "note", "")
            result.log.append(f"{line}　→ {note}" if note else line)
        steps += 1
        if check:
            state.check_invariants()
    result.steps = steps
    result.finished = state.is_terminal()
    result.rounds = state.round
    result.counters = dict(state.counters)
    if result.finished:
        result.scores = list(state.scores())
        result.winners, result.tied_before = state.winners()
        factions = getattr(state, "factions", None)
        if factions is not None:
            result.factions = tuple(factions())
        if check:
            state.check_end()
    if log:
        result.log.append(state.describe_end())
    return result
