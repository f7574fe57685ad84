"""A simulation written for the designer: Markdown from the statistics and findings (plain text,
no ReportLab).

Fed by rules/simulate.py; the PDF version with charts is drawn by render/report.py from the
same data.
"""

from __future__ import annotations

from ..i18n import _
from .findings import Finding
from .simulate import replay_words
from .statistics import Stats, faction_confound, smallest_difference, wilson


def replay_command(game: str, st: Stats, seed: int, module=None) -> str:
    """The command that replays one playout, naming only readings other than the defaults."""
    defaults = {k: o.default for k, o in module.OPTIONS.items()} if module else {}
    defaults.update(st.base)
    return replay_words(game, st.players, tuple(st.kinds), st.options, defaults, seed)


def finding_text(f: Finding, st: Stats, module, code: str = "") -> str:
    """One finding in words: what, the rule sentence, the reading in force, and how to replay it."""
    text = f.text
    if f.rule:
        text += f" — rule: 「{f.rule}」"
    if f.options:
        text += " — reading: " + ", ".join(f"{k}={v}" for k, v in f.options.items())
    if f.seed is not None:
        text += f" — replay: {code}{replay_command(st.game, st, f.seed, module)}{code}"
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
    out = ["", "| player kind | wins | of seat-games | rate | interval |", "|---|---|---|---|---|"]
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
    out = ["", "| faction | wins | of games | rate | interval |", "|---|---|---|---|---|"]
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
    out = [
        f"# {title} — {st.players} players, {st.games} games",
        "",
    ]
    if st.stopped:
        out += [
            f"**Stopped by the user after {st.games} of {st.planned} games: a partial report** "
            "(no skill signal, no other readings).",
            "",
        ]
    out += [
        f"Seed {st.seed}; players: {kinds}; readings: "
        + (", ".join(f"{k}={v}" for k, v in sorted(st.options.items())) or "none"),
        "",
    ]
    out += [
        "## Outcome",
        "",
        "| completed | dead ends | never end (step cap) |",
        "|---|---|---|",
        f"| {st.finished} ({st.completion:.1%}) | {st.dead_ends} | {st.capped} |",
        "",
    ]
    out += ["## Findings", ""]
    if not found:
        out.append("Nothing to report.")
    for f in found:
        out.append(f"- **{f.severity}** {finding_text(f, st, module, code='`')}")
    out.append("")
    if st.alternatives:
        out += [
            "## Other readings",
            "",
            "Each row changes one reading and plays again (fewer games):",
            "",
            "| reading | completed | dead ends | never end |",
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
            "## Wins per seat (after tie-breakers, 95 % interval)",
            "",
            "| seat | wins | rate | interval |",
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
                f"Over the {decided} games one seat won, a seat's share can be told from the "
                f"fair {fair:.0%} only when it differs by about "
                f"{smallest_difference(decided, fair):.1%} or more (95 % confidence, 80 % "
                "power); a smaller difference is no finding either way.",
            ]
        out += kind_rows(st) + faction_rows(st)
        out += [
            "",
            f"Ties for first before tie-breakers: {st.tied_before} "
            f"({st.tied_before / st.finished:.1%}); "
            f"after: {st.tied_after}; no winner: {st.no_winner}.",
            "",
        ]
        out += [
            "## Scores and length",
            "",
            "| | mean | median | 90th percentile | max |",
            "|---|---|---|---|---|",
            f"| winning score | {mean(st.winning_scores):.1f} | "
            f"{percentile(st.winning_scores, 0.5)} | "
            f"{percentile(st.winning_scores, 0.9)} | {max(st.winning_scores, default=0)} |",
            f"| decisions per game | {mean(st.lengths):.1f} | {percentile(st.lengths, 0.5)} | "
            f"{percentile(st.lengths, 0.9)} | {max(st.lengths, default=0)} |",
            f"| winner's lead over second | {mean(st.margins):.1f} | "
            f"{percentile(st.margins, 0.5)} | {percentile(st.margins, 0.9)} | "
            f"{max(st.margins, default=0)} |",
            f"| rounds | {mean(st.rounds):.1f} | {percentile(st.rounds, 0.5)} | "
            f"{percentile(st.rounds, 0.9)} | "
            f"{max(st.rounds, default=0)} |",
            "",
            "Mean score per seat: " + ", ".join(f"{m:.1f}" for m in st.score_mean),
            "",
        ]
    branches = getattr(module, "BRANCHES", {})
    if st.counters:
        out += ["## How often each rule fires", "", "| branch | games | times |", "|---|---|---|"]
        for name in sorted(st.counters):
            text = branches.get(name, name)
            out.append(f"| {text} | {st.counter_games.get(name, 0)} | {st.counters[name]} |")
        out.append("")
    kinds_of = getattr(module, "ACTION_TYPES", None) or {}
    if st.actions or kinds_of:
        varied = f" | tried ({st.coverage_games} games)" if st.coverage_games else ""
        out += [
            "## How often each kind of action is taken",
            "",
            f"| action | games | times{varied} |",
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
            "*tried*: games of players who pick a kind of action at random before an action "
            "(`--players-kind varied`), so that rarely offered actions are taken too.",
            "",
        ]
    if st.skill:
        sk = st.skill
        interval = f"(95 % interval {sk['ci'][0]:.1%}–{sk['ci'][1]:.1%})"
        said = (
            f"A greedy player wins {sk['rate']:.1%} of {sk['games']} finished games {interval}; "
            f"a random player wins {sk['baseline']:.1%} of the same deals."
            if sk.get("solo")
            else f"One greedy player among random ones wins {sk['rate']:.1%} of the {sk['games']} "
            f"games one seat won {interval}; a random player's share would be "
            f"{sk['baseline']:.1%}."
        )
        out += ["## Skill signal", "", said, ""]
    out += ["## Readings of the rules", ""]
    if not module.OPTIONS:
        out.append(
            "The rules module names no point the text leaves open (its `OPTIONS` are empty)."
        )
        return "\n".join(out) + "\n"
    out += ["| option | value here | choices | rule |", "|---|---|---|---|"]
    for name, opt in module.OPTIONS.items():
        choices = "; ".join(f"`{k}`: {v}" for k, v in opt.choices.items())
        out.append(f"| {name} | {st.options[name]} | {choices} | 「{opt.rule}」 ({opt.why}) |")
    return "\n".join(out) + "\n"
