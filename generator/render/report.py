"""simulation.pdf: the simulation report with charts drawn by ReportLab's own graphics.

Fed by rules/simulate.py's statistics and findings (plain data) and rules/report.py's Markdown
helpers; returns bytes.
"""

from __future__ import annotations

import io

# isort: split
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle

from .. import i18n, printed
from ..i18n import _
from ..layout.units import MM
from .rulebook import TextBlock, styles

BAR = colors.HexColor("#3F5A96")
FAIR = colors.HexColor("#C8323C")


def _drawing(width: float, h: float, font: str) -> Drawing:
    """A chart's drawing whose text state starts in the game's font: a drawing starts in
    Helvetica otherwise, and the file names that font unembedded even where no text uses it."""
    d = Drawing(width, h)
    d.initialFontName = font
    return d


def _win_chart(st, font: str, width: float) -> Drawing:
    """Win rate per seat as bars, the 95 % interval as whiskers, the fair share as a red line."""
    h = 60 * MM
    d = _drawing(width, h, font)
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 12 * MM, 10 * MM, width - 20 * MM, h - 18 * MM
    rates = [w / st.finished if st.finished else 0 for w in st.wins]
    chart.data = [rates]
    chart.valueAxis.valueMin, chart.valueAxis.valueMax = 0, 1
    chart.valueAxis.valueStep = 0.25
    chart.valueAxis.labelTextFormat = lambda v: f"{v:.0%}"
    chart.valueAxis.labels.fontName = chart.categoryAxis.labels.fontName = font
    chart.categoryAxis.categoryNames = [f"P{i + 1}" for i in range(st.players)]
    chart.bars[0].fillColor = BAR
    d.add(chart)
    n = st.players
    slot = chart.width / n
    for i, (low, high) in enumerate(st.win_ci):
        x = chart.x + slot * (i + 0.5)
        d.add(
            Line(x, chart.y + low * chart.height, x, chart.y + high * chart.height, strokeWidth=1.2)
        )
    fair = chart.y + chart.height / n
    d.add(
        Line(chart.x, fair, chart.x + chart.width, fair, strokeColor=FAIR, strokeDashArray=[3, 2])
    )
    d.add(
        String(
            chart.x + chart.width - 2,
            fair + 2,
            f"{1 / n:.0%}",
            fontName=font,
            fontSize=7,
            fillColor=FAIR,
            textAnchor="end",
        )
    )
    return d


def _histogram(
    hist: dict[int, int], font: str, width: float, label: str, bins: int = 24
) -> Drawing:
    h = 50 * MM
    d = _drawing(width, h, font)
    if not hist:
        return d
    lo, hi = min(hist), max(hist)
    span = max(1, hi - lo + 1)
    size = max(1, -(-span // bins))
    counts = [0] * (-(-span // size))
    for value, n in hist.items():
        counts[(value - lo) // size] += n
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 12 * MM, 10 * MM, width - 20 * MM, h - 18 * MM
    chart.data = [counts]
    chart.barSpacing = 0
    chart.groupSpacing = 1
    chart.categoryAxis.categoryNames = [
        str(lo + i * size) if i % max(1, len(counts) // 8) == 0 else "" for i in range(len(counts))
    ]
    chart.valueAxis.labels.fontName = chart.categoryAxis.labels.fontName = font
    chart.valueAxis.valueMin = 0
    chart.bars[0].fillColor = BAR
    d.add(chart)
    d.add(String(chart.x, h - 6, label, fontName=font, fontSize=8))
    return d


def _table(rows, st_cell, width):
    t = Table(
        [[TextBlock(str(c), st_cell) for c in row] for row in rows],
        hAlign="LEFT",
        colWidths=[width / len(rows[0])] * len(rows[0]),
    )
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E8E2CC")),
                ("FONT", (0, 0), (-1, -1), st_cell.fontName),
            ]
        )
    )
    return t


def document(buf: io.BytesIO, title: str, fonts: dict[str, str]) -> SimpleDocTemplate:
    """An A4 report with 16 mm margins, reproducible bytes (invariant), the game's body font."""
    return SimpleDocTemplate(
        buf,
        pagesize=A4,
        leftMargin=16 * MM,
        rightMargin=16 * MM,
        topMargin=16 * MM,
        bottomMargin=16 * MM,
        title=title,
        author="pnp",
        creator="pnp generator",
        invariant=1,
        initialFontName=fonts["body"],
    )


def report_pdf(title: str, module, st, figures: dict, fonts: dict[str, str]) -> bytes:
    """simulation-<N>p.pdf: `st` the batch's counts (rules.statistics.Stats), `figures` what the
    rules package worked out of them (rules.report.figures)."""
    buf = io.BytesIO()
    doc = document(buf, f"{title} simulation", fonts)
    st_ = styles(fonts, 9.5)
    w = doc.width
    readings = ", ".join(f"{k}={v}" for k, v in sorted(st.options.items())) or _("none")
    gap = printed.say(i18n.language(), "　")  # between a line's parts
    story = [
        TextBlock(_("{title}: simulation", title=title), st_["title"]),
        TextBlock(
            _("{n} players · {games} games", n=st.players, games=st.games)
            + f"{gap}seed {st.seed}{gap}"
            + _("players: {kinds}", kinds=", ".join(st.kinds))
            + gap
            + _("readings: {readings}", readings=readings),
            st_["body"],
        ),
        TextBlock(_("Outcome"), st_["h2"]),
        _table(
            [
                [_("completed"), _("dead ends"), _("never end")],
                [f"{st.finished} ({st.completion:.1%})", str(st.dead_ends), str(st.capped)],
            ],
            st_["cell"],
            w,
        ),
        TextBlock(_("Findings"), st_["h2"]),
    ]
    for severity, text in figures["findings"]:
        story.append(
            TextBlock(f"[{_(severity)}] {text}", st_["item"], printed.say(i18n.language(), "・"))
        )
    if not figures["findings"]:
        story.append(TextBlock(_("Nothing to report."), st_["body"]))
    if st.alternatives:
        rows = [[_("reading"), _("completed"), _("dead ends"), _("never end")]]
        rows += [
            [
                f"{a['option']}={a['value']}",
                f"{a['finished']}/{a['games']}",
                str(a["dead_ends"]),
                str(a["capped"]),
            ]
            for a in st.alternatives
        ]
        story += [TextBlock(_("Other readings"), st_["h2"]), _table(rows, st_["cell"], w)]
    if st.finished:
        winning, median = figures["winning"]
        story += [
            TextBlock(
                _("Wins per seat (bars), 95 % interval (whiskers), fair share (red)"), st_["h3"]
            ),
            _win_chart(st, fonts["body"], w),
            TextBlock(
                _(
                    "Ties before tie-breakers {before}, after {after}, no winner {none}.",
                    before=st.tied_before,
                    after=st.tied_after,
                    none=st.no_winner,
                ),
                st_["body"],
            ),
            _histogram(st.lengths, fonts["body"], w, _("decisions per game")),
            _histogram(st.winning_scores, fonts["body"], w, _("winning score")),
            TextBlock(
                _(
                    "Winning score: mean {mean}, median {median}; decisions: mean {decisions}.",
                    mean=f"{winning:.1f}",
                    median=median,
                    decisions=f"{figures['decisions']:.1f}",
                ),
                st_["body"],
            ),
        ]
        kinds = figures["kinds"]
        if kinds:
            rows = [[_("player kind"), _("wins"), _("of seat-games"), _("interval")]]
            rows += [[k, str(w), str(g), f"{lo:.0%}–{hi:.0%}"] for k, w, g, (lo, hi) in kinds]
            story += [
                TextBlock(_("Wins per player kind"), st_["h3"]),
                _table(rows, st_["cell"], w),
            ]
        if figures["factions"]:
            rows = [[_("faction"), _("wins"), _("of games"), _("interval")]]
            rows += [
                [n, str(won), str(g), f"{lo:.0%}–{hi:.0%}"]
                for n, won, g, (lo, hi) in figures["factions"]
            ]
            story += [TextBlock(_("Wins per faction"), st_["h3"]), _table(rows, st_["cell"], w)]
            if figures["confound"]:
                story.append(TextBlock(figures["confound"], st_["body"]))
        lead, median = figures["lead"]
        story.append(
            TextBlock(
                _(
                    "Winner's lead over second: mean {mean}, median {median}.",
                    mean=f"{lead:.1f}",
                    median=median,
                ),
                st_["body"],
            )
        )
    branches = figures["branches"]
    if st.counters:
        rows = [[_("branch"), _("games"), _("times")]]
        rows += [
            [branches.get(n, n), str(st.counter_games.get(n, 0)), str(st.counters[n])]
            for n in sorted(st.counters)
        ]
        story += [
            TextBlock(_("How often each rule fires"), st_["h2"]),
            _table(rows, st_["cell"], w),
        ]
    kinds_of = figures["actions"]
    if st.actions or kinds_of:
        rows = [[_("action"), _("games"), _("times"), _("tried ({n} games)", n=st.coverage_games)]]
        rows += [
            [
                kinds_of.get(n, n),
                str(st.action_games.get(n, 0)),
                str(st.actions.get(n, 0)),
                str(st.coverage.get(n, 0)),
            ]
            for n in list(kinds_of) + sorted(set(st.actions) - set(kinds_of))
        ]
        story += [
            TextBlock(_("How often each kind of action is taken"), st_["h2"]),
            _table(rows, st_["cell"], w),
        ]
    if st.skill:
        sk, fields = st.skill, figures["skill"]
        story += [
            TextBlock(_("Skill signal"), st_["h2"]),
            TextBlock(
                _(
                    "A greedy player wins {rate} of {games} games (95 % interval {low}–{high}); "
                    "a random player {baseline} of the same deals.",
                    **fields,
                )
                if sk.get("solo")
                else _(
                    "One greedy player among random ones wins {rate} of the {games} games one "
                    "seat won (95 % interval {low}–{high}); fair share {baseline}.",
                    **fields,
                ),
                st_["body"],
            ),
        ]
    story += [Spacer(1, 4 * MM), TextBlock(_("Readings of the rules"), st_["h2"])]
    if module.OPTIONS:
        rows = [[_("option"), _("value"), _("rule")]]
        rows += [
            [name, st.options[name], f"「{opt.rule}」"] for name, opt in module.OPTIONS.items()
        ]
        story.append(_table(rows, st_["cell"], w))
    else:
        words = _("The rules module names no point the text leaves open (its OPTIONS are empty).")
        story.append(TextBlock(words, st_["body"]))
    doc.build(story)
    return buf.getvalue()


def _sweep_chart(cells, figures: list[dict], font: str, width: float) -> Drawing:
    """Per cell: the share of games that end (bars) and the spread of the seats' win rates."""
    h = 70 * MM
    d = _drawing(width, h, font)
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 12 * MM, 16 * MM, width - 20 * MM, h - 24 * MM
    chart.data = [
        [c.stats.completion for c in cells],
        [f["spread"] for f in figures],
    ]
    chart.valueAxis.valueMin, chart.valueAxis.valueMax = 0, 1
    chart.valueAxis.valueStep = 0.25
    chart.valueAxis.labelTextFormat = lambda v: f"{v:.0%}"
    chart.valueAxis.labels.fontName = chart.categoryAxis.labels.fontName = font
    chart.categoryAxis.labels.fontSize = 6
    chart.categoryAxis.categoryNames = [f"#{i + 1}" for i in range(len(cells))]
    chart.bars[0].fillColor = BAR
    chart.bars[1].fillColor = FAIR
    d.add(chart)
    for i, (label, colour) in enumerate(((_("games that end"), BAR), (_("seat spread"), FAIR))):
        d.add(
            String(
                chart.x + i * 45 * MM,
                3 * MM,
                f"■ {label}",
                fontName=font,
                fontSize=7,
                fillColor=colour,
            )
        )
    return d


def sweep_pdf(
    title: str, cells, figures: list[dict], games: int, seed: int, fonts: dict[str, str]
) -> bytes:
    """sweep.pdf: the cells side by side (a table and a chart), then each cell's findings;
    `figures` each cell's means (rules.report.sweep_figures)."""
    buf = io.BytesIO()
    doc = document(buf, f"{title} sweep", fonts)
    st_ = styles(fonts, 9.5)
    w = doc.width
    rows = [
        [
            "#",
            _("readings"),
            _("players"),
            _("ends"),
            _("seat spread"),
            _("ties after"),
            _("lead"),
            _("decisions"),
        ]
    ]
    for i, (c, fig) in enumerate(zip(cells, figures)):
        st = c.stats
        rows.append(
            [
                str(i + 1),
                ", ".join(f"{k}={v}" for k, v in c.readings.items()) or "—",
                f"{c.players} ({','.join(sorted(set(c.kinds)))})",
                f"{st.completion:.0%}",
                f"{fig['spread']:.0%}",
                str(st.tied_after),
                f"{fig['lead']:.1f}",
                f"{fig['decisions']:.1f}",
            ]
        )
    gap = printed.say(i18n.language(), "　")
    story = [
        TextBlock(_("{title}: sweep", title=title), st_["title"]),
        TextBlock(
            _("{n} cells × {games} games", n=len(cells), games=games) + f"{gap}seed {seed}",
            st_["body"],
        ),
        _table(rows, st_["cell"], w),
        Spacer(1, 4 * MM),
        _sweep_chart(cells, figures, fonts["body"], w),
    ]
    for i, c in enumerate(cells):
        said = [f for f in c.found if f.severity in ("error", "warning")]
        story.append(TextBlock(f"#{i + 1}{gap}{c.label}{gap}seed {c.seed}", st_["h3"]))
        for f in said or []:
            story.append(TextBlock(f"{_(f.severity)}: {f.said()}", st_["body"]))
        if not said:
            story.append(TextBlock(_("Nothing to report."), st_["body"]))
    doc.build(story)
    return buf.getvalue()
