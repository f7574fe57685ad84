"""Japanese line breaking, units and fonts: the parts a designer never sees until they go wrong."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from generator.cache import Cache
from generator.fonts import FontIndex, Metrics, metrics, subset_truetype
from generator.layout import text as textfit
from generator.layout.units import MM, UnitError, to_pt
from generator.problems import BuildError


def mono(s: str) -> float:
    """Every character one unit wide: line widths are character counts."""
    return float(len(s))


def test_no_line_starts_with_closing_marks_or_ends_with_opening_ones():
    text = "「渡海」か「読経」のどちらかを選んで、その処理を行います。ー・）"
    for width in range(3, 20):
        for line in textfit.wrap(text, width, mono):
            assert line[0] not in "、。」）ー・", (width, line)
            assert line[-1] not in "「（", (width, line)


def test_short_texts_break_between_phrases():
    # BudouX: 手札から|好きな|１枚を|表向きに|して|手元に|置きます
    assert textfit.wrap("手札から好きな１枚を表向きにして手元に置きます", 10, mono) == [
        "手札から好きな１枚を",
        "表向きにして手元に",
        "置きます",
    ]
    # Narrower: still whole phrases, never 「表向」|「きに」.
    assert textfit.wrap("手札から好きな１枚を表向きにして手元に置きます", 5, mono) == [
        "手札から",
        "好きな",
        "１枚を",
        "表向きに",
        "して手元に",
        "置きます",
    ]


def test_a_paragraph_that_fits_is_one_line_without_asking_for_phrases(monkeypatch):
    """Most card texts fit their box: no phrase breaks are looked for (the phrase model is
    not even loaded); a paragraph that does not fit still breaks between phrases."""
    asked: list[str] = []
    real = textfit.phrases
    monkeypatch.setattr(textfit, "phrases", lambda t: asked.append(t) or real(t))
    text = "手札から好きな１枚を表向きにして手元に置きます"
    assert textfit.wrap(text + "  \n二行目", len(text), mono) == [text, "二行目"]
    assert asked == []
    assert textfit.wrap(text, len(text) - 1, mono) == [
        "手札から好きな１枚を表向きにして手元に",
        "置きます",
    ]
    assert asked == [text]


def test_latin_words_stay_whole():
    assert textfit.wrap("print at 100% scale", 10, mono) == ["print at", "100% scale"]
    assert textfit.wrap("print at 100% scale", 6, mono) == ["print", "at", "100%", "scale"]


def test_fit_shrinks_before_splitting_a_phrase():
    # 「補陀落渡海しよう！」 is one phrase: at 10 units per char it needs 90 wide, the box is 80.
    fitted = textfit.fit("補陀落渡海しよう！", 80, 30, 10, 6, 1.2, lambda s, size: len(s) * size)
    assert fitted.fits and fitted.lines == ("補陀落渡海しよう！",) and fitted.size == 8.5


def test_an_english_sentence_wraps_between_words_at_full_size():
    """The phrase parser reads Japanese: to it a Latin sentence is one phrase, and a short
    English card text was shrunk onto one line rather than wrapped (a Dominion card list
    printed "You may gain an Action card…" at 6 pt beside 9 pt texts). The spaces between
    Latin words are breaks as good as phrase ends; 黄 ４枚 in Japanese stays one unit."""
    text = "You may gain an Action card costing up to 5 Coins."
    fitted = textfit.fit(text, 156, 53, 9, 6, 1.4, lambda s, size: len(s) * size * 0.5)
    assert fitted.fits and fitted.size == 9
    assert fitted.lines == ("You may gain an Action card", "costing up to 5 Coins.")
    good, _fallback = textfit.break_points("赤 ４枚、黄 ４枚）")
    assert sorted(good) == [5, 10]  # after 、 and at the end, not at the spaces
    good, _fallback = textfit.break_points("für Ärger über")
    assert sorted(good) == [4, 10, 14]  # German words: ü and Ä are Latin too


def test_fit_reports_overflow_at_min_size():
    fitted = textfit.fit(
        "あいうえおかきくけこ" * 10, 20, 10, 10, 8, 1.2, lambda s, size: len(s) * size
    )
    assert not fitted.fits and fitted.size == 8


@pytest.mark.parametrize(
    "value,mm",
    [
        ("63mm", 63),
        ("1in", 25.4),
        ("72pt", 25.4),
        ("W - 4mm", 59),
        ("W / 2 - 19mm", 12.5),
        ("bleed * 2", 6),
        ("1.5cm", 15),
    ],
)
def test_lengths(value, mm):
    assert to_pt(value, {"W": 63 * MM, "bleed": 3 * MM}) / MM == pytest.approx(mm)


@pytest.mark.parametrize("value", ["12", "12 px", "W", "3mm 4mm", "", "-"])
def test_bad_lengths(value):
    with pytest.raises(UnitError):
        to_pt(value, {})


def test_cff_noto_is_subset_and_converted_to_truetype(tmp_path):
    face = FontIndex([]).find("Noto Sans CJK JP", "Regular")
    assert face.path.suffix == ".otf"
    cache = Cache(tmp_path)
    data = subset_truetype(face, set("補陀落渡海しよう！"), cache)
    font = TTFont(io.BytesIO(data))
    assert "glyf" in font and "CFF " not in font
    assert set(font.getBestCmap()) == {ord(c) for c in "補陀落渡海しよう！"}
    # Cached by content: the second call reads the file the first wrote.
    assert (
        list(tmp_path.glob("fonts/*.ttf.sealed"))
        and subset_truetype(face, set("補陀落渡海しよう！"), cache) == data
    )
    assert metrics(face).has("補") and not metrics(face).has("\U0001f600")


def test_unknown_font_family_is_named():
    with pytest.raises(BuildError, match="font family 'Noto Sans Klingon' not found"):
        FontIndex([]).find("Noto Sans Klingon")


def test_regular_finds_a_family_whose_regular_face_is_called_book():
    """DejaVu Sans calls its regular face Book: weight Regular (the default) finds it, a
    family's own Regular still comes first, and a weight it lacks is still said."""
    from generator.fonts import FontFace

    index = FontIndex([])
    path = Path("DejaVuSans.ttf")
    index._faces = [
        FontFace(path, 0, "DejaVu Sans", "Bold", "system"),
        FontFace(path, 1, "DejaVu Sans", "Book", "system"),
        FontFace(path, 2, "Times", "Roman", "system"),
        FontFace(path, 3, "Times", "Regular", "system"),
    ]
    assert index.find("DejaVu Sans", "Regular").index == 1
    assert index.find("DejaVu Sans").index == 1
    assert index.find("Times").index == 3
    with pytest.raises(BuildError, match="font 'DejaVu Sans' has no weight 'Light'"):
        index.find("DejaVu Sans", "Light")


def test_project_fonts_come_first(tmp_path):
    face = FontIndex([]).find("Noto Sans CJK JP", "Bold")
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "mine.otf").write_bytes(face.path.read_bytes())
    found = FontIndex([tmp_path / "fonts"]).find("Noto Sans CJK JP", "Bold")
    assert found.source == "project" and found.path.parent == tmp_path / "fonts"


def test_fast_cmap_and_widths_match_fonttools():
    face = FontIndex([]).find("Noto Sans CJK JP", "Bold")
    reference = TTFont(str(face.path))
    cmap, hmtx = reference.getBestCmap(), reference["hmtx"].metrics
    measured = metrics(face)
    for m in (measured, Metrics.loaded(face, measured.stored())):  # as read from the cache
        assert sum(m.covered) + len(m.astral) == len(cmap)
        assert all(m.has(chr(cp)) for cp in cmap)
        assert all(m.width(chr(cp), m.upm) == hmtx[glyph][0] for cp, glyph in cmap.items())
    lacking = next(cp for cp in range(0x3000, 0x10000) if cp not in cmap)
    assert not measured.has(chr(lacking))
    assert measured.width(chr(lacking), 10) == measured.width("\ufffd", 10) > 0
    beyond = next(cp for cp in cmap if cp >= 0x10000)  # a character beyond the BMP
    assert measured.width("字" + chr(beyond), 10) == pytest.approx(
        (hmtx[cmap[ord("字")]][0] + hmtx[cmap[beyond]][0]) * 10 / measured.upm
    )


def test_max_lines_shrinks_instead_of_wrapping():
    def measure(s, size):
        return len(s) * size

    two = textfit.fit("日の出横丁にゃんばーわん！", 100, 40, 14, 6, 1.2, measure)
    one = textfit.fit("日の出横丁にゃんばーわん！", 100, 40, 14, 6, 1.2, measure, max_lines=1)
    assert (
        len(two.lines) == 2 and one.lines == ("日の出横丁にゃんばーわん！",) and one.size < two.size
    )


@pytest.mark.parametrize("width", [150, 220, 230])
def test_a_paragraph_never_ends_on_a_line_of_one_or_two_characters(width):
    """「い。」 alone on a rulebook line: characters come down from the line before, at a legal
    break, so the last line holds at least three."""
    para = (
        "手番には、次のどちらかを必ず１つ行います。山札から１枚引くか、手札から１枚出してください。"
    )
    plain = textfit.wrap(para, width, lambda s: len(s) * 10.0, max_ragged=0.12)
    assert len(plain[-1]) < 3  # the case: without the rule, 「い。」 alone
    lines = textfit.wrap(para, width, lambda s: len(s) * 10.0, max_ragged=0.12, min_last=3)
    assert "".join(lines) == para and len(lines) == len(plain)
    assert len(lines[-1]) >= 3 and all(len(line) * 10.0 <= width for line in lines)
    assert lines[-1][0] not in "、。」）ー"  # kinsoku still holds
