"""The rulebook and summary follow the data; one edited row changes one card and nothing else."""

from __future__ import annotations

import pypdf
from PIL import ImageChops

from conftest import edit_csv, run
from pdfread import MM, all_text, placements, render


def test_rulebook_numbers_come_from_the_data(built):
    text = all_text(built / "fudaraku/rulebook.pdf")
    assert "煩悩カード（４０枚）" in text
    assert "五蓋（貪欲、瞋恚、昏沈、掉挙、疑）" in text
    assert "１〜８の数字が１枚ずつあります" in text
    assert "３〜５人" in text
    # The dealing table: 40 cards over 3, 4 and 5 players.
    assert "３人\n１３枚\n１枚" in text.replace(" ", "")
    assert "５人\n８枚\n０枚" in text.replace(" ", "")
    # The components table counts every suit.
    assert "貪欲 ８枚、瞋恚 ８枚、昏沈 ８枚、掉挙 ８枚、疑 ８枚" in text.replace("\n", "")


def test_rulebook_has_headings_lists_and_sample_cards(built):
    pdf = built / "fudaraku/rulebook.pdf"
    text = all_text(pdf)
    for heading in (
        "概要",
        "コンポーネント",
        "ゲームの準備",
        "ゲームの進行",
        "◎渡海",
        "◎読経",
        "２：ラウンド終了",
        "ゲームの終了",
    ):
        assert heading in text
    assert "・無の境地と同じスートであれば" in "".join(text.split())  # a bulleted item
    # One sample card per suit, drawn with the card layout: each suit's reading only appears on cards.
    for reading in ("とんよく", "しんに", "こんじん", "じょうこ", "ぎ"):
        assert reading in text


def test_editing_the_spreadsheet_changes_the_rulebook(project):
    # The designer tries numbers 1-9: edit the data and the manifest's expectation, nothing else.
    manifest = project / "cards/fudaraku/game.toml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8")
        .replace("number = { min = 1, max = 8 }", "number = { min = 1, max = 9 }")
        .replace("total = 40", "total = 45"),
        encoding="utf-8",
    )

    def add_nines(lines):
        out = [lines[0]]
        for line in lines[1:]:
            out.append(line)
            suit, reading, number, color = line.split(",")
            if number == "8":
                out.append(f"{suit},{reading},9,{color}")
        return out

    edit_csv(project, add_nines)
    result = run("build", "fudaraku", "--project", str(project))
    assert result.exit_code == 0, result.output
    text = all_text(project / "output/fudaraku/rulebook.pdf").replace(" ", "")
    assert "煩悩カード（４５枚）" in text and "１〜９の数字" in text
    assert "３人\n１５枚\n０枚" in text and "４人\n１１枚\n１枚" in text
    assert "4 players: the 45 煩悩カード deal 11 each with 1 left over" in result.output
    assert len(pypdf.PdfReader(project / "output/fudaraku/cards.pdf").pages) == 1 + 2 * 5


def test_summary_is_one_page_from_the_marked_parts(built):
    pdf = built / "fudaraku/summary.pdf"
    assert len(pypdf.PdfReader(pdf).pages) == 1
    text = all_text(pdf)
    for title in (
        "準備",
        "ラウンドの流れ",
        "出せるカード（渡海）",
        "読経",
        "ラウンド終了",
        "終了と勝敗",
    ):
        assert title in text
    md = (built / "fudaraku/summary.md").read_text(encoding="utf-8")
    assert md.startswith("# 補陀落渡海しよう！ クイックリファレンス\n")
    assert "## 出せるカード（渡海）" in md
    assert "- 無の境地と同じスートであれば、数字に関わらずプレイできる" in md
    assert "| ３人 | １３枚 | １枚 |" in md
    # Unmarked text stays out: the introduction to the round structure is not in the summary.
    assert "本ゲームはラウンドと呼ばれる単位で進行し" not in md


def test_unclosed_summary_mark_is_an_error(project):
    rules = project / "cards/fudaraku/rules.md"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("\n<!-- /summary -->\n", "\n", 1), encoding="utf-8")
    result = run("check", "--no-play", "--project", str(project))
    assert result.exit_code == 1
    assert (
        "cards/fudaraku/rules.md:" in result.output
        and "summary part opened again before" in result.output
    )


def test_one_edited_row_changes_that_card_only(project, built):
    # 掉挙 5 is card 29: sheet 4 (page index 7), slot 2 (top right).
    edit_csv(
        project, lambda lines: [l.replace("掉挙,じょうこ,5,", "掉挙,ちょうこ,5,") for l in lines]
    )
    result = run("build", "fudaraku", "--project", str(project))
    assert result.exit_code == 0, result.output
    before, after = built / "fudaraku/cards.pdf", project / "output/fudaraku/cards.pdf"
    pages = len(pypdf.PdfReader(before).pages)
    slot = placements(after, 7)[1]
    for page in range(pages):
        diff = ImageChops.difference(render(before, page, 2), render(after, page, 2)).getbbox()
        if page != 7:
            assert diff is None, f"page {page + 1} changed"
            continue
        assert diff is not None, "the edited card did not change"
        left, top, right, bottom = (v / 2 / MM for v in diff)  # pixels at 144 dpi -> mm
        page_h = 297
        x0, y0 = slot.x / MM - 1.8, page_h - (slot.y / MM + 88 + 1.8)  # bleed box, top-left origin
        assert x0 - 0.5 <= left and right <= x0 + 63 + 3.6 + 0.5
        assert y0 - 0.5 <= top and bottom <= y0 + 88 + 3.6 + 0.5


def test_rules_template_error_names_line(project):
    rules = project / "cards/fudaraku/rules.md"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(
        text.replace("{{ klesha.count|zen }}", "{{ klesha.cuont|zen }}"), encoding="utf-8"
    )
    result = run("check", "--no-play", "--project", str(project))
    assert result.exit_code == 1
    assert (
        "cards/fudaraku/rules.md:19: error: rules template:" in result.output
        and "cuont" in result.output
    )
