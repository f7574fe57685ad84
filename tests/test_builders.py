"""Output builders: `pnp build --format` picks what is written; a file's bytes do not depend on
what else is built with it; every builder says which files it writes."""

from __future__ import annotations

import json

import pytest

from generator import builders
from generator.kinds import KINDS

from conftest import run


def built_files(root) -> list[str]:
    """The output files of every game (a game's folder links to its current set)."""
    out = root / "output"
    if not out.is_dir():
        return []
    games = [g for g in out.iterdir() if g.is_dir() and not g.name.startswith(".")]
    return sorted(p.name for g in games for p in g.iterdir() if p.is_file())


def test_default_formats_are_what_a_build_writes(tiny, tiny_built):
    assert builders.defaults() == [
        "cards",
        "tokens",
        "board",
        "dice",
        "rulebook",
        "summary",
        "summary-md",
    ]
    assert sorted(p.name for p in tiny_built.iterdir()) == [
        "cards.pdf",
        "rulebook.pdf",
        "summary.md",
        "summary.pdf",
    ]


@pytest.mark.parametrize(
    "formats, files",
    [
        (["summary-md"], ["summary.md"]),
        (["rulebook,summary"], ["rulebook.pdf", "summary.pdf"]),
        (["cards", "summary-md"], ["cards.pdf", "summary.md"]),
        (["board"], []),  # tiny has no board: nothing to write, and no error
    ],
)
def test_format_picks_the_files(tiny, formats, files):
    args = [a for f in formats for a in ("--format", f)]
    result = run("build", "--project", str(tiny), *args)
    assert result.exit_code == 0, result.output
    assert built_files(tiny) == files


def test_a_file_is_the_same_whatever_else_is_built(tiny, tiny_built):
    result = run("build", "--project", str(tiny), "--format", "rulebook")
    assert result.exit_code == 0, result.output
    assert (tiny / "output/tiny/rulebook.pdf").read_bytes() == (
        tiny_built / "rulebook.pdf"
    ).read_bytes()


def test_unknown_format_is_named_with_the_known_ones(tiny):
    result = run("build", "--project", str(tiny), "--format", "cards,pngs")
    assert result.exit_code == 1
    assert (
        "error: unknown format 'pngs' (formats: cards, tokens, board, dice, rulebook, summary, "
        in result.output
    )
    assert not (tiny / "output").exists()


def test_kit_writes_each_kind_to_its_builder(kit_built):
    assert sorted(p.name for p in kit_built.iterdir()) == [
        "board-a3.pdf",
        "board.pdf",
        "cards.pdf",
        "dice.pdf",
        "tokens.pdf",
    ]


def test_each_builder_lists_the_files_it_writes(kit, tiny):
    """`files()` says what `build()` writes, for every builder that applies to a game."""
    from generator import pipeline
    from generator.project import find_project

    for root in (kit, tiny):
        project = find_project(root)
        result = pipeline.build(project, [], pipeline.Options())
        (plan,) = result.plans
        written = sorted(p.name for p in result.written)
        listed = sorted(
            f
            for b in builders.REGISTRY.values()
            if b.default and b.applies(plan)
            for f in b.files(plan)
        )
        assert written == listed


def test_every_sheet_kind_has_a_builder():
    for kind in KINDS.values():
        if kind.layout == "sheets":
            assert kind.output in builders.REGISTRY


def test_simulation_format_plays_every_player_count(tmp_path):
    import tomllib

    from conftest import REPO

    result = run(
        "build",
        "fudaraku",
        "--project",
        str(REPO),
        "--out",
        str(tmp_path),
        "--format",
        "simulation",
    )
    assert result.exit_code == 0, result.output
    manifest = tomllib.loads((REPO / "cards/fudaraku/game.toml").read_text(encoding="utf-8"))
    lo, hi = manifest["game"]["players"]["min"], manifest["game"]["players"]["max"]
    names = sorted(p.name for p in (tmp_path / "fudaraku").iterdir())
    assert names == sorted(
        f"simulation-{n}p.{e}" for n in range(lo, hi + 1) for e in ("json", "md", "pdf")
    )
    stats = json.loads((tmp_path / f"fudaraku/simulation-{lo}p.json").read_text(encoding="utf-8"))
    assert stats["players"] == lo and stats["games"] == 1000
    # The report PDF prints the figures the JSON's histograms give (value -> games).
    import re

    from pdfread import all_text

    def figures(hist: dict) -> tuple[str, str]:
        counts = sorted((int(v), n) for v, n in hist.items())
        total = sum(n for _v, n in counts)
        seen, median = 0, None
        for value, n in counts:
            seen += n
            if median is None and seen >= total / 2:
                median = value
        return f"{sum(v * n for v, n in counts) / total:.1f}", str(median)

    text = all_text(tmp_path / f"fudaraku/simulation-{lo}p.pdf").replace("\n", " ")
    won, length, lead = (figures(stats[k]) for k in ("winning_scores", "lengths", "margins"))
    said = re.search(r"Winning score: mean (\S+), median (\S+); decisions: mean (\S+)\.", text)
    assert said and said.groups() == (*won, length[0]), text
    said = re.search(r"lead over second: mean (\S+), median (\S+)\.", text)
    assert said and said.groups() == lead, text
