"""rulebook.html: one self-contained page with the rulebook's text, tables counted from the data,
ruby, and the sample cards as images inside the file."""

from __future__ import annotations

import base64
import io
import shutil
from html.parser import HTMLParser

import pytest
from PIL import Image

from conftest import edit, run


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def read(path) -> Page:
    page = Page()
    page.feed(path.read_text("utf-8"))
    return page


def test_the_html_rulebook_is_one_file_with_text_tables_ruby_and_card_images(tiny):
    edit(
        tiny,
        "cards/tiny/rules.md",
        "数字カードをよく混ぜ、全員に同じ枚数ずつ配ります。",
        "{数字|すうじ}カードをよく混ぜ、全員に同じ枚数ずつ配ります。",
    )
    r = run("build", "--project", str(tiny), "--format", "html")
    assert r.exit_code == 0, r.output
    page = read(tiny / "output/tiny/rulebook.html")
    text = "".join(page.text)
    assert "ちいさな試験" in text and "手番には、次のどちらかを" in text
    names = [t for t, _a in page.tags]
    assert names.count("h1") == 1 and "h2" in names and "table" in names
    assert "ruby" in names and "rt" in names and "すうじ" in text
    # nothing is fetched from elsewhere: every image is inside the file
    sources = [a.get("src", "") for t, a in page.tags if t in ("img", "script", "link")]
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    cards = [Image.open(io.BytesIO(base64.b64decode(s.split(",", 1)[1]))) for s in sources]
    assert {c.size for c in cards} == {(372, 520)}  # 63 × 88 mm at 150 dpi
    assert len(cards) == 2  # one sample per suit: 赤, 青
    # the components table, counted from the data
    assert "数字カード" in text and "１０枚" in text and "（この表はデータから作成）" in text
    raw = (tiny / "output/tiny/rulebook.html").read_text("utf-8")
    assert "<strong>必ず１つ</strong>" in raw.replace("<wbr>", "")  # <wbr>: where lines may break
    # the game's fonts travel with the page: it reads the same without Japanese fonts installed
    assert raw.count("@font-face") == 2 and raw.count("data:font/ttf;base64,") == 2
    assert "http://" not in raw.replace("https://example.com/tiny", "")


# Where a line may not start (JIS X 4051 / jlreq: small kana, closing brackets, 。、 and the
# like): what a reader of a phone-width page should never see.
NO_START = set("、。，．）」』】〕ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ？！・：；")
DIGITS = set("0123456789０１２３４５６７８９")

LINE_STARTS = """() => {
  const starts = [], range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let block = null, top = null, before = "";
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest("rt, figure")) continue;
    const b = n.parentElement.closest("p, li, h1, h2, h3, h4, td, th");
    if (b !== block) { block = b; top = null; }
    for (let i = 0; i < n.data.length; i++) {
      range.setStart(n, i); range.setEnd(n, i + 1);
      const r = range.getClientRects()[0];
      if (!r || !n.data[i].trim()) continue;
      if (top !== null && r.top > top + r.height / 2) starts.push([before, n.data[i]]);
      top = r.top; before = n.data[i];
    }
  }
  return starts;
}"""


def test_the_html_rulebook_breaks_lines_as_a_japanese_book_on_a_phone(tiny):
    """At phone widths no line starts with a small kana or closing punctuation, a number keeps
    its counter (「８個」), a name is not cut (「シャルモント」), and nothing runs off the
    screen."""
    chromium = next(
        (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p),
        None,
    )
    if chromium is None:
        pytest.skip("no chromium on this machine")
    sync = pytest.importorskip("playwright.sync_api")
    text = (
        "シャルモントのチョコレートショップでは、キャラメルとミルクティーを青 ８個と赤 １２個"
        "ずつ用意し、プレイヤーはジャンケンでチップを１枚ずつ受け取ります。"
    )
    heading = "### シャルモントのショップ"
    edit(tiny, "cards/tiny/rules.md", "## 概要\n", f"## 概要\n\n{text * 3}\n\n{heading}\n")
    assert run("build", "--project", str(tiny), "--format", "html").exit_code == 0
    url = (tiny / "output/tiny/rulebook.html").resolve().as_uri()
    starts = []
    with sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(url)
        for width in [*range(240, 420, 9), 390, 1280]:  # phones, and a desktop's window
            page.set_viewport_size({"width": width, "height": 700})
            starts += page.evaluate(LINE_STARTS)
            overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, f"{overflow} px run off a {width} px screen"
        browser.close()
    assert len(starts) > 200  # the text does wrap at these widths
    bad = [pair for pair in starts if pair[1] in NO_START]
    assert not bad, bad[:10]
    split = [pair for pair in starts if pair[0] in DIGITS and pair[1] in "個枚"]
    assert not split, split[:10]
    cut = [pair for pair in starts if "".join(pair) in ("シャ", "ャル", "ルモ", "モン", "ント")]
    assert not cut, cut[:10]
