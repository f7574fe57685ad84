"""The rules source as data: Markdown blocks with their source lines, the facts a rules template
may read from the data (counts, values, dealing), and where a sentence of the rules is written.

Beside the model, so the rules engine reads what the designer wrote without Jinja, layout or
the renderer. Markdown is parsed by markdown-it-py (CommonMark plus tables), with the
designer's habit kept: every line of a paragraph is its own paragraph (a sentence a line), a line
starting 「・」 is a list item, `::: NAME ARGS` inserts a part counted from the data, and
`<!-- summary: TITLE -->` … `<!-- /summary -->` marks what goes into the one-page summary.
Inline `**bold**`, `*emphasis*` and `[links](…)` travel in the text as private-use marks (`runs()`
reads them): strong is STRONG…STRONG_END, emphasis EM…EM_END, a link LINK target LINK_TEXT text
LINK_END.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .i18n import _
from .model import Game
from .problems import BuildError, SourceRef
from .typeset import DESIGNER_MARKS, ruby_as_text, strip_ruby

DIRECTIVES = {"components", "deal", "samples"}

# Inline markup inside block text: strong on/off; a link's target, then its text.
STRONG, STRONG_END, LINK, LINK_END, LINK_TEXT = "\ue010", "\ue011", "\ue012", "\ue013", "\ue014"
EM, EM_END = "\ue015", "\ue016"
MARKS = STRONG + STRONG_END + LINK + LINK_END + LINK_TEXT + EM + EM_END
_MARKS = re.compile(f"{LINK}[^{LINK_TEXT}]*{LINK_TEXT}|[{MARKS}]")


@dataclass(frozen=True)
class Block:
    """One block of the rules source: a heading, paragraph, list, table or directive."""

    kind: str  # heading, para, list, olist, table, directive
    text: str = ""
    level: int = 0  # heading level; an ordered list's first number
    items: tuple = ()
    line: int = 0
    added: bool = False  # between <!-- added --> marks: not the designer's words
    quote: bool = False  # a paragraph of a blockquote (「> 注意：…」): set apart as a note
    depth: int = 0  # a list inside a list item: 1, and so on (indented that much more)

    @property
    def plain(self) -> str:
        return plain(self.text)


@dataclass
class Section:
    """A heading of the rules source and the blocks under it."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    line: int = 0  # where the part starts, when its first block does not say: its heading's


def plain(text: str) -> str:
    """Text without its inline marks and the designer's break marks: what a reader sees."""
    if text and "<" in text:
        text = DESIGNER_MARKS.sub("", text)
    return _MARKS.sub("", text) if text and any(m in text for m in MARKS) else text


def strip_marks(text: str) -> tuple[str, list[tuple[int, str]]]:
    """A marked text's plain text, and each mark with the plain position it stands at (a link's
    opening mark carries its target)."""
    bare: list[str] = []
    marks: list[tuple[int, str]] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == LINK:
            end = text.find(LINK_TEXT, i)
            end = len(text) - 1 if end < 0 else end
            marks.append((len(bare), text[i : end + 1]))
            i = end + 1
            continue
        if ch in MARKS:
            marks.append((len(bare), ch))
        else:
            bare.append(ch)
        i += 1
    return "".join(bare), marks


@dataclass(frozen=True)
class Run:
    """A stretch of inline text with one style (plain, bold, emphasised, a link)."""

    text: str
    strong: bool = False
    link: str | None = None
    em: bool = False


def runs(text: str) -> list[Run]:
    """A marked text as runs of one style each."""
    if not any(m in text for m in MARKS):
        return [Run(text)] if text else []
    out: list[Run] = []
    strong, em, link, buf, in_target = False, False, None, [], False
    for ch in text:
        if in_target:
            if ch == LINK_TEXT:
                link, in_target = "".join(buf), False
                buf = []
            else:
                buf.append(ch)
            continue
        if ch in MARKS:
            if buf:
                out.append(Run("".join(buf), strong, link, em))
                buf = []
            if ch in (STRONG, STRONG_END):
                strong = ch == STRONG
            elif ch in (EM, EM_END):
                em = ch == EM
            elif ch == LINK:
                in_target = True
            elif ch == LINK_END:
                link = None
        else:
            buf.append(ch)
    if buf:
        out.append(Run("".join(buf), strong, link, em))
    return out


def to_markdown(text: str) -> str:
    """A marked text written back as Markdown (for summary.md)."""
    text = ruby_as_text(text)
    if not any(m in text for m in MARKS):
        return text
    out = []
    for run in runs(text):
        piece = f"*{run.text}*" if run.em else run.text
        piece = f"**{piece}**" if run.strong else piece
        out.append(f"[{piece}]({run.link})" if run.link else piece)
    return "".join(out)


# --- parsing ---------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt

    # No setext headings or rules: in a text written a sentence a line, a "---" line under a
    # sentence is a line of dashes, not a command to make that sentence a heading.
    return MarkdownIt("commonmark").enable("table").disable(["lheading", "hr"])


_SUMMARY_OPEN = re.compile(r"^<!--\s*summary:\s*(.+?)\s*-->$")
_SUMMARY_CLOSE = re.compile(r"^<!--\s*/summary\s*-->$")
# What the designer did not write (a heading for structure, a note): marked so the rulebook
# prints it quietly apart and the comparison with the draft leaves it out.
_ADDED_OPEN = re.compile(r"^<!--\s*added\s*-->$")
_ADDED_CLOSE = re.compile(r"^<!--\s*/added\s*-->$")


def _source_lines(token) -> list[list]:
    """An inline token's children, one list per source line (split at soft and hard breaks)."""
    lines: list[list] = [[]]
    for child in token.children or ():
        if child.type in ("softbreak", "hardbreak"):
            lines.append([])
        else:
            lines[-1].append(child)
    return lines


def _inline(token) -> list[str]:
    """An inline token as its source lines, with inline marks."""
    out = []
    for children in _source_lines(token):
        line = []
        for child in children:
            kind = child.type
            if kind in ("text", "code_inline", "html_inline", "image"):
                line.append(child.content)
            elif kind == "strong_open":
                line.append(STRONG)
            elif kind == "strong_close":
                line.append(STRONG_END)
            elif kind == "em_open":
                line.append(EM)
            elif kind == "em_close":
                line.append(EM_END)
            elif kind == "link_open":
                line.append(f"{LINK}{child.attrs.get('href', '')}{LINK_TEXT}")
            elif kind == "link_close":
                line.append(LINK_END)
        out.append("".join(line).strip())
    return out


def _pictures(token) -> list[tuple[str, str] | None]:
    """For each source line of an inline token: (file, description) when the line is a picture
    alone (`![準備の図](setup.png)`), else None."""
    out = []
    for children in _source_lines(token):
        kids = [k for k in children if not (k.type == "text" and not k.content.strip())]
        alone = len(kids) == 1 and kids[0].type == "image"
        out.append((str(kids[0].attrs.get("src", "")), kids[0].content) if alone else None)
    return out


def parse(
    text: str, where: SourceRef, origin: list[int] | None = None
) -> tuple[list[Block], list[Section]]:
    """Blocks and summary sections; `origin[i]` is the source line of rendered line i+1."""
    blocks: list[Block] = []
    summary: list[Section] = []
    state = {"section": None, "open_line": 0, "quote": 0}
    pending: list[Block] = []  # list items being gathered into one list block

    def source_line(index: int) -> int:
        return origin[index] if origin and index < len(origin) else index + 1

    def emit(block: Block) -> None:
        if state.get("added"):
            block = replace(block, added=True)
        blocks.append(block)
        section = state["section"]
        if section is None:
            return
        # a heading that says the part's own title again, first in it, is not printed twice
        if not section.blocks and block.kind == "heading" and block.text == section.title:
            section.line = block.line
            return
        section.blocks.append(block)

    def flush() -> None:
        if pending and pending[0].kind == "table":
            rows = tuple(item.items for item in pending)
            emit(Block("table", items=rows, line=pending[0].line))
            pending.clear()
        if pending:
            first = pending[0]
            items = tuple(item.text for item in pending)
            emit(
                Block(
                    first.kind, items=items, level=first.level, line=first.line, depth=first.depth
                )
            )
            pending.clear()

    def item(kind: str, body: str, line: int, start: int = 1) -> None:
        depth = max(len(lists) - 1, 0)  # lists open around this one
        if pending and (pending[0].kind != kind or pending[0].depth != depth):
            flush()
        pending.append(Block(kind, body, level=start, line=line, depth=depth))

    def para_line(body: str, line: int) -> None:
        """One line of a paragraph: a 「・」 item, a directive, or a paragraph of its own."""
        if not body:
            return
        if body.startswith("・"):
            item("list", body[1:], line)
            return
        if body.startswith("|") and body.endswith("|") and len(body) > 1:
            # A table row without Markdown's |---| line under its header: still a table.
            cells = tuple(c.strip() for c in body.strip("|").split("|"))
            if not all(re.fullmatch(r":?-{2,}:?", plain(c)) for c in cells):
                if pending and pending[0].kind != "table":
                    flush()
                pending.append(Block("table", items=cells, line=line))
            return
        flush()
        if body.startswith(":::"):
            parts = plain(body)[3:].split()
            if not parts or parts[0] not in DIRECTIVES:
                raise BuildError(
                    _(
                        "unknown directive {name!r} (directives: {names})",
                        name=plain(body),
                        names=", ".join(sorted(DIRECTIVES)),
                    ),
                    where.at(row=line),
                )
            emit(Block("directive", parts[0], items=tuple(parts[1:]), line=line))
        else:
            emit(Block("para", body, line=line, quote=state["quote"] > 0))

    def comment(content: str, line: int) -> None:
        flush()  # a list before a summary mark belongs to the part it closes
        for raw in content.splitlines():
            stripped = raw.strip()
            if m := _SUMMARY_OPEN.match(stripped):
                if state["section"] is not None:
                    raise BuildError(
                        _(
                            "summary part opened again before '<!-- /summary -->' "
                            "closes the one opened on line {line}",
                            line=state["open_line"],
                        ),
                        where.at(row=line),
                    )
                state["section"], state["open_line"] = Section(m.group(1)), line
                summary.append(state["section"])
            elif _ADDED_OPEN.match(stripped):
                state["added"] = True
            elif _ADDED_CLOSE.match(stripped):
                state["added"] = False
            elif _SUMMARY_CLOSE.match(stripped):
                if state["section"] is None:
                    raise BuildError(
                        _("'<!-- /summary -->' without an opening '<!-- summary: TITLE -->'"),
                        where.at(row=line),
                    )
                state["section"] = None

    tokens = _markdown().parse(text)
    lists: list[tuple[str, int]] = []  # open lists: (kind, next number)
    in_item = 0
    row: list[str] = []
    table: list[tuple] = []
    table_line = 0
    item_first = False
    for i, token in enumerate(tokens):
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            start = int(token.attrs.get("start", 1)) if kind == "ordered_list_open" else 1
            lists.append(("olist" if kind == "ordered_list_open" else "list", start))
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            if not lists:
                flush()
        elif kind in ("blockquote_open", "blockquote_close"):
            flush()
            state["quote"] += 1 if kind == "blockquote_open" else -1
        elif kind == "list_item_open":
            in_item += 1
            item_first = True
        elif kind == "list_item_close":
            in_item -= 1
        elif kind == "heading_open":
            flush()
            inline = tokens[i + 1]
            body = _inline(inline)[0]
            level = int(token.tag[1])
            emit(Block("heading", body, level=level, line=source_line(token.map[0])))
        elif kind == "paragraph_open":
            inline = tokens[i + 1]
            first = token.map[0]
            pictures = _pictures(inline)
            for k, body in enumerate(_inline(inline)):
                line = source_line(first + k)
                if not in_item and k < len(pictures) and pictures[k]:
                    # a picture on a line of its own: a block (its description, its file)
                    flush()
                    src, alt = pictures[k]
                    emit(Block("image", alt, items=(src,), line=line))
                elif in_item and item_first and k == 0 and lists:
                    list_kind, number = lists[-1]
                    item(list_kind, body, line, number)
                    lists[-1] = (list_kind, number + 1)
                else:
                    para_line(body, line)
            item_first = False
        elif kind == "html_block" and token.content.lstrip().startswith("<!--"):
            comment(token.content, source_line(token.map[0]))
        elif kind == "html_block":  # raw HTML cannot print: its lines print as written
            for k, body in enumerate(token.content.splitlines()):
                para_line(body.strip(), source_line(token.map[0] + k))
        elif kind in ("code_block", "fence"):
            first = token.map[0] + (1 if kind == "fence" else 0)
            for k, body in enumerate(token.content.splitlines()):
                para_line(body.strip(), source_line(first + k))
        elif kind == "table_open":
            flush()
            table, table_line = [], source_line(token.map[0])
        elif kind == "tr_open":
            row = []
        elif kind in ("th_open", "td_open"):
            row.append(_inline(tokens[i + 1])[0])
        elif kind == "tr_close":
            table.append(tuple(row))
        elif kind == "table_close":
            emit(Block("table", items=tuple(table), line=table_line))
    flush()
    if state["section"] is not None:
        raise BuildError(
            _("summary part is never closed with '<!-- /summary -->'"),
            where.at(row=state["open_line"]),
        )
    return blocks, summary


# --- what a rules template may ask of the data ---------------------------------------------
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


DECK_FACTS_HELP = (
    "a component (it has count, name, copies, values(), min(), max(), per(), rows(), where())"
)


def dealing(
    game: Game, removed: dict[int, int] | None = None, deal: dict | None = None
) -> list[dict]:
    """Cards dealt per player count (manifest [deal], or `deal` given): the whole deck evenly
    (`all = true`), or `each` cards to every player; `removed` takes cards out first for some
    player counts."""
    deal = deal or game.manifest.deal
    if not deal:
        return []
    full = len(game.deck(deal["component"]).cards)
    lo, hi = game.manifest.players
    declared: dict[int, list[int]] = {}
    for removal in deal.get("remove", []):  # [[deal.remove]] in the manifest
        count = removal["count"]
        declared[removal["players"]] = list(count) if isinstance(count, list) else [count]
    out = []
    for n in range(lo, hi + 1):
        counts = [removed[n]] if removed and n in removed else declared.get(n, [0])
        readings = []
        for count in counts:
            total = full - count
            each = int(deal["each"]) if "each" in deal else total // n
            readings.append(
                {"removed": count, "total": total, "each": each, "left": total - each * n}
            )
        first = readings[0]
        out.append({"players": n, **first, "readings": readings})
    return out


def context(game: Game) -> dict:
    """The names a rules template reads: title, players, deal, setup_piles and one per deck."""
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


# --- where the rules say a sentence ----------------------------------------------------------
def find_line(source: str, sentence: str) -> int | None:
    """The line of the rules source that holds a sentence (for findings that quote the rules)."""
    for n, line in enumerate(source.splitlines(), start=1):
        if sentence and sentence in strip_ruby(line):
            return n
    return None


def rule_ref(game: Game, sentence: str) -> SourceRef | None:
    """Where the rules source says `sentence` (its line), or None when it does not say it."""
    line = find_line(game.rules_source or "", sentence) if sentence else None
    return game.rules_where.at(row=line) if line and game.rules_where else None


def rule_at(game: Game, sentence: str) -> SourceRef:
    """Where a finding about `sentence` points: its line, else the rules source, else the
    manifest."""
    return rule_ref(game, sentence) or game.rules_where or game.manifest.where


# --- numbers the rules state ----------------------------------------------------------------
_ZEN_TO_ASCII = str.maketrans("０１２３４５６７８９", "0123456789")


@dataclass(frozen=True)
class Rule:
    """A rule sentence found by its pattern: where it is, what it says, the numbers it states."""

    where: SourceRef
    text: str  # the sentence that matched, as the designer wrote it
    numbers: tuple[int, ...]


def find_rule(game: Game, pattern: str | re.Pattern) -> Rule | None:
    """The line of the rules source that matches `pattern` (see `rule_numbers`)."""
    found = _search(game.rules_source or "", pattern)
    if found is None:
        return None
    n, line, match = found
    where = (game.rules_where or game.manifest.where).at(row=n)
    return Rule(where, _sentence(line, match.start()), _numbers(match))


def rule_numbers(source: str, pattern: str | re.Pattern) -> tuple[int, ...] | None:
    """The numbers a rule sentence states, where `pattern` is the sentence with `{}` for each
    number and `…` for any words within the sentence, e.g. "１ラウンドは{}トリック" -> (6,) and
    "{}人…{}△と{}△を…(抜|除)" -> (3, 4, 3); None when no line says it. Digits may be full-width
    or not, as the designer types them. A compiled regular expression is taken as it is (its
    groups of digits are the numbers): the way to accept a sentence written in other words."""
    found = _search(source, pattern)
    return _numbers(found[2]) if found else None


def _regex(pattern: str | re.Pattern) -> re.Pattern:
    if isinstance(pattern, re.Pattern):
        return pattern
    gaps = [
        "[^。！？]*?".join(re.escape(p) for p in part.split("…")) for part in pattern.split("{}")
    ]
    return re.compile("([0-9０-９]+)".join(gaps))


def _search(source: str, pattern: str | re.Pattern) -> tuple[int, str, re.Match] | None:
    """(line number, line, match) of the first line matching `pattern`."""
    regex = _regex(pattern)
    for n, line in enumerate(source.splitlines(), start=1):
        line = strip_ruby(line)  # 「{煩悩|ぼんのう}カード」 reads as 煩悩カード
        if found := regex.search(line):
            return n, line, found
    return None


def _numbers(match: re.Match) -> tuple[int, ...]:
    digits = (g.translate(_ZEN_TO_ASCII) for g in match.groups() if g is not None)
    return tuple(int(g) for g in digits if g.isascii() and g.isdigit())


def _sentence(line: str, at: int) -> str:
    """The sentence of a line (ending in 。) that holds position `at`."""
    start = line.rfind("。", 0, at) + 1
    end = line.find("。", at)
    return line[start : end + 1 if end >= 0 else len(line)].strip()


def rule_number(game: Game, pattern: str | re.Pattern, what: str, like: str = "") -> int:
    """The one number a rule sentence of the game states; a clear error naming the sentence when
    the rules source no longer says it (the engine will not guess a rule number). `like`: the
    sentence to show for a regular expression (a pattern string shows itself, N for numbers)."""
    found = rule_numbers(game.rules_source or "", pattern)
    if not found:
        raise BuildError(
            _(
                "the rules engine reads {what} from a sentence like 「{shown}」, which "
                "the rules source does not say; write the number there",
                what=what,
                shown=shown(pattern, like),
            ),
            game.rules_where or game.manifest.where,
        )
    return found[0]


def shown(pattern: str | re.Pattern, like: str = "") -> str:
    """A pattern as a designer reads it: N for each number."""
    if like or isinstance(pattern, re.Pattern):
        return like or pattern.pattern
    return pattern.replace("{}", "N")


class Unstated(Exception):
    """A rules module's check reads a sentence the rules no longer say (see `stated`)."""

    def __init__(self, pattern: str | re.Pattern, what: str, like: str = ""):
        super().__init__(shown(pattern, like))
        self.shown, self.what = shown(pattern, like), what


def stated(game: Game, pattern: str | re.Pattern, what: str, like: str = "") -> Rule:
    """The rule sentence a module's check is about. When the rules no longer say it, the check
    stops here and the engine says so at the module (a warning: is the check still needed?),
    rather than the check passing in silence or asserting what the text once said."""
    rule = find_rule(game, pattern)
    if rule is None:
        raise Unstated(pattern, what, like)
    return rule
