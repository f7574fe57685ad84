"""Inline markup in card text: bold, colour and size runs where the layout says the box takes
markup, read back from the PDF (which font and size each run is set in, what colour reaches the
paper); elsewhere a cell's asterisks print as typed."""

from __future__ import annotations

from pathlib import Path

import pypdf

from conftest import edit, run
from pdfread import page_text, render

CELL = "一番小さい赤。"


def runs(pdf: Path, page: int) -> list[tuple[str, str, float]]:
    """(text, font's base name, size) of every text run on a page."""
    out: list[tuple[str, str, float]] = []

    def visit(text, cm, tm, font, size):
        if text.strip() and font is not None:
            out.append((text, str(font.get("/BaseFont")), size * tm[0] * cm[0]))

    pypdf.PdfReader(pdf).pages[page].extract_text(visitor_text=visit)
    return out


def with_markup(tiny: Path, cell: str) -> None:
    edit(tiny, "cards/tiny/cards.csv", CELL, cell)
    edit(
        tiny, "layouts/tiny/card_front.toml", 'min_size = "7pt"', 'min_size = "7pt"\nmarkup = true'
    )


def test_bold_and_size_runs_are_set_in_their_font_and_size(tiny):
    with_markup(tiny, "札を**１枚**引き{size=7}小さく{/size}言う。")
    r = run("build", "--project", str(tiny))
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/cards.pdf"
    found = runs(pdf, 1)
    bold = next(f for t, f, s in found if "１枚" in t)
    plain = next(f for t, f, s in found if "引き" in t)
    assert "Bold" in bold and "Bold" not in plain
    assert [round(s, 1) for t, s in ((t, s) for t, f, s in found) if "小さく" in t] == [7.0]
    assert "**" not in page_text(pdf, 1) and "{size" not in page_text(pdf, 1)


def test_a_bold_run_that_wraps_stays_bold_on_the_next_line(tiny):
    with_markup(tiny, "**" + "とても長い太字の説明文が一行に収まらずに折り返す" + "**おわり")
    r = run("build", "--project", str(tiny))
    assert r.exit_code == 0, r.output
    found = runs(tiny / "output/tiny/cards.pdf", 1)
    tail = next(f for t, f, s in found if "返す" in t)
    end = next(f for t, f, s in found if "おわり" in t)
    assert "Bold" in tail and "Bold" not in end


def test_colour_reaches_the_paper_only_where_marked(tiny):
    def red_pixels(cell: str) -> int:
        edit(tiny, "cards/tiny/cards.csv", prev[0], cell)
        prev[0] = cell
        assert run("build", "--project", str(tiny)).exit_code == 0
        im = render(tiny / "output/tiny/cards.pdf", 1, scale=2)
        # the text box of the first card (the band above it is the suit's colour: leave it out)
        box = im.crop((0, round(im.height * 0.24), round(im.width * 0.34), round(im.height * 0.34)))
        data = box.tobytes()
        pixels = zip(data[0::3], data[1::3], data[2::3])
        return sum(1 for r, g, b in pixels if r > 150 and g < 80 and b < 80)

    edit(
        tiny, "layouts/tiny/card_front.toml", 'min_size = "7pt"', 'min_size = "7pt"\nmarkup = true'
    )
    prev = [CELL]
    assert red_pixels("{color=red}赤い札{/color}を引く。") > 50
    assert red_pixels("赤い札を引く。") == 0


def test_data_stays_data_without_markup(tiny):
    edit(tiny, "cards/tiny/cards.csv", CELL, "**１枚**")
    r = run("build", "--project", str(tiny))
    assert r.exit_code == 0, r.output
    assert "**１枚**" in page_text(tiny / "output/tiny/cards.pdf", 1)


def test_unreadable_markup_is_a_warning_naming_the_card_and_prints_as_typed(tiny):
    with_markup(tiny, "{color=rouge}赤{/color}を**引く")
    r = run("build", "--project", str(tiny))
    assert r.exit_code == 0, r.output
    assert (
        "cards/tiny/cards.csv:2: warning: card 赤 1: markup in box 'text' printed as typed: "
        "{color=rouge}: a colour is #RRGGBB or one of"
    ) in r.output
    assert "'**' has no closing '**'" in r.output
    assert "{/color} closes nothing that is open" in r.output
    text = page_text(tiny / "output/tiny/cards.pdf", 1)
    assert "{color=rouge}" in text and "**引く" in text


def test_a_missing_bold_glyph_is_named_with_the_bold_role(tiny):
    with_markup(tiny, "**\U0001f600**")
    r = run("check", "--project", str(tiny))
    assert r.exit_code == 1
    assert "the font for 'bold'" in r.output and "U+1F600" in r.output


def test_colons_in_a_url_or_json_are_text_and_an_unknown_icon_is_said(tiny):
    """A cell holding a link (https://…) or JSON (:"id",:) prints its colons as typed with no
    word of icons (an icon's name holds no quote); `:未知:` could name one, and is said."""
    cell = '"https://example.com/a 参照{""id"":""R-1"",""lv"":1}"'  # quoted, as CSV writes it
    edit(tiny, "cards/tiny/cards.csv", CELL, cell)
    r = run("check", "--no-play", "--project", str(tiny))
    assert r.exit_code == 0 and "not an icon" not in r.output, r.output
    edit(tiny, "cards/tiny/cards.csv", cell, ":未知:を払う。")
    r = run("check", "--no-play", "--project", str(tiny))
    assert "':未知:' in box 'text' is not an icon" in r.output, r.output
