"""simulation-<N>p.md, .json and .pdf: what playing a game many times by machine found.

Fed by the rules engine's statistics and findings (plain data); `pnp simulate` writes through
this builder, and `pnp build --format simulation` plays every player count and writes them all.
The report PDF has its own font subsets: its words are not the game's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..cache import Cache
from ..fonts import FontIndex
from ..layout.plan import Plan, game_fonts
from ..model import Game
from . import Builder, Job, use_common_glyphs

REPORT_WORDS = "シミュレーション人・ゲーム·•"  # the PDF's own heading words, either language


@dataclass
class SimulationResult:
    """One batch of playouts of one game at one player count, as the report needs it."""

    module: object  # the game's rules module
    stats: object  # rules.statistics.Stats
    found: list  # rules.findings.Finding


def report_files(
    game: Game, result: SimulationResult, out: Path, font_index: FontIndex, cache: Cache
) -> dict[Path, bytes]:
    from ..render import report as render_report
    from ..rules import report, statistics

    st = result.stats
    text = report.markdown(game.title, result.module, st, result.found)
    payload = json.dumps(
        statistics.to_json(st, result.found), ensure_ascii=False, indent=1, sort_keys=True
    )
    names = _report_fonts(game, text, font_index, cache)
    figures = report.figures(st, result.found, result.module)
    pdf = render_report.report_pdf(game.title, result.module, st, figures, names)
    stem = f"simulation-{st.players}p"
    return {
        out / f"{stem}.md": text.encode("utf-8"),
        out / f"{stem}.json": (payload + "\n").encode("utf-8"),
        out / f"{stem}.pdf": pdf,
    }


def _report_fonts(game: Game, words: str, font_index: FontIndex, cache: Cache) -> dict[str, str]:
    """The game's fonts, subset for a report's words, registered with ReportLab: role -> name."""
    from ..render import fonts as render_fonts

    fonts = game_fonts(game, font_index)
    use_common_glyphs(fonts)
    for role in fonts.metrics:
        fonts.use(role, words + game.title + REPORT_WORDS)
    return render_fonts.register(fonts, cache)


def sweep_pdf(
    game: Game, module, cells, games: int, seed: int, words: str, font_index, cache
) -> bytes:
    """sweep.pdf in the game's own fonts; `words` is the sweep's Markdown (its glyphs)."""
    from ..render import report as render_report
    from ..rules import report

    names = _report_fonts(game, words + "スイープ■", font_index, cache)
    figures = report.sweep_figures(cells)
    return render_report.sweep_pdf(game.title, cells, figures, games, seed, names)


class SimulationBuilder(Builder):
    name = "simulation"
    what = "simulation-<N>p.md/.json/.pdf: every player count played by machine (slow; not default)"
    default = False
    needs = "the game's rules module and a simulation per player count"

    def applies(self, plan: Plan) -> bool:
        from ..rules import modules

        return modules.ref_for(plan.game) is not None

    def files(self, plan: Plan) -> list[str]:
        lo, hi = plan.game.manifest.players
        return [
            f"simulation-{n}p.{ext}" for n in range(lo, hi + 1) for ext in ("md", "json", "pdf")
        ]

    def build(self, job: Job) -> dict[Path, bytes]:
        """Every player count, the designer's readings (game.toml [readings] over the literal
        ones) and the default batch size."""
        from ..problems import Problems
        from ..rules import engine, modules, simulate

        game = job.plan.game
        module = modules.rules_for(game)
        data = modules.guarded(module, module.prepare, game)
        problems = Problems()
        chosen = modules.chosen_readings(game, module, problems)
        problems.raise_if_errors()
        options = engine.resolve_options(module.OPTIONS, chosen)
        lo, hi = game.manifest.players
        files: dict[Path, bytes] = {}
        for players in range(lo, hi + 1):
            stats, found = simulate.batch(
                module, data, players, options, ("random",) * players, base=options
            )
            result = SimulationResult(module, stats, found)
            files.update(report_files(game, result, job.out, job.font_index, job.cache))
        return files
