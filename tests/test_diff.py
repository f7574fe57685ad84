"""`pnp diff` as a designer uses it: build, edit rows or a layout, ask what changed; against the
last build or a git revision. Reads back what it prints and the proof PDF it writes."""

from __future__ import annotations

import shutil
import subprocess

import pypdf
import pytest

from conftest import edit, make_fixture_project, run
from pdfread import all_text


def test_diff_names_the_changed_cards_and_fields_old_beside_new(tiny):
    assert run("build", "--project", str(tiny)).exit_code == 0
    assert "tiny: no change" in run("diff", "tiny", "--project", str(tiny)).output
    assert not (tiny / "output/tiny/diff.pdf").exists()
    edit(tiny, "cards/tiny/cards.csv", "二の赤。", "赤の二。")
    edit(tiny, "cards/tiny/cards.csv", "青,5,#2F5DA8", "青,5,#1F8F3F")
    r = run("diff", "tiny", "--project", str(tiny))
    assert r.exit_code == 0, r.output
    assert "tiny: 2 changed, 0 added, 0 removed: 赤 2, 青 5" in r.output
    assert "赤 2 (cards/tiny/cards.csv:3) text: '二の赤。' → '赤の二。'" in r.output
    assert "青 5 (cards/tiny/cards.csv:11) color: '#2F5DA8' → '#1F8F3F'" in r.output
    pdf = tiny / "output/tiny/diff.pdf"
    assert len(pypdf.PdfReader(pdf).pages) == 1
    text = all_text(pdf)
    assert "二の赤。" in text and "赤の二。" in text  # the old face and the new one
    # the old text on the old face (from the last build's snapshot) and in what changed
    assert text.count("二の赤。") == 2 and text.count("赤の二。") == 2, text
    assert "text：二の赤。 → 赤の二。" in text and "一番小さい赤。" not in text  # only changes
    assert (tiny / "output/tiny/cards.pdf").exists()  # the build's files are kept


def test_a_layout_change_marks_every_card_with_unchanged_data(tiny):
    assert run("build", "--project", str(tiny)).exit_code == 0
    edit(tiny, "layouts/tiny/card_front.toml", 'size = "48pt"', 'size = "40pt"')
    r = run("diff", "tiny", "--project", str(tiny))
    assert "10 changed" in r.output
    assert all_text(tiny / "output/tiny/diff.pdf").count("データは同じ（レイアウトの変更）") == 10


def test_cards_added_and_removed(tmp_path):
    from test_images import paint

    root = paint(make_fixture_project("art", tmp_path))
    assert run("build", "--project", str(root)).exit_code == 0
    edit(root, "cards/art/cards.csv", "樫,oak.svg,stretch\n", "")
    with (root / "cards/art/cards.csv").open("a", encoding="utf-8") as f:
        f.write("鷹,fox.png,contain\n")
    r = run("diff", "art", "--project", str(root))
    assert r.exit_code == 0, r.output
    assert "art: 0 changed, 1 added, 1 removed: 鷹, 樫" in r.output
    text = all_text(root / "output/art/diff.pdf")
    assert "追加されたカード" in text and "削除されたカード" in text


def test_no_earlier_build_is_a_clear_error(tiny):
    r = run("diff", "tiny", "--project", str(tiny))
    assert r.exit_code == 1
    assert "no earlier build of tiny to compare with" in r.output


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_diff_since_a_git_revision(tiny):
    def git(*args):
        subprocess.run(["git", "-C", str(tiny), *args], check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=d", "-c", "user.email=d@example.invalid", "add", "-A")
    git("-c", "user.name=d", "-c", "user.email=d@example.invalid", "commit", "-qm", "first")
    edit(tiny, "cards/tiny/cards.csv", "四の赤。", "赤の四。")
    r = run("diff", "tiny", "--project", str(tiny), "--since", "HEAD")
    assert r.exit_code == 0, r.output
    assert "tiny: 1 changed" in r.output and "四の赤。" in r.output
    assert "HEAD" in all_text(tiny / "output/tiny/diff.pdf")
    r = run("diff", "tiny", "--project", str(tiny), "--since", "nosuchrev")
    assert r.exit_code == 1 and "nosuchrev" in r.output and "Traceback" not in r.output


def test_the_copies_of_an_edited_row_are_one_change_with_their_count(kit):
    """A row printed four times (its count column) changed once: one change, one pair in the
    proof, its count beside its name; watch's line says the same."""
    assert run("build", "--project", str(kit)).exit_code == 0
    edit(kit, "cards/kit/chips.csv", "資源,石,#808080,4", "資源,石,#707070,4")
    r = run("diff", "kit", "--project", str(kit))
    assert r.exit_code == 0, r.output
    assert "kit: 1 changed, 0 added, 0 removed: 資源 石 ×4\n" in r.output
    assert r.output.count("color: '#808080' → '#707070'") == 1
    text = all_text(kit / "output/kit/diff.pdf")
    assert text.count("資源 石 ×4") == 1 and text.count("color：#808080 → #707070") == 1


def test_reprint_puts_only_the_changed_cards_on_sheets_with_their_backs(tiny):
    """Two cards edited since the printed build: reprint.pdf holds those two, fronts on one
    sheet and their backs behind them (mirrored for a long-edge flip), nothing else."""
    from pdfread import MM, RULER, drawn_text, page_size_mm, page_text, placements

    assert run("build", "--project", str(tiny)).exit_code == 0
    edit(tiny, "cards/tiny/cards.csv", "二の赤。", "赤の二。")
    edit(tiny, "cards/tiny/cards.csv", "青,5,#2F5DA8", "青,5,#1F8F3F")
    r = run("diff", "tiny", "--project", str(tiny), "--reprint")
    assert r.exit_code == 0, r.output
    assert "reprint.pdf: 2 pieces to print and swap in" in r.output
    pdf = tiny / "output/tiny/reprint.pdf"
    assert len(pypdf.PdfReader(pdf).pages) == 3  # the proof page, a front sheet, its backs
    assert "差し替え用シート" in page_text(pdf, 0) and "ものさし" in page_text(pdf, 0)
    assert "前回のビルドからの変更" in page_text(pdf, 0)
    assert RULER in drawn_text(pdf, 0)  # every digit of the ruler has its glyph (7 and 9 too)
    front = page_text(pdf, 1)
    assert "赤の二。" in front and "二の赤。" not in front and "一番小さい赤。" not in front
    fronts, backs = placements(pdf, 1), placements(pdf, 2)
    assert len(fronts) == len(backs) == 2
    width = page_size_mm(pdf, 1)[0] * MM
    card_w = fronts[0].bbox[2] + fronts[0].bbox[0]  # trim width (the bleed either side)
    mirrored = sorted(round(width - f.x - card_w, 1) for f in fronts)
    assert sorted(round(b.x, 1) for b in backs) == mirrored
    # a diff without --reprint leaves the sheet: it may be at the printer's
    made = pdf.read_bytes()
    assert run("diff", "tiny", "--project", str(tiny)).exit_code == 0
    assert pdf.read_bytes() == made and (tiny / "output/tiny/diff.pdf").exists()
    # after a build, nothing changed since: no reprint sheet to make, the last one stays
    assert run("build", "--project", str(tiny)).exit_code == 0
    r = run("diff", "tiny", "--project", str(tiny), "--reprint")
    assert "tiny: no change" in r.output and pdf.read_bytes() == made


def diffed(root, game: str, file: str, old: str, new: str, *args: str):
    """What `pnp diff GAME ARGS` says after a build and one edit of `file`."""
    assert run("build", "--project", str(root)).exit_code == 0
    edit(root, file, old, new)
    r = run("diff", game, "--project", str(root), *args)
    assert r.exit_code == 0, r.output
    return r


def test_reprint_prints_every_copy_of_an_edited_row(kit):
    r = diffed(kit, "kit", "cards/kit/chips.csv", "石,#808080,4", "石,#707070,4", "--reprint")
    assert "4 pieces to print and swap in" in r.output
    from pdfread import placements

    pdf = kit / "output/kit/reprint.pdf"
    assert len(pypdf.PdfReader(pdf).pages) == 2  # tokens: one-sided, one sheet
    assert len(placements(pdf, 1)) == 4 and "石" in all_text(pdf) and "木" not in all_text(pdf)


PRINTED = (2026, 11, 28, 12, 0, 0)  # UTC


def test_diff_since_the_day_the_deck_was_printed(tiny, monkeypatch):
    """Builds are kept by time: the deck printed on the 28th is compared with, however many
    builds came since, and --reprint prints what changed from it; a time before every kept
    build says which is the earliest."""
    import calendar
    import time

    from generator import diff
    from generator.cache import Cache

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setattr(time, "tzset", time.tzset)  # undone below
    try:
        assert run("build", "--project", str(tiny)).exit_code == 0
        kept = tiny / "output/.cache/snapshots/tiny.builds"
        [first] = list(kept.iterdir())
        first.unlink()  # kept again as if built, and printed, on the 28th
        cache = Cache.for_output(tiny / "output", writable=True)
        diff.save(diff.load(cache, "tiny"), cache, "tiny", now=calendar.timegm(PRINTED))
        edit(tiny, "cards/tiny/cards.csv", "二の赤。", "赤の二。")
        assert run("build", "--project", str(tiny)).exit_code == 0
        edit(tiny, "cards/tiny/cards.csv", "四の赤。", "赤の四。")
        assert run("build", "--project", str(tiny)).exit_code == 0
        assert run("build", "--project", str(tiny)).exit_code == 0  # no change: none kept
        assert len(list(kept.iterdir())) == 3
        assert "tiny: no change" in run("diff", "tiny", "--project", str(tiny)).output
        r = run("diff", "tiny", "--project", str(tiny), "--since", "2026-11-28", "--reprint")
        assert r.exit_code == 0, r.output
        assert "compared with the build of 2026-11-28 12:00" in r.output
        assert "tiny: 2 changed, 0 added, 0 removed: 赤 2, 赤 4" in r.output
        assert "2 pieces to print and swap in" in r.output
        assert "2026-11-28 12:00 のビルド" in all_text(tiny / "output/tiny/diff.pdf")
        r = run("diff", "tiny", "--project", str(tiny), "--since", "2026-11-28 11:59")
        assert r.exit_code == 1
        assert "no build of tiny kept from 2026-11-28 11:59 or before" in r.output
        assert "the earliest kept: 2026-11-28 12:00" in r.output
    finally:
        monkeypatch.undo()
        time.tzset()


def test_kept_builds_are_bounded_in_number_and_bytes(tmp_path, monkeypatch):
    from generator import diff
    from generator.cache import Cache

    cache = Cache(tmp_path / "cache")
    for i in range(35):
        snap = diff.Snapshot([bytes([i % 256]) * 100], [])
        diff.save(snap, cache, "g", now=1_800_000_000 + i)
    diff.save(snap, cache, "g", now=1_800_000_100)  # the same cards again: no new entry
    kept = diff.builds(cache, "g")
    assert len(kept) == diff.HISTORY and kept[-1][0] == 1_800_000_034
    monkeypatch.setattr(diff, "HISTORY_BYTES", 2500)
    diff.save(diff.Snapshot([b"y" * 100], []), cache, "g", now=1_800_000_200)
    kept = diff.builds(cache, "g")
    assert 1 <= len(kept) < diff.HISTORY and kept[-1][0] == 1_800_000_200
    assert sum(p.stat().st_size for p in (tmp_path / "cache/snapshots/g.builds").iterdir()) <= 2500
    found = diff.load_by(cache, "g", 1_800_000_250)
    assert found is not None and found[1] == 1_800_000_200
    assert found[0].entry_chunks == [b"y" * 100]


def test_a_die_face_edited_is_a_change_and_its_net_is_in_dice_pdf(kit):
    """A die's faces are compared as cards are (watch already said so; diff said no change):
    the face named with its row and column; --reprint points at dice.pdf's nets."""
    r = diffed(kit, "kit", "cards/kit/dice.csv", "赤,4,#C8323C", "赤,四,#C8323C", "--reprint")
    assert "kit: 1 changed, 0 added, 0 removed" in r.output
    assert "(cards/kit/dice.csv:5) label: '4' → '四'" in r.output
    assert "no card or token to reprint: print the changed dice (赤) from dice.pdf" in r.output
    assert not (kit / "output/kit/reprint.pdf").exists()
    assert "label：4 → 四" in all_text(kit / "output/kit/diff.pdf")


def test_since_that_is_no_day_nor_a_revision_says_what_it_takes(tiny):
    assert run("build", "--project", str(tiny)).exit_code == 0
    r = run("diff", "tiny", "--project", str(tiny), "--since", "2026-13-01")
    assert r.exit_code == 1
    assert "--since 2026-13-01: no such day or time (a day 2026-11-28" in r.output
    r = run("diff", "tiny", "--project", str(tiny), "--since", "yesterday")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "--since yesterday: a git revision needs the project in a git repository" in r.output
    assert '--since "2026-11-28 18:00"' in r.output


def test_a_board_redrawn_is_a_change_shown_scaled_down(kit):
    r = diffed(kit, "kit", "layouts/kit/board.toml", "#F3EEDD", "#E3DECD", "--reprint")
    assert "kit: 1 changed, 0 added, 0 removed: 大きなボード" in r.output
    assert "print the changed board (大きなボード) from its PDF" in r.output
    pdf = kit / "output/kit/diff.pdf"
    assert "大きなボード（cards/kit/game.toml）" in all_text(pdf)
    assert "データは同じ（レイアウトの変更）" in all_text(pdf)


def test_a_changed_picture_reaches_the_snapshot_of_runs_it_is_drawn_in(tmp_path):
    """300 cards (the art fixture's rows written a hundred times): a picture redrawn changes
    the faces of every run that shows it, though no row changed, so the snapshot the build
    keeps holds the new faces; with the picture as it was, `pnp diff` names those cards."""
    from test_images import paint

    root = paint(make_fixture_project("art", tmp_path))
    csv = root / "cards/art/cards.csv"
    head, *rows = csv.read_text("utf-8").splitlines()
    csv.write_text("\n".join([head, *rows * 100]) + "\n", "utf-8")
    oak = root / "cards/art/art/oak.svg"
    as_it_was = oak.read_text("utf-8")
    assert run("build", "--project", str(root)).exit_code == 0
    oak.write_text(as_it_was.replace("#1E8C3C", "#3C1E8C"), "utf-8")
    assert run("build", "--project", str(root)).exit_code == 0
    oak.write_text(as_it_was, "utf-8")
    r = run("diff", "art", "--project", str(root))
    assert r.exit_code == 0, r.output
    assert "art: 100 changed, 0 added, 0 removed: 樫, 樫" in r.output, r.output


def test_a_renamed_card_is_one_change_where_an_id_column_names_the_cards(tmp_path):
    """The commonest edit: a card renamed. With an id column telling the rows apart, diff
    says the name changed on that card, and the reprint holds it, not one card added and one
    removed; without one, the label is all diff has to go by."""
    root = tmp_path / "p"
    assert run("init", str(root)).exit_code == 0
    source = tmp_path / "spells.csv"
    source.write_text("id,name,cost\n1,火球,3\n2,氷壁,2\n3,雷撃,4\n", "utf-8")
    assert run("new", "spells", "--project", str(root), "--from", str(source)).exit_code == 0
    assert run("build", "--project", str(root)).exit_code == 0
    result = diffed(
        root, "spells", "cards/spells/spells.csv", "2,氷壁,2", "2,氷の壁,2", "--reprint"
    )
    assert result.exit_code == 0, result.output
    assert "1 changed, 0 added, 0 removed" in result.output, result.output
    assert "name: '氷壁' → '氷の壁'" in result.output
    assert "氷の壁" in all_text(root / "output/spells/reprint.pdf")


def test_earlier_reprints_are_kept(tiny):
    """A plain diff, or one with no change, leaves the last reprint.pdf (it may be at the
    printer's); a new reprint keeps the one it replaces beside it, named by when it was made."""
    game = tiny / "output/tiny"
    diffed(tiny, "tiny", "cards/tiny/cards.csv", "二の赤。", "赤の二。", "--reprint")
    first = (game / "reprint.pdf").read_bytes()
    diffed(tiny, "tiny", "cards/tiny/cards.csv", "赤の二。", "赤のふたつ。")
    assert (game / "reprint.pdf").read_bytes() == first
    assert run("build", "--project", str(tiny)).exit_code == 0
    assert "no change" in run("diff", "tiny", "--project", str(tiny)).output
    assert (game / "reprint.pdf").read_bytes() == first
    diffed(tiny, "tiny", "cards/tiny/cards.csv", "赤のふたつ。", "赤の二枚目。", "--reprint")
    kept = sorted(game.glob("reprint-*.pdf"))
    assert len(kept) == 1 and kept[0].read_bytes() == first
    assert "赤の二枚目" in all_text(game / "reprint.pdf").replace("\n", "")


def test_an_english_game_s_diff_and_reprint_speak_english_with_every_ruler_digit(tmp_path):
    """diff.pdf and reprint.pdf of a game printed in English say their own words in English
    (no Japanese on them), and reprint.pdf's ruler prints every digit, 7 and 9 too, though
    no card of the game has them."""
    import re

    from pdfread import RULER, drawn_text

    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    source = tmp_path / "deck.csv"
    source.write_text("name,copies,effect\nScout,3,Look.\nKing,1,Win.\n", encoding="utf-8")
    assert run("new", "deck", "--project", str(project), "--from", str(source)).exit_code == 0
    assert run("build", "--project", str(project)).exit_code == 0
    edit(project, "cards/deck/deck.csv", "Look.", "Look twice.")
    r = run("diff", "deck", "--project", str(project), "--reprint")
    assert r.exit_code == 0, r.output
    out = project / "output/deck"
    japanese = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff01-\uff9f]")
    diff_page, proof = drawn_text(out / "diff.pdf", 0), drawn_text(out / "reprint.pdf", 0)
    assert "Cards changed since the last build" in diff_page, diff_page
    assert "effect: Look. → Look twice." in diff_page, diff_page
    assert "Sheets to swap in" in proof and "since the last build" in proof, proof
    assert RULER in proof, proof
    for text in (diff_page, proof):
        assert not japanese.search(text), text
