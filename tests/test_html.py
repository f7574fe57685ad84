"""rulebook.html: one self-contained page with the rulebook's text, tables counted from the data,
ruby, and the sample cards as images inside the file."""

from __future__ import annotations

import base64
import io
from html.parser import HTMLParser

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
    assert "<strong>必ず１つ</strong>" in raw
    # the game's fonts travel with the page: it reads the same without Japanese fonts installed
    assert raw.count("@font-face") == 2 and raw.count("data:font/ttf;base64,") == 2
    assert "http://" not in raw.replace("https://example.com/tiny", "")
