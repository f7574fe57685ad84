"""The tutorials run as written: every `pnp` command in their ```sh blocks, every file in their
```csv NAME blocks written where they say, and every line of a ```text block after a command
found in what that command printed ("…" stands for a path that differs per machine)."""

from __future__ import annotations

import re
import shlex

import pytest

from conftest import REPO, run

BLOCK = re.compile(r"```(\w*)([^\n]*)\n(.*?)```", re.S)


def steps(text: str):
    """(kind, argument, body) for each fenced block, in order."""
    for m in BLOCK.finditer(text):
        yield m.group(1), m.group(2).strip(), m.group(3)


@pytest.mark.parametrize("page", ["tutorial.md", "tutorial.ja.md"])
def test_the_tutorial_runs_as_written(tmp_path, monkeypatch, page):
    text = (REPO / "docs" / page).read_text("utf-8")
    here = tmp_path
    printed = ""
    ran = 0
    for kind, arg, body in steps(text):
        if kind == "sh":
            printed = ""
            for line in body.splitlines():
                words = shlex.split(line.split("#", 1)[0])
                if not words:
                    continue
                if words[0] == "cd":
                    here = here / words[1]
                    continue
                assert words[0] == "pnp", line
                monkeypatch.chdir(here)  # as the designer's shell would be
                result = run(*words[1:])
                printed += result.output
                assert result.exit_code in (0, 1), result.output
                ran += 1
        elif kind == "csv" and arg:
            (here / arg).write_text(body, encoding="utf-8")
        elif kind == "text":
            for want in filter(None, (w.strip() for w in body.splitlines())):
                parts = want.split("…")
                assert any(all(p in line for p in parts) for line in printed.splitlines()), (
                    f"{page}: {want!r} not in:\n{printed}"
                )
    assert ran >= 5
    assert (here / "output/spirits/cards.pdf").is_file()
