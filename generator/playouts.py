"""`pnp simulate`, its sweeps and probes, on one screen: load the game, play it by the rules
package (rules/running.py), write the reports as one set beside the game's other files.
"""

from __future__ import annotations

import json

from . import output
from .cache import Cache
from .fonts import FontIndex
from .i18n import _
from .pipeline import load
from .problems import BuildError, Problems
from .project import Project
from .rules import running
from .rules.running import SimulateOptions, SweepOptions, player_kinds

__all__ = ["SimulateOptions", "SweepOptions", "player_kinds", "probes", "simulate", "sweep"]


def _playable(project: Project, game_id: str, limits, say=None):
    """The game, loaded and sound, and its rules module; `say` hears that the project's code
    runs."""
    problems = Problems()
    game = load(project, game_id, problems, limits)
    if game is None or problems.has_errors:
        raise BuildError([p for p in problems.items if p.level == "error"])
    module = running.rules_module(game)
    if say is not None:
        say(
            _(
                "{path}: runs the game's rules module, Python code from the project",
                path=module.RULES_REF.shown,
            )
        )
    return game, module


def _fonts(project: Project, root, game_id: str) -> tuple[FontIndex, Cache]:
    cache = Cache.for_output(root, writable=True, writing=frozenset([game_id]))
    return FontIndex([project.root / "fonts"], cache), cache


def _text(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)


def simulate(project: Project, game_id: str, opts: SimulateOptions, progress=None, say=None):
    """Play a game many times by machine; write simulation.md/.json/.pdf; or replay one seed."""
    from .builders.simulation import SimulationResult, report_files

    game, module = _playable(project, game_id, opts.limits, say)
    if opts.replay is not None:
        return {"replay": running.replay(game, module, opts)}
    stats, found = running.simulation(game, module, opts, progress)
    root = project.output_for(opts.out)
    out = root / game_id
    font_index, cache = _fonts(project, root, game_id)
    files = report_files(game, SimulationResult(module, stats, found), out, font_index, cache)
    written = output.write_all(files, [out])
    markdown, payload = (
        files[out / f"simulation-{stats.players}p.{ext}"] for ext in ("md", "json")
    )
    return {
        "stats": stats,
        "findings": found,
        "markdown": markdown.decode("utf-8"),
        "json": payload.decode("utf-8").rstrip("\n"),
        "written": written,
        "stopped": stats.stopped,
    }


def sweep(project: Project, game_id: str, opts: SweepOptions, progress=None, say=None) -> dict:
    """The grid of readings × player counts × player kinds: sweep.md, .json and .pdf."""
    from .builders.simulation import sweep_pdf

    game, module = _playable(project, game_id, opts.limits, say)
    cells, markdown, data = running.sweep(game, module, opts, progress)
    payload = _text(data)
    root = project.output_for(opts.out)
    out = root / game_id
    font_index, cache = _fonts(project, root, game_id)
    pdf = sweep_pdf(game, module, cells, opts.games, opts.seed, markdown, font_index, cache)
    files = {
        out / "sweep.md": markdown.encode(),
        out / "sweep.json": (payload + "\n").encode(),
        out / "sweep.pdf": pdf,
    }
    return {
        "markdown": markdown,
        "json": payload,
        "written": output.write_all(files, [out]),  # the game's other files stay
        "cells": cells,
        "stopped": any(c.stats.stopped for c in cells),
    }


def probes(project: Project, game_id: str, opts: SimulateOptions, progress=None, say=None) -> dict:
    """Each of the module's STRATEGIES against a field of players: probes.md and probes.json."""
    game, module = _playable(project, game_id, opts.limits, say)
    found, markdown, data = running.probes(game, module, opts, progress)
    payload = _text(data)
    out = project.output_for(opts.out) / game_id
    files = {out / "probes.md": markdown.encode(), out / "probes.json": (payload + "\n").encode()}
    return {
        "markdown": markdown,
        "json": payload,
        "written": output.write_all(files, [out]),
        "stopped": any(p.stopped for p in found),
    }
