"""A shared project's rules.py is Python with the rights of whoever runs pnp: nothing of it
runs until that person says so, at a terminal or with `pnp trust`; an edit asks again; `check`
without trust runs every check that needs no code. Planted code here writes a mark file when
it runs, so each test sees from outside whether it ran."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, interruptible, run

PLANT = (
    "import os as _os, pathlib as _pl\n"
    "_pl.Path(_os.environ['PNP_TEST_MARK']).write_text('ran', encoding='utf-8')\n"
)


@pytest.fixture
def planted(tiny, tmp_path, monkeypatch) -> Path:
    """The tiny game with a rules module that plays, and code in it that leaves a mark."""
    assert run("new", "tiny", "--rules", "--project", str(tiny)).exit_code == 0
    rules = tiny / "cards/tiny/rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n" + PLANT, encoding="utf-8")
    monkeypatch.delenv("PNP_TRUST_CODE", raising=False)
    monkeypatch.setenv("PNP_TEST_MARK", str(tmp_path / "MARK"))
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("PNP_CONFIG_DIR", str(config))
    return tiny


def _ran(tmp_path: Path) -> bool:
    return (tmp_path / "MARK").exists()


def test_check_without_trust_runs_no_code_and_every_other_check(planted, tmp_path):
    r = run("check", "--project", str(planted))
    assert not _ran(tmp_path)
    assert r.exit_code == 0, r.output
    assert "cards/tiny/rules.py: warning: not run" in r.output and "pnp trust" in r.output
    assert "deal 5 each" in r.output  # the deal, counted from the manifest: no code needed
    assert "internal error" not in r.output


@pytest.mark.parametrize(
    "argv", [["simulate", "tiny", "--games", "5"], ["build", "--format", "simulation"]]
)
def test_simulating_without_trust_is_refused_naming_pnp_trust(planted, tmp_path, argv):
    assert run("build", "--project", str(planted)).exit_code == 0
    out = planted / "output/tiny"
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    r = run(*argv, "--project", str(planted))
    assert not _ran(tmp_path)
    assert r.exit_code == 1, r.output
    assert "cards/tiny/rules.py: error: not run" in r.output, r.output
    assert f"pnp trust --project {planted}" in r.output
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before


def test_trusted_code_runs_until_it_is_edited_or_moved(planted, tmp_path):
    r = run("trust", "--project", str(planted))
    assert r.exit_code == 0 and "cards/tiny/rules.py" in r.output, r.output
    assert run("simulate", "tiny", "--games", "5", "--project", str(planted)).exit_code == 0
    assert _ran(tmp_path)
    (tmp_path / "MARK").unlink()
    rules = planted / "cards/tiny/rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    r = run("simulate", "tiny", "--games", "5", "--project", str(planted))
    assert r.exit_code == 1 and "since it changed" in r.output, r.output
    assert not _ran(tmp_path)
    elsewhere = tmp_path / "copy"
    shutil.copytree(planted, elsewhere)
    assert run("trust", "--project", str(planted)).exit_code == 0
    r = run("simulate", "tiny", "--games", "5", "--project", str(elsewhere))
    assert r.exit_code == 1 and "not run" in r.output, r.output  # the same file, another folder
    assert not _ran(tmp_path)
    assert run("trust", "--forget", "--project", str(planted)).exit_code == 0
    r = run("simulate", "tiny", "--games", "5", "--project", str(planted))
    assert r.exit_code == 1 and not _ran(tmp_path)


def _at_terminal(project: Path, answer: bytes, env: dict) -> tuple[int, str]:
    """`pnp simulate` with a terminal for its input and messages, answering `answer`."""
    parent, child = pty.openpty()
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "simulate",
            "tiny",
            "--games",
            "3",
            "--project",
            str(project),
        ],
        stdin=child,
        stdout=subprocess.PIPE,
        stderr=child,
        cwd=REPO,
        env=env,
        preexec_fn=interruptible,
    )
    os.close(child)
    said = b""
    deadline = time.monotonic() + 60
    while b"Run it?" not in said and time.monotonic() < deadline:
        try:
            said += os.read(parent, 4096)
        except OSError:
            break
    os.write(parent, answer)
    p.stdout.read()
    code = p.wait(timeout=60)
    try:
        while True:
            chunk = os.read(parent, 4096)
            if not chunk:
                break
            said += chunk
    except OSError:
        pass
    os.close(parent)
    return code, said.decode("utf-8", "replace")


def test_at_a_terminal_pnp_asks_and_remembers_a_yes(planted, tmp_path):
    env = {**os.environ, "PNP_LANG": "en"}
    code, said = _at_terminal(planted, b"n\n", env)
    assert "cards/tiny/rules.py is Python code that came with this project" in said, said
    assert code == 1 and not _ran(tmp_path)
    code, said = _at_terminal(planted, b"y\n", env)
    assert code == 0 and _ran(tmp_path), said
    (tmp_path / "MARK").unlink()
    r = run("simulate", "tiny", "--games", "3", "--project", str(planted))  # no terminal now
    assert r.exit_code == 0 and _ran(tmp_path), r.output


def test_a_dask_worker_runs_only_the_code_whose_digest_it_was_given(tmp_path, monkeypatch):
    import hashlib

    from generator.problems import BuildError
    from generator.rules import modules

    source = b"OPTIONS = {}\ndef prepare(game): return None\ndef new_state(*a): return None\n"
    source += f"# {tmp_path}\n".encode()  # this test's own digest
    good = hashlib.sha256(source).hexdigest()
    with pytest.raises(BuildError, match="digest"):
        modules.load_shipped("pnp_rules_x_1", "cards/x/rules.py", "x", "0" * 64, source)
    # a file planted where a worker would write the code of that digest is not run
    folder = modules.shipped_folder(good)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "rules.py").write_bytes(PLANT.encode() + source)
        monkeypatch.setenv("PNP_TEST_MARK", str(tmp_path / "MARK"))
        module = modules.load_shipped("pnp_rules_x_2", "cards/x/rules.py", "x", good, source)
        assert module.OPTIONS == {} and not _ran(tmp_path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_rules_module_pnp_new_wrote_runs_without_asking(tiny, tmp_path, monkeypatch):
    """`pnp new GAME --rules` wrote it at its user's word: trusted as written, so `pnp simulate`
    (the next step it names) runs in a script too; an edit asks again, as for any."""
    monkeypatch.delenv("PNP_TRUST_CODE", raising=False)
    monkeypatch.setenv("PNP_CONFIG_DIR", str(tmp_path / "config"))
    assert run("new", "tiny", "--rules", "--project", str(tiny)).exit_code == 0
    r = run("simulate", "tiny", "--games", "5", "--project", str(tiny))
    assert r.exit_code == 0, r.output
    rules = tiny / "cards/tiny/rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# mine now\n", encoding="utf-8")
    r = run("simulate", "tiny", "--games", "5", "--project", str(tiny))
    assert r.exit_code == 1 and "since it changed" in r.output, r.output
