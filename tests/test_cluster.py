"""Playouts on a real Dask cluster (a scheduler and worker processes on localhost): the same
bytes as a local run, the project's rules module sent to the workers, and a worker lost in the
middle of the run replaced without the result changing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import edit, make_fixture_project, run

distributed = pytest.importorskip("distributed")

RULES = "cards/tricks/rules.py"


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=50,
    ) as local:
        yield local.scheduler_address


@pytest.fixture
def tricks(tmp_path) -> Path:
    return make_fixture_project("tricks", tmp_path)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_run_on_the_cluster_is_the_same_as_here(tricks, tmp_path, cluster):
    args = ["simulate", "tricks", "--project", str(tricks), "--games", "600"]
    here = run(*args, "--out", str(tmp_path / "here"))
    assert here.exit_code == 0, here.output
    there = run(*args, "--out", str(tmp_path / "there"), "--scheduler", cluster)
    assert there.exit_code == 0, there.output
    assert _files(tmp_path / "here/tricks") == _files(tmp_path / "there/tricks")
    sweep = ["--sweep", "next_lead=left,last_winner", "--players", "3,4", "--games", "150"]
    here = run(*args[:4], *sweep, "--out", str(tmp_path / "sh"))
    there = run(*args[:4], *sweep, "--out", str(tmp_path / "st"), "--scheduler", cluster)
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    assert _files(tmp_path / "sh/tricks") == _files(tmp_path / "st/tricks")


def test_a_lost_worker_s_tasks_are_played_again(tricks, tmp_path, cluster):
    """The module kills its worker process the first time it meets one seed (a marker file
    says it did): the cluster replaces the worker and plays its task again."""
    marker = tmp_path / "killed-once"
    edit(
        tricks,
        RULES,
        "def new_state(data: dict, players: int, seed: int, options: dict) -> State:\n",
        "def new_state(data: dict, players: int, seed: int, options: dict) -> State:\n"
        f"    if seed == SEED_TO_LOSE and not __import__('os').path.exists({str(marker)!r}):\n"
        f"        open({str(marker)!r}, 'w').close()\n"
        "        __import__('os')._exit(1)\n",
    )
    seed_to_lose = 0
    from generator.rules import engine

    seed_to_lose = engine.derive_seed(1, 450)  # playout 450 of seed 1
    edit(tricks, RULES, "STEP_CAP = 500", f"STEP_CAP = 500\nSEED_TO_LOSE = {seed_to_lose}")
    marker.touch()  # here first: nothing is killed
    args = ["simulate", "tricks", "--project", str(tricks), "--games", "600", "--json"]
    here = run(*args, "--out", str(tmp_path / "here"))
    assert here.exit_code == 0, here.output
    marker.unlink()
    there = run(*args, "--out", str(tmp_path / "there"), "--scheduler", cluster)
    assert there.exit_code == 0, there.output
    assert marker.exists()  # a worker did die
    ours = json.loads((tmp_path / "here/tricks/simulation-3p.json").read_text(encoding="utf-8"))
    theirs = json.loads((tmp_path / "there/tricks/simulation-3p.json").read_text(encoding="utf-8"))
    assert ours == theirs


def test_an_unreachable_scheduler_is_named(tricks):
    result = run(
        "simulate",
        "tricks",
        "--project",
        str(tricks),
        "--games",
        "500",
        "--scheduler",
        "tcp://127.0.0.1:9",
    )
    assert result.exit_code == 1, result.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output
    assert "Traceback" not in result.output


def test_a_task_that_kills_every_worker_it_meets_ends_the_run_with_a_message(tricks, cluster):
    """A rules module that takes its worker process down on one seed, every time: Dask gives up
    on that task after a few workers, and the run ends naming the cluster, not as a bug."""
    from generator.rules import engine

    edit(
        tricks,
        RULES,
        "def new_state(data: dict, players: int, seed: int, options: dict) -> State:\n",
        "def new_state(data: dict, players: int, seed: int, options: dict) -> State:\n"
        f"    if seed == {engine.derive_seed(1, 5)}:\n"
        "        __import__('os')._exit(1)\n",
    )
    args = ["simulate", "tricks", "--project", str(tricks), "--games", "100"]
    result = run(*args, "--scheduler", cluster)
    assert result.exit_code == 1, result.output
    assert f"the Dask cluster at {cluster} could not finish the run (KilledWorker" in result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
