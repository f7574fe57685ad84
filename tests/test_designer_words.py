"""The designer's words stay the designer's: every sentence the shipped rulebooks print, outside
what is marked as added (<!-- added -->, tables and lists made from the data), is in the
designer's draft (tests/fixtures/drafts/, copies of ../shared/seeds/), word for word up to
spacing. A sentence edited silently fails here, naming it."""

from __future__ import annotations

import re

import pytest

from generator import pipeline
from generator.layout.rulebook import render_source
from generator.problems import Problems
from generator.project import find_project
from generator.rulesource import plain

from conftest import FIXTURES, REPO

DRAFTS = FIXTURES / "drafts"
GAMES = ["fudaraku", "nyanbaa", "rumbling_seed"]


def _norm(text: str) -> str:
    return re.sub(r"[\s　]+", "", text)


def printed_sentences(game_id: str, root=REPO):
    game = pipeline.load(find_project(root), game_id, Problems())
    book = render_source(game)
    for block in book.blocks:
        if block.added or block.kind in ("directive", "table"):
            continue
        texts = [block.text] if block.kind in ("para", "heading") else list(block.items)
        for text in texts:
            for sentence in re.findall(r"[^。！？]+[。！？]?", plain(str(text))):
                if len(_norm(sentence)) >= 3:
                    yield block.line, sentence.strip()


@pytest.mark.parametrize("game", GAMES)
def test_every_printed_sentence_is_in_the_draft(game):
    draft = _norm((DRAFTS / f"{game}.txt").read_text("utf-8"))
    changed = [f"line {line}: {s}" for line, s in printed_sentences(game) if _norm(s) not in draft]
    assert changed == [], "sentences not in the designer's draft (mark them <!-- added -->):\n" + (
        "\n".join(changed)
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_printed_sentences_come_in_the_draft_s_order(game):
    """No paragraph moved without a note: each printed sentence is found in the draft after the
    one before it (the draft's rules come last in the file, after the designer's notes)."""
    draft = _norm((DRAFTS / f"{game}.txt").read_text("utf-8"))
    sentences = list(printed_sentences(game))
    heading = _norm(sentences[0][1])  # the title: where the draft's rules begin
    position = draft.rfind(heading)
    moved = []
    for line, sentence in sentences[1:]:
        found = draft.find(_norm(sentence), position)
        if found < 0:
            moved.append(f"line {line}: {sentence}")
        else:
            position = found + len(_norm(sentence))
    assert moved == [], "sentences out of the draft's order:\n" + "\n".join(moved)


def test_the_comparison_catches_a_silent_edit(tmp_path):
    """An inserted word (「宝石を」 in 「宝石を最も多く持っている…」) is caught, at its line."""
    import shutil

    root = tmp_path / "p"
    shutil.copytree(REPO / "cards/nyanbaa", root / "cards/nyanbaa")
    shutil.copytree(REPO / "layouts", root / "layouts")
    rules = root / "cards/nyanbaa/rules.md"
    text = rules.read_text("utf-8")
    assert "\n最も多く持っているプレイヤーは６ＶＰを得ます。" in text
    rules.write_text(text.replace("\n最も多く持っている", "\n宝石を最も多く持っている"), "utf-8")
    draft = _norm((DRAFTS / "nyanbaa.txt").read_text("utf-8"))
    changed = [s for _line, s in printed_sentences("nyanbaa", root) if _norm(s) not in draft]
    assert changed == ["宝石を最も多く持っているプレイヤーは６ＶＰを得ます。"]
