"""Refactors change no output: every file a build writes is byte-identical to what the generator
of a
reference commit writes from the same project.

Both builds read the same cards/ and layouts/ and run on the same installed libraries, so a
designer's edit to a shipped game changes both alike and breaks nothing here. When a change
means to alter what is printed (new crop marks, a new rulebook style), move REFERENCE to the
commit that makes it, and say so in that commit's message.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conftest import REPO, own_base, run

# The commit whose base tuck box layout spaces its names by the field `gap` (older code refuses
# it; the outputs are the same bytes as ee527df's). Earlier references: ee527df (reports spaced
# and bulleted by printed words), 8a9e680 (every summary set in two columns), 327a135 (the
# rulebook on a 40-character line), a1bce69 (the words of words.txt kept whole), fd8539f
# (breakdowns named by their column's label), ca4ec3e (a card's steps and items hung
# under their text), 5e0fb12 (sample cards floated past a page's foot), 66cc1c3
# (summaries kept at 8 pt or more), 07938a9 (rulebook text justified, consecutive 約物 in
# 1.5 em), f190450 (sheet PDFs through ReportLab's public API alone), 8da9dc7 (sheets in
# exact micrometres, every cut line marked, a long proof page flowed, board tiles cut
# where the overlap starts), e1f83b7 (card and token sheets sharing one resource
# dictionary), 6afa69a (forms named by what they draw), 31f0e4b (the skill signal counts
# the games one seat won), 0750bcf (tiled boards with crop marks at the board's
# corners), 7770f7f (proof pages wrap their lines inside the margins), 535571c
# (simulation reports say whether they were stopped early), 4b39ac6 (the winner's lead
# and wins per faction), bd58ff1 (each faction's games per seat), 8b3f915 (the
# bounds of never and always), 5ba87e0 (補陀落渡海しよう！'s English edition in its manifest,
# which older code refuses; its Japanese files compared by hand with the code before: the
# same bytes), ae2e503 (kinds of
# action counted), e6a19c1 ([readings] in 補陀落渡海しよう！'s manifest, which older code
# refuses), 4c234c3 (a tuck box glued inside the back), the first tuck boxes, 6b9ed44
# (fold-over sheets in the base sheets.toml),
# 39f1795 (a placeholder-art box in each shipped game), 229cac5 (headings kept with
# their samples), the 3-player removal declared in にゃんばーわん！'s manifest (older code
# refuses the key), ddd9785 (full-width digits on a card), 3edd1f4 (the designer's
# words), 7d9c348 (digits), dc3dadd (provisional content), 7ca4b49 (rulebooks typeset
# anew), 599ec4f (a title set vertically), 56517d2 (crop marks inside the printable
# area), 19e75fe, 2dcdbff, 535571c (stand-ins for missing art drawn once as forms: the
# same pixels).
REFERENCE = "84f919fd14ec60ebe81a6f8fad0148b3c5facebf"


def _reference_generator(dest: Path) -> Path | None:
    """The reference commit's generator/ package, unpacked under dest; None without git history."""
    if shutil.which("git") is None:
        return None
    try:
        data = subprocess.run(
            ["git", "-C", str(REPO), "archive", "--format=tar", REFERENCE, "generator"],
            capture_output=True,
            check=True,
        ).stdout
    except subprocess.CalledProcessError:
        return None
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def _files(folder: Path) -> dict[str, bytes]:
    """Every output file under an output folder, as `<game>/<name>` (a game's folder may be a
    link to its current set; hidden folders such as .cache and .sets are the tool's own)."""
    return {
        f"{game.name}/{p.name}": p.read_bytes()
        for game in sorted(folder.iterdir())
        if game.is_dir() and not game.name.startswith(".")
        for p in sorted(game.iterdir())
        if p.is_file() and not p.name.startswith(".")
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("reference")
    if _reference_generator(root / "code") is None:
        pytest.skip(f"this checkout lacks commit {REFERENCE[:10]} (a shallow clone?)")
    out = root / "out"
    # The same project for both: this checkout's games, with the tool's base layouts given as
    # the project's own (a reference from before they shipped in the package reads them there).
    project = root / "project"
    for name in ("cards", "layouts"):
        shutil.copytree(REPO / name, project / name)
    own_base(project)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from generator.cli import main; "
        "sys.argv = ['pnp', *sys.argv[2:]]; main()"
    )
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            str(root / "code"),
            "build",
            "--project",
            str(project),
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
        env=env,
    )
    return out


def test_every_built_file_is_byte_identical_to_the_reference(built, reference):
    ours, theirs = _files(built), _files(reference)
    assert sorted(ours) == sorted(theirs)
    differ = [name for name in ours if ours[name] != theirs[name]]
    assert not differ, f"these outputs changed against {REFERENCE[:10]}: {differ}"


def test_simulation_reports_are_byte_identical_to_the_reference(tmp_path, reference):
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from generator.cli import main; "
        "sys.argv = ['pnp', *sys.argv[2:]]; main()"
    )
    ref_code = reference.parent / "code"
    args = ["simulate", "fudaraku", "--project", str(REPO), "--players", "3", "--games", "60"]
    subprocess.run(
        [sys.executable, "-c", code, str(ref_code), *args, "--out", str(tmp_path / "ref")],
        check=True,
        capture_output=True,
    )
    result = run(*args, "--out", str(tmp_path / "new"))
    assert result.exit_code == 0, result.output
    ours, theirs = _files(tmp_path / "new"), _files(tmp_path / "ref")
    assert sorted(ours) == sorted(theirs) and len(ours) == 3
    assert [n for n in ours if ours[n] != theirs[n]] == []
