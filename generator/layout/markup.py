"""Inline markup in card text: `**bold**`, `{color=red}…{/color}`, `{size=8}…{/size}`.

Only a text box with `markup = true` reads it: elsewhere a cell's asterisks and braces print as
typed (data stays data). `parse()` turns the markup into style switches, one private-use
character each (U+E600 + the style's index: the style from there on, not a toggle), so line
breaking sees ordinary zero-width characters; a paragraph starts with its style's switch, and
`carry()` gives the switch a wrapped line must start with, so every line is whole by itself for
measuring and drawing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..colours import NAMES
from ..colours import colour as read_colour
from ..i18n import _

FIRST = 0xE600
MOST = 0x100  # styles a box may use
_TAG = re.compile(r"\*\*|\{(color|size)=([^{}]*)\}|\{/(color|size)\}")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(pt|%)?\s*$")


@dataclass(frozen=True)
class Style:
    """The inline style of a stretch of text (bold, colour, size)."""

    bold: bool = False
    color: str | None = None  # None: the box's colour
    size: float = 1.0  # a factor of the box's size


def is_switch(ch: str) -> bool:
    return FIRST <= ord(ch) < FIRST + MOST


def parse(text: str, base_size: float) -> tuple[str, tuple[Style, ...], list[str]]:
    """The text with its markup turned into style switches, the styles (index 0 is the box's
    own), and what could not be read (printed as typed). Bold, colour and size are set apart:
    `**{color=red}赤**{/color}` is bold red, then red."""
    styles: list[Style] = [Style()]
    problems: list[str] = []
    out: list[str] = []
    bold = False
    colours: list[str] = []
    sizes: list[float] = []

    def switch() -> str:
        style = Style(bold, colours[-1] if colours else None, sizes[-1] if sizes else 1.0)
        if style not in styles:
            if len(styles) == MOST:
                return ""
            styles.append(style)
        return chr(FIRST + styles.index(style))

    pos = 0
    bold_at = [m.start() for m in re.finditer(r"\*\*", text)]
    lone_bold = bold_at[-1] if len(bold_at) % 2 else None  # an unmatched ** prints as typed
    for m in _TAG.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        tag = m.group(0)
        if tag == "**":
            if m.start() == lone_bold:
                problems.append(_("'**' has no closing '**'"))
                out.append(tag)
                continue
            bold = not bold
        elif m.group(1) == "color":
            value = m.group(2).strip()
            colour = read_colour(value)
            if colour is None:
                problems.append(
                    _(
                        "{tag}: a colour is #RRGGBB or one of {names}",
                        tag=tag,
                        names=NAMES,
                    )
                )
                out.append(tag)
                continue
            colours.append(colour)
        elif m.group(1) == "size":
            found = _SIZE.match(m.group(2))
            if not found or float(found.group(1)) <= 0:
                problems.append(
                    _("{tag}: a size is points (8, 8pt) or a percentage (80%)", tag=tag)
                )
                out.append(tag)
                continue
            number = float(found.group(1))
            sizes.append(number / 100 if found.group(2) == "%" else number / base_size)
        else:
            stack = colours if m.group(3) == "color" else sizes
            if not stack:
                problems.append(_("{tag} closes nothing that is open", tag=tag))
                out.append(tag)
                continue
            stack.pop()
        out.append(switch())
    out.append(text[pos:])
    unclosed = ["{color=…}"] * len(colours) + ["{size=…}"] * len(sizes)
    if unclosed:
        problems.append(_("not closed: {open}", open=", ".join(unclosed)))
    content = "".join(out)
    # Each paragraph starts with its own style, so lines can be read alone.
    paragraphs = content.split("\n")
    state = chr(FIRST)
    for i, para in enumerate(paragraphs):
        paragraphs[i] = state + para
        state = carry(paragraphs[i])
    return "\n".join(paragraphs), tuple(styles), problems


def carry(prefix: str) -> str:
    """The switch in force at the end of `prefix` (which starts with one)."""
    for ch in reversed(prefix):
        if is_switch(ch):
            return ch
    return chr(FIRST)


def runs(line: str, styles: tuple[Style, ...]):
    """(style, text) runs of a line in order; switches removed."""
    style, run = styles[0], []
    for ch in line:
        if is_switch(ch):
            if run:
                yield style, "".join(run)
                run = []
            style = styles[ord(ch) - FIRST]
        else:
            run.append(ch)
    if run:
        yield style, "".join(run)


def plain(text: str) -> str:
    """The text without its switches."""
    return "".join(ch for ch in text if not is_switch(ch))
