"""A project from someone else may ship an output folder of its own (git, tar and zip keep
links). pnp writes only into an output folder it made, follows no link there it did not make,
and never deletes or hard-links anything outside; builds into one folder take turns."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, interruptible, run


def _outside(tmp_path: Path) -> Path:
    """A folder beside the project with a designer's own files, one named like the game."""
    outside = tmp_path / "Downloads"
    (outside / "tiny").mkdir(parents=True)
    (outside / "tiny" / "letter.txt").write_text("mine", encoding="utf-8")
    (outside / "notes.txt").write_text("mine too", encoding="utf-8")
    return outside


def _untouched(outside: Path) -> None:
    assert (outside / "tiny" / "letter.txt").read_text(encoding="utf-8") == "mine"
    assert (outside / "notes.txt").read_text(encoding="utf-8") == "mine too"
    found = sorted(str(p.relative_to(outside)) for p in outside.rglob("*"))
    assert found == ["notes.txt", "tiny", "tiny/letter.txt"], found  # nothing written there
    for path in outside.rglob("*"):
        if path.is_file():
            assert os.stat(path).st_nlink == 1, path  # hard-linked into the project


def _refused(result, what: str) -> None:
    assert result.exit_code == 1, result.output
    assert "will not write into" in result.output and what in result.output, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("link", [".sets", "tiny"])
def test_a_shipped_link_out_of_the_output_folder_is_refused(tiny, tmp_path, link):
    """output/.sets (the sets a build removes) or output/<game> (whose files a build carries
    on) linked to a folder outside the project."""
    outside = _outside(tmp_path)
    (tiny / "output").mkdir()
    os.symlink(outside, tiny / "output" / link)
    _refused(run("build", "--project", str(tiny)), f"output/{link}")
    _untouched(outside)


def test_a_cache_folder_linked_out_is_refused(tiny, tmp_path):
    outside = _outside(tmp_path)
    assert run("build", "--project", str(tiny)).exit_code == 0
    fonts = tiny / "output" / ".cache" / "fonts"
    if fonts.exists():
        import shutil

        shutil.rmtree(fonts)
    os.symlink(outside, fonts)
    (tiny / "cards/tiny/cards.csv").write_text(
        (tiny / "cards/tiny/cards.csv").read_text(encoding="utf-8").replace("一番", "いちばん"),
        encoding="utf-8",
    )
    _refused(run("build", "--project", str(tiny)), "fonts")
    _untouched(outside)


def test_a_link_planted_inside_a_set_is_not_carried_on(tiny, tmp_path):
    outside = _outside(tmp_path)
    assert run("build", "--project", str(tiny)).exit_code == 0
    live = (tiny / "output" / "tiny").resolve()
    os.symlink(outside / "notes.txt", live / "notes.txt")
    os.symlink(outside, live / "more")
    assert run("build", "--project", str(tiny), "--format", "summary-md").exit_code == 0
    now = (tiny / "output" / "tiny").resolve()
    assert now != live and not (now / "notes.txt").exists() and not (now / "more").exists()
    assert (now / "cards.pdf").is_file()  # pnp's own files go on
    _untouched(outside)


@pytest.mark.parametrize("where", ["cards", "layouts", ".", "cards/tiny", ".."])
def test_out_may_not_be_the_project_s_sources(tiny, where):
    before = sorted(str(p.relative_to(tiny)) for p in tiny.rglob("*"))
    r = run("build", "--project", str(tiny), "--out", str(tiny / where))
    assert r.exit_code == 1, r.output
    assert "the project's own sources" in r.output and "internal error" not in r.output
    assert sorted(str(p.relative_to(tiny)) for p in tiny.rglob("*")) == before


def test_out_into_a_folder_of_someone_s_files_is_refused(tiny, tmp_path):
    outside = _outside(tmp_path)
    _refused(run("build", "--project", str(tiny), "--out", str(outside)), "notes.txt")
    _untouched(outside)
    assert not (outside / "tiny").is_symlink()


def test_out_into_an_empty_folder_makes_it_pnp_s(tiny, tmp_path):
    out = tmp_path / "prints"
    out.mkdir()
    assert run("build", "--project", str(tiny), "--out", str(out)).exit_code == 0
    assert (out / ".pnp-output").is_file() and (out / "tiny" / "cards.pdf").is_file()
    assert run("build", "--project", str(tiny), "--out", str(out)).exit_code == 0


def _build(project: Path, *args: str) -> subprocess.Popen:
    env = dict(os.environ, PNP_LANG="en")
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "build", "--project", str(project), "-q", *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=interruptible,
    )


def test_two_builds_at_once_take_turns_and_leave_a_whole_set(tiny):
    """pnp watch rebuilding while the designer types pnp build: both finish, and the game's
    folder is a whole set every time (a build removed the other's new set before)."""
    assert run("build", "--project", str(tiny)).exit_code == 0
    csv = tiny / "cards/tiny/cards.csv"
    text = csv.read_text(encoding="utf-8")
    for n in range(2):
        csv.write_text(text.replace("一番", f"一番{n}"), encoding="utf-8")
        a = _build(tiny, "--format", "cards,summary")
        b = _build(tiny, "--format", "cards,rulebook")
        for p in (a, b):
            out, _ = p.communicate(timeout=240)
            assert p.returncode == 0, out.decode()
        game = tiny / "output" / "tiny"
        assert game.is_dir(), f"round {n}: output/tiny is a dangling link"
        names = sorted(p.name for p in game.iterdir())
        assert {"cards.pdf", "rulebook.pdf", "summary.pdf"} <= set(names), (n, names)


def test_a_build_waits_while_another_writes_into_the_folder(tiny):
    """Held by another build (here: this test), the folder's lock makes a build wait its turn,
    then finish with a whole set."""
    fcntl = pytest.importorskip("fcntl")
    assert run("build", "--project", str(tiny)).exit_code == 0
    with open(tiny / "output" / ".pnp-lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        waiting = _build(tiny, "--format", "cards", "--paper", "letter")
        try:
            out, _ = waiting.communicate(timeout=6)
            raise AssertionError(f"the build did not wait: {out.decode()}")
        except subprocess.TimeoutExpired:
            pass
        fcntl.flock(held, fcntl.LOCK_UN)
    out, _ = waiting.communicate(timeout=240)
    assert waiting.returncode == 0, out.decode()
    assert (tiny / "output" / "tiny" / "cards.pdf").is_file()
