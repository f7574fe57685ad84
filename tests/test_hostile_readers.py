"""Someone else's project, or a file that is not what it says: every case of tests/hostile.py
(a fixture each) ends in a message naming the file, exit 1, in seconds, with the previous
outputs byte for byte as they were and nothing but the output folder written. The same cases
at the sizes first measured are timed by benchmarks/bench_hostile.py."""

from __future__ import annotations

import os
import time
from pathlib import Path

import hostile
import pytest

from conftest import run


def _outputs(root: Path) -> dict[str, bytes]:
    out = root / "output"
    if not out.exists():
        return {}
    return {
        str(p.relative_to(out)): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".cache" not in p.parts and not p.name.startswith(".pnp")
    }


@pytest.mark.parametrize("name", list(hostile.CASES))
def test_a_hostile_or_broken_input_is_a_located_error(tmp_path, monkeypatch, name):
    root = hostile.tiny(tmp_path)
    assert run("build", "--project", str(root)).exit_code == 0
    before = _outputs(root)
    case = hostile.CASES[name](tmp_path, False)
    if case.unprivileged and os.geteuid() == 0:
        pytest.skip("root reads and writes whatever the mode bits say")
    for key, value in case.env.items():
        monkeypatch.setenv(key, value)
    start = time.monotonic()
    try:
        result = run(*case.argv)
    finally:
        for p in tmp_path.rglob("*"):  # a folder made unwritable: writable again, to clean up
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
    took = time.monotonic() - start
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert result.exit_code == case.exit_code, result.output
    assert case.names in result.output and case.says in result.output, result.output
    assert took < 20, took
    if case.then:
        after = run(*case.then)
        assert after.exit_code == 0, after.output
    if case.exit_code and not case.breaks_outputs:
        assert _outputs(root) == before  # nothing written, nothing lost
