#!/usr/bin/env python3
"""Set-up and run in one step: `python3 tasks.py build` or `python3 tasks.py test`.

Creates `.venv/` beside this file on first use and installs the project into it (again only
when pyproject.toml changes), so a fresh machine needs nothing but Python 3.11+.

`PNP_TEST_PYTHONS="3.12 3.13"` makes `test` run the suite again on each of those Pythons too
(found as pythonX.Y on PATH or under pyenv), each in a `.venv-X.Y/` of its own: what CI does.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"


def ensure_env(folder: Path = VENV, python: str | None = None) -> Path:
    """The virtual environment in `folder` (made with `python`, else this one), the project
    and its test tools installed; returns its python."""
    bin_ = folder / ("Scripts" if os.name == "nt" else "bin")
    py = bin_ / ("python.exe" if os.name == "nt" else "python")
    stamp = folder / ".installed"
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == want and py.exists():
        return py
    if not py.exists():
        print(f"creating {folder.name} ...", flush=True)
        if python is None:
            venv.EnvBuilder(with_pip=True).create(folder)
        else:
            subprocess.run([python, "-m", "venv", str(folder)], check=True)
    print(f"installing the project and its test tools into {folder.name} ...", flush=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", "-e", f"{ROOT}[test]"], check=True)
    stamp.write_text(want)
    return py


def other_pythons() -> list[tuple[str, str | None]]:
    """(version, interpreter) of each Python PNP_TEST_PYTHONS names; None where none runs.
    Looked for as pythonX.Y on PATH, then under pyenv's versions (a pyenv shim of a version
    not selected is on PATH but does not run, so each is tried)."""
    import glob
    import shutil

    root = os.environ.get("PYENV_ROOT", str(Path.home() / ".pyenv"))
    out = []
    for version in os.environ.get("PNP_TEST_PYTHONS", "").split():
        candidates = [shutil.which(f"python{version}")]
        candidates += sorted(glob.glob(f"{root}/versions/{version}*/bin/python{version}"))
        probe = "import sys; print('%d.%d' % sys.version_info[:2])"
        found = None
        for candidate in filter(None, candidates):
            try:
                said = subprocess.run(
                    [candidate, "-c", probe], capture_output=True, text=True, timeout=60
                ).stdout.strip()
            except (OSError, subprocess.TimeoutExpired):
                continue
            if said == version:
                found = candidate
                break
        out.append((version, found))
    return out


BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def ensure_browser() -> None:
    """The `pnp serve` test drives a real headless browser. Where none is installed and this
    is a Debian-like machine run as root (a CI container), install Debian's chromium, best
    effort: without it that test is skipped, nothing fails."""
    import shutil

    if any(shutil.which(b) for b in BROWSERS) or not shutil.which("apt-get"):
        return
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        print("no chromium: the browser tests of `pnp serve` will be skipped", flush=True)
        return
    print("installing chromium for the browser tests (apt-get) ...", flush=True)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    try:
        subprocess.run(["apt-get", "update", "-qq"], timeout=300, **quiet)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "chromium"], timeout=900, env=env, **quiet
        )
    except (OSError, subprocess.TimeoutExpired):
        pass
    if not any(shutil.which(b) for b in BROWSERS):
        print("chromium could not be installed: the browser tests will be skipped", flush=True)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {
        "build",
        "test",
        "lint",
        "check",
        "simulate",
        "bench",
        "shell",
        "i18n",
    }:
        print(__doc__)
        print(
            "commands: build [GAME...] | check [GAME...] | simulate GAME [...] | "
            "test [pytest args] | lint | bench | i18n"
        )
        return 2
    ensure_env()
    cmd, rest = argv[0], argv[1:]
    os.chdir(ROOT)
    if cmd in {"build", "check", "simulate"}:
        return subprocess.call([str(PY), "-m", "generator", cmd, *rest])
    if cmd == "test":
        ensure_browser()
        # Lint and format first (seconds), then the tests; either failing fails the command.
        paths = ["generator", "tests", "benchmarks", "tasks.py"]
        lint = subprocess.call([str(PY), "-m", "ruff", "check", *paths])
        lint |= subprocess.call([str(PY), "-m", "ruff", "format", "--check", "--quiet", *paths])
        if lint:
            print("ruff found problems: `python3 tasks.py lint` fixes what it can", flush=True)
        failed = subprocess.call([str(PY), "-m", "pytest", *rest]) or lint
        for version, python in other_pythons():
            if python is None:
                print(f"no Python {version} found: the suite was not run on it", flush=True)
                failed = failed or 1
                continue
            print(f"the suite on Python {version} ...", flush=True)
            py = ensure_env(ROOT / f".venv-{version}", python)
            failed = subprocess.call([str(py), "-m", "pytest", *rest]) or failed
        return failed
    if cmd == "lint":
        paths = ["generator", "tests", "benchmarks", "tasks.py"]
        fixed = subprocess.call([str(PY), "-m", "ruff", "check", "--fix", *paths])
        return subprocess.call([str(PY), "-m", "ruff", "format", *paths]) or fixed
    if cmd == "i18n":  # after changing a message: merge it into the catalog, then translate it
        return subprocess.call([str(PY), str(ROOT / "tests" / "catalog.py"), *rest])
    if cmd == "bench":
        return subprocess.call(
            [str(PY), str(ROOT / "benchmarks" / "bench_build.py"), *rest]
        ) or subprocess.call([str(PY), str(ROOT / "benchmarks" / "bench_engine.py")])
    return subprocess.call([str(PY), *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
