"""The user's cache folder holds sealed pickles and the key that seals them: it is the user's
alone. pnp makes it 0700, closes one of the user's that is open to others, replaces a key others
could have read, and uses no folder that is someone else's or a link (and `pnp cache clear`
empties none of those). Nothing in it is Python code that runs."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO


def _pnp(cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PNP_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=300,
    )


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_the_cache_folder_is_made_for_the_user_alone(tiny, tmp_path):
    cache = tmp_path / "cache"
    assert _pnp(cache, "build", "--project", str(tiny)).returncode == 0
    assert _mode(cache) == 0o700 and _mode(cache / "key") == 0o600
    assert any(cache.rglob("*.sealed"))
    assert not [p for p in cache.rglob("*") if p.suffix in (".py", ".pyc", ".marshal")]


def test_an_open_folder_is_closed_and_a_readable_key_replaced(tiny, tmp_path):
    cache = tmp_path / "cache"
    assert _pnp(cache, "build", "--project", str(tiny)).returncode == 0
    first_key = (cache / "key").read_bytes()
    cache.chmod(0o777)
    (cache / "key").chmod(0o644)  # others could have read it: it seals nothing any more
    r = _pnp(cache, "build", "--project", str(tiny))
    assert r.returncode == 0, r.stderr
    assert _mode(cache) == 0o700 and _mode(cache / "key") == 0o600
    assert (cache / "key").read_bytes() != first_key


def test_a_cache_folder_that_is_a_link_is_not_used(tiny, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cache = tmp_path / "cache"
    cache.symlink_to(elsewhere)
    r = _pnp(cache, "build", "--project", str(tiny))
    assert r.returncode == 0, r.stderr
    assert list(elsewhere.iterdir()) == []  # no key, no entry written through the link
    r = _pnp(cache, "cache", "clear")
    assert r.returncode == 0 and "not used and not emptied" in r.stdout, r.stdout
    assert elsewhere.is_dir()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown")
def test_a_cache_folder_of_another_user_is_not_used(tiny, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o777)
    cache.chmod(0o777)
    planted = os.urandom(32)
    (cache / "key").write_bytes(planted)  # another user's key, beside entries they sealed
    os.chown(cache, 65534, 65534)
    os.chown(cache / "key", 65534, 65534)
    r = _pnp(cache, "build", "--project", str(tiny))
    assert r.returncode == 0, r.stderr
    assert (cache / "key").read_bytes() == planted
    assert [p.name for p in cache.iterdir()] == ["key"]  # nothing of ours written there
    r = _pnp(cache, "cache", "clear")
    assert "owned by another user" in r.stdout and (cache / "key").exists()
