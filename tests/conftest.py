"""Shared fixtures: fixture games (tests/fixtures/) copied to a temporary project, the shipped
project built once, and the one golden-file helper."""

from __future__ import annotations

import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import i18n
from generator.cli import main

# Messages in English whatever the machine's locale (tests that speak Japanese say so).
os.environ["PNP_LANG"] = "en"
# No saved printer of the person running the tests moves a back page (tests that save one use
# their own folder).
os.environ["PNP_CONFIG_DIR"] = tempfile.mkdtemp(prefix="pnp-config-")
# The suite runs the rules modules of its own fixture games without asking (tests/test_trust.py
# takes this away to see that a project's code runs only once trusted).
os.environ["PNP_TRUST_CODE"] = "1"
# The per-user font cache of the test session, not the person's own (shared by every test).
os.environ["PNP_CACHE_DIR"] = tempfile.mkdtemp(prefix="pnp-cache-")


def interruptible() -> None:
    """For a child process the tests stop with Ctrl-C (SIGINT): Ctrl-C as in a terminal, even
    when the tests themselves run where it is ignored (a job started in the background with
    `&` ignores SIGINT, and its children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)


def start_serving(root: Path):
    """`pnp serve --port 0` on a project, in a process of its own: the process and its URL."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", PNP_LANG="en")
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--project", str(root), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        preexec_fn=interruptible,
    )
    first = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/", first)
    assert found, first + proc.stdout.read(2000) if proc.poll() is not None else first
    return proc, found.group(0)


def stop_serving(proc) -> int:
    proc.send_signal(signal.SIGINT)
    return proc.wait(timeout=30)


@pytest.fixture
def browser():
    """Debian's chromium, headless, driven by Playwright (no browser download of its own)."""
    sync = pytest.importorskip("playwright.sync_api")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(autouse=True)
def _english_again():
    """A test that ran `pnp --lang ja` leaves the next one in English."""
    yield
    i18n.use("en")


REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# Frozen copies of the shipped games' cards/ (data, rules source and rules module): the
# rules-engine tests play these, so a designer editing a shipped game breaks no engine test.
ENGINE = FIXTURES / "engine"
GOLDEN = Path(__file__).resolve().parent / "golden"
MM = 72 / 25.4


def run(*args: str):
    """`pnp ARGS` through click's runner; returns the result (exit_code, output)."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def golden(name: str, actual: str) -> None:
    """Compare text with tests/golden/NAME; PNP_REFRESH_GOLDEN=1 rewrites it on purpose."""
    path = GOLDEN / name
    if os.environ.get("PNP_REFRESH_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"no golden file {name}: run with PNP_REFRESH_GOLDEN=1 once and commit it"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), name, "actual")
        )
        raise AssertionError(f"{name} differs (PNP_REFRESH_GOLDEN=1 to accept):\n{diff[:4000]}")


def make_fixture_project(name: str, dest: Path) -> Path:
    """A writable copy of fixture game NAME (the base layouts come from the tool itself)."""
    root = dest / name
    shutil.copytree(FIXTURES / name, root)
    return root


@pytest.fixture
def planted(tmp_path) -> Path:
    """tests/fixtures/planted: きのこ狩り, a game as `pnp new --rules` made it, with problems
    planted in its Japanese rules."""
    return make_fixture_project("planted", tmp_path)


def kinoko_check(root: Path) -> str:
    """What `pnp check kinoko --no-play` prints for the planted game at `root`."""
    result = run("check", "kinoko", "--no-play", "--project", str(root))
    assert "Traceback" not in result.output
    return result.output


def uno_with_rules(dest: Path, rules: str) -> Path:
    """The `decks` fixture with `rules` as the uno game's rules.md (named in its game.toml)."""
    root = make_fixture_project("decks", dest)
    (root / "cards/uno/rules.md").write_text(rules, "utf-8")
    manifest = root / "cards/uno/game.toml"
    text = manifest.read_text("utf-8")
    manifest.write_text(text.replace("[game]\n", '[game]\nrules = "rules.md"\n', 1), "utf-8")
    return root


def own_base(root: Path) -> Path:
    """Give a project its own copy of the tool's base layouts (as `pnp init` does); returns root."""
    from generator import base

    shutil.copytree(base.BASE_LAYOUTS, root / "layouts" / base.SHARED, dirs_exist_ok=True)
    return root


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A writable copy of the `tiny` fixture game: 10 cards, every rules directive."""
    return make_fixture_project("tiny", tmp_path)


@pytest.fixture
def kit(tmp_path) -> Path:
    """A writable copy of the `kit` fixture game: tokens, a board, tarot cards."""
    return make_fixture_project("kit", tmp_path)


def _build_fixture(name: str, factory) -> Path:
    root = make_fixture_project(name, factory.mktemp(name))
    result = run("build", "--project", str(root))
    assert result.exit_code == 0, result.output
    return root / "output" / name


@pytest.fixture(scope="session")
def tiny_built(tmp_path_factory) -> Path:
    """output/tiny/ of a clean build of the `tiny` fixture (A4, defaults); do not edit."""
    return _build_fixture("tiny", tmp_path_factory)


@pytest.fixture(scope="session")
def kit_built(tmp_path_factory) -> Path:
    """output/kit/ of a clean build of the `kit` fixture (A4, defaults); do not edit."""
    return _build_fixture("kit", tmp_path_factory)


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """output/ of a clean build of the shipped project (A4, defaults)."""
    out = tmp_path_factory.mktemp("out")
    result = run("build", "--project", str(REPO), "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def project(tmp_path) -> Path:
    """A writable copy of the shipped project (cards/ and layouts/), for tests that must hold
    whatever the designer writes in it."""
    root = tmp_path / "proj"
    for name in ("cards", "layouts"):
        shutil.copytree(REPO / name, root / name)
    return root


@pytest.fixture
def engine_project(tmp_path) -> Path:
    """A writable copy of the frozen engine fixtures (cards/ only: data, rules sources and
    modules)."""
    root = tmp_path / "engine"
    shutil.copytree(ENGINE, root)
    return root


def engine_rules(game_id: str, root: Path = ENGINE):
    """The rules module of a game of the engine fixtures (its own rules.py), loaded as pnp
    loads a project's."""
    from generator import pipeline
    from generator.problems import Problems
    from generator.project import find_project
    from generator.rules import modules

    return modules.rules_for(pipeline.load(find_project(root), game_id, Problems()))


def rule_check(
    root: Path, game: str, play: bool = True, code: bool = True, strict: bool = False
) -> str:
    """What `pnp check` says of a game's data and rules (no layouts needed), one line each;
    `play=False`: the rules module's static checks without playouts."""
    from generator import pipeline
    from generator.problems import BuildError, Problems
    from generator.project import find_project
    from generator.rules.checks import check_rules

    problems = Problems()
    try:
        loaded = pipeline.load(find_project(root), game, problems)
        if loaded is not None:
            check_rules(loaded, problems, play=play, code=code, strict=strict)
    except BuildError as exc:  # as pipeline.check does
        problems.extend(exc.problems)
    return "\n".join(problems.folded())


def edit(root: Path, rel: str, old: str, new: str, count: int = 1) -> None:
    """Replace text in a project file (which must hold it), saved as UTF-8."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, count), encoding="utf-8")
