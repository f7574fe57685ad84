"""Japanese line breaking for card text boxes: phrase boundaries (BudouX), kinsoku, shrink to fit.

Fed by resolved text boxes and font metrics; the renderer draws the lines it returns verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..typeset import RUBY_OPEN, designer_breaks, inside_groups

# Characters that may not start a line (行頭禁則) and may not end one (行末禁則).
NO_START = set(
    "、。，．,.)]）］｝〕〉》」』】〙〗〟’”｠»ゝゞーァィゥェォッャュョヮヵヶぁぃぅぇぉっゃゅょゎゕゖㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ々〻‐゠–〜～？！?!‼⁇⁈⁉・：；:;/%％"
)
NO_END = set("([｛〔〈《「『【〘〖〝‘“｟«（［")


@lru_cache(maxsize=1)
def _parser():
    import budoux

    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=4096)
def phrases(text: str) -> tuple[str, ...]:
    """Phrase chunks of a paragraph; breaks between them read naturally."""
    if not text:
        return ()
    return tuple(_parser().parse(text))


def _is_word(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch in "'’-_")


def break_points(text: str, words: tuple[str, ...] = ()) -> tuple[set[int], set[int]]:
    """(good, fallback) positions where a line may break: phrase ends and the spaces between
    Latin words (the phrase parser reads Japanese: a Latin sentence is one phrase to it), then
    any legal character gap; none inside one of `words` (the game's words.txt: 「日の出横丁」
    stays whole where BudouX would part 「日の」)."""
    good: set[int] = set()
    pos = 0
    for chunk in phrases(text):
        pos += len(chunk)
        good.add(pos)
    fallback = set()
    held = set()  # "1 card", "Lich: 1": a number kept with its unit and its label
    word = ""  # the last character before the gap that is not a space
    for i in range(1, len(text)):
        a, b = text[i - 1], text[i]
        if a != " ":
            word = a
        if b in NO_START or a in NO_END:
            continue
        if _is_word(a) and _is_word(b):
            continue  # keep Latin words and numbers whole
        fallback.add(i)
        if a == " " and " " < b < "\u2000" and " " < word < "\u2000":
            # between Latin words, ä or Ω too (in Japanese, 黄 ４枚 is one unit); a number
            # stays with the word after it ("1 card", "5 mm") and with the label before it
            # ("Lich: 1")
            if (word.isdigit() and b.isalpha()) or (word == ":" and b.isdigit()):
                held.update((i - 1, i))  # before the space and after it
            else:
                good.add(i)
    fallback -= held
    good &= fallback | {len(text)}
    inside = inside_words(text, words)
    if inside:
        good -= inside
        fallback -= inside
    return good, fallback


def inside_words(text: str, words: tuple[str, ...]) -> set[int]:
    """The positions strictly inside each place one of `words` is written in `text`."""
    inside: set[int] = set()
    for word in words:
        at = text.find(word)
        while at >= 0:
            inside.update(range(at + 1, at + len(word)))
            at = text.find(word, at + 1)
    return inside


def wrap(
    text: str,
    width: float,
    measure: Callable[[str], float],
    phrases_only: bool = False,
    max_ragged: float | None = None,
    min_last: int = 0,
    carry: Callable[[str], str] | None = None,
    ends: list[bool] | None = None,
    indents: list[float] | None = None,
    words: tuple[str, ...] = (),
) -> list[str] | None:
    """Lines no wider than `width` where possible, breaking at phrases, never against kinsoku.

    With `phrases_only`, returns None rather than break inside a phrase. With `max_ragged` (a
    fraction of the width), a phrase break that would leave more than that empty gives way to
    a break between characters (long rulebook paragraphs; card text keeps its phrases). With
    `min_last`, a paragraph's last line never holds fewer characters than that (「い。」 alone):
    characters come down from the line before, at a legal break. With `carry` (styled text,
    layout/markup.py), each line after a paragraph's first starts with `carry(what came before
    it)`, so a line is measured and drawn with the style in force where it starts. `ends`, if
    given, hears for each line whether it ends a paragraph (a justified text sets it flush).
    `indents`, if given, asks for hanging indents and hears each line's: a paragraph that
    starts with a mark (「・」, 「※」, 「1.」, 「①」) has its later lines start under its text.
    No line breaks inside one of `words` (see `break_points`).
    """
    lines: list[str] = []
    for para in text.split("\n"):
        _ended(lines, ends)
        if indents is not None:
            indents += [0.0] * (len(lines) - len(indents))
        para, marked, kept = designer_breaks(para)
        if not para:
            lines.append("")
            continue
        if measure(para.rstrip()) <= width + 0.01:  # one line: no break to look for (a
            lines.append(para.rstrip())  # width only grows as characters are added)
            continue
        mark = HANGING.match(para) if indents is not None and not carry else None
        hang = measure(mark.group(0)) if mark else 0.0
        good, fallback = break_points(para, words)
        if marked or kept:  # the designer's <wbr> and <nobr>…</nobr> come first
            good, fallback = (good | marked) - kept, (fallback | marked) - kept
        if RUBY_OPEN in para:  # a ruby group stays on one line
            whole = inside_groups(para)
            good, fallback = good - whole, fallback - whole
        starts: list[int] = []
        start = 0
        while start < len(para):
            head = carry(para[:start]) if carry and start else ""
            room = width - (hang if start else 0.0)  # a hanging line starts under the text
            # Farthest end that fits.
            end = start + 1
            while end < len(para) and measure(head + para[start : end + 1].rstrip()) <= room + 0.01:
                end += 1
            if end == len(para) and measure(head + para[start:].rstrip()) <= room + 0.01:
                starts.append(start)
                lines.append(head + para[start:].rstrip())
                break
            cut = next((p for p in range(end, start, -1) if p in good), None)
            if (
                cut is not None
                and max_ragged is not None
                and room - measure(head + para[start:cut].rstrip()) > max_ragged * width
            ):
                cut = next((p for p in range(end, start, -1) if p in fallback), cut)
            if cut is None:
                if phrases_only:
                    return None
                cut = next((p for p in range(end, start, -1) if p in fallback), None)
            if cut is None:
                # Nothing legal fits: take the shortest legal piece (it overflows, and is reported).
                cut = next(
                    p for p in range(end + 1, len(para) + 1) if p in fallback or p == len(para)
                )
            starts.append(start)
            lines.append(head + para[start:cut].rstrip())
            start = cut
            while start < len(para) and para[start] == " ":
                start += 1
        if min_last and len(starts) >= 2 and not carry:
            _lengthen_last(lines, starts, para, good if phrases_only else fallback, min_last)
        if indents is not None:
            indents += [0.0] + [hang] * (len(lines) - len(indents) - 1)
    _ended(lines, ends)
    if indents is not None:
        indents += [0.0] * (len(lines) - len(indents))
    return lines


# The marks a paragraph of steps, items or a legend starts with, and the space after them:
# its later lines hang under the text after the mark. A bullet, a circled number, a step's
# number followed by 「.」「、」「)」 or a space, a number in brackets, an icon (a private-use
# character, layout/icons.py).
HANGING = re.compile(
    r"(?:[・※●○■□◆◇★☆▶▷]|[①-⑳]|[0-9０-９]{1,2}[.．、)）]|[0-9０-９]{1,2}(?=[ 　])"
    r"|[(（][0-9０-９]{1,2}[)）]|[\ue100-\ue6ff])[ 　]?(?=\S)"
)


def _ended(lines: list[str], ends: list[bool] | None) -> None:
    """The lines since the last paragraph's end told, in `ends`: only the last ends one."""
    if ends is not None and len(lines) > len(ends):
        ends += [False] * (len(lines) - len(ends) - 1) + [True]


def _lengthen_last(lines, starts, para, legal, min_last) -> None:
    """Bring characters down from the second-last line until the last holds `min_last`, at
    the nearest legal break (kinsoku holds); leave it when no legal break allows it."""
    last_start = starts[-1]
    short = len(para[last_start:].strip())
    if short >= min_last:
        return
    prev_start = starts[-2]
    for cut in range(last_start - 1, prev_start, -1):
        if cut in legal and len(para[cut:].strip()) >= min_last:
            lines[-2] = para[prev_start:cut].rstrip()
            lines[-1] = para[cut:].rstrip()
            return


@dataclass(frozen=True)
class Fitted:
    """A text broken into lines at the size it was fitted at."""

    lines: tuple[str, ...]
    size: float
    leading: float
    fits: bool
    indents: tuple[float, ...] = ()  # each line's hanging indent (points), when any hangs


def fit(
    text: str,
    width: float,
    height: float,
    size: float,
    min_size: float,
    leading: float,
    measure: Callable[[str, float], float],
    step: float = 0.5,
    max_lines: int | None = None,
    carry: Callable[[str], str] | None = None,
    hang: bool = True,
    words: tuple[str, ...] = (),
) -> Fitted:
    """The largest size from `size` down to `min_size` (in `step`s) at which the text fits its box.

    Breaking only between phrases is preferred: a smaller size that keeps phrases whole beats a
    larger one that splits a word; only when no size does is a phrase split (kinsoku still holds).
    `max_lines` (a title: 1) makes the text shrink rather than wrap beyond it. With `hang`,
    a paragraph of steps or items hangs its later lines under its text (see `wrap`).
    """
    sizes = []
    current = size
    while current >= min_size - 1e-9:
        sizes.append(current)
        current -= step
    sizes = sizes or [size]

    def wrapped(at: float, phrases_only: bool = False):
        hung: list[float] = []
        lines = wrap(
            text,
            width,
            lambda s: measure(s, at),
            phrases_only,
            min_last=MIN_LAST,
            carry=carry,
            indents=hung if hang else None,
            words=words,
        )
        return lines, tuple(hung) if any(hung) else ()

    for phrases_only in (True, False):
        for current in sizes:
            lines, hung = wrapped(current, phrases_only)
            if (
                lines is not None
                and _fits(lines, hung, current, width, height, leading, measure)
                and (max_lines is None or len(lines) <= max_lines)
            ):
                return Fitted(tuple(lines), current, current * leading, True, hung)
    smallest = sizes[-1]
    lines, hung = wrapped(smallest)
    return Fitted(tuple(lines or []), smallest, smallest * leading, False, hung)


MIN_LAST = 3  # a card's paragraph ends on three characters at least (not 「る。」 alone)


def _fits(lines, hung, size, width, height, leading, measure) -> bool:
    tall = (len(lines) - 1) * size * leading + size
    indents = hung or (0.0,) * len(lines)
    wide = max((measure(line, size) + i for line, i in zip(lines, indents)), default=0.0)
    return tall <= height + 0.01 and wide <= width + 0.01
