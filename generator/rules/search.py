"""A skilled player for any game through the common contract: information-set Monte Carlo tree
search (single-observer ISMCTS). Each iteration deals the cards the player cannot see anew
(the state's `determinize(player, rng)`, when the game has hidden information), walks a tree of
the player's and the others' actions by UCB (counting how often each action was available),
plays the rest of the game at random, and credits each action's mover with the outcome.
A game whose state can `estimate()` the points as they stand may cut the playouts short
(`ROLLOUT_MOVES` in its module, or `ismcts:N:MOVES`): after that many random moves the seats
leading the estimate are credited as if the game had ended there.

No game's code is here: the search asks the state for legal actions, applies them to copies
(`clone_state`, or the state's own `clone(rng)`), and reads `is_terminal()` and `winners()`.
Seeded by the player's own stream, so a game with search players replays exactly.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

EXPLORATION = 0.7  # UCB's constant; rewards are in [0, 1]
# What a list may hold and be copied one level deep: nothing in it can change in place.
_FLAT = frozenset({int, float, str, bool, type(None), tuple, frozenset})


def clone_state(state, rng: random.Random):
    """A copy of a state to play forward on: lists, dicts and sets copied two levels deep (hands
    in a list of hands, markers per area per player), the module's prepared `data` and the
    readings shared, and its chance stream replaced by `rng` (so the search never draws from the
    real game's chance)."""
    own = getattr(state, "clone", None)
    if own is not None:
        return own(rng)
    return _Copier(state)(state, rng)


class _Copier:
    """How to copy one state, worked out once for the many copies a search makes of it: which
    attributes are shared (numbers, names, the prepared data, the readings), which lists hold
    only such values (copied one level), which hold lists, dicts or sets (two levels)."""

    def __init__(self, state) -> None:
        fields = state.__dict__
        data = fields.get("data")
        shared = {id(v) for v in data.values()} if isinstance(data, dict) else set()
        self.flat: list[str] = []
        self.nested: list[str] = []
        self.dicts: list[str] = []
        self.sets: list[str] = []
        self.streams: list[str] = []
        for key, value in fields.items():
            if key in ("data", "opt", "options") or id(value) in shared:
                continue
            if isinstance(value, list):
                flat = _FLAT.issuperset(map(type, value))  # numbers, names, pairs: one level
                (self.flat if flat else self.nested).append(key)
            elif isinstance(value, dict):
                self.dicts.append(key)
            elif isinstance(value, set):
                self.sets.append(key)
            elif isinstance(value, random.Random):
                self.streams.append(key)

    def __call__(self, state, rng: random.Random):
        fields = state.__dict__
        copy = fields.copy()
        for key in self.flat:
            copy[key] = fields[key][:]
        for key in self.nested:
            copy[key] = [x.copy() if isinstance(x, _DEEP) else x for x in fields[key]]
        for key in self.dicts:
            copy[key] = {
                k: (v.copy() if isinstance(v, _DEEP) else v) for k, v in fields[key].items()
            }
        for key in self.sets:
            copy[key] = set(fields[key])
        for key in self.streams:
            copy[key] = rng
        new = object.__new__(type(state))
        new.__dict__ = copy
        return new


_DEEP = (list, dict, set)


class _Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """'200' → 200 iterations; '50ms' → 50 milliseconds."""
    if text.endswith("ms"):
        return None, float(text[:-2]) / 1000
    return int(text), None


def parse_horizon(text: str, default: int | None) -> int | None:
    """How far a playout looks before it is judged by the estimate: '' → the module's
    ROLLOUT_MOVES, 'end' → to the end of the game, '30' → 30 moves."""
    if not text:
        return default
    if text == "end":
        return None
    moves = int(text)
    if moves <= 0:
        raise ValueError(text)
    return moves


class IsmctsPlayer:
    """Chooses by single-observer ISMCTS within a budget of iterations or milliseconds."""

    kind = "ismcts"

    def __init__(
        self,
        rng: random.Random,
        cap: int,
        iterations: int | None = 200,
        seconds: float | None = None,
        horizon: int | None = None,
    ):
        self.rng, self.cap = rng, cap
        self.iterations, self.seconds = iterations, seconds
        self.horizon = horizon  # moves a playout looks ahead (None: to the end)

    def choose(self, state, actions: list) -> Any:
        if len(actions) == 1:
            return actions[0]
        me = state.current_player
        root = _Node()
        own = getattr(state, "clone", None)  # the state's own copy, else one worked out here
        copier = (lambda _state, rng: own(rng)) if own is not None else _Copier(state)
        rng = self.rng
        stop = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while True:
            if stop is not None:
                if done and time.perf_counter() >= stop:
                    break
            elif done >= self.iterations:
                break
            self._iterate(state, me, root, rng, copier)
            done += 1
        best, most = actions[0], -1
        for a in actions:  # the most visited of the actions legal now
            child = root.children.get(a)
            if child is not None and child.visits > most:
                best, most = a, child.visits
        return best

    def _iterate(self, state, me: int, root: _Node, rng: random.Random, copier) -> None:
        s = copier(state, rng)  # chance in the copy draws from the search's own stream
        determinize = getattr(s, "determinize", None)
        if determinize is not None:
            determinize(me, rng)
        node, path, steps = root, [], 0
        while not s.is_terminal() and steps < self.cap:
            legal = s.legal_actions()
            if not legal:
                break
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            mover = s.current_player
            if untried:
                a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = children[a] = _Node()
                s.apply(a)
                path.append((child, mover))
                steps += 1
                break
            best, chosen = -1.0, legal[0]
            for a in legal:
                c = children[a]
                score = c.reward / c.visits + EXPLORATION * math.sqrt(math.log(c.avail) / c.visits)
                if score > best:
                    best, chosen = score, a
            node = children[chosen]
            s.apply(chosen)
            path.append((node, mover))
            steps += 1
        # the rest of the game at random, or as far as the horizon when the state can estimate
        # the points
        over, legal_of, play, below, cap = (
            s.is_terminal,
            s.legal_actions,
            s.apply,
            rng.randrange,
            self.cap,
        )
        estimate = getattr(s, "estimate", None) if self.horizon else None
        limit = cap if estimate is None else min(cap, steps + self.horizon)
        n = 1
        while steps < limit and not over():
            legal = legal_of()
            n = len(legal)
            if not n:
                break
            play(legal[below(n)] if n > 1 else legal[0])
            steps += 1
        if estimate is not None and steps < cap and not over() and n:
            rewards = _leaders(estimate())
        else:
            rewards = _outcome(s)
        for child, mover in path:
            child.visits += 1
            child.reward += rewards.get(mover, 0.0)


def _leaders(points) -> dict[int, float]:
    """A playout cut short: each seat with the most points estimated gets its share."""
    best = max(points)
    top = [p for p, v in enumerate(points) if v == best]
    return {p: 1.0 / len(top) for p in top}


def _outcome(state) -> dict[int, float]:
    """Each winner's share: 1 for a sole winner, split on a tie; nothing for the rest, or for
    a game that did not end."""
    if not state.is_terminal():
        return {}
    winners, _tied = state.winners()
    return {w: 1.0 / len(winners) for w in winners}
