"""The rules source rendered with the data: Jinja bound to the model, then parsed into blocks.

Fed by the model and rulesource (the Markdown parser, the facts a template may read); feeds the
rulebook and summary builders. The one place rules text meets Jinja, beside the layouts' own
templates. Also words the tables `::: deal` and `::: components` insert, counted from the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from jinja2 import TemplateSyntaxError

from .. import printed
from ..i18n import _
from ..model import Deck, Game, alike_of_group, group_label, name_column, when_label
from ..problems import BuildError, SourceRef
from ..rulesource import DECK_FACTS_HELP, Block, DeckFacts, Section, context, dealing, parse, runs
from ..typeset import set_digits
from . import templates


@dataclass
class Rulebook:
    """The rules source rendered: its blocks, the summary's sections and the text."""

    title: str
    blocks: list[Block]
    summary: list[Section]
    text: str  # the rendered Markdown
    where: SourceRef
    summary_chosen: bool = False  # no part marked: the summary took the sections on play


# Private-use characters around each source line's number, so rendered lines can be traced back
# to the line of rules.md they came from (comments and loops shift lines otherwise).
_MARK_OPEN, _MARK_CLOSE = "\ue000", "\ue001"
_MARK = re.compile(f"{_MARK_OPEN}(\\d+){_MARK_CLOSE}")


def _render_marked(source: str, ctx: dict) -> tuple[str, list[int]]:
    """Rendered text and, for each rendered line, the source line it comes from."""
    marked = "\n".join(
        f"{_MARK_OPEN}{n}{_MARK_CLOSE}{line}" for n, line in enumerate(source.split("\n"), 1)
    )
    try:
        rendered = templates.render(templates.compiled(marked), ctx, False, len(marked))
    except TemplateSyntaxError:
        # A tag spanning lines has a mark inside it: render plainly, lines then approximate.
        rendered = templates.render(templates.compiled(source), ctx, False, len(source))
        return rendered, list(range(1, rendered.count("\n") + 2))
    lines, origin, last = [], [], 1
    for line in rendered.split("\n"):
        found = _MARK.search(line)
        if found:
            last = int(found.group(1))
        lines.append(_MARK.sub("", line))
        origin.append(last)
    return "\n".join(lines), origin


def render_source(game: Game) -> Rulebook:
    where = game.rules_where or SourceRef("rules")
    try:
        text, origin = _render_marked(game.rules_source or "", context(game))
    except TemplateSyntaxError as exc:
        raise BuildError(
            _("template error: {error}", error=exc.message), where.at(row=exc.lineno)
        ) from None
    except Exception as exc:  # noqa: BLE001 - rules.md is the designer's code: any error is theirs
        line = _error_line(exc)
        message = templates.failure(exc)
        message = message.replace(f"'{DeckFacts.__module__}.DeckFacts object'", DECK_FACTS_HELP)
        raise BuildError(_("rules template: {error}", error=message), where.at(row=line)) from None
    blocks, summary = parse(text, where, origin)
    blocks += provisional_blocks(game)  # what is still provisional, listed at the end
    blocks, summary = _digits(blocks, summary, game.manifest.digits)
    title = next((b.text for b in blocks if b.kind == "heading" and b.level == 1), game.title)
    chosen = not summary
    if chosen:
        summary = play_sections(blocks)
    return Rulebook(title, blocks, summary, text, where, chosen)


# The sections a summary holds when the rules mark none: setup, the turn, the end and scoring.
_ON_PLAY = re.compile(
    r"準備|セットアップ|流れ|進行|手番|ターン|ラウンド|終了|勝利|得点|"
    r"\b(?:set-?up|turns?|rounds?|game ?play|how to play|end|scoring|winning)\b",
    re.I,
)


def play_sections(blocks: list[Block]) -> list[Section]:
    """With no part marked for the summary: each level-2 section whose heading names setup,
    the turn, the end or scoring (準備, ゲームの流れ, ゲームの終了…), to its next heading of that
    level, as the designer wrote it (not what the tool added)."""
    out: list[Section] = []
    current = None
    for b in blocks:
        if b.kind == "heading" and b.level <= 2:
            current = None
            if b.level == 2 and not b.added and _ON_PLAY.search(b.plain):
                current = Section(b.plain)
                out.append(current)
        elif current is not None and not b.added:
            current.blocks.append(b)
    return out


def _error_line(exc: Exception) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def printed_text(book: Rulebook, game: Game) -> list[tuple[int, str, str]]:
    """Every string of the designer's the rulebook and summary print, with its source line and
    font role ("body", or "bold" for headings, table heads and **strong** runs): for the glyph
    check and the font subsets. Words the builders add (footers, headings) they register."""
    out = [(0, book.title, "bold")]

    italic = "italic" in game.manifest.fonts  # *emphasis* in its own face, else slanted

    def add(line: int, text: str, role: str) -> None:
        for run in runs(text):
            said = "italic" if run.em and italic and role == "body" else role
            out.append((line, run.text, "bold" if run.strong else said))

    for block in book.blocks:
        if block.kind == "directive" and block.text in {"deal", "components"}:
            block = directive_table(block, game)
        if block.kind == "table":
            for r, row in enumerate(block.items):
                for cell in row:
                    add(block.line, cell, "bold" if r == 0 else "body")
        elif block.kind in ("list", "olist"):
            for item in block.items:
                add(block.line, item, "body")
        elif block.kind != "directive":
            add(block.line, block.text, "bold" if block.kind == "heading" else "body")
    for s in book.summary:
        out.append((s.line or (s.blocks[0].line if s.blocks else 0), s.title, "bold"))
    return out


def directive_table(block: Block, game: Game) -> Block:
    """`::: deal` and `::: components` as tables counted from the data."""
    language = game.manifest.language

    def say(text: str, **fields) -> str:
        return printed.say(language, text, **fields)

    z = templates.zen if language == "ja" else str  # full-width digits are Japanese type
    if block.text == "deal":
        rows = [(say("人数"), say("配る枚数"), say("余り"))]

        def left(d: dict) -> str:
            """What is left: with cards removed first, it says how many; under each reading
            where the rules leave the count open."""
            shown = [
                say("{n}枚", n=z(r["left"]))
                + (say("（{n}枚抜く）", n=z(r["removed"])) if r["removed"] else "")
                for r in d["readings"]
            ]
            return "／".join(shown)

        def each(d: dict) -> str:
            counts = dict.fromkeys(r["each"] for r in d["readings"])  # the whole deck dealt out
            return "／".join(say("{n}枚", n=z(n)) for n in counts)  # can differ per reading

        rows += [(say("{n}人", n=z(d["players"])), each(d), left(d)) for d in dealing(game)]
        return Block("table", items=tuple(rows), line=block.line)
    rows = [(say("コンポーネント"), say("数"), say("内訳"))]
    decks = {d.id: d for d in game.decks}
    for comp in game.manifest.components:
        deck = decks.get(comp.id)
        if deck is None:  # a board
            count, detail = f"{z(1)}{printed.unit(language, comp.unit, 1)}", ""
        else:
            pieces = len(deck.cards) // comp.kind_of.per_piece
            count = f"{z(pieces)}{printed.unit(language, comp.unit, pieces)}"
            detail = breakdown(deck, language) if comp.kind_of.per_piece == 1 else ""
        if not comp.printed:
            detail = say("、").join(x for x in (detail, say("別途用意（印刷しません）")) if x)
        rows.append((comp.name, count, detail))
    return Block("table", items=tuple(rows), line=block.line)


def breakdown(deck: Deck, language: str = "ja") -> str:
    """'貪欲：８枚、瞋恚：８枚…', or per group: 'シード：１６枚（地：４枚、…）、ミニオン：…';
    a value is named by its column's label (`[component.labels]`: 「数字２：１４枚」) and a
    value still provisional (its rows' `provisional` column) is marked （仮）."""
    comp = deck.component.composition
    counter = deck.component.unit
    named = deck.component.labelled
    z = templates.zen if language == "ja" else str
    mark, comma = printed.say(language, PROVISIONAL), printed.say(language, "、")
    colon = printed.say(language, "：")

    def by(groups, column) -> str:
        per: dict = {}
        tentative: set = set()
        for card, n in groups:
            value = card.fields[column]
            per[value] = per.get(value, 0) + n
            if card.provisional:
                tentative.add(value)
        if all(n == 1 for n in per.values()) and not tentative:
            return ""  # one of each (map 1, 2, 3…): nothing to break down
        return comma.join(
            f"{z(named(column, v))}{mark if v in tentative else ''}{colon}{z(n)}"
            + printed.unit(language, counter, n)
            for v, n in per.items()
        )

    groups = comp.get("group")
    if not groups:
        # the composition's key, else the column that names the cards (ライフ ２０個、魔力 ５個)
        key = comp.get("key") or [c for c in [name_column(deck.component.columns)] if c]
        return by(deck.alike, key[0]) if key else ""
    parts = []
    for group in groups:
        when = group.get("when", {})
        taken = alike_of_group(deck, when)
        label = group_label(group) or when_label(when, named)
        key = group.get("key", [])
        detail = by(taken, key[0]) if key else ""
        inner = printed.say(language, "（{detail}）", detail=detail) if detail else ""
        n = sum(n for _card, n in taken)
        parts.append(f"{label}{colon}{z(n)}{printed.unit(language, counter, n)}{inner}")
    return comma.join(parts)


def _digits(blocks: list[Block], summary: list, mode: str):
    """Every block's digits as the project sets them (`[game] digits`), in the rulebook and
    the summary alike (the summary's sections hold the same blocks)."""
    if mode == "as-written":
        return blocks, summary

    def items(value):
        if isinstance(value, tuple):
            return tuple(items(v) for v in value)
        return set_digits(value, mode) if isinstance(value, str) else value

    done = {
        id(b): replace(b, text=set_digits(b.text, mode), items=items(b.items))
        if b.kind != "directive"
        else b
        for b in blocks
    }
    for section in summary:
        section.blocks = [done.get(id(b), b) for b in section.blocks]
    return [done[id(b)] for b in blocks], summary


PROVISIONAL = "（仮）"  # how a rulebook marks content the designer has not settled
FROM_DATA = "（データから作成）"  # under a table the tool counted from the data
ADDED_NOTE = (
    "灰色の部分は作者の原稿になく、pnp が補ったものです（データから作った表と一覧を含む）。"
)


PROVISIONAL_NOTE = "まだ決まっていない内容です（この一覧はデータの provisional 列から作成）。"


def provisional_blocks(game: Game) -> list[Block]:
    """The rulebook's closing list of what is still provisional, from the data: one item per
    reason and component, naming each card. Generated, and says so."""
    language = game.manifest.language
    comma = printed.say(language, "、")
    items = [
        printed.say(
            language,
            "{name}　{cards}：{reason}",
            name=deck.component.name,
            cards=comma.join(c.label() for c in cards),
            reason=reason,
        )
        for deck in game.decks
        for reason, cards in deck.provisional().items()
    ]
    if not items:
        return []
    return [
        Block("heading", printed.say(language, "仮の内容"), level=2, added=True),
        Block(
            "para",
            printed.say(
                language,
                "まだ決まっていない内容です（この一覧はデータの provisional 列から作成）。",
            ),
            added=True,
        ),
        Block("list", items=tuple(items), added=True),
    ]
