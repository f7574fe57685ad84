"""The rulebook typeset like a Japanese book: tables that never split a header, sample cards
whose text prints at 5 pt or more (fewer to a row rather than smaller), headings kept with the
tables and samples they introduce."""

from __future__ import annotations

import pypdf
import pytest

from generator.layout.rulebook import Block
from generator.render import rulebook as book

from conftest import run, uno_with_rules
from pdfread import char_boxes, page_text, text_sizes

SAMPLES = """# 数の札

## 札

数の札は全部で１０８枚あります。

::: samples card number
"""


def test_sample_cards_print_their_text_at_five_points_or_more(tmp_path):
    root = uno_with_rules(tmp_path, SAMPLES)
    r = run("build", "uno", "--project", str(root), "--format", "rulebook")
    assert r.exit_code == 0, r.output
    pdf = root / "output/uno/rulebook.pdf"
    import pypdf

    pages = range(len(pypdf.PdfReader(pdf).pages))
    sizes = [s for page in pages for _t, s in text_sizes(pdf, page) if s > 0]
    assert sizes and min(sizes) >= 5.0 - 0.01, min(sizes)
    # ten numbers (0–9): more than one row, since ten across would shrink them under 5 pt
    assert "数の札" in page_text(pdf, 0)


def test_a_table_keeps_each_header_whole_and_gives_narrow_columns_their_width():
    from reportlab.lib.styles import ParagraphStyle

    style = ParagraphStyle("cell", fontName="Helvetica", fontSize=9)
    st = {"cell": style, "cellhead": style}
    long = (
        "シード１６枚（地４枚、水４枚、火４枚、風４枚）、ミニオン５６枚（２ １４枚、３ １４枚）" * 2
    )
    block = Block("table", items=(("コンポーネント", "数", "内訳"), ("龍脈カード", "７２枚", long)))
    widths = book._column_widths(block, st, 400)
    assert abs(sum(widths) - 400) < 0.5
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert widths[0] >= stringWidth("コンポーネント", "Helvetica", 9)
    assert widths[1] >= stringWidth("７２枚", "Helvetica", 9)  # the narrow column: whole


def test_a_heading_stays_with_the_samples_it_introduces():
    blocks = [
        Block("heading", "札", level=2),
        Block("para", "説明です。"),
        Block("directive", "samples", items=("card", "suit")),
        Block("heading", "次", level=2),
        Block("para", "本文。"),
    ]
    from reportlab.lib.styles import ParagraphStyle

    s = ParagraphStyle("x", fontName="Helvetica", fontSize=9, leading=12)
    st = {k: s for k in ("title", "h1", "h2", "h3", "h4", "body", "item", "cell", "cellhead")}
    faces = ([("赤", book.Face((), "k"))], (100.0, 140.0))
    out = book.flowables(blocks, st, None, {("card", "suit"): faces}, {"body": "Helvetica"}, 400)
    from reportlab.platypus import KeepTogether

    first = out[0]
    assert isinstance(first, KeepTogether)
    kept = [type(f).__name__ for f in first.held]
    assert kept[0] == "TextBlock" and "CardRow" in kept  # heading, text, samples: one flat run
    assert not any(isinstance(f, KeepTogether) for f in first.held)  # nested: a page each
    assert [type(f).__name__ for f in out[1:]] == ["TextBlock", "TextBlock"]


def test_provisional_content_is_marked_in_the_table_the_samples_and_a_closing_list(tiny):
    from pdfread import all_text

    path = tiny / "cards/tiny/cards.csv"
    lines = path.read_text("utf-8").splitlines()
    lines = [lines[0] + ",provisional"] + [
        line + (",数字はまだ決めていない" if line.startswith("赤,") else ",") for line in lines[1:]
    ]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    manifest = tiny / "cards/tiny/game.toml"
    manifest.write_text(
        manifest.read_text("utf-8").replace(
            '  text = "text"', '  text = "text"\n  provisional = "text"'
        ),
        "utf-8",
    )
    r = run("build", "--project", str(tiny), "--format", "rulebook")
    assert r.exit_code == 0, r.output
    text = "".join(all_text(tiny / "output/tiny/rulebook.pdf").split())
    assert "赤（仮）：５枚" in text and "青：５枚" in text  # the components table
    assert (
        "仮の内容" in text
        and "数字カード赤１、赤２、赤３、赤４、赤５：数字はまだ決めていない" in text
    )
    # settled: the marks and the list go
    path.write_text(
        "\n".join(line.rsplit(",", 1)[0] + "," for line in lines[1:]).join([lines[0] + "\n", "\n"]),
        "utf-8",
    )
    r = run("build", "--project", str(tiny), "--format", "rulebook")
    assert r.exit_code == 0, r.output
    text = "".join(all_text(tiny / "output/tiny/rulebook.pdf").split())
    assert "仮の内容" not in text and "（仮）" not in text


def test_digits_follow_the_project_setting_in_rulebook_and_summary(tiny):
    from pdfread import all_text

    rules = tiny / "cards/tiny/rules.md"
    rules.write_text(
        rules.read_text("utf-8").replace(
            "## 概要\n", "## 概要\n\n3人なら4枚ずつ配ります。A4の紙に印刷します。\n"
        ),
        "utf-8",
    )
    r = run("build", "--project", str(tiny), "--format", "rulebook,summary-md")
    assert r.exit_code == 0, r.output
    text = "".join(all_text(tiny / "output/tiny/rulebook.pdf").split())
    assert "３人なら４枚ずつ" in text and "Ａ４" not in text and "A4の紙" in text
    manifest = tiny / "cards/tiny/game.toml"
    manifest.write_text(
        manifest.read_text("utf-8").replace("[game]\n", '[game]\ndigits = "half"\n'), "utf-8"
    )
    r = run("build", "--project", str(tiny), "--format", "rulebook,summary-md")
    assert r.exit_code == 0, r.output
    text = "".join(all_text(tiny / "output/tiny/rulebook.pdf").split())
    assert "3人なら4枚ずつ" in text and "2〜4人で遊ぶ" in text
    assert "\n2〜4人\n" in (tiny / "output/tiny/summary.md").read_text("utf-8")


def test_the_deal_table_follows_cards_removed_for_a_player_count_under_each_reading(tiny):
    from pdfread import all_text

    manifest = tiny / "cards/tiny/game.toml"
    manifest.write_text(
        manifest.read_text("utf-8") + "\n[[deal.remove]]\nplayers = 3\ncount = [1, 2]\n",
        "utf-8",
    )
    r = run("build", "--project", str(tiny), "--format", "rulebook")
    assert r.exit_code == 0, r.output
    text = "".join(all_text(tiny / "output/tiny/rulebook.pdf").split())
    # 10 cards dealt out evenly: 3 players after taking out 1 (3 each, none left) or 2 (2 each,
    # 2 left); the other counts unchanged
    assert "３人３枚／２枚０枚（１枚抜く）／２枚（２枚抜く）" in text
    assert "２人５枚０枚" in text and "４人２枚２枚" in text
    manifest.write_text(
        manifest.read_text("utf-8").replace("count = [1, 2]", "count = [1, -2]"), "utf-8"
    )
    bad = run("build", "--project", str(tiny), "--format", "rulebook")
    assert bad.exit_code == 1 and "deal.remove" in bad.output


def test_a_paragraph_split_across_pages_breaks_between_phrases():
    from reportlab.lib.styles import ParagraphStyle

    from generator.layout import text as textfit

    style = ParagraphStyle("b", fontName="Helvetica", fontSize=10, leading=14)
    para = "手番には、次のどちらかを必ず１つ行います。" * 8
    block = book.TextBlock(para, style)
    block.lines = textfit.wrap(para, 200, lambda s: len(s) * 10.0, max_ragged=0.12)
    good, _fallback = textfit.break_points(para)
    for room in range(3, len(block.lines)):
        parts = block.split(400, room * 14)
        if parts:
            end = sum(len(line) for line in parts[0].lines)
            most = min(room, len(block.lines) - 2)  # two lines at least on either page
            ends = [sum(len(line) for line in block.lines[:n]) for n in range(2, most + 1)]
            if any(e in good for e in ends):  # a page can end between phrases: it does
                assert end in good, (room, parts[0].lines[-1])
            assert len(parts[0].lines) >= 2 and len(parts[1].lines) >= 2  # no line alone


@pytest.mark.parametrize(
    "text, full, half",
    [
        ("3〜5人で遊ぶ", "３〜５人で遊ぶ", "3〜5人で遊ぶ"),
        ("2-4人", "２-４人", "2-4人"),  # both ends of a range alike
        ("1.5倍、10:30開始", "1.5倍、10:30開始", "1.5倍、10:30開始"),  # decimals, times stay
        ("A4の紙、VP3", "A4の紙、VP3", "A4の紙、VP3"),  # inside Latin words: stay
        ("１ラウンドは6トリック", "１ラウンドは６トリック", "1ラウンドは6トリック"),
    ],
)
def test_digit_setting(text, full, half):
    from generator.typeset import set_digits

    assert set_digits(text, "full") == full and set_digits(text, "half") == half
    assert set_digits(text, "as-written") == text


def test_a_numbered_list_of_ten_or_more_makes_room_for_its_numbers(tiny):
    """「10.」 is wider than 「9.」: every item's text starts clear of its number, and the items
    of one list start at one x."""
    rules = tiny / "cards/tiny/rules.md"
    items = "".join(f"{i}. 手札から{i}枚目のカードを出します。\n" for i in range(1, 13))
    rules.write_text(rules.read_text("utf-8") + "\n## 手順\n\n" + items, "utf-8")
    assert run("build", "--project", str(tiny), "--format", "rulebook").exit_code == 0
    pdf = tiny / "output/tiny/rulebook.pdf"
    last = len(pypdf.PdfReader(pdf).pages) - 1
    starts = []
    for i in (9, 10, 12):
        boxes = char_boxes(pdf, last, f"{i}.手札から")
        number = boxes[: len(str(i)) + 1]
        text = boxes[len(str(i)) + 1 :]
        assert max(b[2] for b in number) < text[0][0], i  # the number ends before the text
        starts.append(round(text[0][0], 1))
    assert len(set(starts)) == 1, starts
