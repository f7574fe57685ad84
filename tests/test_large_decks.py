"""A deck larger than a build holds in memory (`layout.faces.HELD` cards) keeps none of its
faces: each is laid out again where it is drawn. What a designer gets must not tell the two
apart: every file byte for byte, every message said once, the comparison `pnp diff` makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_fixture_project, run

FORMATS = "cards,tokens,board,dice,rulebook,summary,printshop,png,tts,tuckbox"


def files_of(out: Path) -> dict[str, bytes]:
    """Every file of the build's games, by its path under output/GAME/."""
    found = {}
    for game in sorted(p for p in out.iterdir() if not p.name.startswith(".")):
        base = game.resolve()  # the game's output set
        for p in sorted(base.rglob("*")):
            if p.is_file():
                found[f"{game.name}/{p.relative_to(base)}"] = p.read_bytes()
    return found


def built(root: Path, out: str) -> tuple[str, dict[str, bytes]]:
    result = run("build", "--project", str(root), "--out", str(root / out), "--format", FORMATS)
    assert result.exit_code == 0, result.output
    return result.output.replace(str(root / out), "OUT"), files_of(root / out)


@pytest.mark.parametrize("game", ["tiny", "kit"])
def test_a_deck_laid_out_again_prints_the_same_bytes_and_says_the_same(game, tmp_path, monkeypatch):
    from generator.layout import faces

    held = make_fixture_project(game, tmp_path / "held")
    said, files = built(held, "out")
    assert any(name.endswith("cards.pdf") for name in files), sorted(files)

    again = make_fixture_project(game, tmp_path / "again")
    monkeypatch.setattr(faces, "HELD", 2)  # every deck of the fixture is "large"
    said_again, files_again = built(again, "out")
    assert said_again.replace(str(again), "ROOT") == said.replace(str(held), "ROOT")
    assert sorted(files_again) == sorted(files)
    # Tabletop Simulator's JSON names its images by their file:/// place
    same = {n: d.replace(str(again).encode(), str(held).encode()) for n, d in files_again.items()}
    differ = [name for name in files if files[name] != same[name]]
    assert not differ, differ


def test_a_large_deck_says_each_problem_once_and_diff_still_compares(tiny, monkeypatch):
    from generator.layout import faces

    monkeypatch.setattr(faces, "HELD", 2)
    long = "長い文。" * 40  # too long for its box on one card
    csv = tiny / "cards/tiny/cards.csv"
    rows = csv.read_text("utf-8").splitlines()
    rows[1] = ",".join(rows[1].split(",")[:3] + [long])
    csv.write_text("\n".join(rows) + "\n", "utf-8")
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "does not fit" in line]
    assert len(said) == 1 and "card 赤 1" in said[0], result.output

    rows[2] = rows[2].replace(rows[2].split(",")[3], "変えた文。")
    csv.write_text("\n".join(rows) + "\n", "utf-8")
    result = run("diff", "tiny", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    assert "変えた文。" in result.output, result.output
