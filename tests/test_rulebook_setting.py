"""Rulebooks and summaries set as a Japanese book is set (issue 36), read back from the PDFs:
body lines justified to the measure (両端揃え, a paragraph's last line flush start), two 約物 in
a row in 1.5 em, and paragraphs told apart from a wrapped line."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pypdf
import pytest

from conftest import edit, run, uno_with_rules
from pdfread import Line, leaning_text, text_lines

SHIPPED = sorted(p.parent.name for p in Path(__file__).parents[1].glob("cards/*/game.toml"))

# jlreq's pairs that give back a half em: a closing bracket, comma or full stop before another
# or before an opening bracket, and two opening brackets.
OPENING, ENDING = set("「『（［【〔"), set("」』）］】〕、。，．")

RULES = """# 長い規則の本

## 準備

山札をよくシャッフルし、各プレイヤーに５枚ずつ配ります（３人のときは６枚）。残った札は\
場の中央に裏向きで置き、山札とします。山札の横には捨て札を置く場所を空けておきます。\
手札は他のプレイヤーに見せてはいけません。ただし、**公開の札**（表向きに置かれた札）は\
いつでも見ることができます。

次に、{親|おや}を決めます。親は「最も最近、海へ行ったプレイヤー」です。決まらない場合は\
じゃんけんで決めてください。親から時計回りに手番を行い、全員が１回ずつ手番を終えたら\
ラウンドが終わります（４ラウンドで１ゲーム）、そのあと得点を数えます。

## 手番

手番のプレイヤーは、次の中から１つを選んで行います。

- 山札から１枚引き、手札から好きな１枚を捨て札の上に表向きで出します。出した札の効果は\
すぐに使います。
- 捨て札のいちばん上の札を取り、手札に加えます。そのかわり、この手番には札を出せません。
- パスします。パスしたプレイヤーは、次の自分の手番まで、他のプレイヤーの効果を受けません。

1. 札を出したら、その札の数字だけ得点を得ます。得点は「得点表」に書き込んでください。\
書き込む場所がなければ、表の下の余白に書き足します。
2. 同じ色の札が３枚そろったら、その３枚を自分の前に並べ、ボーナスとして３点を得ます。

※手札が１枚もないプレイヤーは、山札から２枚引いてから手番を始めます。山札もないときは\
そのまま手番を終えます。

手番が終わったら、左隣のプレイヤーに手番を渡します。山札がなくなったら、捨て札の\
いちばん上の１枚を残してよくシャッフルし、新しい山札にします（これは１ゲームに１回だけ\
できます）。２回目に山札がなくなったら、そのラウンドでゲームは終わります。
"""


def _pages(path: Path) -> int:
    return len(pypdf.PdfReader(path).pages)


def _body(lines: list[Line]) -> tuple[float, list[Line]]:
    """The body text's size (the size most characters print at) and its lines."""
    sizes: Counter = Counter()
    for line in lines:
        sizes[line.size] += len(line.chars)
    size = sizes.most_common(1)[0][0]
    return size, [line for line in lines if line.size == size]


def _columns(body: list[Line], em: float) -> list[list[Line]]:
    """Body lines by the column they stand in, top first: lines that share a stretch of x and
    start at the column's edge or a few ems in (an item's text), not a centred line."""
    columns: list[list[Line]] = []
    for line in sorted(body, key=lambda line: -line.y):
        for column in columns:
            edge = min(o.left for o in column)
            if -0.5 * em < line.left - edge < 6 * em and any(
                o.left < line.right and o.right > line.left for o in column
            ):
                column.append(line)
                break
        else:
            columns.append([line])
    return columns


def _width(column: list[Line]) -> float:
    return max(o.right for o in column) - min(o.left for o in column)


def _pitch(pages: list[list[list[Line]]], em: float) -> float:
    """The line pitch: the least distance from a line that fills its column (a wrapped line
    of a paragraph) to the next, over the whole file (a page may hold one-line paragraphs
    only, and a sample card's narrow text has a pitch of its own)."""
    gaps = []
    for columns in pages:
        for column in columns:
            wide = _width(column)
            gaps += [
                a.y - b.y
                for a, b in zip(column, column[1:])
                if a.y - b.y >= em and a.right - a.left >= 0.8 * wide
            ]
    return min(gaps, default=0.0)


def _bullet(line: Line) -> bool:
    """Whether the line starts a list item: 「・」 or a number and a full stop."""
    return re.match(r"・|[0-9]+\.", line.text) is not None


def setting_faults(path: Path) -> list[str]:
    """What a typesetter would mark in the file's body text: a line that does not reach the
    measure though its paragraph goes on, two marks in a row wider than 1.5 em, and a new
    paragraph set as close as a wrapped line."""
    faults: list[str] = []
    printed = [text_lines(path, index) for index in range(_pages(path))]
    em, _lines = _body([line for lines in printed for line in lines])
    pages = [_columns([line for line in lines if line.size == em], em) for lines in printed]
    # The text's columns, not the narrow ones inside sample cards that print at the same size.
    widths = [_width(c) for columns in pages for c in columns]
    pages = [[c for c in columns if _width(c) >= 0.6 * max(widths)] for columns in pages]
    pitch = _pitch(pages, em)
    for index, columns in enumerate(pages):
        for column in columns:
            for above, below in zip(column, column[1:]):
                # the measure: the farthest right of the lines that start where this one does
                right = max(o.right for o in column if abs(o.left - above.left) < 3 * em)
                gap = above.y - below.y
                if abs(gap - pitch) < 0.1 * em:  # the paragraph goes on below
                    if right - above.right > 0.25 * em:
                        short = (right - above.right) / em
                        faults.append(f"p{index + 1}: {short:.2f} em short: {above.text}")
                elif (
                    pitch + 0.1 * em < gap < pitch + 0.5 * em  # closer: other text (a card's)
                    and not _bullet(below)
                    and abs(below.left - above.left) < em
                ):
                    faults.append(f"p{index + 1}: a new paragraph as close as a line: {below.text}")
            for line in column:
                for a, b in zip(line.chars, line.chars[1:]):
                    if (a[0] in ENDING and (b[0] in ENDING or b[0] in OPENING)) or (
                        a[0] in OPENING and b[0] in OPENING
                    ):
                        if (b[2] - a[1]) / em > 1.5 + 0.02:
                            wide = (b[2] - a[1]) / em
                            faults.append(f"p{index + 1}: {a[0]}{b[0]} takes {wide:.2f} em")
    return faults


@pytest.fixture
def long_rules(tmp_path) -> Path:
    root = uno_with_rules(tmp_path, RULES)
    result = run("build", "uno", "--project", str(root), "--format", "rulebook")
    assert result.exit_code == 0, result.output
    return root / "output/uno"


def test_body_lines_fill_the_measure_and_paragraphs_stand_apart(long_rules):
    pdf = long_rules / "rulebook.pdf"
    assert setting_faults(pdf) == []
    lines = [line for i in range(_pages(pdf)) for line in text_lines(pdf, i)]
    em, body = _body(lines)
    # The test has something to look at: paragraphs that wrap, with their last lines short.
    ends = [line.right for line in body]
    assert len(body) >= 15 and max(ends) - min(ends) > 5 * em
    text = "".join(line.text for line in body)
    assert "）、" in text and "ます。" in text  # the marks the test measures are there


def test_consecutive_marks_take_one_and_a_half_ems(long_rules):
    pdf = long_rules / "rulebook.pdf"
    for index in range(_pages(pdf)):
        em, body = _body(text_lines(pdf, index))
        for line in body:
            text = line.text
            at = text.find("）、")
            if at >= 0:
                close, comma = line.chars[at], line.chars[at + 1]
                assert (comma[2] - close[1]) / em == pytest.approx(1.5, abs=0.02)
                return
    raise AssertionError("「）、」 not found in the rulebook")


@pytest.mark.parametrize("game", SHIPPED)
def test_the_shipped_rulebooks_are_set_justified(built, game):
    for name in ("rulebook.pdf", "summary.pdf"):
        path = built / game / name
        if path.exists():
            assert setting_faults(path) == [], name


def test_a_summary_too_long_for_a_page_stays_at_8_pt_and_names_its_longest_part(tiny):
    """The quick reference is played from: never under 8 pt. Marked parts that fill more than
    a page print on more, with a warning at the longest part's line saying how much is over."""
    rules = tiny / "cards/tiny/rules.md"
    text = rules.read_text("utf-8")
    long = "手番には、次のどちらかを必ず１つ行い、終えたら左の人に手番を渡します。\n" * 70
    rules.write_text(
        text.replace("1. 親が最初に出します。", long + "\n1. 親が最初に出します。"), "utf-8"
    )
    result = run("build", "--project", str(tiny), "--format", "summary")
    assert result.exit_code == 0, result.output
    line = rules.read_text("utf-8").splitlines().index("## 手番") + 1  # the part's first line
    warning = next(row for row in result.output.splitlines() if "summary does not fit" in row)
    assert warning.startswith(f"cards/tiny/rules.md:{line}: warning:"), warning
    assert "「手番」" in warning and "pages" in warning
    pdf = tiny / "output/tiny/summary.pdf"
    assert _pages(pdf) >= 2
    em, _body_lines = _body([line for i in range(_pages(pdf)) for line in text_lines(pdf, i)])
    assert em >= 8.0
    assert setting_faults(pdf) == []
    # Shortened, the summary is one page again, and says nothing.
    rules.write_text(text, "utf-8")
    result = run("build", "--project", str(tiny), "--format", "summary")
    assert "summary does not fit" not in result.output and _pages(pdf) == 1


def _ink_rows(path: Path, index: int) -> tuple[int, int, int]:
    """Where a page's ink starts and ends (pixel rows at 1 px a mm-ish), its footer aside:
    (first row, last row above the footer, the page's height in rows)."""
    from pdfread import render

    image = render(path, index, 0.25).convert("L")
    w, h = image.size
    data = image.load()
    inked = [any(data[x, y] < 200 for x in range(w)) for y in range(h)]
    rows = [y for y, ink in enumerate(inked) if ink]
    last = rows[-1]
    while last > 0 and inked[last]:  # the footer's band
        last -= 1
    while last > 0 and not inked[last]:  # the space above it
        last -= 1
    return rows[0], last, h


def page_faults(path: Path) -> list[str]:
    """Holes a typesetter would mark: a page less than two-thirds full that does not end a
    section (the next page starts with a section heading) or the book, and a list's first
    item alone at a page's foot (the list going on overleaf)."""
    count = _pages(path)
    printed = [text_lines(path, index) for index in range(count)]
    em, _body_lines = _body([line for lines in printed for line in lines])
    sizes = Counter(line.size for lines in printed for line in lines if line.size > em)
    title = max(sizes) if sizes and sizes[max(sizes)] == 1 else None
    section = max((s for s in sizes if s != title), default=None)
    pages = [_columns([line for line in lines if line.size == em], em) for lines in printed]
    pitch = _pitch(pages, em)
    inks = [_ink_rows(path, index) for index in range(count)]
    top = min(first for first, _last, _h in inks)
    bottom = max(last for _first, last, _h in inks)
    faults = []
    for index in range(count - 1):
        full = (inks[index][1] - top) / (bottom - top)
        following = [line for line in printed[index + 1] if line.size >= em]
        starts_section = bool(following) and following[0].size == section
        if full < 2 / 3 and not starts_section:
            faults.append(f"p{index + 1}: {full:.0%} full")
        body = [line for line in printed[index] if line.size == em]
        nxt = [line for line in printed[index + 1] if line.size == em]
        if len(body) >= 2 and nxt and _bullet(body[-1]) and not _bullet(body[-2]):
            if _bullet(nxt[0]) and abs(nxt[0].left - body[-1].left) < 0.5:
                faults.append(f"p{index + 1}: a list's first item alone at the foot")
        # A paragraph that runs over the page: its last line alone at the next page's top
        # (the line there ends short and a paragraph's space follows it), or its first alone
        # at this page's foot (a paragraph's space above it).
        if len(body) >= 2 and len(nxt) >= 2 and pitch:
            measure = max(line.right for line in body)
            runs_over = measure - body[-1].right < 0.25 * em
            top_alone = nxt[0].y - nxt[1].y > pitch + 0.3 * em and measure - nxt[0].right > em
            foot_alone = body[-2].y - body[-1].y > pitch + 0.3 * em
            if runs_over and top_alone and not _bullet(nxt[0]):
                faults.append(f"p{index + 2}: a paragraph's last line alone at the top")
            if runs_over and foot_alone and not _bullet(body[-1]):
                faults.append(f"p{index + 1}: a paragraph's first line alone at the foot")
    return faults


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    """The shipped games' rulebooks and summaries on US Letter."""
    out = tmp_path_factory.mktemp("letter")
    root = Path(__file__).parents[1]
    formats = ["--format", "rulebook", "--format", "summary"]
    result = run("build", "--project", str(root), "--out", str(out), "--paper", "letter", *formats)
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("game", SHIPPED)
def test_the_shipped_rulebooks_leave_no_holes(built, letter, game):
    """Sample cards that do not fit a page's foot wait for the next while the text after them
    fills it (a row of cards at a time); before, 鎮守大祭's first pages were 51–64 % full, a
    list's first item stood alone at a foot, and on Letter a paragraph's last line stood alone
    at a page's top. On A4 and on Letter."""
    for out in (built, letter):
        path = out / game / "rulebook.pdf"
        if path.exists():
            assert page_faults(path) == [], out.name
            assert setting_faults(path) == [], out.name
        summary = out / game / "summary.pdf"
        if summary.exists():
            assert setting_faults(summary) == [], out.name


def _measure_in_ems(pdf: Path) -> float:
    lines = [line for i in range(_pages(pdf)) for line in text_lines(pdf, i)]
    em, body = _body(lines)
    return (max(line.right for line in body) - min(line.left for line in body)) / em


@pytest.mark.parametrize("setting, ems", [(None, 40), (30, 30)])
def test_the_rulebook_line_is_a_comfortable_measure_the_game_can_set(long_rules, setting, ems):
    """A 48-em line at 10 pt on A4 is hard to read: the rulebook's line holds about 40
    characters of body text (the side margins widen to it), or what `[game]
    rulebook_measure` says."""
    root = long_rules.parents[1]
    if setting:
        edit(root, "cards/uno/game.toml", "[game]\n", f"[game]\nrulebook_measure = {setting}\n")
        result = run("build", "uno", "--project", str(root), "--format", "rulebook")
        assert result.exit_code == 0, result.output
    assert _measure_in_ems(long_rules / "rulebook.pdf") == pytest.approx(ems, abs=0.3)


def test_a_rulebook_measure_out_of_range_is_named_at_its_line(long_rules):
    root = long_rules.parents[1]
    edit(root, "cards/uno/game.toml", "[game]\n", "[game]\nrulebook_measure = 400\n")
    result = run("check", "uno", "--project", str(root))
    assert result.exit_code == 1
    assert "cards/uno/game.toml:" in result.output and "rulebook_measure" in result.output
    assert "15 to 80" in result.output


def test_a_paragraph_that_starts_with_a_mark_hangs_its_later_lines(long_rules):
    """A designer's 「※」 paragraph (not a list) that wraps sets its later lines
    under its text, as on the cards."""
    pdf = long_rules / "rulebook.pdf"
    lines = text_lines(pdf, 0)
    first = next(i for i, line in enumerate(lines) if line.text.startswith("※手札が１枚も"))
    mark, text = lines[first].chars[0], lines[first].chars[1]
    after = lines[first + 1]
    assert abs(after.left - text[1]) < 0.5 and after.left - mark[1] > 5, (after.left, text)


def _emphasis_game(tmp_path, rules: str, italic: bool = False):
    """An English game whose rules say `rules` in its overview, built: its output folder."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    sheet = tmp_path / "deck.csv"
    sheet.write_text("name,copies\nScout,2\n", encoding="utf-8")
    assert run("new", "deck", "--project", str(project), "--from", str(sheet)).exit_code == 0
    (project / "cards/deck/rules.md").write_text(
        f"# Bakery\n\n## Overview\n\n{rules}\n", encoding="utf-8"
    )
    if italic:  # a face of its own for emphasis (the bold one here: any face will do)
        edit(
            project,
            "cards/deck/game.toml",
            "[fonts]\n",
            '[fonts]\nitalic = { family = "Noto Sans CJK JP", weight = "Bold" }\n',
        )
    built = run("build", "deck", "--project", str(project), "--format", "rulebook,summary-md,html")
    assert built.exit_code == 0, built.output
    return project / "output/deck"


def _fonts_of(pdf: Path) -> dict[str, str]:
    """Each piece of text the rulebook's first page shows, with its font."""
    seen = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            seen[text] = str((font or {}).get("/BaseFont", ""))

    pypdf.PdfReader(pdf).pages[0].extract_text(visitor_text=visit)
    return seen


def test_emphasis_is_set_leaning_or_in_the_game_s_italic_face(tmp_path):
    """*finest* in the rules: slanted where the game has no italic face, in its italic face
    where [fonts] names one; upright kanji in Japanese emphasis; <em> in rulebook.html, *…* in
    summary.md, and the rulebook's text still reads as one line."""
    out = _emphasis_game(tmp_path / "a", "Bake the *finest* pastries and *煩悩* too.")
    assert leaning_text(out / "rulebook.pdf", 0) == "finest"  # 煩悩 upright, the rest too
    assert (
        "Bake the finest pastries and 煩悩 too."
        in pypdf.PdfReader(out / "rulebook.pdf").pages[0].extract_text()
    )
    assert "<em>finest</em>" in (out / "rulebook.html").read_text("utf-8")
    said = "Bake the *finest* pastries.\n\n## Setup\n<!-- summary: Setup -->\nDeal *two* cards.\n"
    faced = _emphasis_game(tmp_path / "b", said + "<!-- /summary -->", italic=True)
    assert "Deal *two* cards." in (faced / "summary.md").read_text("utf-8")
    assert leaning_text(faced / "rulebook.pdf", 0) == ""
    fonts = _fonts_of(faced / "rulebook.pdf")
    assert fonts["finest"] != fonts["Bake the "], fonts  # the italic face
