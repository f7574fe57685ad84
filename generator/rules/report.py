"""A simulation written for the designer: Markdown from the statistics and findings (plain text,
no ReportLab).

Fed by rules/simulate.py; the PDF version with charts is drawn by render/report.py from the
same data.
"""

from __future__ import annotations

from ..i18n import _
from .findings import Finding
from .modules import words
from .simulate import replay_words
from .statistics import Stats, faction_confound, smallest_difference, wilson


def replay_command(game: str, st: Stats, seed: int, module=None) -> str:
    """The command that replays one playout, naming only readings other than the defaults."""
    defaults = {k: o.default for k, o in module.OPTIONS.items()} if module else {}
    defaults.update(st.base)
    return replay_words(game, st.players, tuple(st.kinds), st.options, defaults, seed)


def finding_text(f: Finding, st: Stats, module, code: str = "") -> str:
    """One finding in words: what, the rule sentence, the reading in force, and how to replay it."""
    text = f.said()
    if f.rule:
        text += " — " + _("rule: 「{rule}」", rule=f.rule)
    if f.options:
        text += " — " + _(
            "reading: {readings}", readings=", ".join(f"{k}={v}" for k, v in f.options.items())
        )
    if f.seed is not None:
        command = f"{code}{replay_command(st.game, st, f.seed, module)}{code}"
        text += " — " + _("replay: {command}", command=command)
    return text


def percentile(hist: dict[int, int], q: float) -> int:
    total = sum(hist.values())
    if not total:
        return 0
    need, seen = q * total, 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= need:
            return value
    return max(hist)


def mean(hist: dict[int, int]) -> float:
    total = sum(hist.values())
    return sum(v * n for v, n in hist.items()) / total if total else 0.0


def by_kind(st: Stats) -> list[tuple[str, int, int, tuple[float, float]]]:
    """(kind, games it won alone, seat-games, 95 % interval) for each player kind in the run,
    when there is more than one: does the skilled player beat the others?"""
    kinds = sorted(set(st.kinds))
    if len(kinds) < 2:
        return []
    out = []
    for kind in kinds:
        seats = [i for i, k in enumerate(st.kinds) if k == kind]
        won, games = sum(st.wins[i] for i in seats), st.finished * len(seats)
        out.append((kind, won, games, wilson(won, games)))
    return out


def kind_rows(st: Stats) -> list[str]:
    rows = by_kind(st)
    if not rows:
        return []
    out = [
        "",
        _("| player kind | wins | of seat-games | rate | interval |"),
        "|---|---|---|---|---|",
    ]
    for kind, won, games, (low, high) in rows:
        rate = won / games if games else 0.0
        out.append(f"| {kind} | {won} | {games} | {rate:.1%} | {low:.1%}–{high:.1%} |")
    return out


def by_faction(st: Stats) -> list[tuple[str, int, int, tuple[float, float]]]:
    """(faction, games it won alone, games it played, 95 % interval), by name."""
    return [
        (name, won, games, wilson(won, games)) for name, (games, won) in sorted(st.factions.items())
    ]


def faction_rows(st: Stats) -> list[str]:
    if not st.factions:
        return []
    out = ["", _("| faction | wins | of games | rate | interval |"), "|---|---|---|---|---|"]
    for name, won, games, (low, high) in by_faction(st):
        rate = won / games if games else 0.0
        out.append(f"| {name} | {won} | {games} | {rate:.1%} | {low:.1%}–{high:.1%} |")
    if said := confound_text(st):
        out += ["", said]
    return out


def confound_text(st: Stats) -> str | None:
    """Whether the factions' results can be read as the factions' own: not when they sat
    unevenly (the seat, or the order of picking, is in them)."""
    found = faction_confound(st)
    if found is None:
        return None
    name, seat, share = found
    return _(
        "Factions and seats are confounded: {name} was played from seat {seat} in {share} of "
        "its games (an even spread is {fair}), so a faction's wins include its seats' (and the "
        "order of picking); play a reading that deals the factions at random, where the rules "
        "module has one, to tell them apart.",
        name=name,
        seat=seat + 1,
        share=f"{share:.0%}",
        fair=f"{1 / st.players:.0%}",
    )


def figures(st: Stats, found: list[Finding], module) -> dict:
    """What the report PDF prints beyond the counts Stats holds, worked out as plain values."""
    return {
        "findings": [(f.severity, finding_text(f, st, module)) for f in found or []],
        "winning": (mean(st.winning_scores), percentile(st.winning_scores, 0.5)),
        "decisions": mean(st.lengths),
        "lead": (mean(st.margins), percentile(st.margins, 0.5)),
        "kinds": by_kind(st),
        "factions": by_faction(st) if st.factions else [],
        "confound": confound_text(st) if st.factions else None,
        "actions": words(module, "actions", "ACTION_TYPES"),
        "branches": words(module, "branches", "BRANCHES"),  # each counter in the game's words
        "skill": skill_fields(st.skill) if st.skill else None,
    }


def skill_fields(sk: dict) -> dict:
    """The skill signal's figures as its sentences print them."""
    return {
        "rate": f"{sk['rate']:.1%}",
        "games": sk["games"],
        "low": f"{sk['ci'][0]:.1%}",
        "high": f"{sk['ci'][1]:.1%}",
        "baseline": f"{sk['baseline']:.1%}",
    }


def sweep_figures(cells) -> list[dict]:
    """Per cell of a sweep: the seats' spread of win rates, the winner's lead and the game's
    length, each a mean."""
    from .sweep import spread

    return [
        {
            "spread": spread(c.stats),
            "lead": mean(c.stats.margins),
            "decisions": mean(c.stats.lengths),
        }
        for c in cells
    ]


def markdown(title: str, module, st: Stats, found: list[Finding]) -> str:
    kinds = ", ".join(st.kinds)
    readings = ", ".join(f"{k}={v}" for k, v in sorted(st.options.items())) or _("none")
    out = [
        "# " + _("{title} — {n} players, {games} games", title=title, n=st.players, games=st.games),
        "",
    ]
    if st.stopped:
        out += [
            _(
                "**Stopped by the user after {games} of {planned} games: a partial report** "
                "(no skill signal, no other readings).",
                games=st.games,
                planned=st.planned,
            ),
            "",
        ]
    out += [
        _(
            "Seed {seed}; players: {kinds}; readings: {readings}",
            seed=st.seed,
            kinds=kinds,
            readings=readings,
        ),
        "",
    ]
    out += [
        "## " + _("Outcome"),
        "",
        _("| completed | dead ends | never end (step cap) |"),
        "|---|---|---|",
        f"| {st.finished} ({st.completion:.1%}) | {st.dead_ends} | {st.capped} |",
        "",
    ]
    out += ["## " + _("Findings"), ""]
    if not found:
        out.append(_("Nothing to report."))
    for f in found:
        out.append(f"- **{_(f.severity)}** {finding_text(f, st, module, code='`')}")
    out.append("")
    if st.alternatives:
        out += [
            "## " + _("Other readings"),
            "",
            _("Each row changes one reading and plays again (fewer games):"),
            "",
            _("| reading | completed | dead ends | never end |"),
            "|---|---|---|---|",
        ]
        for alt in st.alternatives:
            out.append(
                f"| {alt['option']}={alt['value']} | {alt['finished']}/{alt['games']} | "
                f"{alt['dead_ends']} | "
                f"{alt['capped']} |"
            )
        out.append("")
    if st.finished:
        out += [
            "## " + _("Wins per seat (after tie-breakers, 95 % interval)"),
            "",
            _("| seat | wins | rate | interval |"),
            "|---|---|---|---|",
        ]
        for seat, wins in enumerate(st.wins):
            low, high = st.win_ci[seat]
            out.append(f"| {seat + 1} | {wins} | {wins / st.finished:.1%} | {low:.1%}–{high:.1%} |")
        decided = st.finished - st.tied_after - st.no_winner
        if st.players > 1 and decided:
            fair = 1 / st.players
            out += [
                "",
                _(
                    "Over the {decided} games one seat won, a seat's share can be told from the "
                    "fair {fair} only when it differs by about {smallest} or more (95 % "
                    "confidence, 80 % power); a smaller difference is no finding either way.",
                    decided=decided,
                    fair=f"{fair:.0%}",
                    smallest=f"{smallest_difference(decided, fair):.1%}",
                ),
            ]
        out += kind_rows(st) + faction_rows(st)
        out += [
            "",
            _(
                "Ties for first before tie-breakers: {before} ({share}); after: {after}; "
                "no winner: {none}.",
                before=st.tied_before,
                share=f"{st.tied_before / st.finished:.1%}",
                after=st.tied_after,
                none=st.no_winner,
            ),
            "",
        ]

        def row(label: str, hist: dict[int, int]) -> str:
            return (
                f"| {label} | {mean(hist):.1f} | {percentile(hist, 0.5)} | "
                f"{percentile(hist, 0.9)} | {max(hist, default=0)} |"
            )

        out += [
            "## " + _("Scores and length"),
            "",
            _("| | mean | median | 90th percentile | max |"),
            "|---|---|---|---|---|",
            row(_("winning score"), st.winning_scores),
            row(_("decisions per game"), st.lengths),
            row(_("winner's lead over second"), st.margins),
            row(_("rounds"), st.rounds),
            "",
            _("Mean score per seat: {means}", means=", ".join(f"{m:.1f}" for m in st.score_mean)),
            "",
        ]
    branches = words(module, "branches", "BRANCHES")
    if st.counters:
        out += [
            "## " + _("How often each rule fires"),
            "",
            _("| branch | games | times |"),
            "|---|---|---|",
        ]
        for name in sorted(st.counters):
            text = branches.get(name, name)
            out.append(f"| {text} | {st.counter_games.get(name, 0)} | {st.counters[name]} |")
        out.append("")
    kinds_of = words(module, "actions", "ACTION_TYPES")
    if st.actions or kinds_of:
        varied = " | " + _("tried ({n} games)", n=st.coverage_games) if st.coverage_games else ""
        out += [
            "## " + _("How often each kind of action is taken"),
            "",
            _("| action | games | times") + f"{varied} |",
            "|---|---|---|" + ("---|" if varied else ""),
        ]
        for name in list(kinds_of) + sorted(set(st.actions) - set(kinds_of)):
            tried = f" | {st.coverage.get(name, 0)}" if varied else ""
            out.append(
                f"| {kinds_of.get(name, name)} | {st.action_games.get(name, 0)} | "
                f"{st.actions.get(name, 0)}{tried} |"
            )
        out += [
            "",
            _(
                "*tried*: games of players who pick a kind of action at random before an action "
                "(`--players-kind varied`), so that rarely offered actions are taken too."
            ),
            "",
        ]
    if st.skill:
        sk, fields = st.skill, skill_fields(st.skill)
        said = (
            _(
                "A greedy player wins {rate} of {games} finished games (95 % interval "
                "{low}–{high}); a random player wins {baseline} of the same deals.",
                **fields,
            )
            if sk.get("solo")
            else _(
                "One greedy player among random ones wins {rate} of the {games} games one seat "
                "won (95 % interval {low}–{high}); a random player's share would be {baseline}.",
                **fields,
            )
        )
        out += ["## " + _("Skill signal"), "", said, ""]
    out += ["## " + _("Readings of the rules"), ""]
    if not module.OPTIONS:
        out.append(
            _("The rules module names no point the text leaves open (its `OPTIONS` are empty).")
        )
        return "\n".join(out) + "\n"
    whys, said = words(module, "open_points"), words(module, "choices")
    out += [_("| option | value here | choices | rule |"), "|---|---|---|---|"]
    for name, opt in module.OPTIONS.items():
        choices = "; ".join(f"`{k}`: {said.get(f'{name}.{k}', v)}" for k, v in opt.choices.items())
        why = whys.get(name, opt.why)
        out.append(f"| {name} | {st.options[name]} | {choices} | 「{opt.rule}」 ({why}) |")
    return "\n".join(out) + "\n"
