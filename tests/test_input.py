"""Spreadsheets as designers save them, and bad input: each message names file, row and column.

Runs on the `tiny` fixture game (tests/fixtures/tiny): 赤/青 × 1–5, one card each.
"""

from __future__ import annotations

import shutil

import pytest

from conftest import FIXTURES, edit, make_fixture_project, run
from pdfread import MM, page_text, placements, render, text_in
from spreadsheets import csv_rows, write_ods, write_xlsx

CSV = "cards/tiny/cards.csv"


def check(root, *extra):
    return run("check", "--no-play", "--project", str(root), *extra)


def build(root, *extra):
    return run("build", "--project", str(root), *extra)


def built_with_box(root, box: str):
    """The fixture built with a [[box]] (its keys as TOML lines) added to its front layout:
    as top_left_card gives it."""
    front = root / "layouts/tiny/card_front.toml"
    front.write_text(front.read_text("utf-8") + "\n[[box]]\n" + box, "utf-8")
    result = build(root)
    assert result.exit_code == 0, result.output
    return top_left_card(root)


def top_left_card(root):
    """The first sheet of fronts rendered at 2×, and the top-left card's trim box on it in
    points from the page's bottom-left (left, bottom, right, top): 赤 1."""
    pdf = root / "output/tiny/cards.pdf"
    first = min(placements(pdf, 1), key=lambda p: (-p.y, p.x))
    return render(pdf, 1, scale=2), first.footprint


def colour_at(page, x: float, y: float) -> tuple:
    """The colour of a 2× rendering at page point (x, y), measured from the bottom-left."""
    return page.getpixel((round(x * 2), round(page.size[1] - y * 2)))


def edit_csv(root, fn) -> None:
    """Apply fn to the CSV's lines (header first) and save as UTF-8."""
    path = root / CSV
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(fn(lines)) + "\n", encoding="utf-8")


def test_fixture_checks_clean_but_for_the_uneven_deal(tiny):
    result = check(tiny)
    assert result.exit_code == 0, result.output
    assert "0 errors, 2 warnings" in result.output
    assert (
        "cards/tiny/rules.md:22: warning: 3 players: the 10 数字カード deal 3 each with 1 left over"
        in result.output
    )
    assert "2 players: the 10 数字カード deal 5 each, none left over" in result.output
    assert check(tiny, "--strict").exit_code == 1


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp932", "shift_jis"])
def test_excel_encodings_read_the_same(tiny, encoding):
    path = tiny / CSV
    path.write_bytes(path.read_text(encoding="utf-8").encode(encoding))
    result = build(tiny)
    assert result.exit_code == 0, result.output
    pdf = tiny / "output/tiny/cards.pdf"
    p = placements(pdf, 1)[0]
    assert "一番小さい赤" in text_in(pdf, 1, (p.x, p.y, p.x + 63 * MM, p.y + 88 * MM))


def test_unknown_encoding_is_a_clear_error(tiny):
    path = tiny / CSV
    path.write_bytes(path.read_bytes().replace("二の青".encode(), b"\xff\xfe\xff"))
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        f"{CSV}:8: error: cannot read the file's text: it is neither UTF-8 nor Shift_JIS"
        in result.output
    )
    assert "Traceback" not in result.output


def test_bom_then_shift_jis_is_a_clear_error(tiny):
    path = tiny / CSV
    path.write_bytes(b"\xef\xbb\xbf" + path.read_text(encoding="utf-8").encode("cp932"))
    result = check(tiny)
    assert result.exit_code == 1
    assert f"{CSV}:2: error: cannot read the file's text" in result.output
    assert "internal error" not in result.output


def test_xlsx_workbook_one_sheet_per_deck(tiny):
    openpyxl = pytest.importorskip("openpyxl")
    rows = [line.split(",") for line in (tiny / CSV).read_text(encoding="utf-8").splitlines()]
    book = openpyxl.Workbook()
    book.active.title = "表紙"
    sheet = book.create_sheet("カード")
    for r in rows:
        sheet.append([int(v) if v.isdigit() else v for v in r])
    book.save(tiny / "cards/tiny/cards.xlsx")
    (tiny / CSV).unlink()
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "cards.xlsx#カード"')
    result = build(tiny)
    assert result.exit_code == 0, result.output
    # A bad cell in the workbook is named by file, sheet, row and column.
    sheet.cell(row=5, column=2, value="五")
    book.save(tiny / "cards/tiny/cards.xlsx")
    result = check(tiny)
    assert (
        "cards/tiny/cards.xlsx[カード]:5:number: error: 'number' must be a whole number, got '五'"
        in result.output
    )


@pytest.mark.parametrize("formatted", [False, True])
def test_a_chart_sheet_named_for_the_cards_is_said_to_be_empty(tiny, formatted):
    """A workbook's chart sheet holds no cells: named as the deck's sheet it is an empty
    sheet, by either reader (a cell with a number format sends the workbook to openpyxl,
    whose chart sheets have no rows to read)."""
    import openpyxl
    from openpyxl.chart import BarChart, Reference

    rows = [line.split(",") for line in (tiny / CSV).read_text(encoding="utf-8").splitlines()]
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "カード"
    for r in rows:
        sheet.append([int(v) if v.isdigit() else v for v in r])
    if formatted:
        sheet["B2"].number_format = "0.0"
    chart = BarChart()
    chart.add_data(Reference(sheet, min_col=2, min_row=1, max_row=len(rows)), titles_from_data=True)
    book.create_chartsheet("グラフ").add_chart(chart)
    book.save(tiny / "cards/tiny/cards.xlsx")
    (tiny / CSV).unlink()
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "cards.xlsx#グラフ"')
    result = check(tiny)
    assert result.exit_code == 1
    assert "cards/tiny/cards.xlsx[グラフ]: error: the sheet is empty" in result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_ods_spreadsheet_prints_the_same_deck_as_the_csv(tiny, tiny_built):
    """LibreOffice's .ods: a one-sheet file needs no sheet name, numbers saved as floats read as
    the whole numbers they are, and the cards print byte for byte as from the CSV."""
    write_ods(tiny / "cards/tiny/cards.ods", {"カード": csv_rows(tiny / CSV)})
    (tiny / CSV).unlink()
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "cards.ods"')
    result = build(tiny)
    assert result.exit_code == 0, result.output
    assert (tiny / "output/tiny/cards.pdf").read_bytes() == (tiny_built / "cards.pdf").read_bytes()
    rows = csv_rows(tiny_built.parents[1] / CSV)
    rows[4][1] = "五"
    write_ods(tiny / "cards/tiny/cards.ods", {"表紙": [["ちいさな試験"]], "カード": rows})
    result = check(tiny)
    assert (
        "cards/tiny/cards.ods: error: the workbook has 2 sheets (表紙, カード): name the one "
        "with the cards after a '#', for example cards.ods#カード"
    ) in result.output
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.ods"', 'data = "cards.ods#カード"')
    result = check(tiny)
    assert (
        "cards/tiny/cards.ods[カード]:5:number: error: 'number' must be a whole number, got '五'"
        in result.output
    )


def test_a_cell_merged_down_over_rows_is_each_rows_value(tiny, tiny_built):
    """Excel keeps a merged cell's value in its top cell only; the designer sees it beside
    every row it spans (the suit and its colour written once for five cards): those rows
    print as if each had it, byte for byte as from the CSV."""
    rows = csv_rows(tiny / CSV)
    spans = []
    for first in (1, 6):  # the rows of 赤, then of 青 (header first)
        for r in range(first + 1, first + 5):
            rows[r][0] = rows[r][2] = None
        spans += [f"A{first + 1}:A{first + 5}", f"C{first + 1}:C{first + 5}"]
    write_xlsx(tiny / "cards/tiny/cards.xlsx", {"カード": rows}, merged=tuple(spans))
    (tiny / CSV).unlink()
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "cards.xlsx"')
    result = build(tiny)
    assert result.exit_code == 0, result.output
    assert (tiny / "output/tiny/cards.pdf").read_bytes() == (tiny_built / "cards.pdf").read_bytes()


def test_missing_column(tiny):
    edit_csv(tiny, lambda lines: [",".join(l.split(",")[:1] + l.split(",")[2:]) for l in lines])
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        f"{CSV}:1:number: error: missing column 'number' (the header has: suit, color, text)"
        in result.output
    )


def test_number_that_is_not_a_number(tiny):
    edit_csv(tiny, lambda lines: [l.replace("青,3,", "青,三,") for l in lines])
    result = check(tiny)
    assert result.exit_code == 1
    assert f"{CSV}:9:number: error: 'number' must be a whole number, got '三'" in result.output


def test_full_width_digits_are_numbers(tiny):
    edit_csv(tiny, lambda lines: [l.replace("青,3,", "青,３,") for l in lines])
    assert check(tiny).exit_code == 0


@pytest.mark.parametrize("minus", ["-", "－", "−"])  # ASCII, full-width, the minus sign U+2212
def test_a_negative_number_as_a_keyboard_or_word_processor_types_it(minus):
    from generator.validate import _convert

    assert _convert("int", f"{minus}3") == (-3, None)
    assert _convert("int", f"1{minus}2")[0] is None  # a range or a date is no number


def test_empty_file(tiny):
    (tiny / CSV).write_bytes(b"")
    result = check(tiny)
    assert result.exit_code == 1
    assert f"{CSV}: error: the file is empty" in result.output


def test_duplicate_and_missing_cards_are_named(tiny):
    # Row 9 (青 3) becomes a second 赤 5 (first on row 6).
    edit_csv(tiny, lambda lines: [l.replace("青,3,#2F5DA8", "赤,5,#C8323C") for l in lines])
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        f"{CSV}:9: error: 赤 5 appears twice (rows 6, 9); the manifest expects 1" in result.output
    )
    assert f"{CSV}: error: 青 3 is missing" in result.output


def test_card_outside_the_composition(tiny):
    edit_csv(tiny, lambda lines: lines + ["黄,3,#E0C020,黄色。", "青,9,#2F5DA8,九。"])
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        f"{CSV}:12:suit: error: 黄 3 is not in the composition: 'suit' must be one of 赤, 青, "
        "got '黄' (a new card? add its value to the list at cards/tiny/game.toml:28)"
        in result.output
    )
    assert (
        f"{CSV}:13:number: error: 青 9 is not in the composition: 'number' must be 1–5, got 9 "
        "(a new card? add its value to the list at cards/tiny/game.toml:29)" in result.output
    )
    assert f"{CSV}: error: 12 cards, the manifest expects 10 (total at " in result.output
    assert "cards/tiny/game.toml:31)" in result.output


def test_repeated_problems_are_folded(tiny):
    edit_csv(tiny, lambda lines: [lines[0]] + [l.replace(",#", ",x#") for l in lines[1:]])
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        "'color' must be a colour like #C8323C or one of red, blue, green, black, white, gray, "
        "grey, orange, purple, yellow, got 'x#C8323C' (5 cards)"
    ) in result.output
    assert result.output.count("must be a colour") == 2  # one line per suit colour


def test_unused_column_is_a_warning(tiny):
    edit_csv(tiny, lambda lines: [lines[0] + ",memo"] + [l + ",メモ" for l in lines[1:]])
    result = check(tiny)
    assert result.exit_code == 0
    assert (
        f"{CSV}:1:memo: warning: column 'memo' is not used by layout card_front or card_back"
        in result.output
    )
    assert check(tiny, "--strict").exit_code == 1


def test_template_field_missing_from_data_names_template_and_card(tiny):
    edit(tiny, "layouts/tiny/card_front.toml", 'text = "{{ text }}"', 'text = "{{ flavour }}"')
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        "layouts/tiny/card_front.toml:48: error: box 'text' uses a field the data does not have "
        "('flavour' is undefined) for card 赤 1 (cards/tiny/cards.csv:2)" in result.output
    )
    assert "(10 cards)" in result.output
    assert "did you mean" not in result.output  # nothing is near 'flavour'


def test_a_misspelt_field_suggests_the_column_near_it(tiny):
    edit(tiny, "layouts/tiny/card_front.toml", 'text = "{{ text }}"', 'text = "{{ txt }}"')
    result = check(tiny)
    assert result.exit_code == 1
    assert "fields: color, game, number, row, suit, text, vars (did you mean 'text'?)" in (
        result.output
    )


def test_bad_length_in_layout_names_template_line(tiny):
    edit(tiny, "layouts/tiny/card_front.toml", 'h = "30mm"', 'h = "30 millimetres"')
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        "layouts/tiny/card_front.toml:33: error: box 'number': 'h': length '30 millimetres' "
        "needs a unit" in result.output
    )


def test_missing_glyph_names_card_and_character(tiny):
    """The first card it prints on named, at its cell; more cards lacking the same glyph in
    the same box are one line with their count (the font is the likely mend)."""
    edit_csv(tiny, lambda lines: [l.replace("四の赤。", "四の赤\U0001f600") for l in lines])
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        f"{CSV}:5:text: error: card 赤 4: the font for 'body' (Noto Sans CJK JP) has no glyph "
        "for 「\U0001f600」(U+1F600) in box 'text' (take it out, or give 'body' a font that has "
        "it in game.toml's [fonts])\n"
    ) in result.output
    edit_csv(tiny, lambda lines: [l.replace("。", "\U0001f600") for l in lines])
    result = check(tiny)
    assert result.exit_code == 1
    glyph = [line for line in result.output.splitlines() if "has no glyph" in line]
    assert len(glyph) == 1, result.output
    assert glyph[0].startswith(f"{CSV}:2:text: error: card 赤 1: ")
    assert glyph[0].endswith("in game.toml's [fonts]) (10 cards)")


def test_a_selector_that_picks_a_glyph_s_form_needs_no_glyph_of_its_own(tiny):
    """「☆️」 is the star and the emoji presentation selector (U+FE0F), which no font draws:
    the card builds and prints the star, and a missing emoji is named without its selector."""
    edit_csv(tiny, lambda lines: [l.replace("四の赤。", "四の赤☆\ufe0f。") for l in lines])
    result = build(tiny)
    assert result.exit_code == 0, result.output
    printed = "".join(page_text(tiny / "output/tiny/cards.pdf", i) for i in (1, 2))
    assert "四の赤☆" in printed and "\ufe0f" not in printed
    edit_csv(tiny, lambda lines: [l.replace("☆\ufe0f", "\U0001f5e1\ufe0f") for l in lines])
    said = check(tiny).output
    assert "has no glyph for 「\U0001f5e1」(U+1F5E1) in box 'text'" in said, said


def test_missing_glyph_of_the_layouts_own_text_names_the_layouts_line(tiny):
    """A character the layout writes itself is in no cell: it is mended in the layout, at the
    box's line (its [[box]]), once for all the cards it prints on."""
    front = "layouts/tiny/card_front.toml"
    edit(tiny, front, 'text = "{{ text }}"', 'text = "\U0001f600{{ text }}"')
    lines = (tiny / front).read_text("utf-8").splitlines()
    line = lines.index('name = "text"')  # the line before it, counted from 1
    assert lines[line - 1] == "[[box]]"
    result = check(tiny)
    assert result.exit_code == 1
    assert f"{front}:{line}: error: card 赤 1: the font for 'body'" in result.output, result.output
    assert f"{CSV}:2: error" not in result.output


def test_text_too_long_shrinks_then_reports_overflow(tiny):
    """A card whose text does not fit is named; a few are each named (each card to mend), many
    are one line with their count (the box is too small for the deck)."""
    long = "数字の大きさを表すカードです。" * 12
    edit_csv(tiny, lambda lines: [l.replace("二の青。", long) for l in lines])
    result = check(tiny)
    assert result.exit_code == 0
    assert (
        f"{CSV}:8:text: warning: card 青 2: text in box 'text' does not fit even at 7 pt"
        in result.output
    )
    edit_csv(tiny, lambda lines: [l.replace("の青。", long) for l in lines])
    said = [line for line in check(tiny).output.splitlines() if "does not fit" in line]
    assert len(said) == 3 and said[0].startswith(f"{CSV}:8:text: warning: card 青 2: "), said
    edit_csv(tiny, lambda lines: [l.replace("の赤。", long) for l in lines])
    result = check(tiny)
    said = [line for line in result.output.splitlines() if "does not fit" in line]
    assert len(said) == 1 and said[0].endswith(" (6 cards)"), said
    warned = sum(": warning: " in line for line in result.output.splitlines())
    assert f"0 errors, {warned} warnings" in result.output, result.output  # lines as said


def test_failed_build_leaves_previous_outputs_untouched(tiny):
    assert build(tiny).exit_code == 0
    out = tiny / "output/tiny"
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    edit_csv(tiny, lambda lines: [l.replace("青,3,", "青,三,") for l in lines])
    result = build(tiny)
    assert result.exit_code == 1
    assert "nothing was written" in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_not_a_project(tmp_path):
    result = run("check", "--project", str(tmp_path))
    assert result.exit_code == 1
    assert "not a project folder: it has no cards/ folder" in result.output


def test_run_inside_a_game_folder_finds_the_project_above(tiny, tmp_path, monkeypatch):
    """A designer in cards/tiny/ runs pnp as in the project folder: the outputs go to the
    project's output/, the messages name files from the project; a folder in no project is
    still said to be none."""
    monkeypatch.chdir(tiny / "cards/tiny")
    result = run("build")
    assert result.exit_code == 0, result.output
    assert f"wrote {tiny / 'output/tiny/cards.pdf'}" in result.output
    assert "cards/tiny/rules.md:" in result.output  # a path from the project's folder
    assert not (tiny / "cards/tiny/output").exists()
    elsewhere = tmp_path / "loose"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = run("check")
    assert result.exit_code == 1
    assert "not a project folder: it has no cards/ folder" in result.output


def test_a_spreadsheet_named_in_another_unicode_form_is_read(tiny):
    """game.toml names データ.csv (one character for デ); a Mac wrote the file's name with テ and
    a combining ゛. The deck is read."""
    import unicodedata

    edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "データ.csv"')
    (tiny / CSV).rename(tiny / "cards/tiny" / unicodedata.normalize("NFD", "データ.csv"))
    result = check(tiny)
    assert result.exit_code == 0, result.output


def test_a_failed_build_of_several_games_names_those_that_build_on_their_own(tmp_path):
    """One game's spreadsheet broken: nothing is written (one output set), and the message says
    how to build the others."""
    root = make_fixture_project("decks", tmp_path)
    csv_file = root / "cards/uno/cards.csv"
    csv_file.write_text(csv_file.read_text(encoding="utf-8") + "赤,数字,x,0\n", encoding="utf-8")
    result = run("build", "--project", str(root))
    assert result.exit_code == 1
    assert "nothing was written" in result.output
    assert "the games with no error build on their own: pnp build hana" in result.output
    assert not (root / "output/hana").exists()
    result = run("build", "hana", "--project", str(root))
    assert result.exit_code == 0, result.output


def test_a_path_written_with_backslashes_as_on_windows_is_read(tiny):
    """game.toml written on Windows names data = "sheets\\cards.csv": read on any machine."""
    (tiny / "cards/tiny/sheets").mkdir()
    (tiny / CSV).rename(tiny / "cards/tiny/sheets/cards.csv")
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "sheets\\\\cards.csv"')
    result = check(tiny)
    assert result.exit_code == 0, result.output


def test_empty_cells_past_the_last_column_are_no_cells_and_a_value_there_is_named(tiny):
    """A row ending 「,,」 (a spreadsheet's formatting past the last column) reads as its cards;
    a value past the last column is an error at its row, without a hint that the row is the
    header (it is a card)."""
    edit_csv(tiny, lambda lines: [lines[0], lines[1] + ",,", *lines[2:]])
    result = check(tiny)
    assert result.exit_code == 0, result.output
    edit_csv(tiny, lambda lines: [lines[0], lines[1].rstrip(",") + ",メモ", *lines[2:]])
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        f"{CSV}:2: error: 5 cells but the header names 4 columns; past the last column: 'メモ'. "
        "A comma inside a cell's text splits the cell: put that cell in double quotes"
    ) in result.output
    assert "looks like the header" not in result.output


def test_an_excel_error_value_in_a_csv_is_a_warning_at_its_cell(tiny):
    """A CSV saved from a workbook whose formula failed holds #N/A: the card would print it."""
    edit(tiny, CSV, "二の赤。", "#N/A")
    result = check(tiny)
    assert result.exit_code == 0, result.output
    assert f"{CSV}:3:text: warning: #N/A is Excel's mark of a formula that failed" in result.output


def test_unknown_game(tiny):
    result = check(tiny, "nosuchgame")
    assert result.exit_code == 1
    assert "no game 'nosuchgame' in cards/ (games: tiny)" in result.output


def test_check_writes_nothing(tiny):
    before = sorted(p for p in tiny.rglob("*"))
    assert check(tiny).exit_code == 0
    assert sorted(p for p in tiny.rglob("*")) == before


def test_composition_groups_name_the_broken_token(kit):
    edit(kit, "cards/kit/chips.csv", "資源,石,#808080,4", "資源,石,#808080,3")
    result = check(kit)
    assert result.exit_code == 1
    assert "cards/kit/chips.csv: error: 資源 石 has 3 of 4 copies" in result.output
    assert "cards/kit/chips.csv: error: 11 tokens, the manifest expects 12" in result.output


def test_provisional_rows_are_listed_as_notices(tiny):
    edit_csv(
        tiny,
        lambda lines: (
            [lines[0] + ",provisional"]
            + [l + (",数字は仮" if l.startswith("青") else ",") for l in lines[1:]]
        ),
    )
    result = check(tiny)
    assert result.exit_code == 0, result.output
    assert (
        "cards/tiny/cards.csv:7:provisional: notice: 数字カード 青 1, 青 2, 青 3, 青 4, 青 5: "
        "provisional — 数字は仮" in result.output
    )
    assert "column 'provisional' is not used" not in result.output


def test_blank_rows_between_cards_are_reported_not_silently_skipped(tiny):
    edit_csv(tiny, lambda lines: lines[:4] + ["", ",,,"] + lines[4:] + ["", ""])
    result = check(tiny)
    assert result.exit_code == 0, result.output
    assert f"{CSV}:5: warning: blank rows between cards (5, 6): skipped, not a card" in (
        result.output
    )
    assert "12" not in result.output.split("blank rows")[1].split("\n")[0]  # not the trailing ones


def test_an_empty_column_with_no_name_is_passed_over_and_one_with_values_is_not(tiny):
    """A spacer column (no name, nothing in it) between two columns reads as if it were not
    there; a value under no name is an error naming the column."""

    def spaced(lines, value=""):
        out = []
        for i, line in enumerate(lines):
            cells = line.split(",")
            cell = value if i == 3 else ""
            out.append(",".join(cells[:2] + [cell] + cells[2:]))
        return out

    original = (tiny / CSV).read_text(encoding="utf-8").splitlines()
    edit_csv(tiny, spaced)
    result = build(tiny)
    assert result.exit_code == 0, result.output
    assert "#C8323C" not in page_text(tiny / "output/tiny/cards.pdf", 1)  # colours still colours
    assert "二の赤。" in page_text(tiny / "output/tiny/cards.pdf", 1)
    edit_csv(tiny, lambda lines: spaced(original, "メモ"))
    result = check(tiny)
    assert result.exit_code == 1
    assert f"{CSV}:1: error: column 3 has no name in the header row" in result.output


@pytest.mark.parametrize("kind", ["csv", "ods"])
def test_a_header_below_row_1_is_reported(tiny, kind):
    """Blank rows above the header: a warning naming its row. A title above it: an error that
    says which row looks like the header, rather than a guess."""
    rows = csv_rows(tiny / CSV)
    if kind == "ods":
        (tiny / CSV).unlink()
        edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "cards.ods"')
        write_ods(tiny / "cards/tiny/cards.ods", {"カード": [[], [], *rows]})
        name = "cards/tiny/cards.ods[カード]"
    else:
        edit_csv(tiny, lambda lines: ["", "", *lines])
        name = CSV
    result = check(tiny)
    assert result.exit_code == 0, result.output
    assert f"{name}:3: warning: the header is on row 3, not row 1" in result.output
    titled = [["ちいさな試験 カード一覧"], [], *rows]
    if kind == "ods":
        write_ods(tiny / "cards/tiny/cards.ods", {"カード": titled})
    else:
        (tiny / CSV).write_text(
            "\n".join(",".join(map(str, r)) for r in titled) + "\n", encoding="utf-8"
        )
    result = check(tiny)
    assert result.exit_code == 1
    assert (
        "row 3 looks like the header: say header = 3 (in game.toml's [[component]], or pnp new "
        "--header 3), or delete the rows above it"
    ) in result.output, result.output
    # The title kept, the header named: read from row 3, rows named as the spreadsheet numbers
    # them, no warning that the header is low.
    edit(tiny, "cards/tiny/game.toml", 'sheet = "poker_3x3"', 'sheet = "poker_3x3"\nheader = 3')
    result = check(tiny)
    assert result.exit_code == 0, result.output
    assert "the header is on row 3" not in result.output
    edit(tiny, "cards/tiny/game.toml", "header = 3", "header = 2")
    result = check(tiny)
    assert result.exit_code == 1
    assert f"{name}:2: error: row 2 is empty, but header = 2 says the column names are on it" in (
        result.output
    )
    edit(tiny, "cards/tiny/game.toml", "header = 2", 'header = "3"')
    result = check(tiny)
    assert result.exit_code == 1
    assert "'header' is the row the column names are on, a whole number from 1" in result.output


def test_workbook_cells_read_as_the_spreadsheet_shows_them(tmp_path):
    """A date cell is its date, a date and time as its format shows it (openpyxl's default
    format here, yyyy-mm-dd h:mm:ss), TRUE/FALSE as Excel shows them, 5.0 as 5."""
    import datetime

    from generator.load import read_table
    from generator.problems import SourceRef

    from spreadsheets import write_xlsx

    book = tmp_path / "deck.xlsx"
    header = ["名前", "日付", "時刻", "有効", "数"]
    rows = [
        ["A", datetime.date(2026, 11, 30), datetime.datetime(2026, 12, 1, 9, 30), True, 5.0],
        ["B", datetime.date(2027, 1, 2), datetime.datetime(2026, 12, 1, 9, 30, 15), False, 2.5],
    ]
    write_xlsx(book, {"カード": [header, *rows]})
    table = read_table(book, SourceRef("deck.xlsx"))
    first, second = (row.values for row in table.rows)
    assert first == {
        "名前": "A",
        "日付": "2026-11-30",
        "時刻": "2026-12-01 9:30:00",
        "有効": "TRUE",
        "数": "5",
    }
    assert second["時刻"] == "2026-12-01 9:30:15" and second["有効"] == "FALSE"
    assert second["数"] == "2.5"


def test_workbook_as_excel_saves_it_is_read_as_excel_shows_it(tmp_path):
    """A workbook as Japanese Excel saves it: text in the shared strings with its furigana
    (phonetic runs, not printed), rich text, a formula with the value it showed, a whole number
    stored as 5.0; a format of its own that is General (as LibreOffice writes one): the values
    as Excel shows them."""
    from generator import load
    from generator.problems import SourceRef

    from spreadsheets import write_excel_parts

    path = tmp_path / "deck.xlsx"
    strings = [
        "<t>名前</t>",
        "<t>効果</t>",
        "<t>コスト</t>",
        '<t>炎竜</t><rPh sb="0" eb="2"><t>エンリュウ</t></rPh><phoneticPr fontId="1"/>',
        '<r><t>火を</t></r><r><rPr><b/></rPr><t xml:space="preserve"> 吐く</t></r>',
    ]
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>'
        '<c r="C1" t="s"><v>2</v></c></row>'
        '<row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2" t="s"><v>4</v></c>'
        '<c r="C2" s="1"><f>2+3</f><v>5.0</v></c></row>'
    )
    write_excel_parts(path, strings, rows, {164: "General"})
    table = load.read_table(path, SourceRef("deck.xlsx"))
    assert table.columns == ["名前", "効果", "コスト"]
    assert [(r.where.row, r.values) for r in table.rows] == [
        (2, {"名前": "炎竜", "効果": "火を 吐く", "コスト": "5"})
    ]


@pytest.mark.parametrize("formatted", [False, True])
def test_a_line_break_pasted_from_windows_is_a_line_break(tmp_path, formatted):
    """Text pasted into a cell from a Windows program keeps its CR: Excel stores it as
    _x000D_ before the line feed (which openpyxl leaves as it is). A workbook's cell, General or
    formatted 0.0, and a CSV cell quoted across CR LF lines give the card the one line break
    Alt+Enter would."""
    from generator.load import read_table
    from generator.problems import SourceRef

    from spreadsheets import write_excel_parts

    path = tmp_path / "deck.xlsx"
    strings = ["<t>名前</t>", "<t>効果</t>", '<t xml:space="preserve">一行目_x000D_\n二行目</t>']
    style = ' s="1"' if formatted else ""
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
        f'<row r="2"><c r="A2"{style}><v>7</v></c><c r="B2" t="s"><v>2</v></c></row>'
    )
    write_excel_parts(path, strings, rows, {164: "0.0"} if formatted else {})
    (row,) = read_table(path, SourceRef("deck.xlsx")).rows
    assert row.values == {"名前": "7.0" if formatted else "7", "効果": "一行目\n二行目"}
    csv = tmp_path / "deck.csv"
    csv.write_bytes('名前,効果\r\n7,"一行目\r\n二行目"\r\n'.encode())
    (row,) = read_table(csv, SourceRef("deck.csv")).rows
    assert row.values == {"名前": "7", "効果": "一行目\n二行目"}


@pytest.mark.parametrize(
    "number_format, shown",
    [
        ("yyyy/m/d", "2026/11/30"),  # Excel's date on Japanese Windows
        ('yyyy"年"m"月"d"日"', "2026年11月30日"),
        ("m/d(aaa)", "11/30(月)"),
        ('m"月"d"日"(aaaa)', "11月30日(月曜日)"),
        ("mmm d, yyyy", "Nov 30, 2026"),
        ("h:mm", "9:05"),
        ("hh:mm AM/PM", "09:05 AM"),
        ('[$-411]ggge"年"m"月"d"日"', "2026-11-30 09:05"),  # the era: not read, ISO instead
    ],
)
def test_workbook_dates_read_as_their_format_shows_them(tmp_path, number_format, shown):
    import datetime

    import openpyxl

    from generator.load import read_table
    from generator.problems import SourceRef

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["名前", "日"])
    sheet.append(["A", datetime.datetime(2026, 11, 30, 9, 5)])
    sheet["B2"].number_format = number_format
    book.save(tmp_path / "d.xlsx")
    (row,) = read_table(tmp_path / "d.xlsx", SourceRef("d.xlsx")).rows
    assert row.values["日"] == shown


def test_workbook_numbers_read_as_their_format_shows_them(tiny):
    """50% not 0.5, ¥1,200 not 1200, 007 not 7, 1.50 not 1.5: a card prints what the designer
    sees in the spreadsheet; an int column formatted with thousands separators is still an
    int. General cells are written plainly."""
    import openpyxl

    from generator.load import read_table
    from generator.problems import SourceRef

    book = tiny / "cards/tiny/nums.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["name", "rate", "price", "no", "weight", "plain", "big"])
    ws.append(["A", 0.5, 1200, 7, 1.5, 2.5, 1234567])
    formats = {"B2": "0%", "C2": '"¥"#,##0', "D2": "000", "E2": "0.00", "G2": "#,##0"}
    for cell, number_format in formats.items():
        ws[cell].number_format = number_format
    wb.save(book)
    (row,) = (r.values for r in read_table(book, SourceRef("nums.xlsx")).rows)
    assert row == {
        "name": "A",
        "rate": "50%",
        "price": "¥1,200",
        "no": "007",
        "weight": "1.50",
        "plain": "2.5",
        "big": "1,234,567",
    }
    from generator.validate import _convert

    assert _convert("int", row["big"]) == (1234567, None)


def test_a_format_no_cell_uses_any_more_shows_the_value_as_stored(tmp_path):
    """A designer formats a column as 50%, then back to General: the workbook keeps the
    percentage among its cell formats, unused, and the cell shows 0.5 as stored; while the
    cell uses it, 50%."""
    import openpyxl

    from generator import load
    from generator.problems import SourceRef

    path = tmp_path / "deck.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["name", "rate"])
    book.active.append(["A", 0.5])
    book.active["B2"].number_format = "0%"
    book.save(path)
    (row,) = load.read_table(path, SourceRef("deck.xlsx")).rows
    assert row.values["rate"] == "50%"
    book = openpyxl.load_workbook(path)
    book.active["B2"].number_format = "General"
    book.save(path)
    (row,) = load.read_table(path, SourceRef("deck.xlsx")).rows
    assert row.values == {"name": "A", "rate": "0.5"}


def test_colours_by_name_and_short_hex_print_as_those_colours(tiny):
    """A designer writes `red` in a colour cell and `#FFF` or `white` in a layout: each is read
    the one way everywhere (the names markup's {color=…} takes)."""
    edit_csv(
        tiny,
        lambda lines: [
            lines[1].replace("#C8323C", "red") if i == 1 else l for i, l in enumerate(lines)
        ],
    )
    edit(tiny, "layouts/tiny/card_front.toml", 'color = "#FFFFFF"', 'color = "#FFF"')
    edit(tiny, "layouts/tiny/card_back.toml", 'color = "#E8E2CC"', 'color = "white"')
    assert build(tiny).exit_code == 0
    page, (left, _bottom, _right, top) = top_left_card(tiny)
    # Inside the band (the card's top 14 mm), left of the suit's letters: the band's colour.
    assert colour_at(page, left + 2 * MM, top - 3 * MM) == (0xC8, 0x10, 0x2E)


def test_yes_or_no_cells_as_designers_mark_them(tiny):
    """A bool column read from words, TRUE/FALSE and marks (○ ◯ 〇 ✓ / × or empty); anything
    else is named at its cell with what is taken."""
    marks = ["○", "◯", "〇", "✓", "TRUE", "×", "", "FALSE", "はい", "✗"]
    edit_csv(
        tiny, lambda lines: [lines[0] + ",bonus"] + [l + "," + m for l, m in zip(lines[1:], marks)]
    )
    edit(tiny, "cards/tiny/game.toml", 'text = "text"', 'text = "text"\n  bonus = "bool"')
    result = check(tiny)
    assert result.exit_code == 0, result.output
    edit_csv(tiny, lambda lines: [l.replace(",✗", ",たぶん") for l in lines])
    result = check(tiny)
    assert result.exit_code == 1
    assert f"{CSV}:11:bonus: error: 'bonus' must be yes or no (" in result.output
    assert "got 'たぶん'" in result.output


@pytest.mark.parametrize("left", [0, 1])
def test_a_cell_merged_down_in_libreoffice_is_each_rows_value(tiny, tiny_built, left):
    """LibreOffice's merged cells (.ods): as Excel's, each row they span has the value; also
    in a sheet whose column A is left empty (python-calamine's rows start at the first column
    with a value, the merges' columns count from A)."""
    rows = csv_rows(tiny / CSV)
    spans = {}
    for first in (1, 6):  # the rows of 赤, then of 青 (header first)
        for r in range(first + 1, first + 5):
            rows[r][0] = rows[r][2] = None
        spans[first, left] = spans[first, left + 2] = 5
    rows = [[""] * left + row for row in rows]
    write_ods(tiny / "cards/tiny/cards.ods", {"カード": rows}, spans)
    (tiny / CSV).unlink()
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "cards.ods"')
    result = build(tiny)
    assert result.exit_code == 0, result.output
    assert (tiny / "output/tiny/cards.pdf").read_bytes() == (tiny_built / "cards.pdf").read_bytes()


def test_an_excel_97_workbook_prints_the_same_deck_as_the_csv(tiny, tiny_built):
    """An .xls (Excel 97–2003) as old files are saved, and an .xlsm (a workbook with macros):
    the cards print byte for byte as from the CSV."""
    shutil.copy(FIXTURES / "tiny-cards.xls", tiny / "cards/tiny/cards.xls")
    (tiny / CSV).unlink()
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.csv"', 'data = "cards.xls"')
    result = build(tiny)
    assert result.exit_code == 0, result.output
    assert (tiny / "output/tiny/cards.pdf").read_bytes() == (tiny_built / "cards.pdf").read_bytes()
    write_xlsx(tiny / "cards/tiny/cards.xlsm", {"カード": csv_rows(tiny_built.parents[1] / CSV)})
    edit(tiny, "cards/tiny/game.toml", 'data = "cards.xls"', 'data = "cards.xlsm"')
    result = build(tiny)
    assert result.exit_code == 0, result.output
    assert (tiny / "output/tiny/cards.pdf").read_bytes() == (tiny_built / "cards.pdf").read_bytes()


def test_alignment_as_designers_write_it(tiny, tiny_built):
    """valign = "center" (CSS's word), align = "centre": the same page as "middle" and
    "center"; x = 0 needs no unit."""
    front = "layouts/tiny/card_front.toml"
    edit(tiny, front, 'align = "center"\nvalign = "middle"', 'align = "centre"\nvalign = "center"')
    edit(tiny, front, 'x = "0mm"', "x = 0")
    result = build(tiny)
    assert result.exit_code == 0, result.output
    assert (tiny / "output/tiny/cards.pdf").read_bytes() == (tiny_built / "cards.pdf").read_bytes()


def test_a_line_placed_by_its_points_alone_spans_the_card(tiny):
    """A line with points and no x, y, w, h: its points are from the card's top-left corner."""
    page, (left, bottom, right, _top) = built_with_box(
        tiny,
        'name = "rule"\ntype = "line"\npoints = [["0mm", "H - 4mm"], ["W", "H - 4mm"]]\n'
        'stroke = "#00FF00"\nstroke_width = "1mm"\n',
    )
    for x in (left + 2 * MM, (left + right) / 2, right - 2 * MM):  # 4 mm above its bottom edge
        assert colour_at(page, x, bottom + 4 * MM) == (0, 255, 0)


def test_a_rule_line_has_no_height(tiny):
    """A horizontal line is a box of height 0: no error (text, pictures and icons need one)."""
    page, (left, _bottom, right, top) = built_with_box(
        tiny,
        'name = "rule"\ntype = "line"\nx = "0mm"\ny = "20mm"\nw = "W"\nh = "0mm"\n'
        'points = [["0mm", "0mm"], ["W", "0mm"]]\nstroke = "#00FF00"\nstroke_width = "1mm"\n',
    )
    assert colour_at(page, (left + right) / 2, top - 20 * MM) == (0, 255, 0)


def test_an_icon_drawn_in_named_and_short_colours(tiny):
    """icons.toml takes colours as layouts do: fill = "red", stroke = "#FFF" draw as #C8102E
    and white (the renderer was handed "red" as it stood); a shape that is no table is named."""
    icons = tiny / "layouts/tiny/icons.toml"
    icons.write_text(
        '[icon."丸"]\nshapes = [{ type = "circle", cx = 0.5, cy = 0.5, r = 0.45, fill = "red", '
        'stroke = "#FFF" }]\n',
        "utf-8",
    )
    page, (_left, _bottom, right, top) = built_with_box(
        tiny,
        'name = "mark"\ntype = "icon"\nicon = "丸"\nx = "W - 14mm"\ny = "20mm"\nw = "10mm"\n'
        'h = "10mm"\n',
    )
    assert colour_at(page, right - 9 * MM, top - 25 * MM) == (0xC8, 0x10, 0x2E)  # its middle
    icons.write_text('[icon."丸"]\nshapes = ["circle"]\n', "utf-8")
    result = check(tiny)
    assert result.exit_code == 1
    assert "icon '丸': each shape is a table such as" in result.output


def test_a_list_with_gaps_is_said_as_a_list(tiny):
    """number = [1, 3, 5] says 'one of 1, 3, 5', not '1–5' (which 2 would seem to belong to)."""
    edit(tiny, "cards/tiny/game.toml", "number = { min = 1, max = 5 }", "number = [1, 3, 5]")
    result = check(tiny)
    assert result.exit_code == 1
    assert "'number' must be one of 1, 3, 5, got 2" in result.output, result.output


def test_a_misspelled_column_in_when_is_named_at_its_key_with_did_you_mean(tiny):
    """`when = { knd = … }`: said under `when`, at its line, with the column meant."""
    decks = make_fixture_project("decks", tiny.parent)
    manifest = decks / "cards/hana/game.toml"
    text = manifest.read_text("utf-8")
    manifest.write_text(text.replace("when = { month = 1 }", "when = { mnth = 1 }", 1), "utf-8")
    line = manifest.read_text("utf-8").splitlines().index("  when = { mnth = 1 }") + 1
    result = run("check", "hana", "--project", str(decks), "--no-play")
    assert result.exit_code == 1
    said = next(row for row in result.output.splitlines() if "mnth" in row)
    assert said.startswith(f"cards/hana/game.toml:{line}:component.composition.group.when.mnth:")
    assert "when: 'mnth' is not one of its columns" in said and "did you mean 'month'" in said


def test_an_empty_name_is_an_error_at_its_cell_and_required_columns_can_be_listed(tmp_path):
    """A blank name prints a blank title band: the column that names the cards is required
    unless the manifest says otherwise; `required` lists other columns, `required = []` none."""
    decks = make_fixture_project("decks", tmp_path)
    data = decks / "cards/hana/cards.csv"
    rows = data.read_text("utf-8").splitlines()
    header = rows[0].split(",")
    name_at = header.index("name")
    cells = rows[3].split(",")
    cells[name_at] = ""
    rows[3] = ",".join(cells)
    data.write_text("\n".join(rows) + "\n", "utf-8")
    result = run("check", "hana", "--project", str(decks), "--no-play")
    assert result.exit_code == 1
    assert "cards/hana/cards.csv:4:name: error: 'name' is empty, and every card needs one" in (
        result.output
    ), result.output
    manifest = decks / "cards/hana/game.toml"
    text = manifest.read_text("utf-8")
    at = text.index("  [component.columns]")
    manifest.write_text(text[:at] + "required = []\n\n" + text[at:], "utf-8")
    result = run("check", "hana", "--project", str(decks), "--no-play")
    assert "is empty" not in result.output, result.output
    manifest.write_text(text[:at] + 'required = ["plnt"]\n\n' + text[at:], "utf-8")
    result = run("check", "hana", "--project", str(decks), "--no-play")
    assert result.exit_code == 1
    assert "required: 'plnt' is not one of its columns" in result.output
    assert "did you mean 'plant'" in result.output


@pytest.mark.parametrize(
    "made, named, said",
    [
        ("xlsx", "deck.ods", "it is an .xlsx workbook: rename it deck.xlsx"),
        ("xlsx", "deck.xls", "it is an .xlsx workbook: rename it deck.xlsx"),
        ("ods", "deck.xlsx", "it is an .ods spreadsheet: rename it deck.ods"),
        ("csv", "deck.xlsx", "it is a text file of rows: rename it deck.csv"),
    ],
)
def test_a_spreadsheet_under_another_format_s_name_is_told_what_it_is(tmp_path, made, named, said):
    """A workbook saved with the wrong ending (an .xlsx called deck.ods, CSV text called
    deck.xlsx) is an error that says what the file is and the name to give it."""
    rows = [["name", "count"], ["A", "1"], ["B", "2"]]
    path = tmp_path / f"made.{made}"
    if made == "xlsx":
        write_xlsx(path, {"deck": rows})
    elif made == "ods":
        write_ods(path, {"deck": rows})
    else:
        path.write_text("\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
    wrong = path.rename(tmp_path / named)
    assert run("init", str(tmp_path / "p")).exit_code == 0
    result = run("new", "g", "--project", str(tmp_path / "p"), "--from", str(wrong))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{named}: error: cannot open the" in result.output and said in result.output


@pytest.mark.parametrize("words", ["Pokémon", "Crème brûlée à l’ancienne – 5 €", "Éclair"])
def test_a_western_excel_csv_prints_its_accents(tmp_path, words):
    """Excel's "CSV" on French, German or Spanish Windows is Windows-1252, with semicolons:
    read as such, not refused and not taken for Shift_JIS (「Pok駑on」, 「ﾉclair」)."""
    rows = [["Name", "Effect", "Qty"], [words, "Gain 1.", "2"], ["Bread", "Draw a card.", "1"]]
    sheet = tmp_path / "deck.csv"
    sheet.write_bytes("\r\n".join(";".join(r) for r in rows).encode("cp1252") + b"\r\n")
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    made = run("new", "g", "--project", str(project), "--from", str(sheet))
    assert made.exit_code == 0, made.output
    built = build(project)
    assert built.exit_code == 0, built.output
    assert words in page_text(project / "output/g/cards.pdf", 1)  # the first sheet of fronts


def test_cyrillic_in_its_own_code_page_is_refused_not_misread(tmp_path):
    """Windows-1251 decodes as Windows-1252 too, to accented letters alone (Ïðèâåò): a clear
    error, not cards of mojibake."""
    sheet = tmp_path / "deck.csv"
    sheet.write_bytes("Имя,Сколько\nПривет,2\n".encode("cp1251"))
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    result = run("new", "g", "--project", str(project), "--from", str(sheet))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "deck.csv:1: error: cannot read the file's text" in result.output
