"""The rulebook and summary follow the data; Markdown in the rules source is typeset; one edited
row changes one card and nothing else. Behaviour on the `tiny` fixture; the shipped games are
held to what is true whatever their data says."""

from __future__ import annotations

import csv

import pypdf
import pytest
from PIL import ImageChops

from conftest import REPO, edit, run
from pdfread import (
    MM,
    all_text,
    char_boxes,
    links,
    page_text,
    placements,
    render,
    text_by_font,
    text_sizes,
)

SHIPPED = ("fudaraku", "rumbling_seed", "nyanbaa")


def flat(text: str) -> str:
    return "".join(text.split())


def test_rulebook_numbers_come_from_the_data(tiny_built):
    text = flat(all_text(tiny_built / "rulebook.pdf"))
    assert "数字カード（１０枚）" in text
    assert "赤、青の２色に、１〜５の数字が１枚ずつあります" in text
    assert "２〜４人" in text
    # ::: deal: 10 cards over 2, 3 and 4 players; ::: components counts each suit.
    assert "２人５枚０枚" in text and "３人３枚１枚" in text and "４人２枚２枚" in text
    assert "数字カード１０枚赤：５枚、青：５枚" in text


def test_a_component_without_composition_is_broken_down_by_its_name_column(tiny):
    """Tokens with a name and a count and no composition: the components table says how many
    of each, as it does for a deck with a composition."""
    (tiny / "cards/tiny/chips.csv").write_text("name,count\nライフ,20\n魔力,5\n", "utf-8")
    (tiny / "layouts/tiny/chip.toml").write_text(
        '[[box]]\nname = "n"\ntype = "text"\nx = "0mm"\ny = "0mm"\nw = "W"\nh = "H"\n'
        'text = "{{ name }}"\nfont = "body"\nsize = "8pt"\n',
        "utf-8",
    )
    with open(tiny / "cards/tiny/game.toml", "a", encoding="utf-8") as f:
        f.write(
            '\n[[component]]\nid = "chip"\nname = "チップ"\nkind = "token"\n'
            'data = "chips.csv"\nsize = { w = "15mm", h = "15mm" }\nfront = "chip"\n'
            '\n  [component.columns]\n  name = "text"\n  count = "copies"\n'
        )
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    text = flat(all_text(tiny / "output/tiny/rulebook.pdf"))
    assert "チップ２５個ライフ：２０個、魔力：５個" in text


def test_editing_the_spreadsheet_changes_the_rulebook(tiny):
    """The designer adds numbers 6: the data and the manifest's expectation, nothing else."""
    edit(
        tiny,
        "cards/tiny/game.toml",
        "number = { min = 1, max = 5 }",
        "number = { min = 1, max = 6 }",
    )
    edit(tiny, "cards/tiny/game.toml", "total = 10", "total = 12")
    with open(tiny / "cards/tiny/cards.csv", "a", encoding="utf-8") as f:
        f.write("赤,6,#C8323C,六の赤。\n青,6,#2F5DA8,六の青。\n")
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    text = flat(all_text(tiny / "output/tiny/rulebook.pdf"))
    assert "数字カード（１２枚）" in text and "１〜６の数字" in text
    assert "３人４枚０枚" in text and "４人３枚０枚" in text
    assert "3 players: the 12 数字カード deal 4 each, none left over" in result.output
    assert len(pypdf.PdfReader(tiny / "output/tiny/cards.pdf").pages) == 1 + 2 * 2


def test_markdown_bold_is_set_in_the_bold_font(tiny_built):
    pdf = tiny_built / "rulebook.pdf"
    pieces = [p for page in range(len(pypdf.PdfReader(pdf).pages)) for p in text_by_font(pdf, page)]
    bold = [t for t, font in pieces if "Bold" in font]
    body = [t for t, font in pieces if "Regular" in font]
    assert any("必ず１つ" in t for t in bold)
    assert not any("必ず１つ" in t for t in body)
    assert not any("**" in t for t, _ in pieces)


def test_markdown_link_is_a_link(tiny_built):
    text = all_text(tiny_built / "rulebook.pdf")
    assert "詳しくは公式サイトを見てください。" in flat(text)
    assert "https://example.com" not in text and "](" not in text
    ((target, (x0, y0, x1, y1)),) = links(tiny_built / "rulebook.pdf")
    assert target == "https://example.com/tiny"
    assert 20 < x1 - x0 < 80 and 5 < y1 - y0 < 15  # the five characters at 10 pt


def test_markdown_lists_and_tables(tiny_built):
    text = flat(all_text(tiny_built / "rulebook.pdf"))
    assert "・カードを１枚出す" in text and "・パスする" in text
    assert "1.親が最初に出します。" in text and "2.時計回りに続けます。" in text
    assert "出したカード得点赤数字の２倍青数字のまま" in text
    assert "・手札がなくなったら" in text
    assert "|" not in text


def test_summary_is_one_page_from_the_marked_parts(tiny_built):
    pdf = tiny_built / "summary.pdf"
    assert len(pypdf.PdfReader(pdf).pages) == 1
    text = flat(all_text(pdf))
    assert "ちいさな試験クイックリファレンス" in text and "準備" in text and "手番" in text
    assert "得点" not in text  # unmarked
    md = (tiny_built / "summary.md").read_text(encoding="utf-8")
    assert md.startswith("# ちいさな試験 クイックリファレンス\n\n２〜４人\n")  # digits = "full"
    assert "## 準備\n\n### ゲームの準備\n" in md
    assert "| ３人 | ３枚 | １枚 |" in md
    assert "手番には、次のどちらかを**必ず１つ**行います。" in md
    assert "- カードを１枚出す\n- パスする" in md and "1. 親が最初に出します。" in md
    assert "出したカード" not in md


def test_with_no_part_marked_the_summary_takes_the_sections_on_play(tiny):
    """Rules with no summary marks (as pnp new writes them): the summary holds the sections
    on setup, the turn and scoring, says so as a notice, and a heading inside a section
    prints smaller than the section's title."""
    rules = tiny / "cards/tiny/rules.md"
    text = rules.read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if "summary" not in line or line.startswith("{#")]
    rules.write_text("\n".join(kept).replace("1. 親が", "### 親\n\n1. 親が") + "\n", "utf-8")
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    assert (
        "cards/tiny/rules.md: notice: no part is marked for the summary: it shows the sections "
        "「ゲームの準備」, 「手番」, 「得点」"
    ) in result.output
    md = (tiny / "output/tiny/summary.md").read_text(encoding="utf-8")
    assert "## ゲームの準備\n" in md and "## 手番\n" in md and "## 得点\n" in md
    assert "概要" not in md and "コンポーネント" not in md
    sizes = {t.strip(): size for t, size in text_sizes(tiny / "output/tiny/summary.pdf", 0)}
    assert sizes["親"] < sizes["手番"], sizes
    rules.write_text("# ちいさな試験\n\n## 概要\n\n数字を比べます。\n", "utf-8")
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    assert "no section is on setup, turns or the end: the summary has the title only" in (
        result.output
    )


def test_one_edited_row_changes_that_card_only(tiny, tiny_built):
    # 青 4 is card 9: sheet 1 (page index 1), the last slot (bottom right).
    edit(tiny, "cards/tiny/cards.csv", "四の青。", "よんの青。")
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    before, after = tiny_built / "cards.pdf", tiny / "output/tiny/cards.pdf"
    pages = len(pypdf.PdfReader(before).pages)
    slot = placements(after, 1)[8]
    for page in range(pages):
        diff = ImageChops.difference(render(before, page, 2), render(after, page, 2)).getbbox()
        if page != 1:
            assert diff is None, f"page {page + 1} changed"
            continue
        assert diff is not None, "the edited card did not change"
        left, top, right, bottom = (v / 2 / MM for v in diff)  # pixels at 144 dpi -> mm
        x0, y0 = slot.x / MM - 3, 297 - (slot.y / MM + 88 + 3)  # bleed box, top-left origin
        assert x0 - 0.5 <= left and right <= x0 + 63 + 6 + 0.5
        assert y0 - 0.5 <= top and bottom <= y0 + 88 + 6 + 0.5


# --- the shipped games: what holds whatever their data says -----------------------------------
def _rows(game: str, component: dict) -> int:
    """Cards a component's spreadsheet makes (a `count` column makes copies)."""
    with open(REPO / "cards" / game / component["data"], encoding="utf-8-sig") as f:
        return sum(int(r.get("count") or 1) for r in csv.DictReader(f))


@pytest.mark.parametrize("game", SHIPPED)
def test_shipped_rulebook_counts_each_component_from_its_data(built, game):
    import tomllib

    from generator.layout.templates import zen

    manifest = tomllib.loads((REPO / "cards" / game / "game.toml").read_text(encoding="utf-8"))
    text = flat(all_text(built / game / "rulebook.pdf"))
    lo, hi = manifest["game"]["players"]["min"], manifest["game"]["players"]["max"]
    assert f"{zen(lo)}〜{zen(hi)}人" in text
    for comp in manifest["component"]:
        if "data" not in comp or comp.get("kind", "card") == "board":
            continue
        n = _rows(game, comp)
        unit = "個" if comp.get("kind") == "token" else "枚"
        assert f"{comp['name']}{zen(n)}{unit}" in text, (comp["name"], n)


@pytest.mark.parametrize("game", SHIPPED)
def test_shipped_summary_holds_each_marked_title(built, game):
    import re

    source = (REPO / "cards" / game / "rules.md").read_text(encoding="utf-8")
    titles = re.findall(r"^<!--\s*summary:\s*(.+?)\s*-->$", source, re.M)
    assert titles
    md = (built / game / "summary.md").read_text(encoding="utf-8")
    text = flat(all_text(built / game / "summary.pdf"))
    for title in titles:
        assert f"## {title}" in md
        assert flat(title) in text


def test_a_list_of_bullets_before_a_summary_mark_stays_in_that_summary_part():
    from generator.problems import SourceRef
    from generator.rulesource import parse

    blocks, summary = parse(
        "<!-- summary: 準備 -->\n・カードを配る\n・親を決める\n<!-- /summary -->\n後の段落\n",
        SourceRef("rules.md"),
    )
    (part,) = summary
    assert [(b.kind, b.items) for b in part.blocks] == [("list", ("カードを配る", "親を決める"))]
    assert [b.kind for b in blocks] == ["list", "para"] and blocks[0].line == 2


def test_a_table_without_its_separator_line_is_still_a_table():
    """Designers wrote | a | b | rows without Markdown's |---| line before: they stay tables."""
    from generator.problems import SourceRef
    from generator.rulesource import parse

    blocks, _ = parse("前の文\n| 色 | 点 |\n| 赤 | ２ |\n後の文\n", SourceRef("rules.md"))
    assert [(b.kind, b.line) for b in blocks] == [("para", 1), ("table", 2), ("para", 4)]
    assert blocks[1].items == (("色", "点"), ("赤", "２"))


def test_a_line_of_dashes_is_text_not_a_heading_or_a_rule():
    from generator.problems import SourceRef
    from generator.rulesource import parse

    blocks, _ = parse("次の文。\n---\n", SourceRef("rules.md"))
    assert [(b.kind, b.text) for b in blocks] == [("para", "次の文。"), ("para", "---")]


@pytest.mark.parametrize(
    "after,sentence",
    [
        ("## 手番\n", "各手番で一枚ずつ順に出していきます。"),  # a heading, then the paragraph
        ("## 得点\n", "得点は次の表のとおりに数えます。"),  # a heading, a paragraph, a table
        # first in a summary part: the part's title, then the paragraph (summary.pdf too)
        ("<!-- summary: 手番 -->\n", "手番には一枚ずつ順に出していきます。"),
    ],
)
def test_a_paragraph_longer_than_a_page_after_a_heading_flows_on(tiny, after, sentence):
    """Kept together with its heading (and a table after it) such a paragraph could not be
    placed, and ReportLab took the group apart and put it together again for minutes; now
    the heading keeps its first lines and the rest flows onto the next page."""
    import subprocess
    import sys

    long = sentence * 150  # about two pages
    edit(tiny, "cards/tiny/rules.md", after, after + "\n" + long + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--project", str(tiny)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,  # minutes before the fix; about a second now
    )
    assert done.returncode == 0, done.stdout + done.stderr
    book = tiny / "output/tiny/rulebook.pdf"
    pages = [flat(page_text(book, i)) for i in range(len(pypdf.PdfReader(book).pages))]
    footers = [f"ちいさな試験—{i}—" for i in range(1, len(pages) + 1)]
    text = "".join(page.replace(footer, "") for page, footer in zip(pages, footers, strict=True))
    assert text.count(flat(sentence)) == 150  # every word of it, once
    assert len(pypdf.PdfReader(book).pages) >= 3


BLUE = (30, 120, 200)


def _picture_mm(pdf, page: int) -> tuple[float, float]:
    """The width and height (mm) of the pure-blue picture on a page, measured in pixels."""
    image = render(pdf, page, scale=4)
    pixels = image.load()
    xs, ys = [], []
    for y in range(0, image.height, 2):
        for x in range(0, image.width, 2):
            if pixels[x, y] == BLUE:
                xs.append(x)
                ys.append(y)
    per_mm = 4 * 72 / 25.4
    return (max(xs) - min(xs)) / per_mm, (max(ys) - min(ys)) / per_mm


def test_a_picture_on_a_line_of_its_own_is_printed_in_the_rulebook(tiny):
    """![準備の図](setup.png): the file beside rules.md, at 150 dpi, centred, its description
    under it; a stand-in with its name and a warning while it is not there; a file outside
    the project refused; an edited picture draws the rulebook again, not the cards."""
    from PIL import Image

    rules = tiny / "cards/tiny/rules.md"
    rules.write_text(
        rules.read_text(encoding="utf-8") + "\n## 図\n\n![準備の図](setup.png)\n", "utf-8"
    )
    line = len(rules.read_text(encoding="utf-8").splitlines())
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    assert (
        f"cards/tiny/rules.md:{line}: warning: the picture setup.png is not there yet"
    ) in result.output
    book = tiny / "output/tiny/rulebook.pdf"
    last = len(pypdf.PdfReader(book).pages) - 1
    assert "setup.png" in page_text(book, last) and "準備の図" in page_text(book, last)
    Image.new("RGB", (300, 150), BLUE).save(tiny / "cards/tiny/setup.png")
    cards = (tiny / "output/tiny/cards.pdf").read_bytes()
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0 and "the picture" not in result.output, result.output
    w, h = _picture_mm(book, last)
    assert w == pytest.approx(300 / 150 * 25.4, abs=0.5) and h == pytest.approx(25.4, abs=0.5)
    assert "setup.png" not in page_text(book, last) and "準備の図" in page_text(book, last)
    assert (tiny / "output/tiny/cards.pdf").read_bytes() == cards
    first = book.read_bytes()
    Image.new("RGB", (600, 150), BLUE).save(tiny / "cards/tiny/setup.png")
    assert run("build", "--project", str(tiny)).exit_code == 0
    assert book.read_bytes() != first
    assert _picture_mm(book, last)[0] == pytest.approx(600 / 150 * 25.4, abs=0.5)
    edit(tiny, "cards/tiny/rules.md", "(setup.png)", "(../../../outside.png)")
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 1
    assert f"cards/tiny/rules.md:{line}: error:" in result.output
    assert "outside the project folder" in result.output


def _reds(pdf, page: int, colour=(200, 50, 60)) -> int:
    """How many pixels of a page are (nearly) the given colour."""
    from PIL import Image

    image = render(pdf, page, scale=2)
    near = [
        band.point(lambda v: 255 if v < 12 else 0)
        for band in ImageChops.difference(image, Image.new("RGB", image.size, colour)).split()
    ]
    return ImageChops.darker(ImageChops.darker(near[0], near[1]), near[2]).histogram()[255]


def test_an_icon_named_in_the_rules_text_is_drawn_as_on_the_cards(tiny):
    """`:酒肴:` in rules.md draws the icon the cards draw (icons.toml), inline; a name that is
    no icon prints as typed; an edited icon draws the rulebook again."""
    rules = tiny / "cards/tiny/rules.md"
    rules.write_text(
        rules.read_text(encoding="utf-8") + "\n支払いは :酒肴: ２つ、:未知: はそのまま。\n", "utf-8"
    )
    assert run("build", "--project", str(tiny)).exit_code == 0
    book = tiny / "output/tiny/rulebook.pdf"
    last = len(pypdf.PdfReader(book).pages) - 1
    text = page_text(book, last)
    assert "支払いは" in text and ":酒肴:" not in text and ":未知:" in text
    assert _reds(book, last) > 20  # the icon's red
    icons = tiny / "layouts/tiny/icons.toml"
    blue = '{ type = "rect", x = 0, y = 0, w = 1, h = 1, fill = "#2060C0" }'
    icons.write_text(f'[icon."酒肴"]\nshapes = [{blue}]\n', "utf-8")
    assert run("build", "--project", str(tiny)).exit_code == 0
    assert _reds(book, last) == 0 and _reds(book, last, (32, 96, 192)) > 20


def test_a_blockquote_is_a_note_set_apart(tiny):
    """「> 注意：…」 in the rules: indented with a bar beside it in the PDF, a blockquote in
    the HTML; the paragraphs around it stay as they were."""
    rules = tiny / "cards/tiny/rules.md"
    rules.write_text(
        rules.read_text("utf-8") + "\n最後の段落です。\n\n> 注意：赤は強い。\n", "utf-8"
    )
    r = run("build", "--project", str(tiny), "--format", "rulebook,html")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/rulebook.pdf"
    last = len(pypdf.PdfReader(pdf).pages) - 1
    body, note = char_boxes(pdf, last, "最後の段落"), char_boxes(pdf, last, "注意：赤は強い")
    assert body and note
    assert note[0][0] - body[0][0] > 3 * MM  # indented
    page = render(pdf, last, scale=4)
    y = page.size[1] / 4 - (note[0][1] + note[0][3]) / 2  # the note's middle, from the top
    # left of the note's text, right of the body's margin: its bar
    between = [body[0][0] + k / 4 for k in range(int((note[0][0] - body[0][0]) * 4))]
    left = [page.getpixel((round(u * 4), round(y * 4))) for u in between]
    assert (0xB8, 0xC2, 0xD6) in left, left
    html = (tiny / "output/tiny/rulebook.html").read_text("utf-8").replace("<wbr>", "")
    assert "<blockquote><p>注意：赤は強い。</p></blockquote>" in html
    assert "<p>最後の段落です。</p>" in html


def test_a_list_inside_a_list_item_is_indented_under_it(tiny):
    """Rules written as steps with sub-steps keep their shape: a nested list is a block of its
    own depth (the outer numbering going on after it), set further in in the PDF, nested in
    the HTML and summary.md."""
    from generator.problems import SourceRef
    from generator.rulesource import parse

    source = "1. ドロー\n   - 山札から引く\n     - 無ければ混ぜる\n2. メイン\n"
    blocks, _ = parse(source, SourceRef("rules.md"))
    assert [(b.kind, b.depth, b.items, b.level) for b in blocks] == [
        ("olist", 0, ("ドロー",), 1),
        ("list", 1, ("山札から引く",), 1),
        ("list", 2, ("無ければ混ぜる",), 1),
        ("olist", 0, ("メイン",), 2),
    ]
    rules = tiny / "cards/tiny/rules.md"
    rules.write_text(rules.read_text("utf-8") + "\n## 手順\n\n" + source, "utf-8")
    assert run("build", "--project", str(tiny), "--format", "rulebook,html").exit_code == 0
    pdf = tiny / "output/tiny/rulebook.pdf"
    last = len(pypdf.PdfReader(pdf).pages) - 1
    x = [
        char_boxes(pdf, last, word)[0][0]
        for word in ("ドロー", "山札から引く", "無ければ混ぜる", "メイン")
    ]
    # (ink boxes: glyphs of one line start differ by their side bearings, a point or two)
    assert x[1] > x[0] + 5 and x[2] > x[1] + 5 and x[3] == pytest.approx(x[0], abs=3)
    html = (tiny / "output/tiny/rulebook.html").read_text("utf-8").replace("<wbr>", "")
    assert '<ul style="margin-left: 1.5em"><li>山札から引く</li>' in html.replace("\n", "")


@pytest.mark.parametrize(
    "label, printed", [(None, "１：２枚"), ("数字", "数字１：２枚"), ("{}番", "１番：２枚")]
)
def test_the_components_table_names_a_number_by_its_column_label(tiny, label, printed):
    """「２ １４枚」 reads as 214枚: a breakdown by a number says it with the column's label
    (`[component.labels]`), and a colon before each count."""
    edit(tiny, "cards/tiny/game.toml", 'key = ["suit", "number"]', 'key = ["number", "suit"]')
    if label:
        edit(
            tiny,
            "cards/tiny/game.toml",
            '  text = "text"\n',
            f'  text = "text"\n\n  [component.labels]\n  number = "{label}"\n',
        )
    result = run("build", "--project", str(tiny), "--format", "rulebook")
    assert result.exit_code == 0, result.output
    text = flat(all_text(tiny / "output/tiny/rulebook.pdf"))
    assert f"数字カード１０枚{printed}、" in text


def test_a_label_for_a_column_the_deck_does_not_have_is_named_at_its_line(tiny):
    edit(
        tiny,
        "cards/tiny/game.toml",
        '  text = "text"\n',
        '  text = "text"\n\n  [component.labels]\n  numbr = "数字"\n',
    )
    result = run("check", "--project", str(tiny))
    assert result.exit_code == 1
    line = (tiny / "cards/tiny/game.toml").read_text("utf-8").splitlines().index('  numbr = "数字"')
    assert f"cards/tiny/game.toml:{line + 1}:" in result.output
    assert "'numbr' is not one of its columns" in result.output and "number" in result.output
