"""A game's outputs are one set: a build killed at any instant leaves either the whole previous
set or the whole new one, and the next build leaves no temporary behind."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import edit, make_fixture_project, run

KILLER = """
import os, sys, pathlib, atexit
k = int(os.environ["KILL_AT"]); n = [0]
def hook(f):
    def g(*a, **kw):
        n[0] += 1
        if n[0] == k:
            os._exit(9)
        return f(*a, **kw)
    return g
if os.environ.get("NO_LINKS"):  # a Windows set-up without symbolic links
    def no_symlink(*a, **kw):
        raise OSError(1, "symbolic links are not allowed")
    os.symlink = no_symlink
os.rename, os.replace, os.symlink, os.link = (hook(os.rename), hook(os.replace),
                                              hook(os.symlink), hook(os.link))
pathlib.Path.write_bytes = hook(pathlib.Path.write_bytes)
atexit.register(lambda: sys.stderr.write(f"\\nOPERATIONS {n[0]}\\n"))
sys.argv = ["pnp", *sys.argv[1:]]
from generator.cli import main
main()
"""


def files(game_dir) -> dict[str, bytes]:
    if not game_dir.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in game_dir.iterdir() if p.is_file()}


def killed_build(root, at: int, links: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ, KILL_AT=str(at), NO_LINKS="" if links else "1")
    return subprocess.run(
        [sys.executable, "-c", KILLER, "build", "--project", str(root)],
        capture_output=True,
        text=True,
        env=env,
    )


def leftovers(root) -> list[str]:
    out = root / "output"
    found = [p.name for p in out.iterdir() if p.name.startswith(".tiny.")]
    found += [p.name for p in (out / ".sets").iterdir()]
    found += [p.name for p in (out / "tiny").iterdir() if p.name.startswith(".")]
    return found


def set_aside(root) -> dict[str, bytes]:
    """A previous set moved aside when the build was killed before the new one took its place
    (only where links cannot be made); the next build puts it back."""
    aside = [p for p in (root / "output/.sets").iterdir() if "@old-" in p.name]
    return files(aside[0]) if len(aside) == 1 else {}


@pytest.mark.parametrize("links", [True, False], ids=["links", "no-links"])
def test_a_killed_build_leaves_the_old_set_or_the_new_one(tmp_path, links):
    root = make_fixture_project("tiny", tmp_path)
    if links:
        assert run("build", "--project", str(root)).exit_code == 0
    else:
        assert killed_build(root, 10**9, links=False).returncode == 0
        assert not (root / "output/tiny").is_symlink()
    old = files(root / "output/tiny")
    edit(root, "cards/tiny/cards.csv", "二の青。", "にの青。")
    expected = make_fixture_project("tiny", tmp_path / "expected")
    edit(expected, "cards/tiny/cards.csv", "二の青。", "にの青。")
    assert run("build", "--project", str(expected)).exit_code == 0
    new = files(expected / "output/tiny")
    assert new != old and sorted(new) == sorted(old)

    # Kill never: count the file-system operations, once every cache has seen the edited cards
    # (a cache written only on a first build would make later builds shorter).
    assert killed_build(root, 10**9, links).returncode == 0
    (root / "cards/tiny/cards.csv").touch()  # a real build, not one skipped as unchanged
    counted = killed_build(root, 10**9, links)
    total = int(counted.stderr.rsplit("OPERATIONS", 1)[1])
    assert total >= 8
    # Rebuild the old state, then kill at every operation.
    edit(root, "cards/tiny/cards.csv", "にの青。", "二の青。")
    assert killed_build(root, 10**9, links).returncode == 0
    edit(root, "cards/tiny/cards.csv", "二の青。", "にの青。")
    mid_way = aside = 0
    for at in range(1, total + 1):
        result = killed_build(root, at, links)
        assert result.returncode == 9, result.stderr
        now = files(root / "output/tiny")
        if not now and not links:  # between the two renames: the old set waits in .sets/
            now = set_aside(root)
            aside += 1
        assert now in (old, new), f"killed at operation {at} of {total}: a mixed set"
        if at == total:  # killed just before the switch, the last operation: still the old set
            assert now == old
        mid_way += any(p.name.endswith(".staging") for p in (root / "output/.sets").iterdir())
    assert mid_way, "no kill fell while a new set was being written"
    assert aside == (0 if links else 1)
    # The next build leaves one set (or, without links, the folder itself) and no temporary.
    assert killed_build(root, 10**9, links).returncode == 0
    assert files(root / "output/tiny") == new
    sets = list((root / "output/.sets").iterdir())
    if links:
        assert len(sets) == 1 and not sets[0].name.endswith(".staging")
        assert leftovers(root) == [sets[0].name]
    else:
        assert sets == [] and leftovers(root) == []


def test_a_partial_format_build_keeps_the_rest_of_the_set(tiny, tiny_built):
    assert run("build", "--project", str(tiny)).exit_code == 0
    edit(tiny, "cards/tiny/rules.md", "数字を比べるゲームです。", "数を比べる遊びです。")
    assert run("build", "--project", str(tiny), "--format", "summary-md").exit_code == 0
    now = files(tiny / "output/tiny")
    assert sorted(now) == ["cards.pdf", "rulebook.pdf", "summary.md", "summary.pdf"]
    assert now["rulebook.pdf"] == (tiny_built / "rulebook.pdf").read_bytes()


@pytest.mark.parametrize("where", ["game", "out"])
def test_a_file_in_the_way_is_a_message(tiny, tmp_path, where):
    if where == "game":
        (tiny / "output").mkdir()
        (tiny / "output/tiny").write_text("not a folder")
        args = []
        named = "output/tiny"
    else:
        (tmp_path / "afile").write_text("x")
        args = ["--out", str(tmp_path / "afile" / "out")]
        named = "afile"
    result = run("build", "--project", str(tiny), *args)
    assert result.exit_code == 1, result.output
    assert (
        "a file is in the way where a folder should be" in result.output and named in result.output
    )
    assert "internal error" not in result.output


@pytest.mark.parametrize(
    "error, words",
    [
        (PermissionError(13, "Permission denied"), "permission denied; make the folder writable"),
        (OSError(28, "No space left on device"), "the disk is full writing"),
        (OSError(30, "Read-only file system"), "the disk is read-only"),
    ],
)
def test_a_file_system_failure_is_a_message_and_keeps_the_old_set(
    tiny, tiny_built, monkeypatch, error, words
):
    import pathlib
    import shutil

    shutil.copytree(tiny_built.parent, tiny / "output", symlinks=True)
    before = files(tiny / "output/tiny")
    edit(tiny, "cards/tiny/cards.csv", "二の青。", "にの青。")
    real = pathlib.Path.write_bytes

    def failing(self, data):
        if ".sets" in self.parts:  # the output set, not the font cache
            raise error
        return real(self, data)

    monkeypatch.setattr(pathlib.Path, "write_bytes", failing)
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 1, result.output
    assert words in result.output and "internal error" not in result.output
    assert files(tiny / "output/tiny") == before
    assert not [p for p in (tiny / "output/.sets").iterdir() if p.name.endswith(".staging")]


def test_a_set_left_aside_by_a_killed_build_is_put_back_even_if_the_next_build_fails(
    tiny, monkeypatch
):
    """Without links, a build killed between its two renames leaves no output/<game>; the next
    build puts the previous set back before it writes, so a failure then still shows it."""
    import pathlib

    assert killed_build(tiny, 10**9, links=False).returncode == 0
    edit(tiny, "cards/tiny/cards.csv", "二の青。", "にの青。")
    assert killed_build(tiny, 10**9, links=False).returncode == 0  # every cache warm
    # The operations of a build like the one killed below: an edit undone, each face found
    # in the cache, and the cache told which faces this build has.
    edit(tiny, "cards/tiny/cards.csv", "にの青。", "二の青。")
    counted = killed_build(tiny, 10**9, links=False)
    total = int(counted.stderr.rsplit("OPERATIONS", 1)[1])
    edit(tiny, "cards/tiny/cards.csv", "二の青。", "にの青。")
    assert killed_build(tiny, 10**9, links=False).returncode == 0
    old = files(tiny / "output/tiny")
    edit(tiny, "cards/tiny/cards.csv", "にの青。", "二の青。")
    assert killed_build(tiny, total, links=False).returncode == 9
    assert not (tiny / "output/tiny").exists() and set_aside(tiny) == old

    real = pathlib.Path.write_bytes

    def full_disk(self, data):
        if ".sets" in self.parts:
            raise OSError(28, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(pathlib.Path, "write_bytes", full_disk)
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 1 and "the disk is full" in result.output
    assert files(tiny / "output/tiny") == old


def test_a_set_with_subfolders_replaces_the_folders_it_writes_and_keeps_the_rest(tmp_path):
    """png/card/ written again holds only the new images (a card removed leaves no stale
    image); the files and folders this build did not write stay as they were."""
    from generator import output

    game = tmp_path / "out" / "g"
    output.write_all(
        {
            game / "cards.pdf": b"sheets",
            game / "png/card/a-front.png": b"a",
            game / "png/chip/c.png": b"c",
        },
        [game],
    )
    output.write_all({game / "png/card/b-front.png": b"b"}, [game])
    assert sorted(p.relative_to(game).as_posix() for p in game.rglob("*") if p.is_file()) == [
        "cards.pdf",
        "png/card/b-front.png",
        "png/chip/c.png",
    ]
    assert (game / "cards.pdf").read_bytes() == b"sheets"


def test_an_output_folder_linked_out_of_the_project_is_written_only_when_named(tmp_path):
    """A project may be someone else's: an output/ linking elsewhere (a folder there named like
    a game would be replaced) is refused; --out names it deliberately."""
    root = make_fixture_project("tiny", tmp_path)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "tiny").mkdir(parents=True)
    (elsewhere / "tiny/mine.txt").write_text("not pnp's", encoding="utf-8")
    (root / "output").symlink_to(elsewhere, target_is_directory=True)
    r = run("build", "--project", str(root))
    assert r.exit_code == 1
    assert "output/ is a symbolic link out of the project" in r.output
    assert f"--out {elsewhere}" in r.output
    assert sorted(p.name for p in (elsewhere / "tiny").iterdir()) == ["mine.txt"]
    assert run("build", "--project", str(root), "--out", str(tmp_path / "chosen")).exit_code == 0
    assert (tmp_path / "chosen/tiny/cards.pdf").is_file()
