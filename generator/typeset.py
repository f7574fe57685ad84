"""Japanese type beyond horizontal lines: ruby (furigana) and vertical text (縦書き).

Ruby is written `{煩悩|ぼんのう}` (in rules.md, and in card boxes with `ruby = true`) or made by
the layout filter `{{ name | ruby(reading) }}`; inside the tool a group is the base between
private-use markers with its reading, so line breaking keeps it whole and measuring counts the
base only. Vertical text runs top to bottom in columns from right to left: punctuation and
brackets take their vertical forms, the long vowel mark and Latin letters turn sideways, small
kana sit up and to the right, and a number of one or two digits stands upright in one cell
(縦中横). Horizontal lines set 約物 as jlreq (W3C, *Requirements for Japanese Text Layout*,
3.1 and Appendix E) says: two marks in a row lose the half em of blank between them, and a
justified line adds its space only where jlreq lets it. Pure functions: no drawing here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

RUBY_OPEN, RUBY_SEP, RUBY_CLOSE = "\ue700", "\ue701", "\ue702"  # the tool's private range
RUBY_SIZE = 0.5  # a reading's size, of its base's
_BRACES = re.compile(r"\{([^{}|\n]+)\|([^{}|\n]+)\}")
_GROUP = re.compile(
    f"{RUBY_OPEN}([^{RUBY_SEP}{RUBY_CLOSE}]*){RUBY_SEP}([^{RUBY_CLOSE}]*){RUBY_CLOSE}"
)


# jlreq's classes (full-width forms): opening brackets (cl-01) carry their blank before the
# mark, closing brackets (cl-02), full stops and commas (cl-06, cl-07) after it; middle dots
# (cl-05) a quarter em each side.
OPENING = frozenset("「『（［｛〔〈《【〘〖〝｟")
CLOSING = frozenset("」』）］｝〕〉》】〙〗〟｠")
STOPS = frozenset("、。，．")
MIDDLE = frozenset("・：；")
_ENDING = CLOSING | STOPS
_TIGHT_AFTER = CLOSING | STOPS | MIDDLE


def squeezed(a: str, b: str) -> bool:
    """Whether the half em of blank between `a` and `b` side by side goes (jlreq 3.1.4): a
    closing bracket, comma or full stop before another, or before an opening bracket, and two
    opening brackets; so 「）、」 takes 1.5 em, not 2."""
    return (a in _ENDING and (b in _ENDING or b in OPENING)) or (a in OPENING and b in OPENING)


def squeezes(text: str) -> int:
    """How many half ems a line's marks give back (`squeezed` pairs in `text`)."""
    return sum(map(squeezed, text, text[1:]))


def stretches(a: str, b: str) -> bool:
    """Whether a justified line may add space between `a` and `b` (jlreq Appendix E): not
    after an opening bracket, nor before or after a closing bracket, comma, full stop or
    middle dot, whose blank already sets them apart."""
    return not (a in OPENING or a in _TIGHT_AFTER or b in _TIGHT_AFTER)


# A designer's break marks in data and rules, as HTML writes them (see `designer_breaks`).
DESIGNER_MARKS = re.compile(r"(<wbr>|</?nobr>)", re.IGNORECASE)


def designer_breaks(text: str) -> tuple[str, set[int], set[int]]:
    """A text without the designer's break marks, as HTML writes them: the text, the places a
    line may break (`<wbr>`: 「日の出横丁<wbr>にゃんばーわん！」) and the places inside a run no
    line may break (`<nobr>…</nobr>`)."""
    if "<" not in text:
        return text, set(), set()
    out: list[str] = []
    breaks: set[int] = set()
    kept: set[int] = set()
    at, opened = 0, None
    for piece in DESIGNER_MARKS.split(text):
        mark = piece.lower()
        if mark == "<wbr>":
            breaks.add(at)
        elif mark == "<nobr>":
            opened = at
        elif mark == "</nobr>":
            if opened is not None:
                kept.update(range(opened + 1, at))
            opened = None
        else:
            out.append(piece)
            at += len(piece)
    return "".join(out), breaks - kept, kept


def ruby(base: object, reading: object) -> str:
    """The layout filter: `{{ name | ruby(reading) }}` sets `reading` above `name`."""
    base, reading = str(base), str(reading or "")
    return f"{RUBY_OPEN}{base}{RUBY_SEP}{reading}{RUBY_CLOSE}" if reading else base


def parse_ruby(text: str) -> str:
    """`{煩悩|ぼんのう}` as a ruby group."""
    return _BRACES.sub(lambda m: ruby(m.group(1), m.group(2)), text)


def has_ruby(text: str) -> bool:
    return RUBY_OPEN in text


def base_text(text: str) -> str:
    """What sits on the line: ruby readings and markers removed (a group cut short by a
    line-break search counts its base so far)."""
    out, reading = [], False
    for ch in text:
        if ch == RUBY_OPEN:
            continue
        if ch == RUBY_SEP:
            reading = True
        elif ch == RUBY_CLOSE:
            reading = False
        elif not reading:
            out.append(ch)
    return "".join(out)


def readings(text: str) -> str:
    return "".join(m.group(2) for m in _GROUP.finditer(text))


def inside_groups(text: str) -> set[int]:
    """String positions a line may not break at: inside a ruby group."""
    out: set[int] = set()
    for m in _GROUP.finditer(text):
        out.update(range(m.start() + 1, m.end()))
    return out


def segments(line: str) -> list[tuple[str, str]]:
    """A line as (base, reading) pieces in order; plain text has an empty reading."""
    out, at = [], 0
    for m in _GROUP.finditer(line):
        if m.start() > at:
            out.append((line[at : m.start()], ""))
        out.append((m.group(1), m.group(2)))
        at = m.end()
    if at < len(line):
        out.append((line[at:], ""))
    return [(b, r) for b, r in out if b]


# --- vertical text -------------------------------------------------------------------------

# Vertical presentation forms (Unicode's, which CJK fonts draw for vertical text).
VERTICAL_FORMS = {
    "、": "\ufe11",
    "。": "\ufe12",
    "，": "\ufe10",
    "：": "\ufe13",
    "；": "\ufe14",
    "！": "\ufe15",
    "？": "\ufe16",
    "「": "\ufe41",
    "」": "\ufe42",
    "『": "\ufe43",
    "』": "\ufe44",
    "（": "\ufe35",
    "）": "\ufe36",
    "｛": "\ufe37",
    "｝": "\ufe38",
    "〔": "\ufe39",
    "〕": "\ufe3a",
    "【": "\ufe3b",
    "】": "\ufe3c",
    "《": "\ufe3d",
    "》": "\ufe3e",
    "〈": "\ufe3f",
    "〉": "\ufe40",
    "…": "\ufe19",
    "‥": "\ufe30",
}
ROTATED = set("ー－―〜～→←=＝-–—_()[]<>")  # turned a quarter clockwise
SMALL_KANA = set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")
_TCY = re.compile(r"(?<![0-9])[0-9]{1,2}(?![0-9])|[!?]{2}")


def vertical_pieces(text: str) -> list[tuple[str, str]]:
    """A column's text as (kind, text) pieces, each one cell or one sideways run: 'upright',
    'form' (a vertical form, text is the form), 'small', 'tcy' (縦中横), 'sideways' (Latin
    letters or a turned mark)."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        m = _TCY.match(text, i)
        ch = text[i]
        if m:
            out.append(("tcy", m.group(0)))
            i = m.end()
            continue
        if ch in VERTICAL_FORMS:
            out.append(("form", VERTICAL_FORMS[ch]))
        elif ch in SMALL_KANA:
            out.append(("small", ch))
        elif ch in ROTATED or (ch.isascii() and ch.strip()):
            if out and out[-1][0] == "sideways" and ch.isascii() and out[-1][1][-1:].isascii():
                out[-1] = ("sideways", out[-1][1] + ch)
            else:
                out.append(("sideways", ch))
        elif ch == " ":
            out.append(("space", ch))
        else:
            out.append(("upright", ch))
        i += 1
    return out


def vertical_chars(text: str) -> str:
    """The characters vertical text draws (the forms besides the text's own), to subset."""
    return "".join(VERTICAL_FORMS.get(ch, ch) for ch in text)


def vertical_length(text: str, size: float, width: Callable[[str, float], float]) -> float:
    """How far down a column `text` runs: a cell of one em for each upright character, form or
    縦中横 number; a sideways run its own width; a space half an em."""
    total = 0.0
    for kind, piece in vertical_pieces(base_text(text)):
        if kind == "sideways":
            total += width(piece, size)
        elif kind == "space":
            total += size / 2
        else:
            total += size
    return total


def strip_ruby(text: str) -> str:
    """`{煩悩|ぼんのう}` as its base, 煩悩: what rule checks read."""
    return _BRACES.sub(lambda m: m.group(1), text)


def ruby_as_text(text: str) -> str:
    """`{煩悩|ぼんのう}` as 煩悩（ぼんのう）, for plain text such as summary.md."""
    return _BRACES.sub(lambda m: f"{m.group(1)}（{m.group(2)}）", text)


_ZEN = str.maketrans("0123456789", "０１２３４５６７８９")
_HAN = str.maketrans("０１２３４５６７８９", "0123456789")
_DIGIT_RUN = re.compile(
    r"(?<![A-Za-z0-9_./:#])[0-9]+(?:[.:][0-9]+)*(?![A-Za-z0-9_])|(?<![A-Za-zＡ-Ｚａ-ｚ])[０-９]+"
)


def set_digits(text: str, mode: str) -> str:
    """Digits of Japanese running text as the project sets them: 'full' (３〜５人), 'half'
    (3〜5人) or 'as-written'. Digits inside Latin words, URLs and ruby markers stay."""
    if mode == "as-written":
        return text
    table = _ZEN if mode == "full" else _HAN

    def convert(m: re.Match) -> str:
        run = m.group(0)
        if "." in run or ":" in run:  # 1.5, 10:30: a decimal or a time stays as typed
            return run
        return run.translate(table) if (mode == "full") == run.isascii() else run

    parts = re.split(r"(https?://\S+|\(https?://[^)]*\))", text)
    return "".join(p if i % 2 else _DIGIT_RUN.sub(convert, p) for i, p in enumerate(parts))
