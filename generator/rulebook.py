"""The rules source (Markdown with Jinja bound to the data) to blocks, and the summary cut from it.

Fed by the model (counts, values, dealing); feeds the renderer (rulebook.pdf, summary.pdf) and
output (summary.md). The Markdown is a small, Japanese-friendly subset:

- `#`..`####` headings; `- ` and `1. ` lists; `| a | b |` tables;
- every other non-blank line is its own paragraph (the designer writes one sentence a line);
- `::: components`, `::: deal`, `::: samples COMPONENT COLUMN` insert data-driven parts;
- `<!-- summary: TITLE -->` … `<!-- /summary -->` marks what goes into the one-page summary.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from jinja2 import TemplateError, TemplateSyntaxError

from .layout import templates
from .model import Deck, Game
from .problems import BuildError, Problem, SourceRef

DIRECTIVES = {"components", "deal", "samples"}


@dataclass(frozen=True)
class Block:
    kind: str  # heading, para, list, olist, table, directive
    text: str = ""
    level: int = 0
    items: tuple = ()
    line: int = 0


@dataclass
class Section:
    title: str
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Rulebook:
    title: str
    blocks: list[Block]
    summary: list[Section]
    text: str  # the rendered Markdown
    where: SourceRef


class DeckFacts:
    """What the rules source may ask of a deck, all counted from the data:
    `count`, `name`, `copies` (most copies of one card), `values('suit')`, `min('number')`,
    `max('number')`, `per('suit')` (cards per value) and `where('kind', 'シード')` (a part)."""

    def __init__(self, name: str, cards: tuple):
        self._cards = cards
        self.count = len(cards)
        self.name = name
        self.copies = max(Counter(c.where for c in cards).values(), default=0)

    def values(self, column: str) -> list:
        seen: dict = {}
        for card in self._cards:
            value = card.fields[column]
            if value not in ("", None):
                seen.setdefault(value, None)
        return list(seen)

    def min(self, column: str):
        return min(self.values(column))

    def max(self, column: str):
        return max(self.values(column))

    def per(self, column: str) -> int:
        """Cards per value of a column when every value has the same number; else the largest."""
        counts = Counter(
            c.fields[column] for c in self._cards if c.fields[column] not in ("", None)
        )
        return max(counts.values(), default=0)

    def rows(self) -> list[dict]:
        """Each distinct row (copies once), as its fields: for lists such as the skills."""
        seen, out = set(), []
        for card in self._cards:
            if card.where not in seen:
                seen.add(card.where)
                out.append({k: v for k, v in card.fields.items() if not k.startswith("_")})
        return out

    def where(self, column: str, value) -> DeckFacts:
        return DeckFacts(self.name, tuple(c for c in self._cards if c.fields.get(column) == value))


def dealing(game: Game, removed: dict[int, int] | None = None) -> list[dict]:
    """Cards dealt per player count (manifest [deal]): the whole deck evenly (`all = true`), or
    `each` cards to every player; `removed` takes cards out first for some player counts."""
    deal = game.manifest.deal
    if not deal:
        return []
    full = len(game.deck(deal["component"]).cards)
    lo, hi = game.manifest.players
    out = []
    for n in range(lo, hi + 1):
        total = full - (removed or {}).get(n, 0)
        each = int(deal["each"]) if "each" in deal else total // n
        out.append({"players": n, "each": each, "left": total - each * n, "total": total})
    return out


def context(game: Game) -> dict:
    lo, hi = game.manifest.players
    piles = game.manifest.setup.get("piles", {})
    ctx: dict = {
        "title": game.title,
        "players": {"min": lo, "max": hi},
        "deal": dealing(game),
        "setup_piles": piles.get("count"),
    }
    for deck in game.decks:
        ctx[deck.id] = DeckFacts(deck.component.name, deck.cards)
    return ctx


# Private-use characters around each source line's number, so rendered lines can be traced back
# to the line of rules.md they came from (comments and loops shift lines otherwise).
_MARK_OPEN, _MARK_CLOSE = "\ue000", "\ue001"
_MARK = re.compile(f"{_MARK_OPEN}(\\d+){_MARK_CLOSE}")


def _render_marked(source: str, ctx: dict) -> tuple[str, list[int]]:
    """Rendered text and, for each rendered line, the source line it comes from."""
    env = templates.environment()
    marked = "\n".join(
        f"{_MARK_OPEN}{n}{_MARK_CLOSE}{line}" for n, line in enumerate(source.split("\n"), 1)
    )
    try:
        rendered = env.from_string(marked).render(ctx)
    except TemplateSyntaxError:
        # A tag spanning lines has a mark inside it: render plainly, lines then approximate.
        rendered = env.from_string(source).render(ctx)
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
            [Problem("error", f"template error: {exc.message}", where.at(row=exc.lineno))]
        ) from None
    except TemplateError as exc:
        line = _error_line(exc)
        message = str(exc).replace(
            f"'{DeckFacts.__module__}.DeckFacts object'",
            "a component (it has count, name, copies, values(), min(), max(), per(), rows(), where())",
        )
        raise BuildError(
            [Problem("error", f"rules template: {message}", where.at(row=line))]
        ) from None
    blocks, summary = parse(text, where, origin)
    title = next((b.text for b in blocks if b.kind == "heading" and b.level == 1), game.title)
    return Rulebook(title, blocks, summary, text, where)


def _error_line(exc: Exception) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


_SUMMARY_OPEN = re.compile(r"^<!--\s*summary:\s*(.+?)\s*-->$")
_SUMMARY_CLOSE = re.compile(r"^<!--\s*/summary\s*-->$")
_OLIST = re.compile(r"^\d+[.)]\s+(.*)$")


def parse(
    text: str, where: SourceRef, origin: list[int] | None = None
) -> tuple[list[Block], list[Section]]:
    """Blocks and summary sections; `origin[i]` is the source line of rendered line i+1."""
    blocks: list[Block] = []
    summary: list[Section] = []
    open_section: Section | None = None
    open_line = 0
    pending: list[tuple[str, str, int]] = []  # list items or table rows being gathered

    def flush() -> None:
        if not pending:
            return
        kind = pending[0][0]
        block = Block(kind, items=tuple(p[1] for p in pending), line=pending[0][2])
        emit(block)
        pending.clear()

    def emit(block: Block) -> None:
        blocks.append(block)
        if open_section is not None:
            open_section.blocks.append(block)

    for i, raw in enumerate(text.splitlines()):
        n = origin[i] if origin and i < len(origin) else i + 1
        line = raw.strip()
        kind = None
        if line.startswith("- ") or line.startswith("・"):
            kind, body = "list", line[2:] if line.startswith("- ") else line[1:]
        elif _OLIST.match(line):
            kind, body = "olist", _OLIST.match(line).group(1)
        elif line.startswith("|") and line.endswith("|"):
            cells = tuple(c.strip() for c in line.strip("|").split("|"))
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells):
                continue  # the header separator row
            kind, body = "table", cells
        if pending and kind != pending[0][0]:
            flush()
        if kind:
            pending.append((kind, body, n))
            continue
        if not line:
            continue
        if m := _SUMMARY_OPEN.match(line):
            if open_section is not None:
                raise BuildError(
                    [
                        Problem(
                            "error",
                            f"summary part opened again before '<!-- /summary -->' "
                            f"closes the one opened on line {open_line}",
                            where.at(row=n),
                        )
                    ]
                )
            open_section, open_line = Section(m.group(1)), n
            summary.append(open_section)
        elif _SUMMARY_CLOSE.match(line):
            if open_section is None:
                raise BuildError(
                    [
                        Problem(
                            "error",
                            "'<!-- /summary -->' without an opening '<!-- summary: TITLE -->'",
                            where.at(row=n),
                        )
                    ]
                )
            open_section = None
        elif line.startswith("<!--"):
            continue
        elif m := re.match(r"^(#{1,4})\s+(.*)$", line):
            emit(Block("heading", m.group(2).strip(), level=len(m.group(1)), line=n))
        elif line.startswith(":::"):
            parts = line[3:].split()
            if not parts or parts[0] not in DIRECTIVES:
                raise BuildError(
                    [
                        Problem(
                            "error",
                            f"unknown directive {line!r} (directives: "
                            f"{', '.join(sorted(DIRECTIVES))})",
                            where.at(row=n),
                        )
                    ]
                )
            emit(Block("directive", parts[0], items=tuple(parts[1:]), line=n))
        else:
            emit(Block("para", line, line=n))
    flush()
    if open_section is not None:
        raise BuildError(
            [
                Problem(
                    "error",
                    "summary part is never closed with '<!-- /summary -->'",
                    where.at(row=open_line),
                )
            ]
        )
    return blocks, summary


def printed_text(book: Rulebook, game: Game) -> list[tuple[int, str, str]]:
    """Every string the rulebook and summary print, with its line and font role ("body" or
    "bold"): for the glyph check and the font subsets."""
    lo, hi = game.manifest.players
    out = [
        (0, book.title, "bold"),
        (0, f"{book.title} クイックリファレンス", "bold"),
        (0, f"{lo}〜{hi}人", "body"),
        (0, book.title, "body"),
    ]  # the footer
    for block in book.blocks:
        if block.kind == "directive" and block.text in {"deal", "components"}:
            block = directive_table(block, game)
        if block.kind == "table":
            out += [
                (block.line, cell, "bold" if r == 0 else "body")
                for r, row in enumerate(block.items)
                for cell in row
            ]
        elif block.kind in ("list", "olist"):
            out += [(block.line, item, "body") for item in block.items]
        elif block.kind != "directive":
            out.append((block.line, block.text, "bold" if block.kind == "heading" else "body"))
    out += [(s.blocks[0].line if s.blocks else 0, s.title, "bold") for s in book.summary]
    return out


def find_line(source: str, sentence: str) -> int | None:
    """The line of the rules source that holds a sentence (for findings that quote the rules)."""
    for n, line in enumerate(source.splitlines(), start=1):
        if sentence and sentence in line:
            return n
    return None


def rule_ref(game: Game, sentence: str) -> SourceRef | None:
    """Where the rules source says `sentence` (its line), or None when it does not say it."""
    line = find_line(game.rules_source or "", sentence) if sentence else None
    return game.rules_where.at(row=line) if line and game.rules_where else None


def rule_at(game: Game, sentence: str) -> SourceRef:
    """Where a finding about `sentence` points: its line, else the rules source, else the manifest."""
    return rule_ref(game, sentence) or game.rules_where or game.manifest.where


def summary_markdown(book: Rulebook, game: Game) -> str:
    lo, hi = game.manifest.players
    out = [f"# {book.title} クイックリファレンス", "", f"{lo}〜{hi}人", ""]
    for section in book.summary:
        out += [f"## {section.title}", ""]
        for block in section.blocks:
            out += [*_markdown(block, game), ""]
    return "\n".join(out).rstrip() + "\n"


def _markdown(block: Block, game: Game) -> list[str]:
    if block.kind == "heading":
        return ["#" * (block.level + 1) + " " + block.text]
    if block.kind == "list":
        return [f"- {item}" for item in block.items]
    if block.kind == "olist":
        return [f"{i}. {item}" for i, item in enumerate(block.items, 1)]
    if block.kind == "table":
        rows = [list(r) for r in block.items]
        return ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])] + [
            "| " + " | ".join(r) + " |" for r in rows[1:]
        ]
    if block.kind == "directive":
        return (
            _markdown(directive_table(block, game), game)
            if block.text in {"deal", "components"}
            else []
        )
    return [block.text]


def directive_table(block: Block, game: Game) -> Block:
    """`::: deal` and `::: components` as tables counted from the data."""
    if block.text == "deal":
        rows = [("人数", "配る枚数", "余り")]
        rows += [
            (
                f"{templates.zen(d['players'])}人",
                f"{templates.zen(d['each'])}枚",
                f"{templates.zen(d['left'])}枚",
            )
            for d in dealing(game)
        ]
        return Block("table", items=tuple(rows), line=block.line)
    rows = [("コンポーネント", "数", "内訳")]
    decks = {d.id: d for d in game.decks}
    for comp in game.manifest.components:
        deck = decks.get(comp.id)
        z = templates.zen
        if deck is None:  # a board
            count, detail = f"{z(1)}{comp.unit}", ""
        else:
            count, detail = f"{z(len(deck.cards))}{comp.unit}", breakdown(deck)
        if not comp.printed:
            detail = "、".join(x for x in (detail, "別途用意（印刷しません）") if x)
        rows.append((comp.name, count, detail))
    return Block("table", items=tuple(rows), line=block.line)


def breakdown(deck: Deck) -> str:
    """'貪欲 ８枚、瞋恚 ８枚…', or per group: 'シード １６枚（地 ４枚、…）、ミニオン …'."""
    comp = deck.component.composition
    unit = deck.component.unit
    z = templates.zen

    def by(cards, column) -> str:
        per: dict = {}
        for card in cards:
            per[card.fields[column]] = per.get(card.fields[column], 0) + 1
        if all(n == 1 for n in per.values()):
            return ""  # one of each (map 1, 2, 3…): nothing to break down
        return "、".join(f"{z(v)} {z(n)}{unit}" for v, n in per.items())

    groups = comp.get("group")
    if not groups:
        key = comp.get("key", [])
        return by(deck.cards, key[0]) if key else ""
    parts = []
    for group in groups:
        when = group.get("when", {})
        cards = [c for c in deck.cards if all(c.fields.get(k) == v for k, v in when.items())]
        label = group.get("label") or " ".join(str(v) for v in when.values())
        key = group.get("key", [])
        detail = by(cards, key[0]) if key else ""
        inner = f"（{detail}）" if detail else ""
        parts.append(f"{label} {z(len(cards))}{unit}{inner}")
    return "、".join(parts)
