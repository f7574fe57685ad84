"""Spreadsheets as designers save them, and bad input: each message names file, row and column."""

from __future__ import annotations

import pytest

from conftest import csv_path, edit_csv, run
from pdfread import MM, placements, text_in

CSV = "cards/fudaraku/kleshas.csv"


def check(root, *extra):
    """`pnp check` on the data: the playouts have tests of their own."""
    return run("check", "--no-play", "--project", str(root), *extra)


def build(root, *extra):
    """`pnp build fudaraku`: these tests edit its data only."""
    return run("build", "fudaraku", "--project", str(root), *extra)


def test_real_project_checks_clean_but_for_the_three_player_deal(project):
    result = check(project, "fudaraku")
    assert result.exit_code == 0, result.output
    assert "0 errors, 2 warnings" in result.output
    assert "cards/fudaraku/rules.md:33: warning: a setup step no rule uses" in result.output
    assert (
        "cards/fudaraku/rules.md:29: warning: 3 players: the 40 煩悩カード deal 13 each with 1 left over"
        in result.output
    )
    assert "4 players: the 40 煩悩カード deal 10 each, none left over" in result.output
    assert check(project, "fudaraku", "--strict").exit_code == 1


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp932", "shift_jis"])
def test_excel_encodings_read_the_same(project, encoding):
    path = csv_path(project)
    text = path.read_text(encoding="utf-8")
    path.write_bytes(text.encode(encoding))
    result = build(project)
    assert result.exit_code == 0, result.output
    pdf = project / "output/fudaraku/cards.pdf"
    p = placements(pdf, 1)[0]
    assert "貪欲" in text_in(pdf, 1, (p.x, p.y, p.x + 63 * MM, p.y + 88 * MM))


def test_unknown_encoding_is_a_clear_error(project):
    path = csv_path(project)
    data = path.read_bytes()
    path.write_bytes(data.replace("瞋恚".encode(), b"\xff\xfe\xff"))
    result = check(project)
    assert result.exit_code == 1
    assert (
        f"{CSV}:10: error: cannot read the file's text: it is neither UTF-8 nor Shift_JIS"
        in result.output
    )
    assert "Traceback" not in result.output


def test_xlsx_workbook_one_sheet_per_deck(project):
    openpyxl = pytest.importorskip("openpyxl")
    rows = [line.split(",") for line in csv_path(project).read_text(encoding="utf-8").splitlines()]
    book = openpyxl.Workbook()
    book.active.title = "表紙"
    sheet = book.create_sheet("煩悩")
    for r in rows:
        sheet.append([int(v) if v.isdigit() else v for v in r])
    book.save(project / "cards/fudaraku/cards.xlsx")
    csv_path(project).unlink()
    manifest = project / "cards/fudaraku/game.toml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace(
            'data = "kleshas.csv"', 'data = "cards.xlsx#煩悩"'
        ),
        encoding="utf-8",
    )
    result = build(project)
    assert result.exit_code == 0, result.output
    # A bad cell in the workbook is named by file, sheet, row and column.
    sheet.cell(row=7, column=3, value="五")
    book.save(project / "cards/fudaraku/cards.xlsx")
    result = check(project)
    assert (
        "cards/fudaraku/cards.xlsx[煩悩]:7:number: error: 'number' must be a whole number, got '五'"
        in result.output
    )


def test_missing_column(project):
    edit_csv(project, lambda lines: [",".join(l.split(",")[:2] + l.split(",")[3:]) for l in lines])
    result = check(project)
    assert result.exit_code == 1
    assert (
        f"{CSV}:1:number: error: missing column 'number' (the header has: suit, reading, color)"
        in result.output
    )


def test_number_that_is_not_a_number(project):
    edit_csv(project, lambda lines: [l.replace("疑,ぎ,3,", "疑,ぎ,三,") for l in lines])
    result = check(project)
    assert result.exit_code == 1
    assert f"{CSV}:36:number: error: 'number' must be a whole number, got '三'" in result.output


def test_full_width_digits_are_numbers(project):
    edit_csv(project, lambda lines: [l.replace("疑,ぎ,3,", "疑,ぎ,３,") for l in lines])
    assert check(project).exit_code == 0


def test_empty_file(project):
    csv_path(project).write_bytes(b"")
    result = check(project)
    assert result.exit_code == 1
    assert f"{CSV}: error: the file is empty" in result.output


def test_duplicate_and_missing_cards_are_named(project):
    # Row 36 (疑 3) becomes a second 貪欲 5 (first on row 6).
    edit_csv(
        project,
        lambda lines: [l.replace("疑,ぎ,3,#7B4F9D", "貪欲,とんよく,5,#C8323C") for l in lines],
    )
    result = check(project)
    assert result.exit_code == 1
    assert (
        f"{CSV}:36: error: 貪欲 5 appears twice (rows 6, 36); the manifest expects 1"
        in result.output
    )
    assert f"{CSV}: error: 疑 3 is missing" in result.output


def test_card_outside_the_composition(project):
    edit_csv(project, lambda lines: lines + ["怒り,いかり,3,#000000", "疑,ぎ,9,#7B4F9D"])
    result = check(project)
    assert result.exit_code == 1
    assert (
        f"{CSV}:42:suit: error: 怒り 3 is not in the composition: 'suit' must be 貪欲, 瞋恚, 昏沈, 掉挙, 疑"
        in result.output
    )
    assert (
        f"{CSV}:43:number: error: 疑 9 is not in the composition: 'number' must be 1–8, got 9"
        in result.output
    )
    assert f"{CSV}: error: 42 cards, the manifest expects 40" in result.output


def test_repeated_problems_are_folded(project):
    edit_csv(project, lambda lines: [lines[0]] + [l.replace(",#", ",x#") for l in lines[1:]])
    result = check(project)
    assert result.exit_code == 1
    assert "'color' must be a colour like #C8323C, got 'x#C8323C' (8 cards)" in result.output
    assert result.output.count("must be a colour") == 5  # one line per suit colour


def test_unused_column_is_a_warning(project):
    edit_csv(project, lambda lines: [lines[0] + ",memo"] + [l + ",メモ" for l in lines[1:]])
    result = check(project)
    assert result.exit_code == 0
    assert (
        f"{CSV}:1:memo: warning: column 'memo' is not used by layout klesha_front or klesha_back"
        in result.output
    )
    assert check(project, "--strict").exit_code == 1


def test_template_field_missing_from_data_names_template_and_card(project):
    layout = project / "layouts/fudaraku/klesha_front.toml"
    layout.write_text(
        layout.read_text(encoding="utf-8").replace(
            'text = "{{ reading }}"', 'text = "{{ flavour }}"'
        ),
        encoding="utf-8",
    )
    result = check(project)
    assert result.exit_code == 1
    assert (
        "layouts/fudaraku/klesha_front.toml:79: error: box 'reading' uses a field the data does not have "
        "('flavour' is undefined) for card 貪欲 1 (cards/fudaraku/kleshas.csv:2)" in result.output
    )
    assert "(40 cards)" in result.output


def test_bad_length_in_layout_names_template_line(project):
    layout = project / "layouts/fudaraku/klesha_front.toml"
    layout.write_text(
        layout.read_text(encoding="utf-8").replace('h = "38mm"', 'h = "38 millimetres"', 1),
        encoding="utf-8",
    )
    result = check(project)
    assert result.exit_code == 1
    assert (
        "layouts/fudaraku/klesha_front.toml:54: error: box 'seal': 'h': length '38 millimetres' needs a unit"
        in result.output
    )


def test_missing_glyph_names_card_and_character(project):
    edit_csv(
        project,
        lambda lines: [l.replace("掉挙,じょうこ,4,", "掉挙,じょうこ\U0001f600,4,") for l in lines],
    )
    result = check(project)
    assert result.exit_code == 1
    assert (
        f"{CSV}:29: error: card 掉挙 4: the font for 'body' (Noto Sans CJK JP) has no glyph for "
        "「\U0001f600」(U+1F600) in box 'reading'"
    ) in result.output


def test_text_too_long_shrinks_then_reports_overflow(project):
    long = "煩悩の大きさを表す数字です。" * 8
    edit_csv(
        project, lambda lines: [l.replace("昏沈,こんじん,2,", f"昏沈,{long},2,") for l in lines]
    )
    result = check(project)
    assert result.exit_code == 0
    assert (
        f"{CSV}:19: warning: card 昏沈 2: text in box 'reading' does not fit even at 6 pt"
        in result.output
    )


def test_failed_build_leaves_previous_outputs_untouched(project):
    assert build(project).exit_code == 0
    out = project / "output/fudaraku"
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    edit_csv(project, lambda lines: [l.replace("疑,ぎ,3,", "疑,ぎ,三,") for l in lines])
    result = build(project)
    assert result.exit_code == 1
    assert "nothing was written" in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_not_a_project(tmp_path):
    result = run("check", "--project", str(tmp_path))
    assert result.exit_code == 1
    assert "not a project folder: it has no cards/ folder" in result.output


def test_unknown_game(project):
    result = check(project, "nosuchgame")
    assert result.exit_code == 1
    assert "no game 'nosuchgame' in cards/ (games: fudaraku, " in result.output


def test_check_writes_nothing(project):
    before = sorted(p for p in project.rglob("*"))
    assert check(project).exit_code == 0
    assert sorted(p for p in project.rglob("*")) == before
