"""Japanese type beyond horizontal lines: vertical text (縦書き) and ruby, read back from the PDF
as glyph positions — the order and direction of the characters."""

from __future__ import annotations

import pytest

from generator import typeset
from generator.layout import text as textfit

from conftest import edit, run
from pdfread import MM, all_text, char_boxes, placements

VERTICAL_BOX = """
[[box]]
name = "tate"
type = "text"
x = "10mm"
y = "6mm"
w = "W - 20mm"
h = "60mm"
direction = "vertical"
size = "12pt"
text = "{text}"
"""


def test_pieces_of_a_vertical_column():
    pieces = typeset.vertical_pieces("第12版「ゲーム」、ABCっ!!")
    kinds = [k for k, _p in pieces]
    assert pieces[1] == ("tcy", "12")  # two digits upright in one cell
    assert ("form", "\ufe41") in pieces and ("form", "\ufe42") in pieces  # 「」 vertical
    assert ("sideways", "ー") in pieces and ("sideways", "ABC") in pieces
    assert ("small", "っ") in pieces and ("tcy", "!!") in pieces
    assert kinds.count("upright") == 4  # 第 版 ゲ ム
    assert typeset.vertical_pieces("2026年")[0] == ("sideways", "2026")  # 3+ digits turn


def test_ruby_groups_measure_their_base_and_never_break():
    text = typeset.parse_ruby("これは{煩悩|ぼんのう}です")
    assert typeset.base_text(text) == "これは煩悩です" and typeset.readings(text) == "ぼんのう"
    width = lambda s: len(typeset.base_text(s)) * 10.0  # noqa: E731
    for limit in (40, 45, 50, 60):
        for line in textfit.wrap(text, limit, width):
            opened = line.count(typeset.RUBY_OPEN)
            assert opened == line.count(typeset.RUBY_CLOSE), (limit, line)  # whole groups
    assert typeset.parse_ruby("{x|y}") != "{x|y}" and typeset.parse_ruby("{x}") == "{x}"


def _chars(pdf, page, text):
    boxes = char_boxes(pdf, page, text)
    assert len(boxes) == len(text.replace(" ", "")), text
    return [((l + r) / 2, (b + t) / 2) for l, b, r, t in boxes]


def test_vertical_text_runs_down_columns_from_the_right(tiny):
    text = "いろはにほへとちりぬるをわかよたれそつねならむうゐのおくやまけふこえて第12版"
    layout = tiny / "layouts/tiny/card_back.toml"
    layout.write_text(layout.read_text("utf-8") + VERTICAL_BOX.format(text=text), "utf-8")
    r = run("build", "--project", str(tiny), "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/cards.pdf"
    # In reading order: each next character is below the last in its column, or at the top of
    # the next column to the left; a column holds at most 60 mm / 12 pt = 14 cells.
    centres = _chars(pdf, 2, text)
    columns = [[centres[0]]]
    for (x0, y0), (x1, y1) in zip(centres, centres[1:]):
        if abs(x1 - x0) < 5 and y1 < y0 - 3:  # ink boxes: narrow glyphs sit off-centre
            columns[-1].append((x1, y1))
        elif x1 < x0 - 12 * 0.9:  # the next column starts to the left
            columns.append([(x1, y1)])
        else:  # 縦中横: 1 and 2 side by side in one cell
            assert (x0, x1) and abs(y1 - y0) < 0.5 and x1 > x0, ((x0, y0), (x1, y1))
            columns[-1].append((x1, y1))
    assert len(columns) >= 3
    tops = [col[0][1] for col in columns]
    assert max(tops) - min(tops) < 3  # every column starts at the top of the box
    assert all(len(col) <= 15 for col in columns)
    lefts = [col[0][0] for col in columns]
    assert lefts == sorted(lefts, reverse=True)  # right to left


def test_vertical_punctuation_takes_its_vertical_form(tiny):
    edit(tiny, "layouts/tiny/card_back.toml", 'text = "{{ game.title }}"', 'text = "「題」、完。"')
    edit(
        tiny,
        "layouts/tiny/card_back.toml",
        'name = "title"',
        'name = "title"\ndirection = "vertical"',
    )
    r = run("build", "--project", str(tiny), "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/cards.pdf"
    assert char_boxes(pdf, 2, "\ufe41題\ufe42\ufe11完\ufe12")  # ﹁題﹂︑完︒, top to bottom


def test_ruby_sits_above_its_base_centred(tiny):
    edit(
        tiny,
        "layouts/tiny/card_front.toml",
        'text = "{{ text }}"',
        'text = "{煩悩|ぼんのう}を捨てる"\nruby = true',
    )
    r = run("build", "--project", str(tiny), "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/cards.pdf"
    base = char_boxes(pdf, 1, "煩悩")  # drawn, then its reading, then the rest of the line
    reading = char_boxes(pdf, 1, "ぼんのう")
    assert char_boxes(pdf, 1, "を捨てる")
    assert base and reading
    base_top = max(t for _l, _b, _r, t in base[:2])
    assert min(b for _l, b, _r, _t in reading) >= base_top - 0.5  # above the base
    centre = (base[0][0] + base[1][2]) / 2
    assert (reading[0][0] + reading[-1][2]) / 2 == pytest.approx(centre, abs=1.0)
    assert (reading[0][3] - reading[0][1]) < 0.7 * (base[0][3] - base[0][1])  # smaller


def test_braces_print_as_written_without_ruby_true(tiny):
    edit(tiny, "layouts/tiny/card_front.toml", 'text = "{{ text }}"', 'text = "{煩悩|ぼんのう}"')
    r = run("build", "--project", str(tiny), "--format", "cards")
    assert r.exit_code == 0, r.output
    assert char_boxes(tiny / "output/tiny/cards.pdf", 1, "{煩悩|ぼんのう}")


def test_the_ruby_filter_sets_a_column_as_the_reading(tiny):
    edit(
        tiny,
        "layouts/tiny/card_front.toml",
        'text = "{{ text }}"',
        "text = \"{{ suit | ruby('あか') }}\"",
    )
    r = run("build", "--project", str(tiny), "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/cards.pdf"
    card = placements(pdf, 1)[0]
    assert char_boxes(pdf, 1, "あか")
    assert card.x / MM > 0


def test_ruby_in_the_rules_source_prints_above_and_checks_read_the_base(tiny):
    edit(
        tiny,
        "cards/tiny/rules.md",
        "数字カードをよく混ぜ、全員に同じ枚数ずつ配ります。",
        "{数字|すうじ}カードをよく混ぜ、全員に同じ枚数ずつ配ります。",
    )
    r = run("build", "--project", str(tiny))
    assert r.exit_code == 0, r.output
    assert "no component" not in r.output  # 「{数字|すうじ}カード」 is 数字カード
    assert "is not in the rules source" not in r.output  # the [deal] sentence is still found
    book = tiny / "output/tiny/rulebook.pdf"
    import pypdf

    page = next(
        i for i, p in enumerate(pypdf.PdfReader(book).pages) if "すうじ" in p.extract_text()
    )
    both = char_boxes(book, page, "数字すうじ")  # the base is drawn, then its reading
    base, reading = both[:2], both[2:]
    assert (
        base
        and reading
        and min(b for _l, b, _r, _t in reading) >= max(t for _l, _b, _r, t in base) - 0.5
    )
    summary = (tiny / "output/tiny/summary.md").read_text("utf-8")
    assert "数字（すうじ）カードをよく混ぜ" in summary


def test_items_and_steps_on_a_card_hang_their_later_lines_under_their_text(tiny):
    """A card's 「・」 item or numbered step that wraps starts its later lines under the text
    after its mark, not under the mark (a hanging indent, as a printed card sets it)."""
    item = "・山札から１枚引いて手札に加え、手札から１枚を選んで場に出します。"
    edit(tiny, "cards/tiny/cards.csv", "一番小さい赤。", item)
    r = run("build", "--project", str(tiny), "--format", "cards")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/cards.pdf"
    boxes = char_boxes(pdf, 1, item)
    assert boxes, "the item is on the first sheet"
    rows: list[list] = []  # the characters line by line, by their middles (ink boxes)
    for box in boxes:
        middle = (box[1] + box[3]) / 2
        if rows and abs((rows[-1][0][1] + rows[-1][0][3]) / 2 - middle) < 4:
            rows[-1].append(box)
        else:
            rows.append([box])
    rows = [sorted(row) for row in rows]
    assert len(rows) >= 2, "the item wraps"
    mark, text = rows[0][0], rows[0][1]
    for row in rows[1:]:
        assert abs(row[0][0] - text[0]) < 1.5, (row[0][0], text[0])  # under the text (ink)
        assert row[0][0] - mark[0] > 6  # not under the mark


def test_a_word_in_the_games_words_txt_is_never_split_across_lines(tiny):
    """BudouX parts 「日の／出横丁」; the game's words.txt keeps the word whole on a card and in
    the rulebook, and without the file the split comes back."""
    text = "今日は日の出横丁にゃんばーわん！で遊ぼう。"
    edit(tiny, "cards/tiny/cards.csv", "一番小さい赤。", text)
    edit(
        tiny,
        "cards/tiny/rules.md",
        "数字カードをよく混ぜ、",
        f"{text * 6}\n\n数字カードをよく混ぜ、",
    )

    def lines_through_the_word() -> int:
        r = run("build", "--project", str(tiny), "--format", "cards", "--format", "rulebook")
        assert r.exit_code == 0, r.output
        split = 0
        for pdf in (tiny / "output/tiny/cards.pdf", tiny / "output/tiny/rulebook.pdf"):
            for line in all_text(pdf).splitlines():
                line = line.replace(" ", "")
                split += line.endswith(("日", "日の", "日の出", "日の出横")) or line.startswith(
                    ("の出横丁", "出横丁", "横丁", "丁")
                )
        return split

    assert lines_through_the_word() > 0  # the split this test is about, without the file
    (tiny / "cards/tiny/words.txt").write_text("# 分けない言葉\n日の出横丁\n", "utf-8")
    assert lines_through_the_word() == 0


def test_a_designer_marks_a_break_or_a_run_kept_whole_in_data_and_rules(tiny):
    """`<wbr>` where a line may break and `<nobr>…</nobr>` around a run kept whole, as HTML
    writes them: honoured on the card and in the rulebook, never printed."""
    cell = "今日は日の出横丁<wbr>にゃんばーわん！で遊ぼう。"
    edit(tiny, "cards/tiny/cards.csv", "一番小さい赤。", cell)
    kept = "今日は<nobr>日の出横丁</nobr>にゃんばーわん！で遊ぼう。"
    edit(
        tiny,
        "cards/tiny/rules.md",
        "数字カードをよく混ぜ、",
        f"{kept * 6}\n\n数字カードをよく混ぜ、",
    )
    r = run("build", "--project", str(tiny), "--format", "cards", "--format", "rulebook")
    assert r.exit_code == 0, r.output
    card = all_text(tiny / "output/tiny/cards.pdf")
    book = all_text(tiny / "output/tiny/rulebook.pdf")
    assert "wbr" not in card + book and "nobr" not in card + book
    lines = [line.replace(" ", "") for line in card.splitlines()]
    assert "今日は日の出横丁" in lines  # the card breaks where the designer marked
    for line in book.splitlines():
        line = line.replace(" ", "")
        assert not line.endswith(("日", "日の", "日の出", "日の出横")), line


def test_a_card_that_writes_its_digits_two_ways_is_noticed_at_its_row(tiny):
    """「リソース1個」 beside 「１個ごとに」 on one card reads as two hands: a notice at the row
    (the card prints as written). The big corner number, a decimal or a Latin word is not
    running text and counts for nothing."""
    edit(tiny, "cards/tiny/cards.csv", "一番小さい赤。", "リソース1個を払い、１個ごとに進む。")
    edit(tiny, "cards/tiny/cards.csv", "二の赤。", "１枚引いて、1.5倍にする。VP3。")
    result = run("check", "--project", str(tiny), "--no-play")
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "digits two ways" in line]
    assert len(said) == 1, said
    assert said[0].startswith("cards/tiny/cards.csv:2: notice:")
    assert "「ソース1個を払」" in said[0] and "１個ごと" in said[0]
