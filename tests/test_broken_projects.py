"""Broken and hostile projects, each named after its defect: `pnp build` ends with a clean message
naming its place, exit 1, no traceback, and the previous outputs byte-identical. Each breaks a
copy of the `tiny` fixture game that was built before."""

from __future__ import annotations

import shutil

import pytest

from conftest import edit, own_base, run


def csv_rows(root, fn) -> None:
    """Apply fn to the card CSV's lines (header first) and save as UTF-8."""
    path = root / f"{GAME}/cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(fn(lines)) + "\n", encoding="utf-8")


def symlink(root, rel: str, target) -> None:
    path = root / rel
    path.unlink(missing_ok=True)
    path.symlink_to(target)


def xlsx_with_formula(root, title: bool = False) -> None:
    """The deck as a workbook whose 赤 3 text is a formula Excel never computed; with `title`,
    under a title row (game.toml: header = 2)."""
    import openpyxl

    rows = [
        line.split(",") for line in (root / f"{GAME}/cards.csv").read_text("utf-8").splitlines()
    ]
    book = openpyxl.Workbook()
    sheet = book.active
    if title:
        sheet.append(["ちいさな試験 カード一覧"])
    for r in rows:
        sheet.append([int(v) if v.isdigit() else v for v in r])
    sheet["D5" if title else "D4"] = '=CONCAT("三の","赤")'
    book.save(root / f"{GAME}/cards.xlsx")
    data = 'data = "cards.xlsx"\nheader = 2' if title else 'data = "cards.xlsx"'
    edit(root, f"{GAME}/game.toml", 'data = "cards.csv"', data)


def xlsx_with_failing_formula(root) -> None:
    """The deck as a workbook whose 赤 3 text cell holds a formula that fails: Excel stores the
    error value (#DIV/0!) it shows."""
    import re
    import zipfile

    xlsx_with_formula(root)
    book = root / f"{GAME}/cards.xlsx"
    with zipfile.ZipFile(book) as z:
        files = {name: z.read(name) for name in z.namelist()}
    sheet = files["xl/worksheets/sheet1.xml"].decode()
    cell = '<c r="D4" t="e"><f>1/0</f><v>#DIV/0!</v></c>'
    files["xl/worksheets/sheet1.xml"] = re.sub(r'<c r="D4".*?</c>', cell, sheet).encode()
    with zipfile.ZipFile(book, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)


GAME = "cards/tiny"
BACK = "layouts/tiny/card_back.toml"

DEFECTS = {
    "manifest_not_toml": (
        lambda r: edit(r, f"{GAME}/game.toml", "[game]", "[game"),
        f"{GAME}/game.toml:2:6: error: cannot read the manifest: Expected ']'",
    ),
    "manifest_shift_jis_is_read": (
        lambda r: (r / f"{GAME}/game.toml").write_bytes(
            (r / f"{GAME}/game.toml")
            .read_text(encoding="utf-8")
            .replace("[game]", "[game")
            .encode("cp932")
        ),
        f"{GAME}/game.toml:2:6: error: cannot read the manifest",
    ),
    "manifest_not_text": (
        lambda r: (r / f"{GAME}/game.toml").write_bytes(b'[game]\ntitle = "\x82\x20"\n'),
        f"{GAME}/game.toml:2: error: cannot read the file's text: it is neither UTF-8 nor "
        "Shift_JIS",
    ),
    "manifest_without_title": (
        lambda r: edit(r, f"{GAME}/game.toml", 'title = "ちいさな試験"\n', ""),
        f"{GAME}/game.toml:2:game: error: missing key 'title' in [game]",
    ),
    "manifest_title_not_text": (
        lambda r: edit(r, f"{GAME}/game.toml", 'title = "ちいさな試験"', "title = 3"),
        f"{GAME}/game.toml:3:game.title: error: 'title' in [game] must be text",
    ),
    "players_backwards": (
        lambda r: edit(r, f"{GAME}/game.toml", "min = 2, max = 4", "min = 4, max = 2"),
        f"{GAME}/game.toml:4:game.players: error: players: min 4 and max 2 must satisfy",
    ),
    "unknown_kind": (
        lambda r: edit(
            r, f"{GAME}/game.toml", 'name = "数字カード"', 'name = "数字カード"\nkind = "dice"'
        ),
        f"{GAME}/game.toml:14:component.kind: error: component 'card': kind must be one of card, "
        "token, die, board, got 'dice'",
    ),
    "card_without_back": (
        lambda r: edit(r, f"{GAME}/game.toml", 'back = "card_back"\n', ""),
        f"{GAME}/game.toml:11:component: error: missing key 'back' in component 'card'",
    ),
    "composition_key_not_a_column": (
        lambda r: edit(
            r, f"{GAME}/game.toml", 'key = ["suit", "number"]', 'key = ["suit", "rank"]'
        ),
        f"{GAME}/game.toml:27:component.composition.key: error: component 'card': composition key "
        "'rank' is not one of its columns",
    ),
    "unknown_column_type": (
        lambda r: edit(r, f"{GAME}/game.toml", 'text = "text"', 'text = "prose"'),
        f"{GAME}/game.toml:24:component.columns.text: error: component 'card': column 'text' has "
        "unknown type 'prose'",
    ),
    "deal_names_no_component": (
        lambda r: edit(
            r, f"{GAME}/game.toml", 'component = "card"\nall', 'component = "cards"\nall'
        ),
        f"{GAME}/game.toml:34:deal.component: error: [deal] component 'cards' is not a component",
    ),
    "font_family_unknown": (
        lambda r: edit(
            r,
            f"{GAME}/game.toml",
            'body = { family = "Noto Sans CJK JP"',
            'body = { family = "Noto Sans Kanji"',
        ),
        f"{GAME}/game.toml:8:fonts.body: error: font family 'Noto Sans Kanji' not found",
    ),
    "font_without_family": (
        lambda r: edit(
            r, f"{GAME}/game.toml", 'body = { family = "Noto Sans CJK JP", ', "body = { "
        ),
        f"{GAME}/game.toml:8:fonts.body: error: [fonts] body needs a family",
    ),
    "font_weight_unknown": (
        lambda r: edit(r, f"{GAME}/game.toml", 'weight = "Bold"', 'weight = "Heavy"'),
        f"{GAME}/game.toml:9:fonts.bold: error: font 'Noto Sans CJK JP' has no weight 'Heavy' "
        "(found: Bold, Regular)",
    ),
    "data_file_missing": (
        lambda r: (r / f"{GAME}/cards.csv").unlink(),
        f"{GAME}/cards.csv: error: file not found",
    ),
    "data_file_wrong_kind": (
        lambda r: edit(r, f"{GAME}/game.toml", 'data = "cards.csv"', 'data = "cards.ods"'),
        f"{GAME}/cards.ods: error: file not found",
    ),
    "duplicate_header": (
        lambda r: edit(r, f"{GAME}/cards.csv", "suit,number,color,text", "suit,number,color,suit"),
        f"{GAME}/cards.csv:1:suit: error: columns 1 and 4 are both named 'suit': rename one",
    ),
    "ragged_row": (
        lambda r: edit(
            r, f"{GAME}/cards.csv", "青,2,#2F5DA8,二の青。", "青,2,#2F5DA8,二の青。,extra"
        ),
        f"{GAME}/cards.csv:8: error: 5 cells but the header names 4 columns",
    ),
    "layout_missing": (
        lambda r: edit(r, f"{GAME}/game.toml", 'front = "card_front"', 'front = "card_frnt"'),
        f"{GAME}/game.toml:16:component.front: error: layout 'card_frnt' not found in "
        "layouts/tiny/ or layouts/_shared/ (did you mean 'card_front'?)",
    ),
    "layout_new": (
        lambda r: edit(r, f"{GAME}/game.toml", 'front = "card_front"', 'front = "monster"'),
        f"{GAME}/game.toml:16:component.front: error: layout 'monster' not found in "
        "layouts/tiny/ or layouts/_shared/; a new layout is a file of its own: "
        "layouts/tiny/monster.toml",
    ),
    "layout_not_toml": (
        lambda r: edit(r, BACK, "[[box]]", "[[box]"),
        f"{BACK}:4:6: error: cannot read layout",
    ),
    "layout_unknown_top_key": (
        lambda r: edit(r, BACK, 'extends = "card_base"', 'extends = "card_base"\nbox_size = 3'),
        f"{BACK}:3:box_size: error: unknown key 'box_size' (a layout has: extends, description",
    ),
    "layout_unknown_key": (
        lambda r: edit(r, BACK, 'min_size = "9pt"', 'min_size = "9pt"\ncolour = "#FFFFFF"'),
        f"{BACK}:19: error: box 'title': unknown key 'colour' in a box of type text",
    ),
    "layout_geometry_templated": (
        lambda r: edit(r, BACK, 'x = "6mm"', 'x = "{{ number }}mm"'),
        f"{BACK}:11: error: box 'title': 'x' is geometry and cannot be a template",
    ),
    "layout_bad_colour": (
        lambda r: edit(r, BACK, 'color = "#E8E2CC"', 'color = "gold"'),
        f"{BACK}:21: error: box 'title': 'color' must be a colour like #1F2A44, one of red, blue,"
        " green, black, white, gray, grey, orange, purple, yellow or 'none', got 'gold'",
    ),
    "manifest_rules_not_text": (
        lambda r: edit(r, f"{GAME}/game.toml", 'rules = "rules.md"', "rules = 5"),
        f"{GAME}/game.toml:5:game.rules: error: 'rules' in [game] must be text",
    ),
    "manifest_size_without_height": (
        lambda r: edit(r, f"{GAME}/game.toml", 'size = "poker"', 'size = { w = "63mm" }'),
        f"{GAME}/game.toml:15:component.size: error: component 'card': 'size' must be a size "
        'name such as "poker" or { w = "63mm", h = "88mm" }',
    ),
    "layout_type_a_list": (
        lambda r: edit(r, BACK, 'type = "text"', 'type = ["text"]'),
        f"{BACK}:10: error: box 'title': unknown type ['text'] (types: rect, ellipse, polygon,",
    ),
    "layout_leading_not_a_number": (
        lambda r: edit(r, BACK, 'size = "16pt"', 'size = "16pt"\nleading = "wide"'),
        f"{BACK}:18: error: box 'title': 'leading' is the line spacing as a multiple of the size",
    ),
    "layout_height_negative": (
        lambda r: edit(r, BACK, 'h = "20mm"', 'h = "-5mm"'),
        f"{BACK}:14: error: box 'title': 'h' = -5mm must be above 0",
    ),
    "layout_size_zero": (
        lambda r: edit(r, BACK, 'size = "16pt"', 'size = "0pt"'),
        f"{BACK}:17: error: box 'title': 'size' = 0pt must be above 0",
    ),
    "layout_extends_itself": (
        lambda r: edit(r, BACK, 'extends = "card_base"', 'extends = "card_back"'),
        "layout 'card_back' extends itself",
    ),
    "layout_unknown_font_role": (
        lambda r: edit(r, BACK, 'font = "bold"', 'font = "mincho"'),
        "box 'title': font role 'mincho' is not in the manifest's [fonts]",
    ),
    "layout_font_role_in_capitals": (
        lambda r: edit(r, BACK, 'font = "bold"', 'font = "Bold"'),
        "box 'title': font role 'Bold' is not in the manifest's [fonts] (roles: body, bold) "
        "(did you mean 'bold'?)",
    ),
    "layout_length_without_unit": (
        lambda r: edit(r, BACK, 'x = "6mm"', "x = 6"),
        f"{BACK}:11: error: box 'title': 'x' = 6 has no unit: write it with one, e.g. \"6mm\" "
        "(a bare number would be points, 2.1 mm)",
    ),
    "layout_bad_when": (
        lambda r: edit(r, BACK, 'font = "bold"', 'font = "bold"\nwhen = "number >"'),
        f"{BACK}:17: error: box 'title': 'when': template error",
    ),
    "rules_missing": (
        lambda r: (r / f"{GAME}/rules.md").unlink(),
        f"{GAME}/rules.md: error: rules source not found",
    ),
    "rules_not_text": (
        # bytes no text encoding reads (UTF-16 with its byte-order mark is read: Excel's
        # "Unicode Text")
        lambda r: (r / f"{GAME}/rules.md").write_bytes(b"# \x81\x20\x81\x20"),
        f"{GAME}/rules.md:1: error: cannot read the file's text: it is neither UTF-8 nor Shift_JIS",
    ),
    "rules_unknown_directive": (
        lambda r: edit(r, f"{GAME}/rules.md", "\n::: deal\n", "\n::: dealing\n"),
        f"{GAME}/rules.md:24: error: unknown directive '::: dealing'",
    ),
    "rules_samples_unknown_column": (
        lambda r: edit(r, f"{GAME}/rules.md", "::: samples card suit", "::: samples card colour"),
        f"{GAME}/rules.md:17: error: '::: samples card colour': no such printed component or "
        "column",
    ),
    "rules_samples_without_column": (
        lambda r: edit(r, f"{GAME}/rules.md", "::: samples card suit", "::: samples card"),
        f"{GAME}/rules.md:17: error: '::: samples' needs a component and a column",
    ),
    "rules_template_syntax": (
        lambda r: edit(r, f"{GAME}/rules.md", "{{ players.min|zen }}", "{{ players.min|zen }"),
        f"{GAME}/rules.md:6: error: template error",
    ),
    "rules_template_unknown_name": (
        lambda r: edit(r, f"{GAME}/rules.md", "{{ card.count|zen }}", "{{ card.cuont|zen }}"),
        f"{GAME}/rules.md:13: error: rules template:",
    ),
    "rules_summary_never_closed": (
        lambda r: edit(r, f"{GAME}/rules.md", "::: deal\n<!-- /summary -->", "::: deal"),
        f"{GAME}/rules.md:26: error: summary part opened again before '<!-- /summary -->' closes "
        "the one opened on line 19",
    ),
    "rules_summary_closed_twice": (
        lambda r: edit(r, f"{GAME}/rules.md", "## 得点", "<!-- /summary -->\n## 得点"),
        "error: '<!-- /summary -->' without an opening '<!-- summary: TITLE -->'",
    ),
    "sheets_bad_paper": (
        lambda r: edit(
            own_base(r), "layouts/_shared/sheets.toml", 'a4 = { w = "210mm"', 'a4 = { w = "210"'
        ),
        "layouts/_shared/sheets.toml:4:paper.a4: error: [paper] a4: needs w and h as lengths",
    ),
    "sheets_bad_backs": (
        lambda r: edit(
            own_base(r), "layouts/_shared/sheets.toml", 'backs = "long-edge"', 'backs = "short"', 1
        ),
        "layouts/_shared/sheets.toml:32:sheet.poker_3x3.backs: error: sheet 'poker_3x3': backs "
        "must be",
    ),
    "sheets_cols_in_words": (
        lambda r: edit(own_base(r), "layouts/_shared/sheets.toml", "cols = 3", 'cols = "three"', 1),
        "layouts/_shared/sheets.toml:27:sheet.poker_3x3.cols: error: sheet 'poker_3x3': 'cols' "
        "must be a whole number or \"auto\", got 'three'",
    ),
    "sheets_no_columns": (
        lambda r: edit(own_base(r), "layouts/_shared/sheets.toml", "cols = 3", "cols = 0", 1),
        "layouts/_shared/sheets.toml:27:sheet.poker_3x3.cols: error: sheet 'poker_3x3': 'cols' "
        "must be at least 1, got 0",
    ),
    "sheets_negative_margin": (
        lambda r: edit(
            own_base(r),
            "layouts/_shared/sheets.toml",
            'printer_margin = "5mm"',
            'printer_margin = "-5mm"',
            1,
        ),
        "layouts/_shared/sheets.toml:31:sheet.poker_3x3.printer_margin: error: sheet "
        "'poker_3x3': 'printer_margin' must be 0 or more, got -5mm",
    ),
    "sheets_misspelt_key": (
        lambda r: edit(
            own_base(r), "layouts/_shared/sheets.toml", "crop_width =", "crop_widht =", 1
        ),
        "layouts/_shared/sheets.toml:35:sheet.poker_3x3.crop_widht: error: unknown key "
        "'crop_widht' (did you mean 'crop_width'?)",
    ),
    "stray_key_in_players": (
        lambda r: edit(r, f"{GAME}/game.toml", "min = 2, max = 4", "min = 2, max = 4, best = 3"),
        f"{GAME}/game.toml:4:game.players.best: error: unknown key 'best' in [game].players "
        "(known: max, min)",
    ),
    "bleed_not_true_or_false": (
        lambda r: edit(r, "layouts/tiny/card_front.toml", "bleed = true", 'bleed = "yes"'),
        "layouts/tiny/card_front.toml:11: error: box 'band': 'bleed' must be true or false, "
        "got 'yes'",
    ),
    "unknown_card_size": (
        lambda r: edit(r, f"{GAME}/game.toml", 'size = "poker"', 'size = "jumbo"'),
        f"{GAME}/game.toml:15:component.size: error: unknown card size 'jumbo'",
    ),
    "card_size_as_pnp_new_names_it": (  # pnp new --size square: square70 or square80?
        lambda r: edit(r, f"{GAME}/game.toml", 'size = "poker"', 'size = "square"'),
        f"{GAME}/game.toml:15:component.size: error: unknown card size 'square' (did you mean "
        "one of 'square70', 'square80'?)",
    ),
    "card_size_in_capitals": (
        lambda r: edit(r, f"{GAME}/game.toml", 'size = "poker"', 'size = "Poker"'),
        f"{GAME}/game.toml:15:component.size: error: unknown card size 'Poker' (did you mean "
        "'poker'?)",
    ),
    "unknown_sheet": (
        lambda r: edit(r, f"{GAME}/game.toml", 'sheet = "poker_3x3"', 'sheet = "poker_4x4"'),
        f"{GAME}/game.toml:18:component.sheet: error: unknown sheet 'poker_4x4' (sheets: ",
    ),
    # --- hostile: paths that leave the project -------------------------------------------
    "rules_path_outside": (
        lambda r: edit(
            r, f"{GAME}/game.toml", 'rules = "rules.md"', 'rules = "../../../../etc/hostname"'
        ),
        f"{GAME}/game.toml:5:game.rules: error: 'rules' must be a file inside the project folder",
    ),
    "rules_symlink_outside": (
        lambda r: symlink(r, f"{GAME}/rules.md", "/etc/hostname"),
        f"{GAME}/game.toml:5:game.rules: error: 'rules' must be a file inside the project folder",
    ),
    "data_absolute_path": (
        lambda r: edit(r, f"{GAME}/game.toml", 'data = "cards.csv"', 'data = "/etc/passwd"'),
        f"{GAME}/game.toml:14:component.data: error: 'data' must be a file inside the project",
    ),
    "data_symlink_outside": (
        lambda r: symlink(r, f"{GAME}/cards.csv", "/etc/passwd"),
        f"{GAME}/game.toml:14:component.data: error: 'data' must be a file inside the project",
    ),
    "layout_name_is_a_path": (
        lambda r: edit(
            r, f"{GAME}/game.toml", 'front = "card_front"', 'front = "../../x/card_front"'
        ),
        "error: layout '../../x/card_front' not found in layouts/tiny/ or layouts/_shared/",
    ),
    "layout_symlink_outside": (
        lambda r: symlink(r, "layouts/tiny/card_back.toml", "/etc/hostname"),
        "layouts/tiny/card_back.toml: error: layout 'card_back' must be a file inside the project",
    ),
    "extends_a_path": (
        lambda r: edit(r, BACK, 'extends = "card_base"', 'extends = "/etc/card_base"'),
        "error: layout '/etc/card_base' not found",
    ),
    # --- templates: any error is the designer's -----------------------------------------
    "rules_include": (
        lambda r: edit(r, f"{GAME}/rules.md", "## 概要", '## 概要\n{% include "/etc/passwd" %}'),
        f"{GAME}/rules.md:5: error: rules template: a template cannot include, import or extend",
    ),
    "rules_import": (
        lambda r: edit(r, f"{GAME}/rules.md", "## 概要", '## 概要\n{% import "x" as y %}'),
        f"{GAME}/rules.md:5: error: rules template: a template cannot include, import or extend",
    ),
    "rules_extends": (
        lambda r: edit(r, f"{GAME}/rules.md", "{# A fixture", '{% extends "base" %}{# A fixture'),
        "error: rules template: a template cannot include, import or extend",
    ),
    "rules_division_by_zero": (
        lambda r: edit(r, f"{GAME}/rules.md", "## 概要", "## 概要\n{{ 1 / 0 }}"),
        f"{GAME}/rules.md:5: error: rules template: ZeroDivisionError: division by zero",
    ),
    "rules_huge_range": (
        lambda r: edit(r, f"{GAME}/rules.md", "## 概要", "## 概要\n{{ range(10**9)|length }}"),
        f"{GAME}/rules.md:5: error: rules template: a range would be 1,000,000,000 characters",
    ),
    "rules_macro_calling_itself": (
        lambda r: edit(
            r,
            f"{GAME}/rules.md",
            "## 概要",
            "## 概要\n{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
        ),
        f"{GAME}/rules.md:5: error: rules template: a macro calls itself without end",
    ),
    "layout_macro_calling_itself": (
        lambda r: edit(
            r,
            BACK,
            'text = "{{ game.title }}"',
            'text = "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}"',
        ),
        f"{BACK}:15: error: box 'title': template error for card 赤 1 (cards/tiny/cards.csv:2): "
        "a macro calls itself without end",
    ),
    "layout_division_by_zero": (
        lambda r: edit(r, BACK, 'text = "{{ game.title }}"', 'text = "{{ 1 / 0 }}"'),
        f"{BACK}:15: error: box 'title': template error for card 赤 1 (cards/tiny/cards.csv:2): "
        "ZeroDivisionError",
    ),
    "layout_include": (
        lambda r: edit(r, BACK, 'text = "{{ game.title }}"', "text = \"{% include 'x' %}\""),
        "box 'title': template error for card 赤 1 (cards/tiny/cards.csv:2): a template cannot",
    ),
    # --- text that is not what it seems -------------------------------------------------
    "csv_bom_then_shift_jis": (
        lambda r: (r / f"{GAME}/cards.csv").write_bytes(
            b"\xef\xbb\xbf" + (r / f"{GAME}/cards.csv").read_text("utf-8").encode("cp932")
        ),
        f"{GAME}/cards.csv:2: error: cannot read the file's text: it is neither UTF-8 nor",
    ),
    # Cyrillic in Windows-1251 that Shift_JIS reads as two kanji (Windows-1252 is read: its
    # accents are test_input's)
    "csv_cyrillic_read_as_shift_jis": (
        lambda r: (r / f"{GAME}/cards.csv").write_bytes(
            "suit,number,color,text\nRouge,1,#C8323C,ежик\n".encode("cp1251")
        ),
        f"{GAME}/cards.csv:2: error: the file is not UTF-8, and read as Shift_JIS it holds no kana "
        "at all: line 2 would read 「褂韭」. It is likely another code page",
    ),
    "cell_private_use_character": (
        lambda r: edit(r, f"{GAME}/cards.csv", "三の赤。", "三の\ue100赤。"),
        f"{GAME}/cards.csv:4:text: error: 'text' holds the private-use character U+E100",
    ),
    "rules_private_use_character": (
        lambda r: edit(r, f"{GAME}/rules.md", "## 概要", "## 概要\n\ue010強調"),
        f"{GAME}/rules.md:5: error: the private-use character U+E010 means nothing",
    ),
    "csv_unclosed_quote": (
        lambda r: edit(r, f"{GAME}/cards.csv", "赤,3,#C8323C,三の赤。", '赤,3,#C8323C,"三の赤。'),
        f'{GAME}/cards.csv:4:text: error: a quote (") opened in this cell is not closed',
    ),
    "xlsx_formula_without_value": (
        xlsx_with_formula,
        f"{GAME}/cards.xlsx[Sheet]:4:text: error: Sheet!D4 holds a formula",
    ),
    "xlsx_formula_failing": (
        xlsx_with_failing_formula,
        f"{GAME}/cards.xlsx[Sheet]:4:text: error: Sheet!D4 shows #DIV/0!: its formula fails in "
        "the spreadsheet, and a card would print that",
    ),
    "xlsx_formula_under_a_title": (
        lambda r: xlsx_with_formula(r, title=True),
        f"{GAME}/cards.xlsx[Sheet]:5:text: error: Sheet!D5 holds a formula",
    ),
    "count_negative": (
        lambda r: (
            edit(r, f"{GAME}/game.toml", 'text = "text"', 'text = "text"\n  count = "int"'),
            csv_rows(
                r, lambda ls: [ls[0] + ",count"] + [x + ",1" for x in ls[1:-1]] + [ls[-1] + ",-2"]
            ),
        ),
        f"{GAME}/cards.csv:11:count: error: 'count' must be 0 or more, got -2",
    ),
    # --- bounds --------------------------------------------------------------------------
    "count_past_the_card_limit": (
        lambda r: (
            edit(r, f"{GAME}/game.toml", 'text = "text"', 'text = "text"\n  count = "int"'),
            csv_rows(
                r,
                lambda ls: (
                    [ls[0] + ",count"] + [x + ",1" for x in ls[1:-1]] + [ls[-1] + ",1000000000"]
                ),
            ),
        ),
        f"{GAME}/cards.csv:11:count: error: the game's cards, with the 1,000,000,000 this row "
        "makes: more than the limit cards = 200,000; if the project really is this large, raise "
        "it with --limit cards=N",
    ),
    "cell_past_the_limit": (
        lambda r: edit(r, f"{GAME}/cards.csv", "三の赤。", "赤" * 10_001),
        f"{GAME}/cards.csv:4:text: error: the cell has 10,001 characters: more than the limit "
        "cell = 10,000",
    ),
    "rows_past_the_limit": (
        lambda r: csv_rows(r, lambda ls: ls + [f"緑,{i},#00FF00,x" for i in range(100_001)]),
        f"{GAME}/cards.csv: error: the file has too many rows: more than the limit rows = 100,000",
    ),
    "icons_shift_jis_broken": (
        lambda r: (r / "layouts/tiny/icons.toml").write_bytes(
            '[icon."星"]\nshapes = [{ type = "circle", cx = 0.5 }]\n'.encode("cp932")
        ),
        "layouts/tiny/icons.toml:1:icon.星: error: icon '星': a circle needs cx, cy, r",
    ),
    "vars_not_toml": (
        lambda r: (r / "layouts/tiny/vars.toml").write_text("colour = \n", encoding="utf-8"),
        "layouts/tiny/vars.toml:1:10: error: cannot read template variables: Invalid value",
    ),
}


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_broken_project_gets_a_clear_message(tiny, tiny_built, defect):
    shutil.copytree(tiny_built.parent, tiny / "output", symlinks=True)
    before = outputs(tiny)
    breaks, message = DEFECTS[defect]
    breaks(tiny)
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert outputs(tiny) == before, "a failed build changed the previous outputs"


def outputs(root) -> dict[str, bytes]:
    folder = root / "output" / "tiny"
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        (
            f"{GAME}/game.toml",
            'size = "poker"',
            'size = "poker"\nbleeed = "2mm"',
            f"{GAME}/game.toml:16:component.bleeed: error: unknown key 'bleeed' in component "
            "'card' (did you mean 'bleed'?)",
        ),
        (
            f"{GAME}/game.toml",
            "copies = 1",
            "copeis = 1",
            f"{GAME}/game.toml:30:component.composition.copeis: error: component 'card': unknown "
            "composition key 'copeis' (did you mean 'copies'?)",
        ),
        (
            f"{GAME}/game.toml",
            "title = ",
            "titel = ",
            f"{GAME}/game.toml:3:game.titel: error: unknown key 'titel' in [game] (did you mean "
            "'title'?)",
        ),
        (
            "layouts/tiny/card_front.toml",
            'valign = "middle"',
            'valing = "middle"',
            "layouts/tiny/card_front.toml:25: error: box 'suit': unknown key 'valing' in a box "
            "of type text (did you mean 'valign'?)",
        ),
    ],
)
def test_a_misspelt_key_is_an_error_naming_the_nearest_known_one(tiny, file, old, new, message):
    """A key the tool does not know would silently do nothing (a misspelt `copies` checks no
    copies): it is an error at its line, with the nearest key the tool knows."""
    edit(tiny, file, old, new)
    result = run("check", "--no-play", "--project", str(tiny))
    assert result.exit_code == 1
    assert message in result.output, result.output


def test_a_component_with_no_columns_is_told_what_to_write(tiny):
    """A second component added by hand without its columns: the error says what the table
    is and shows one."""
    text = (tiny / f"{GAME}/game.toml").read_text(encoding="utf-8")
    start, end = text.index("  [component.columns]"), text.index("  [component.composition]")
    (tiny / f"{GAME}/game.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    result = run("check", "--no-play", "--project", str(tiny))
    assert result.exit_code == 1
    assert (
        f"{GAME}/game.toml:11:component: error: missing key 'columns' in component 'card': the "
        'type of each column of its spreadsheet, e.g. [component.columns] with name = "text" '
        'and count = "copies"'
    ) in result.output, result.output


def test_shift_jis_layout_files_are_read(tiny):
    """The one decoding rule holds for every TOML file: a cp932 icons.toml and layout work."""
    (tiny / "layouts/tiny/icons.toml").write_bytes(
        (
            '[icon."星"]\n'
            'shapes = [{ type = "circle", cx = 0.5, cy = 0.5, r = 0.4, fill = "#C9A227" }]\n'
        ).encode("cp932")
    )
    back = tiny / BACK
    back.write_bytes(back.read_text(encoding="utf-8").replace("#E8E2CC", "#E8E2CD").encode("cp932"))
    edit(tiny, f"{GAME}/cards.csv", "一番大きい赤。", "一番大きい赤:星:")
    result = run("check", "--no-play", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    assert "星" not in result.output


def test_deal_rule_the_rules_do_not_say_is_a_warning_naming_the_key(tiny):
    edit(tiny, f"{GAME}/game.toml", 'rule = "数字カードをよく混ぜ', 'rule = "山札をよく混ぜ')
    result = run("check", "--no-play", "--project", str(tiny))
    assert result.exit_code == 0
    assert f"{GAME}/game.toml:36:deal.rule: warning: the [deal] rule sentence 「山札をよく混ぜ" in (
        result.output
    )


CLI_DEFECTS = {
    "simulate_no_players": (
        ["simulate", "fudaraku", "--players", "0"],
        "error: 補陀落渡海しよう！ is for 3–5 players, not 0",
    ),
    "simulate_too_many_games": (
        ["simulate", "fudaraku", "--games", "1000000000000"],
        "error: 1,000,000,000,000 games: more than the limit games = 100,000,000; if the project "
        "really is this large, raise it with --limit games=N",
    ),
    "limit_unknown": (["check", "--limit", "rowz=5"], "error: unknown limit 'rowz' (limits: "),
    "limit_not_a_number": (
        ["check", "--limit", "rows=many"],
        "error: --limit rows= takes a whole number of at least 1, got 'many'",
    ),
    "limit_without_value": (["check", "--limit", "rows"], "error: --limit takes NAME=VALUE"),
    "format_unknown": (["build", "--format", "pngs"], "error: unknown format 'pngs'"),
    "game_is_a_path": (["build", "../tiny"], "error: '../tiny' is not a game name"),
    "game_unknown": (["check", "nosuch"], "error: no game 'nosuch' in cards/"),
    "simulate_game_without_rules_module": (
        ["simulate", "tiny"],
        "cards/tiny/rules.py: error: tiny has no rules module to play: write rules.py",
    ),
    "option_unknown": (
        ["simulate", "fudaraku", "--option", "speed=fast"],
        "unknown option 'speed'",
    ),
}


@pytest.mark.parametrize("defect", sorted(CLI_DEFECTS))
def test_a_bad_command_line_gets_a_clear_message(tiny, defect):
    from conftest import ENGINE

    args, message = CLI_DEFECTS[defect]
    root = ENGINE if "fudaraku" in args else tiny
    result = run(*args, "--project", str(root))
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_a_limit_can_be_raised(tiny):
    edit(tiny, f"{GAME}/cards.csv", "三の赤。", "赤" * 10_001)
    assert run("check", "--no-play", "--project", str(tiny)).exit_code == 1
    result = run("check", "--no-play", "--project", str(tiny), "--limit", "cell=20000")
    assert "box_chars" in result.output and result.exit_code == 1, result.output  # it prints
    raised = ("--limit", "cell=20000", "--limit", "box_chars=20000")
    result = run("check", "--no-play", "--project", str(tiny), *raised)
    assert result.exit_code == 0, result.output


def test_a_deck_with_copies_simulates(engine_project):
    """A deck that validates must simulate: every klesha twice (copies = 2)."""
    edit(engine_project, "cards/fudaraku/game.toml", "copies = 1", "copies = 2")
    edit(engine_project, "cards/fudaraku/game.toml", "total = 40", "total = 80")
    path = engine_project / "cards/fudaraku/kleshas.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(rows + rows[1:]) + "\n", encoding="utf-8")
    args = ["simulate", "fudaraku", "--project", str(engine_project), "--games", "40"]
    result = run(*args, "--players", "4", "--out", str(engine_project / "out"))
    assert result.exit_code == 0, result.output
    assert "# 補陀落渡海しよう！ — 4 players, 40 games" in result.output


def test_private_use_code_points_a_project_declares_reach_its_font(tiny):
    """Declared in [game] private_use, a code point is no longer refused; the glyph check then
    asks the project's fonts for it (Noto has none at U+E800)."""
    edit(tiny, f"{GAME}/cards.csv", "三の赤。", "三の\ue800赤。")
    found = run("check", "--no-play", "--project", str(tiny)).output
    assert "holds the private-use character U+E800" in found
    edit(
        tiny,
        f"{GAME}/game.toml",
        'rules = "rules.md"',
        'rules = "rules.md"\nprivate_use = ["E800-E8FF"]',
    )
    found = run("check", "--no-play", "--project", str(tiny)).output
    assert "private-use character" not in found
    assert "has no glyph for 「\ue800」(U+E800)" in found


def test_private_use_may_not_take_the_tools_own_range(tiny):
    edit(
        tiny,
        f"{GAME}/game.toml",
        'rules = "rules.md"',
        'rules = "rules.md"\nprivate_use = ["E100-E1FF"]',
    )
    found = run("check", "--no-play", "--project", str(tiny)).output
    assert (
        f"{GAME}/game.toml:6:game.private_use: error: [game] private_use: 'E100-E1FF' overlaps"
        in found
    )


def test_a_huge_rules_source_is_refused_before_it_is_read_and_the_limit_can_be_raised(tiny):
    with open(tiny / f"{GAME}/rules.md", "a", encoding="utf-8") as f:
        f.write("<!-- " + "x" * 2_100_000 + " -->\n")
    args = ["check", "--no-play", "--project", str(tiny)]
    found = run(*args, "--limit", "file_mb=2").output
    assert f"{GAME}/rules.md: error: the file has 2 MB: more than the limit file_mb = 2" in found
    assert run(*args, "--limit", "file_mb=3").exit_code == 0


def test_one_mistake_every_card_trips_on_is_one_line_and_one_error(tiny):
    """A template naming a field the data lacks fails on all ten cards: one line "(10 cards)",
    and the count under it says one error, as the designer reads it."""
    edit(tiny, "layouts/tiny/card_front.toml", "{{ text }}", "{{ nosuch.text }}")
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "nosuch" in line]
    assert len(lines) == 1 and lines[0].endswith("(10 cards)"), result.output
    assert "\n1 error, " in result.output


def test_a_cluster_without_the_cluster_extra_says_how_to_install_it(tmp_path):
    """distributed is an optional extra: --scheduler without it is a message saying how to get
    it, exit 1 (a process where importing distributed fails, as on a plain install)."""
    import os
    import shutil
    import subprocess
    import sys

    from conftest import ENGINE, REPO

    root = tmp_path / "engine"
    shutil.copytree(ENGINE, root)
    probe = (
        "import sys\n"
        "sys.modules['distributed'] = None  # not installed\n"
        "from generator.cli import main\n"
        "sys.argv = ['pnp', 'simulate', 'fudaraku', '--players', '4', '--games', '10',"
        f" '--scheduler', 'tcp://127.0.0.1:9', '--project', {str(root)!r}]\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PNP_LANG": "en"},
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert "pip install 'pnp-generator[cluster]'" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_two_boxes_of_one_name_in_one_layout_are_an_error_at_the_second(tiny):
    """An added `art` box under a name already used would silently take the first's keys
    (a placeholder, a size): the second is named at its line, and nothing is built."""
    layout = tiny / "layouts/tiny/card_front.toml"
    text = layout.read_text("utf-8")
    layout.write_text(
        text + '\n[[box]]\nname = "band"\ntype = "rect"\nx = "0mm"\ny = "70mm"\n'
        'w = "W"\nh = "5mm"\nfill = "#000000"\n',
        "utf-8",
    )
    first = text.splitlines().index('name = "band"')  # its [[box]] line is the one above
    second = len(text.splitlines()) + 2  # the added [[box]] line
    result = run("check", "--project", str(tiny), "--no-play")
    assert result.exit_code == 1, result.output
    said = next(line for line in result.output.splitlines() if "a second box named" in line)
    assert said.startswith(f"layouts/tiny/card_front.toml:{second}: error:"), said
    assert f"line {first}" in said
