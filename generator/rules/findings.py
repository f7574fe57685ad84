"""What a designer should hear about from a batch of playouts: each `Finding` with the rule
sentence it comes from, the readings in force and a seed that shows it, worked out from the
batch's `Stats` alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..i18n import N_, _
from .modules import words
from .statistics import wilson

SEAT = "seat"  # the key of a seat's finding: a sweep corrects them together

if TYPE_CHECKING:
    from .statistics import Stats


@dataclass
class Finding:
    """Something the playouts showed about a rule, with a seed that shows it."""

    severity: str  # error, warning, notice
    message: str
    players: int
    rule: str = ""  # the rule sentence it comes from
    options: dict[str, str] = field(default_factory=dict)  # the readings in force
    seed: int | None = None  # a playout that shows it: `pnp simulate --replay SEED`
    key: str = ""  # the branch counter it reports, if any
    in_check: bool = False  # a notice `check` says too (most are the report's alone)
    fields: dict = field(default_factory=dict)  # `message` is an English template of these
    # fields said otherwise in the language of messages (a module's words from its texts file)
    local: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The finding in English, as the report files print it."""
        return self.message.format(**self.fields)

    def said(self) -> str:
        """The finding in the language of messages, as `check` prints it."""
        return _(self.message, **{**self.fields, **self.local})


def rule_of_three(games: int) -> float:
    """The most a rate can be, 95 % of the time, when it was not seen in `games` tries: 3/n
    (the rule of three). "Never in 200 games" says under 1.5 %, not never."""
    return min(1.0, 3 / games) if games else 1.0


def findings(module, st: Stats) -> list[Finding]:
    """What a designer should hear about from one batch of playouts."""
    out: list[Finding] = []
    explain = getattr(module, "EXPLAIN", {})

    def add(severity: str, message: str, explained="", seed=None, rule="", **more) -> None:
        """A finding of this batch; `explained`: the outcome whose rule and reading the module
        names in EXPLAIN."""
        option = explain.get(explained)
        opts = {}
        if option and option in module.OPTIONS:
            rule, opts = module.OPTIONS[option].rule, {option: st.options[option]}
        out.append(Finding(severity, message, st.players, rule, opts, seed, **more))

    if st.dead_ends:
        add(
            "error" if st.dead_ends * 2 > st.games else "warning",
            N_(
                "{n} of {games} games reach a dead end: no player can act and the game has "
                "not ended"
            ),
            "dead_end",
            st.first_dead_end,
            fields={"n": st.dead_ends, "games": st.games},
        )
    if st.capped:
        add(
            "error",
            N_("{n} of {games} games never end (stopped after {cap} decisions)"),
            "capped",
            st.first_capped,
            fields={"n": st.capped, "games": st.games, "cap": module.STEP_CAP},
        )
    if st.finished and st.players == 1:  # a solo game: how often the player beats it
        low, high = st.win_ci[0]
        add(
            "notice",
            N_(
                "the player wins {share:.0%} of {games} finished games (95 % interval "
                "{low:.0%}–{high:.0%})"
            ),
            fields=dict(share=st.wins[0] / st.finished, low=low, high=high, games=st.finished),
            in_check=True,
        )
    if st.finished:
        expected = 1 / st.players
        # Seats against each other over the games one seat won: a tie or a game nobody won is
        # no seat's (over every finished game, a game that ties often put every seat below
        # its fair share). Nothing to compare in a solo game.
        decided = st.finished - st.tied_after - st.no_winner
        for seat in range(st.players if st.players > 1 and decided else 0):
            low, high = wilson(st.wins[seat], decided)
            # Flag only what a 99.5 % interval excludes: one test per seat at 95 % would cry wolf.
            strict_low, strict_high = wilson(st.wins[seat], decided, z=2.81)
            if strict_low > expected or strict_high < expected:
                message = (
                    N_(
                        "seat {seat} wins {share:.0%} of the {decided} games one seat won (95 % "
                        "interval {low:.0%}–{high:.0%}), more than the fair {fair:.0%}"
                    )
                    if low > expected
                    else N_(
                        "seat {seat} wins {share:.0%} of the {decided} games one seat won (95 % "
                        "interval {low:.0%}–{high:.0%}), less than the fair {fair:.0%}"
                    )
                )
                share = st.wins[seat] / decided
                fields = dict(seat=seat + 1, share=share, decided=decided, low=low, high=high)
                add("warning", message, key=SEAT, fields=fields | {"fair": expected})
        if st.no_winner:
            add(
                "warning",
                N_("{n} of {games} finished games have no winner"),
                "no_winner",
                st.first_seen.get("no_winner"),
                fields={"n": st.no_winner, "games": st.finished},
            )
        draw = getattr(module, "DRAW_RULE", None)
        tied = {"n": st.tied_after, "games": st.finished}
        if st.tied_after and draw:  # the rules call it a draw: a way the game ends
            add(
                "notice",
                N_("{n} of {games} finished games end in a draw, as the rules allow"),
                rule=draw,
                fields=tied,
            )
        elif st.tied_after:
            add(
                "warning",
                N_("{n} of {games} finished games stay tied after the tie-breakers"),
                fields=tied,
            )
    said = words(module, "branches")
    for name, text in getattr(module, "BRANCHES", {}).items():
        n = st.counter_games.get(name, 0)
        local = {"what": said[name]} if name in said else {}
        seen = st.first_seen.get(name)
        if n and n < st.games:
            add(
                "notice",
                N_("{what}: in {n} of {games} games"),
                name,
                seen,
                key=name,
                fields={"what": text, "n": n, "games": st.games},
                local=local,
            )
        elif n and st.games >= 20:
            add(
                "notice",
                N_(
                    "{what}: in every one of the {games} games (a rule that always fires; "
                    "in at least {bound:.0%} of games, 95 %)"
                ),
                name,
                seen,
                key=name + ":always",
                fields={"what": text, "games": st.games, "bound": 1 - rule_of_three(st.games)},
                local=local,
            )
        elif st.games >= 20:
            add(
                "notice",
                N_(
                    "{what}: never, in {games} games (a rule no playout reaches; in at most "
                    "{bound:.1%} of games, 95 %)"
                ),
                name,
                key=name + ":never",
                fields={"what": text, "games": st.games, "bound": rule_of_three(st.games)},
                local=local,
            )
    acts = words(module, "actions")
    for name, text in (getattr(module, "ACTION_TYPES", None) or {}).items():
        if st.action_games.get(name) or st.games < 20:
            continue
        local = {"what": acts[name]} if name in acts else {}
        fields = {"what": text, "games": st.games, "tried": st.coverage_games}
        if varied := st.coverage.get(name, 0):
            add(
                "notice",
                N_(
                    "{kinds} players never {what} in {games} games; players trying every "
                    "kind of action do, in {n} of {tried}"
                ),
                key="action:" + name,
                fields=fields | {"kinds": "/".join(sorted(set(st.kinds))), "n": varied},
                local=local,
            )
        else:
            add(
                "warning",
                N_(
                    "no player can {what}: not in {games} games, nor in {tried} of players "
                    "trying every kind of action (a rule that never comes into play)"
                ),
                key="action:" + name,
                fields=fields,
                local=local,
            )
    return out
