"""`pnp watch` driven as a designer would: started in a terminal, a row edited and saved, a
broken save, Ctrl-C. Runs the real command in a process of its own and reads what it prints."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import interruptible, make_fixture_project

pytestmark = pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process")


class Watcher:
    def __init__(self, root: Path):
        env = dict(os.environ, PYTHONUNBUFFERED="1", PNP_LANG="en")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "generator", "watch", "--project", str(root)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            preexec_fn=interruptible,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, words: str, timeout: float = 60) -> str:
        """The first line (from now on) holding `words`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if words in line:
                return line
        raise AssertionError(
            f"no line with {words!r} in {timeout} s; saw:\n" + "\n".join(self.seen)
        )

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(timeout=30)
        self.reader.join(timeout=10)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return code


def test_watch_rebuilds_a_save_says_what_changed_and_keeps_good_outputs(tmp_path):
    root = make_fixture_project("tiny", tmp_path)
    w = Watcher(root)
    try:
        assert "tiny: built" in w.until("tiny:")
        w.until("watching")
        cards = root / "output/tiny/cards.pdf"
        first = cards.read_bytes()
        time.sleep(0.5)
        csv = root / "cards/tiny/cards.csv"
        csv.write_text(csv.read_text("utf-8").replace("二の赤。", "赤の二。"), "utf-8")
        line = w.until("tiny:")
        assert (
            "数字カード: 1 changed: 赤 2" in line
            and "cards.pdf" in line
            and "rulebook.pdf" not in line
        )
        assert cards.read_bytes() != first
        good = cards.read_bytes()
        # A broken save: its problem printed, the outputs left as they were.
        csv.write_text(csv.read_text("utf-8").replace("赤,3,", "赤,three,"), "utf-8")
        problem = w.until("error")
        assert "cards/tiny/cards.csv:4:number" in problem
        w.until("not built; the last good outputs stay as they were")
        assert cards.read_bytes() == good
        # Fixed again: built, and only what differs from the last good build is named.
        csv.write_text(csv.read_text("utf-8").replace("赤,three,", "赤,3,"), "utf-8")
        assert "tiny: no change" in w.until("tiny:")
    finally:
        code = w.stop()
    assert code == 0 and "stopped" in w.seen[-1]


def test_watch_ignores_editor_temporary_files(tmp_path):
    root = make_fixture_project("tiny", tmp_path)
    w = Watcher(root)
    try:
        w.until("watching")
        (root / "cards/tiny/.cards.csv.swp").write_text("x", "utf-8")
        (root / "cards/tiny/cards.csv~").write_text("x", "utf-8")
        time.sleep(1.5)
        layout = root / "layouts/tiny/card_back.toml"
        layout.write_text(layout.read_text("utf-8") + "\n", "utf-8")
        line = w.until("tiny:")
        assert "no change" in line  # the layout save, not the temporary files, made a build
        time.sleep(1.0)
        while not w.lines.empty():
            w.seen.append(w.lines.get())
        assert sum("tiny: no change" in s for s in w.seen) == 1
    finally:
        w.stop()


def test_diff_after_watching_compares_with_the_last_build_not_the_drafts(tmp_path):
    """Printed on Monday with `pnp build`, edited all week under `pnp watch`: `pnp diff` still
    names what changed since the print."""
    from conftest import run

    root = make_fixture_project("tiny", tmp_path)
    assert run("build", "--project", str(root)).exit_code == 0
    w = Watcher(root)
    try:
        w.until("watching")
        time.sleep(0.5)
        csv = root / "cards/tiny/cards.csv"
        csv.write_text(csv.read_text("utf-8").replace("二の赤。", "赤の二。"), "utf-8")
        assert "1 changed: 赤 2" in w.until("tiny:")
    finally:
        w.stop()
    r = run("diff", "tiny", "--project", str(root))
    assert r.exit_code == 0, r.output
    assert "tiny: 1 changed, 0 added, 0 removed: 赤 2" in r.output, r.output


def test_watch_tells_the_copies_of_a_row_once_with_their_count():
    from generator.watch import GameState, changes

    before = GameState({"チップ": [("石", "a")] * 4 + [("木", "b"), ("金", "e")]}, {})
    after = GameState({"チップ": [("石", "c")] * 4 + [("木", "d"), ("金", "e")]}, {})
    assert changes("kit", before, after) == "kit: チップ: 5 changed: 石 ×4, 木"


def test_a_file_swapped_for_a_link_out_while_watching_is_an_error(tmp_path):
    """A data file replaced by a link to a file outside the project (a sync tool, a script
    of someone else's): the rebuild says so at the file, and reads nothing of the outside."""
    root = make_fixture_project("tiny", tmp_path / "p")
    outside = tmp_path / "secret.csv"
    csv = root / "cards/tiny/cards.csv"
    outside.write_text(csv.read_text("utf-8").replace("二の赤。", "SECRET"), "utf-8")
    w = Watcher(root)
    try:
        w.until("watching")
        good = (root / "output/tiny/cards.pdf").read_bytes()
        time.sleep(0.5)
        csv.unlink()
        csv.symlink_to(outside)
        line = w.until("error")
        assert "'data' must be a file inside the project folder" in line, line
        w.until("not built")
        assert (root / "output/tiny/cards.pdf").read_bytes() == good
        assert "SECRET" not in "\n".join(w.seen)
    finally:
        w.stop()


def test_a_game_made_with_link_rebuilds_when_the_designers_spreadsheet_is_saved(tmp_path):
    """`pnp new --from sheets/deck.csv --link` reads the spreadsheet where it is: watch sees a
    save there and rebuilds the game."""
    from conftest import run

    root = tmp_path / "p"
    assert run("init", str(root)).exit_code == 0
    (root / "sheets").mkdir()
    sheet = root / "sheets/spells.csv"
    sheet.write_text("id,name,cost\n1,火球,3\n2,氷壁,2\n", "utf-8")
    made = run("new", "spells", "--project", str(root), "--from", str(sheet), "--link")
    assert made.exit_code == 0, made.output
    assert not (root / "cards/spells/spells.csv").exists()  # not copied
    assert 'data = "../../sheets/spells.csv"' in (root / "cards/spells/game.toml").read_text(
        "utf-8"
    )
    w = Watcher(root)
    try:
        assert "spells: built" in w.until("spells:")
        assert "sheets" in w.until("watching")
        time.sleep(0.5)
        sheet.write_text(sheet.read_text("utf-8").replace("氷壁", "氷の壁"), "utf-8")
        assert "1 changed" in w.until("spells:")
    finally:
        assert w.stop() == 0
