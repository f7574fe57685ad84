"""Generic findings from the rules text against the data, for any game and without its rules
module: names the text uses that nothing defines, numbers the text writes that the data does
not hold, components and setup terms no later rule mentions, and what becomes of the cards a
deal leaves. Every finding names its line and goes away when the text or the data is fixed.

Reads the rules source as the designer wrote it, a line at a time: Jinja expressions (which the
rulebook fills from the data, so they always agree) stand as a mark that matches nothing,
comments go, ruby reads as its base and Markdown marks as plain text.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass

from ..i18n import _, listed
from ..model import Deck, Game
from ..problems import Problems, SourceRef
from ..typeset import strip_ruby

# Words a game's things end with: a name ending so is a thing the rules expect to be defined.
THINGS = ("カード", "トークン", "マーカー", "ボード", "タイル", "チップ", "キューブ", "ダイス")
QUANTIFIERS = "各全他別残同次前後両新旧計毎"  # 「各カード」: which cards, not a name
# A compound name whole: 「切り札カード」, not 「札カード」 (one kana inside, no particle)
_THING = re.compile(
    r"((?:[一-龥々]+[ぁ-ゖ](?<![をにがはでへとものやかよね])(?=[一-龥々]))*"
    r"[一-龥ァ-ヶー々Ａ-Ｚａ-ｚA-Za-z]+(?:" + "|".join(THINGS) + "))"
)
_QUOTED = re.compile(r"「([^「」。、\n]{1,12})」")
# 「ジョーカーを１枚」 placed or dealt: a thing counted into play, whatever its name ends with
_PLACED = re.compile(r"([ァ-ヶー]{3,}|[Ａ-Ｚａ-ｚA-Za-z]{3,})を\s*([0-9０-９]+|一)\s*(?:枚|個|つ)")
_PUTS = re.compile(r"置|配|加え|入れ|渡|並べ|混ぜ")
_HIRAGANA = re.compile(r"[ぁ-ゟ]$|[をでがはにへ]")  # a quoted phrase, not a name
_DEFINED = re.compile(r"「([^「」\n]{1,12})」\s*(?:と|として|という|と呼|を指)")
_NUMBER = "[0-9０-９]+"
# a size after its name: 「煩悩カード（４０枚）」「全４０枚」 (a bare 「１枚」 is an action)
_TOTAL = re.compile(
    rf"^\s*(?:[（(]\s*(?:全\s*)?|全\s*|[はが]\s*(?:全部で|全部|合計で?|計|総数)\s*)"
    rf"({_NUMBER})\s*(枚|個|本|台)"
)
_COUNT = re.compile(rf"^\s*[（(]?\s*(?:全\s*)?({_NUMBER})\s*(枚|個|本|台)")
# 「各スートに８枚」: a claim about the deck (「各プレイヤーに８枚ずつ」 is a deal and
# 「各２枚置く」 a placement, not one)
_EACH = re.compile(
    rf"各(?!自|人|プレイヤー)[^。！？、0-9０-９]{{1,6}}?({_NUMBER})\s*(枚|個)(?!\s*ずつ)"
)
# a range of card values (「１〜８」); 「１〜３枚引く」「３〜５人」 count something else
_RANGE = re.compile(
    rf"({_NUMBER})\s*[〜～~]\s*({_NUMBER})"
    r"(?!\s*(?:[0-9０-９人歳分秒枚個回点つ]|ラウンド|トリック|手番|マス|ターン))"
)
# "numbered 1 to 8", "values from 1 through 8" (not "1 to 3 players", "2 to 4 cards")
_EN_RANGE = re.compile(
    r"(?i)\b(?:numbered|numbers?|values?|ranks?|from)\s+(?:from\s+)?([0-9]+)\s*(?:to|through|–)\s*"
    r"([0-9]+)\b(?!\s*(?:players?|cards?|points?|turns?|rounds?|times|minutes|spaces|tokens))"
)
# 「４０枚の煩悩カード」: a count just before the name
_COUNT_BEFORE = re.compile(rf"({_NUMBER})\s*(枚|個)の\s*$")
# "all 40 cards", "the 40 Klesha cards", "40 cards" just before an English name
_EN_COUNT = re.compile(r"(?i)(?:\b(all|the|a total of)\s+)?\b([0-9]+)(?:\s+|-)$")  # "the 20-card"
_PER_PLAYER = re.compile(rf"({_NUMBER})\s*枚ずつ")
_PER = re.compile(r"\s*ずつ")
_REST = re.compile(
    r"残り|残った|余った|余り|使いません|使用しません|使わない|箱に戻|取り除|山札"
    r"|(?i:\bthe rest\b|\bremaining\b|\bleft over\b|\bnot used\b|\bback in(?:to)? the box"
    r"|\bdraw pile\b|\bdeck\b)"
)
_SETUP = re.compile(r"準備|セットアップ|[Ss]etup")
_CONTENTS = re.compile(r"コンポーネント|内容物|同梱物|[Cc]omponents")
_GLOSSARY = re.compile(r"用語|[Gg]lossary")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_COMMENTS = re.compile(r"\{#.*?#\}|<!--.*?-->", re.S)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# a sentence: Japanese ends at 。！？, English at . ! ? before a space (not 1.5 or e.g.x)
_SENTENCE = re.compile(r"(?:[^。！？.!?]|[.!?](?!\s|$))+(?:[。！？]|[.!?]+(?=\s|$))?")
_WORD_BEFORE = re.compile(r"[一-龥ァ-ヶー々Ａ-Ｚａ-ｚA-Za-z0-9０-９]+$")  # a name's first part
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
HOLE = "〓"  # what a Jinja expression reads as: matches no word and no number


@dataclass(frozen=True)
class Line:
    """One line of the rules source as the text checks read it."""

    n: int  # the line of the rules source
    text: str  # as a reader sees it, expressions as HOLE
    heading: int  # its level when the line is a heading, else 0
    path: tuple[str, ...]  # the headings it stands under, outermost first
    written: str = ""  # the same text with its expressions as written (「{{ card.count }}」)

    def sentences(self) -> list[tuple[str, str]]:
        """Each sentence as read (expressions as HOLE) and as written, side by side."""
        read, written = _SENTENCE.findall(self.text), _SENTENCE.findall(self.written)
        if len(read) != len(written):  # an expression holding 。: quote what is read
            written = read
        return list(zip(read, written))


def lines(game: Game) -> tuple[Line, ...]:
    """The rules source a line at a time, read once for all the checks that ask."""
    return _lines(game.rules_source or "")


@functools.lru_cache(maxsize=8)
def _lines(source: str) -> tuple[Line, ...]:
    def blank_out(m: re.Match) -> str:  # keep line numbers: a comment's newlines stay
        return "\n" * m.group(0).count("\n")

    source = _COMMENTS.sub(blank_out, source)
    written_lines = source.splitlines()
    source = _JINJA.sub(lambda m: HOLE + "\n" * m.group(0).count("\n"), source)
    out: list[Line] = []
    stack: list[tuple[int, str]] = []
    for n, raw in enumerate(source.splitlines(), start=1):
        text, written = (_plain(t) for t in (raw, written_lines[n - 1]))
        m = re.match(r"^(#{1,6})\s+(.*)$", text)
        level = 0
        if m:
            level, text = len(m.group(1)), m.group(2).strip()
            written = re.sub(r"^#{1,6}\s+", "", written).strip()
            while stack and stack[-1][0] >= level:
                stack.pop()
        else:  # a list item's marker (「1. 」「- 」) is no part of its sentence
            text, written = (_ITEM.sub("", t, count=1) for t in (text, written))
        path = tuple(title for _, title in stack)
        out.append(Line(n, text, level, path, written))
        if m:
            stack.append((level, text))
    return tuple(out)


def _plain(raw: str) -> str:
    """A source line as a reader sees it: ruby as its base, links as their text, no bold."""
    return _LINK.sub(r"\1", strip_ruby(raw)).replace("**", "").replace("__", "")


def _in(line: Line, pattern: re.Pattern) -> bool:
    return any(pattern.search(title) for title in line.path) or bool(
        line.heading and pattern.search(line.text)
    )


def _where(game: Game, n: int) -> SourceRef:
    return (game.rules_where or game.manifest.where).at(row=n)


def _short(name: str) -> str:
    """煩悩カード → 煩悩: how the text often says a component once it is known."""
    for word in THINGS:
        if name.endswith(word) and len(name) - len(word) >= 2:
            return name[: -len(word)]
    return name


def _words(name: str) -> set[str]:
    """Every way the text may say a name: 「ボード（六芒星）」 as itself, ボード and 六芒星."""
    words = {name, _short(name)}
    m = re.fullmatch(r"(.+?)\s*[（(](.+)[）)]", name)
    if m:
        for part in m.groups():
            words |= {part, _short(part)}
    return words


def _cell_values(game: Game) -> set[str]:
    values: set[str] = set()
    raw: set[str] = set()  # each distinct cell once: a deck's copies repeat their rows
    for deck in game.decks:
        values.update(deck.component.columns)
        for card, _n in deck.alike:
            raw.update(v for v in card.fields.values() if isinstance(v, str) and v)
    return values | {strip_ruby(value) for value in raw}


# --- names -------------------------------------------------------------------------------------


def _a_thing(term: str, components: set[str], known: set[str]) -> bool:
    """Whether a word ending in カード, トークン… names what the game has, in the rules or on a
    card alike: a component or one qualified (白い煩悩カード), a count (１枚以上カード), any
    card (各カード, 他のカード), or the cards of a value in the data (呪文カード: the 種類 呪文)."""
    core = term.lstrip(QUANTIFIERS)
    if term.startswith("枚") or core in THINGS or core in known:
        return True
    if any(term.endswith(c) and term != c for c in components):
        return True
    return any(term.endswith(t) and term[: -len(t)] in known for t in THINGS)


# "the Leader token", "a Sun card": a name in capitals before a kind of piece, in English
_EN_THING = re.compile(
    r"\b((?:[A-Z][a-z'-]+\s){1,2})(cards?|tokens?|markers?|boards?|tiles?|chips?|cubes?|dice|die"
    r"|coins?|counters?|pieces?)\b"
)


def _english_known(m: re.Match, components: set[str], lowered: set[str]) -> bool:
    """Whether "Leader token" names what the game has: a component ("Gold coins" when the
    component is Gold coins, or its name's words), or a value in the data ("Gold" on a card;
    `lowered`: the names the game knows, in lower case)."""
    name, term = m.group(1).strip(), m.group(0)
    if term.lower() in lowered or name.lower() in lowered:
        return True
    if any(_found(term, c) or _found(c, name) for c in components):
        return True
    return all(word.lower() in lowered for word in name.split())


def check_names(game: Game, problems: Problems) -> None:
    """Names the rules or the cards use that nothing defines: words ending in カード, トークン,
    マーカー… that are no component, and 「terms」 that are no component, no value in the data, no
    heading, not defined in the text (「X」として, 「X」と呼ぶ…) and not in a glossary section."""
    text = lines(game)
    components = {c.name for c in game.manifest.components}
    known = {w for n in components for w in _words(n)} | _cell_values(game)
    known |= {line.text for line in text if line.heading}
    known.add(game.title)
    for line in text:
        known.update(_DEFINED.findall(line.text))
        if _in(line, _GLOSSARY):  # 「term」：…, **term**：…, term：…
            head = re.split(r"[：:]", line.text.lstrip("-*・ 0123456789."), maxsplit=1)[0]
            known.add(head.strip("「」 "))
            known.update(_QUOTED.findall(line.text))
    names = listed(sorted(components))
    lowered = {k.lower() for k in known}
    seen: set[str] = set()
    for line in text:
        if line.heading:
            continue
        for term in _THING.findall(line.text):
            if _a_thing(term, components, known) or term in seen:
                continue
            seen.add(term)
            problems.warning(
                _(
                    "the rules name 「{term}」, which is no component of this game ({names})",
                    term=term,
                    names=names,
                ),
                _where(game, line.n),
            )
        for sentence in _SENTENCE.findall(line.text):  # "Put the Leader token in the middle"
            for m in _EN_THING.finditer(sentence.strip()):
                term = m.group(0)
                if m.start() == 0 or term in seen or _english_known(m, components, lowered):
                    continue
                seen.add(term)
                problems.warning(
                    _(
                        "the rules name 「{term}」, which is no component of this game ({names})",
                        term=term,
                        names=names,
                    ),
                    _where(game, line.n),
                )
        for m in _PLACED.finditer(line.text):  # 「ジョーカーを１枚、場の中央に置きます」
            term = m.group(1)
            if term in known or term in seen or term in THINGS or term.endswith("プレイヤー"):
                continue
            if not _PUTS.search(line.text[m.end() : m.end() + 24]):
                continue
            seen.add(term)
            problems.warning(
                _(
                    "the rules put 「{term}」 in play (「{said}」), but it is no component of "
                    "this game ({names})",
                    term=term,
                    said=m.group(0),
                    names=names,
                ),
                _where(game, line.n),
            )
        for term in _QUOTED.findall(line.text):
            if (
                _words(term) & known  # 「赤（商店街）」: a value and what it stands for
                or term in known
                or term in seen
                or HOLE in term
                or _HIRAGANA.search(term)  # a quoted phrase (「伏せた」), not a name
                or re.fullmatch(r"[\d０-９\s]+", term)
                or any(term in value for value in known if len(value) > len(term))
                or any(term.endswith(c) and term != c for c in components)  # as above
            ):
                continue
            seen.add(term)
            problems.warning(
                _(
                    "the rules use 「{term}」 as a name, but nothing defines it: no component, "
                    "no value in the data, no heading, no sentence that says what it is "
                    "(「{term}」とします), no glossary entry",
                    term=term,
                ),
                _where(game, line.n),
            )
    looked: set[tuple[str, str]] = set()  # a cell's text read once, at its first card
    for deck in game.decks:
        for card, _n in deck.alike:  # a card's first of its kind: where its text is first
            for column, value in card.fields.items():
                text_cell = isinstance(value, str) and not column.startswith("_")
                if not text_cell or (column, value) in looked:
                    continue
                looked.add((column, value))
                for term in _THING.findall(strip_ruby(value)):
                    if _a_thing(term, components, known) or term in seen:
                        continue
                    seen.add(term)
                    problems.warning(
                        _(
                            "{card} names 「{term}」, which is no component of this game ({names})",
                            card=card.label(),
                            term=term,
                            names=names,
                        ),
                        card.where.at(column=column),
                    )


# --- numbers -----------------------------------------------------------------------------------


def named_in(sentence: str, items, name_of) -> list[tuple[object, str, str]]:
    """The items whose name the sentence holds on its own, longest first, each with the text
    before and after it: 「初期カード」 names 初期カード, not also the deck called カード inside
    its name."""
    out, masked = [], sentence
    for item in sorted(items, key=lambda i: -len(name_of(i))):
        found = _found(masked, name_of(item))
        if found is None:
            continue
        at, end = found
        out.append((item, sentence[:at], sentence[end:]))
        masked = masked[:at] + "\0" * (end - at) + masked[end:]
    return out


def _found(text: str, name: str) -> tuple[int, int] | None:
    """Where the text says a name (start, end): Japanese as written; a name in Latin letters
    as a word, in any case, one or many (「Cards」 in "deal the cards", "draw a card")."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z' -]*", name):
        at = text.find(name)
        return None if at < 0 else (at, at + len(name))
    stem = re.escape(name.lower().removesuffix("s"))
    m = re.search(rf"\b{stem}(?:e?s)?\b", text.lower())
    return None if m is None else m.span()


def _int_columns(deck: Deck) -> dict[str, tuple[int, int]]:
    """Each whole-number column's (least, most) over the deck."""
    out = {}
    copies = deck.component.copies_column
    for column, kind in deck.component.columns.items():
        if kind != "int" or column == copies:
            continue
        values = [v for v in deck.values(column) if isinstance(v, int)]
        if values:
            out[column] = (min(values), max(values))
    return out


def _groups(deck: Deck) -> dict[str, Counter]:
    """For each column, how many cards have each value."""
    out: dict[str, Counter] = {}
    for column in deck.component.columns:
        if column == deck.component.copies_column:
            continue
        counts: Counter = Counter()
        for card, n in deck.alike:
            counts[card.fields.get(column)] += n
        out[column] = counts
    return out


def _column_ranges(
    game: Game, line: Line, sentence: str, problems: Problems, ints: dict[str, dict]
) -> set[int]:
    """A range written after a whole-number column's name (「コスト１〜５」) against that
    column's least and most in the data, whether or not the sentence names the component; the
    ranges it read, by where they start in the sentence. `ints`: each deck's _int_columns, by
    its id."""
    # where a range starts -> (the range, its column, each deck's least and most of it)
    found: dict[int, tuple[re.Match, str, list]] = {}
    for deck in game.decks:
        for column, (least, most) in ints[deck.id].items():
            for m in re.finditer(re.escape(column) + r"\s*[はがの:：]?\s*", sentence):
                r = _RANGE.match(sentence, m.end())
                if r is not None:
                    found.setdefault(r.start(), (r, column, []))[2].append((deck, least, most))
    for r, column, spans in found.values():
        said = (int(r.group(1)), int(r.group(2)))
        if any((least, most) == said for _deck, least, most in spans):
            continue  # the column of one of the components that have it
        deck, least, most = spans[0]
        problems.warning(
            _(
                "「{sentence}」 says {column} {lo}〜{hi}, but {column} runs {least}–{most} in "
                "the data ({name})",
                sentence=sentence.strip(),
                column=column,
                lo=r.group(1),
                hi=r.group(2),
                least=least,
                most=most,
                name=deck.component.name,
            ),
            _where(game, line.n),
        )
    return set(found)


def check_numbers(game: Game, problems: Problems) -> None:
    """Numbers the text writes about a component against its data, wherever they are written:
    a count after its name (「煩悩カード（４０枚）」), 「各８枚」 in a sentence naming it, a range
    (「１〜８」) in a sentence naming it, and the cards dealt each player (「６枚ずつ」) against
    the manifest's [deal]."""
    text = lines(game)
    decks = game.decks
    deal = game.manifest.deal or {}
    # Each deck's columns walked once for the whole text, not once per sentence.
    ints = {deck.id: _int_columns(deck) for deck in decks}
    groups_of = {deck.id: _groups(deck) for deck in decks}
    for line in text:
        for sentence in _SENTENCE.findall(line.text):
            said = named_in(sentence, decks, lambda d: d.component.name)
            named = [deck for deck, _before, _after in said]
            ranged = _column_ranges(game, line, sentence, problems, ints)
            for deck, before, after in said:
                name = deck.component.name
                # a size: in parentheses or 全, or any count in a heading or the list of
                # components; it may be per player or per colour (a column's groups)
                listing = bool(line.heading) or _in(line, _CONTENTS)
                m = (_COUNT if listing else _TOTAL).match(after)
                groups = groups_of[deck.id]
                sizes = {len(deck.cards)} | {
                    n for g in groups.values() if len(set(g.values())) == 1 for n in g.values()
                }
                said_name, n = name, len(deck.cards)
                # 「コイントークン ２０個」: the tokens whose value is コイン, when a column has it
                word = _WORD_BEFORE.search(before)
                kinds = (
                    [g[word.group(0)] for g in groups.values() if word.group(0) in g]
                    if word
                    else []
                )
                if kinds:
                    sizes, said_name, n = set(kinds), word.group(0) + name, kinds[0]
                count = (m.group(1), m.group(2)) if m else None
                if m is None:
                    # 「カード４０枚をシャッフル」: a bare count may be of the cards an action
                    # takes (「カード１枚を引く」), but never more than there are
                    bare = _COUNT.match(after)
                    if bare and not _PER.match(after, bare.end()) and int(bare.group(1)) > n:
                        count = (bare.group(1), bare.group(2))
                if count is None and (ahead := _COUNT_BEFORE.search(before)):
                    # 「１２枚の数字カードを混ぜ」: never more than there are
                    if int(ahead.group(1)) > n:
                        count = (ahead.group(1), ahead.group(2))
                if count is None and (english := _EN_COUNT.search(before)):
                    # "all 40 cards", "the 40 cards": the deck's size; "draw 2 cards": at most
                    if english.group(1) or int(english.group(2)) > n:
                        count = (english.group(2), "")
                if count and int(count[0]) not in sizes:
                    problems.warning(
                        _(
                            "the rules say {name} {said}{unit}, but the data has {n}",
                            name=said_name,
                            said=count[0],
                            unit=count[1],
                            n=n,
                        )
                        if count[1]
                        else _(
                            "the rules say {said} {name}, but the data has {n}",
                            name=said_name,
                            said=count[0],
                            n=n,
                        ),
                        _where(game, line.n),
                    )
            for deck in named[:1]:  # the longest name the sentence holds: its subject
                for m in _EACH.finditer(sentence):
                    each = int(m.group(1))
                    groups = groups_of[deck.id]
                    if any(
                        len(set(g.values())) == 1 and each in g.values() for g in groups.values()
                    ):
                        continue
                    sizes = "; ".join(
                        f"{column}: " + listed(f"{v} {n}" for v, n in g.items())
                        for column, g in groups.items()
                        if 1 < len(g) <= 12
                    )
                    problems.warning(
                        _(
                            "「{sentence}」 says {each} each, but no column of {name} has {each} "
                            "cards of each value ({sizes})",
                            sentence=sentence.strip(),
                            each=m.group(1),
                            name=deck.component.name,
                            sizes=sizes or _("no column groups the cards"),
                        ),
                        _where(game, line.n),
                    )
                for m in [*_RANGE.finditer(sentence), *_EN_RANGE.finditer(sentence)]:
                    lo, hi = int(m.group(1)), int(m.group(2))
                    ranges = ints[deck.id]
                    if not ranges or (lo, hi) in ranges.values() or m.start() in ranged:
                        continue
                    problems.warning(
                        _(
                            "「{sentence}」 says {range}, but {name} runs {ranges} in the data",
                            sentence=sentence.strip(),
                            range=m.string[m.start(1) : m.end(2)],  # １〜９, 1 to 9: as written
                            name=deck.component.name,
                            ranges=_(", ").join(f"{c} {a}–{b}" for c, (a, b) in ranges.items()),
                        ),
                        _where(game, line.n),
                    )
            if "each" in deal and "配" in sentence:
                for m in _PER_PLAYER.finditer(sentence):
                    if int(m.group(1)) != int(deal["each"]):
                        problems.warning(
                            _(
                                "「{sentence}」 deals {said} each, but game.toml's [deal] deals "
                                "{each}",
                                sentence=sentence.strip(),
                                said=m.group(1),
                                each=deal["each"],
                            ),
                            _where(game, line.n),
                        )


# --- what no later rule mentions ---------------------------------------------------------------


def check_unmentioned(game: Game, problems: Problems) -> None:
    """A component no rule mentions outside the list of components, and a 「term」 that setup
    introduces but no rule after setup uses: a part of the game the rules never put to work."""
    text = [line for line in lines(game) if not line.text.lstrip().startswith(":::")]
    if not text:
        return
    body = [line for line in text if not _in(line, _CONTENTS)]
    for component in game.manifest.components:
        words = _words(component.name)
        if any(_found(line.text, w) for line in body for w in words):
            continue
        listed = next((line for line in text if component.name in line.text), None)
        problems.warning(
            _(
                "{name} is a component, but no rule outside the list of components mentions it",
                name=component.name,
            ),
            _where(game, listed.n) if listed else component.where,
        )
    setup = [line for line in text if _in(line, _SETUP)]
    if not setup:
        return
    last = setup[-1].n
    later = "\n".join(line.text for line in text if line.n > last)
    seen: set[str] = set()
    parts = {w for c in game.manifest.components for w in _words(c.name)}
    for line in setup:  # 「得点ボードを置きます」 too: a thing set out that nothing uses
        things = [  # a component has its own check above
            t
            for t in _THING.findall(line.text)
            if t.lstrip(QUANTIFIERS) not in THINGS and not _words(t) & parts
        ]
        for term in things:
            words = _words(term)
            if term in seen or any(w in later for w in words):
                continue
            seen.add(term)
            problems.warning(
                _("setup puts out 「{term}」, but no rule after setup uses it", term=term),
                _where(game, line.n),
            )
        for term in _QUOTED.findall(line.text):
            if term in seen or HOLE in term or _HIRAGANA.search(term):
                continue
            seen.add(term)
            if term not in later:
                problems.warning(
                    _(
                        "setup introduces 「{term}」, but no rule after setup uses it",
                        term=term,
                    ),
                    _where(game, line.n),
                )


# --- the rest of a deal ------------------------------------------------------------------------


# 「各プレイヤーに５枚ずつ配ります」「それぞれ７枚配る」: a deal of so many cards to each player
_DEALS_EACH = re.compile(
    rf"(?:({_NUMBER})\s*枚ずつ|(?:各プレイヤー|全員|それぞれ|各自|各人|[1１一]人)[^。！？]{{0,12}}?"
    rf"({_NUMBER})\s*枚)"
)


# how many, in digits or words ("deal seven cards")
_EN_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_EN_WORDS += ("eleven", "twelve")
_EN_N = rf"([0-9]+|{'|'.join(_EN_WORDS)})"
_EN_EACH = r"(?:each|every)(?:\s+player|one)?|everyone|everybody"
# "deal 5 cards to each player", "deal each player 5", "each player is dealt 5 cards", "give
# each player a hand of 5", "each player starts with five cards", "players start with 5 each"
_EN_DEALS_EACH = re.compile(
    rf"(?i)\b(?:deal|give)(?:s|t)?\s+(?:out\s+)?{_EN_N}\s+(?:[a-z'-]+\s+){{0,2}}?(?:to\s+)?"
    rf"(?:{_EN_EACH})\b"
    rf"|\b(?:deal|give)(?:s|t)?\s+(?:{_EN_EACH})\s+(?:a\s+hand\s+of\s+)?{_EN_N}\b"
    r"|\b(?:each|every)\s+player\s+(?:is\s+dealt|gets|receives|takes|draws|(?:starts|begins)"
    rf"(?:\s+the\s+game)?\s+with)\s+(?:a\s+hand\s+of\s+)?{_EN_N}\b"
    rf"|\b(?:players|everyone)\s+(?:start|begin)s?(?:\s+the\s+game)?\s+with\s+{_EN_N}\b"
)


def _en_int(said: str) -> int:
    """A count as written: digits (full-width too) or an English word ("seven")."""
    word = said.lower()
    return _EN_WORDS.index(word) + 1 if word in _EN_WORDS else int(said)


# at setup, drawing, taking or starting with cards deals them too
_EN_TAKES = re.compile(r"(?i)\b(?:draws?|takes?|starts?|begins?|gives?)\b")
# "deal all the cards out evenly", "deal out the whole deck"
_EN_EVENLY = re.compile(
    r"(?i)\bdeal(?:s|t)?\s+(?:out\s+)?(?:all|every|the\s+whole|the\s+entire)\b"
    r"|\bdeal(?:s|t)?\b.*\b(?:evenly|equally)\b"
)
_EN_DEAL = re.compile(r"(?i)\bdeal(?:s|t)?\b|\bis dealt\b|\beach player (?:gets|receives)\b")


_TAKES = re.compile(r"受け取|もらい|引き(?:ます|、)")


def deal_in_text(game: Game) -> dict | None:
    """The deal a game with no [deal] in game.toml describes in its rules: the first sentence
    of setup (or anywhere, lacking a setup section) that deals so many cards to each player,
    of the card component it names (or the game's only one): {component, each, rule}."""
    cards = [c for c in game.manifest.components if c.kind == "card"]
    if not cards:
        return None
    text = lines(game)
    setup = [line for line in text if _in(line, _SETUP)]
    for line in setup or text:
        for sentence, written in line.sentences():
            # at setup, 「それぞれ５枚を受け取ります」「各自５枚引きます」 deal too
            if "配" in sentence or (setup and _TAKES.search(sentence)):
                m = _DEALS_EACH.search(sentence)
                evenly = m is None and _EVENLY.search(sentence)  # 「均等に配り切ります」: all
            elif _EN_DEAL.search(sentence) or (setup and _EN_TAKES.search(sentence)):
                m = _EN_DEALS_EACH.search(sentence)
                evenly = m is None and _EN_EVENLY.search(sentence)
            else:
                continue
            if not evenly and (m is None or HOLE in sentence[max(m.start() - 1, 0) : m.end() + 1]):
                continue  # 「〓枚ずつ」: how many is the data's, not written
            named = [c for c, *_ in named_in(sentence, cards, lambda c: c.name)]
            if len(named) > 1 or (not named and len(cards) > 1):
                continue  # which deck it deals is not clear
            deal = {"component": (named or cards)[0].id, "rule": written.strip()}
            if evenly:
                return deal | {"all": True}
            return deal | {"each": _en_int(next(g for g in m.groups() if g))}
    return None


def rest_sentence(game: Game, rule: str) -> tuple[str, int] | None:
    """The sentence that says what becomes of the cards a deal leaves (「残りのカードは使いま
    せん」): in the deal rule's line or the lines of the same section after it."""
    text = lines(game)
    start = next((line for line in text if rule and rule in line.written), None)
    if start is None:
        return None
    for line in text:
        if line.n < start.n or line.path != start.path or line.heading:
            continue
        for _sentence, written in line.sentences():
            said = written.strip()
            if said == rule and not re.search(r"残り|余|(?i:\bthe rest\b|\bremaining\b)", said):
                continue  # 「山札から６枚ずつ配ります」: where the deal comes from, not the rest
            if said and _REST.search(said):
                return said, line.n
        if line.n > start.n + 6:
            break
    return None


# --- what the rules say that cannot hold -------------------------------------------------------

# 「同じ色のカードを１０枚以上集めたら」: a count of cards that share a value, at least N
_SAME = re.compile(
    rf"(?:同じ([^\s、。をのがは]{{1,6}})の|同(色|スート|数字|種類|マーク)の?)[^。、を]{{0,10}}?[をが]?"
    rf"\s*({_NUMBER})\s*(枚|個)\s*(?:以上|集め|揃え|そろえ|揃っ|そろっ|揃う|そろう|集ま)"
)
# "6 cards of the same colour", "six cards of one suit", "5 cards that share a number"
_EN_SAME = re.compile(
    rf"(?i)\b{_EN_N}\s+(?:[a-z]+\s+)?cards?\s+(?:of|in|with|that\s+share|sharing)\s+"
    r"(?:the\s+same|one|a\s+single|a)\s+(colou?r|suit|number|kind|type|rank|value)\b"
)
# The words a text uses for a column that is written otherwise (a header in English)
COLUMN_WORDS = {
    "色": ("color", "colour", "色", "カラー"),
    "数字": ("number", "数字", "数", "rank", "value"),
    "スート": ("suit", "スート", "マーク"),
    "種類": ("kind", "type", "種類", "タイプ"),
}
# 「最も得点の多いプレイヤーの勝ち」: a winner by the most or the fewest of something
_MOST = re.compile(
    r"(?:(?:最も|もっとも|一番|いちばん)[^。！？]{0,16}?"
    r"(?:多い|多く|少ない|少なく|高い|高く|低い|低く|大きい|大きく|小さい|小さく)"
    r"|最多|最少|最高|最低|最大|最小)"
    r"[^。！？]{0,24}?(?:勝ち|勝者|勝利|優勝)"
)
_TIE = re.compile(
    r"同点|引き分け|同値|同数|タイ(?!ル|ミング|プ|ム)|並んだ|並ぶ|"
    r"複数(?:いる|いた|いれ|の場合)|同じ(?:点|得点|枚数|なら|場合)"
    r"|(?i:\bties?\b|\btied\b|\btie-?break|\b(?:is|in) a draw\b|\bequal\b)"
)
# "the player with the most gold wins", "the winner is whoever has the fewest cards"
_EN_MOST = re.compile(
    r"(?i)\b(?:most|fewest|least|highest|lowest|greatest|largest|smallest)\b[^.!?]{0,40}?"
    r"\b(?:wins?|winner|victory|victorious)\b"
    r"|\b(?:wins?|winner)\b[^.!?]{0,40}?\b(?:most|fewest|least|highest|lowest|greatest)\b"
)
_WINS = re.compile(r"勝|(?i:\bwins?\b|\bwinner|\bvictor(?:y|ious)\b)")
# a rule for ties on its own: "ties are broken by…", "in case of a tie", "if still tied"
_TIE_RULE = re.compile(
    r"(?i)\bties?\s+(?:are|is)\s+broken\b|\btie-?break|\bin\s+(?:the\s+)?case\s+of\s+a\s+tie\b"
    r"|\bif\s+(?:still\s+|two\s+or\s+more\s+players\s+are\s+|players\s+are\s+)?tied\b"
)
# 「１回の手番で出せるカードは１枚だけ」: a limit on how many of something one action takes
_LIMIT = re.compile(rf"({_NUMBER})\s*(枚|回|個|つ)\s*(?:だけ|まで|しか)")
_AMOUNT = re.compile(rf"({_NUMBER})\s*(枚|回|個|つ)")
_VERBS = ("出", "引", "置", "捨", "使", "取")  # what a limit is on: 出せる, 引く…
_EXCEPTION = re.compile(
    r"^\s*(?:ただし|但し|例外)|除き|を除いて|場合に限り"
    r"|(?i:^\s*however\b|\bexcept\b|\bunless\b|\bexception\b)"
)
# English: "you may play only one card", "draw at most 2 cards", "up to 3 times"; the verb is
# the last one before the count, and stands for its Japanese one (play 出, draw 引…)
_EN_VERB = re.compile(r"(?i)\b(play|draw|place|put|discard|use|take)(?:s|ed|ing)?\b")
_EN_VERBS = {"play": "出", "draw": "引", "place": "置", "put": "置", "discard": "捨", "use": "使"}
# a count of something no card is: "up to 4 players", "play three rounds"
_EN_NOT_CARDS = (
    r"(?!\s+(?:more\s+)?(?:rounds?|turns?|players?|points?|games?|minutes?|seconds?|years?)\b)"
)
_EN_LIMIT = re.compile(
    rf"(?i)\b(?:only|at\s+most|up\s+to|no\s+more\s+than|a\s+maximum\s+of)\s+{_EN_N}\b"
    + _EN_NOT_CARDS
)
_EN_AMOUNT = re.compile(rf"(?i)\b{_EN_N}\b" + _EN_NOT_CARDS)
_EVENLY = re.compile(
    r"均等に[^。！？]{0,6}配|配り切|(?:すべて|全て|全部)の?カード[^。！？]{0,12}配"
    r"|同じ(?:枚数|数)ずつ[^。！？]{0,6}配"
)


_COLUMN_KEY = {w: key for key, said in COLUMN_WORDS.items() for w in said}  # colour → 色


def _en_verb(sentence: str, before: int) -> str | None:
    """The action an English count is of: the last verb before it, as its Japanese one."""
    verbs = [m.group(1).lower() for m in _EN_VERB.finditer(sentence, 0, before)]
    return _EN_VERBS.get(verbs[-1], "取") if verbs else None


def _verb(sentence: str, after: int) -> str | None:
    """The action a count in a sentence is of: the first of 出, 引… after it."""
    found = [(sentence.find(v, after), v) for v in _VERBS if sentence.find(v, after) >= 0]
    return min(found)[1] if found else None


def _names(deck: Deck, column: str, word: str) -> bool:
    """Whether a text's word names a column of the deck: its header or label, or a word the
    text uses for it (色 for color, 数字 for number)."""
    labels = (column.lower(), str(deck.component.labels.get(column, "")).replace("{}", ""))
    return any(a in labels for a in (word, *COLUMN_WORDS.get(word, ())))


def _groups_of(deck: Deck, word: str) -> tuple[str, Counter] | None:
    """The column of the deck a text's word names (色 → color), with its values' counts."""
    for column in (c for c in deck.columns if not c.startswith("_")):
        if _names(deck, column, word):
            return column, Counter(str(card.fields.get(column)) for card in deck.cards)
    return None


def check_unreachable(game: Game, problems: Problems) -> None:
    """A count the rules wait for that the deck cannot make: 「同じ色のカードを１０枚以上」 when
    each colour has 9. Quotes the sentence and the data's counts."""
    cards = [d for d in game.decks if d.component.kind == "card"] or list(game.decks)
    if not cards:
        return
    for line in lines(game):
        if line.heading:
            continue
        for sentence, written in line.sentences():
            said = [
                (m.group(0), m.group(1) or m.group(2), int(m.group(3)))
                for m in _SAME.finditer(sentence)
            ]
            said += [
                (m.group(0), m.group(2).lower(), _en_int(m.group(1)))
                for m in _EN_SAME.finditer(sentence)
            ]
            for words, word, need in said:
                if HOLE in words:
                    continue
                named = [d for d, *_ in named_in(sentence, cards, lambda d: d.component.name)]
                for deck in named or cards:
                    found = _groups_of(deck, _COLUMN_KEY.get(word, word))
                    if found is None:
                        continue
                    column, counts = found
                    most = max(counts.values(), default=0)
                    if need <= most:
                        continue
                    shown = listed(f"{v} {n}" for v, n in counts.most_common(6))
                    problems.warning(
                        _(
                            "「{rule}」 can never happen: no {word} has {need} {name} "
                            "(the data's {column}: {counts}); the most is {most}",
                            rule=written.strip(),
                            word=word,
                            need=need,
                            name=deck.component.name,
                            column=column,
                            counts=shown + ("…" if len(counts) > 6 else ""),
                            most=most,
                        ),
                        _where(game, line.n),
                    )


def check_ties(game: Game, problems: Problems) -> None:
    """A winner by the most (or fewest) of something, when no rule says what a tie is: none in
    the same section, none anywhere that speaks of winning (「同点の場合は…の勝ち」)."""
    text = lines(game)
    settled = {line.path for line in text if _TIE.search(line.text)}
    if any(
        _TIE_RULE.search(line.text) or (_TIE.search(line.text) and _WINS.search(line.text))
        for line in text
    ):
        return
    for line in text:
        if line.heading or line.path in settled:
            continue
        for sentence, written in line.sentences():
            if _MOST.search(sentence) or _EN_MOST.search(sentence):
                problems.warning(
                    _(
                        "「{rule}」 names the winner by the most or the fewest, but no rule says "
                        "who wins when two are level",
                        rule=written.strip(),
                    ),
                    _where(game, line.n),
                )
                return


def check_limits(game: Game, problems: Problems) -> None:
    """A limit stated one way and contradicted in another sentence: 「出せるカードは１枚だけ」
    and 「２枚を同時に出すことができます」, unless the second says it is an exception."""
    # verb, unit, limit, sentence, line, section
    said: list[tuple[str, str, int, str, int, tuple]] = []
    for line in lines(game):
        if line.heading:
            continue
        for sentence, written in line.sentences():
            for m in _LIMIT.finditer(sentence):
                verb = _verb(sentence, 0)
                if verb and HOLE not in m.group(0):
                    limit = int(m.group(1))
                    said.append((verb, m.group(2), limit, written.strip(), line.n, line.path))
            for m in _EN_LIMIT.finditer(sentence):
                verb = _en_verb(sentence, m.start()) or _en_verb(sentence, len(sentence))
                if verb:
                    limit = _en_int(m.group(1))
                    said.append((verb, "", limit, written.strip(), line.n, line.path))
    if not said:
        return
    seen: set[tuple[int, int]] = set()
    for line in lines(game):
        if line.heading:
            continue
        for sentence, written in line.sentences():
            if _EXCEPTION.search(sentence):
                continue
            amounts = [
                (int(m.group(1)), m.group(2), _verb(sentence, m.end()))
                for m in _AMOUNT.finditer(sentence)
            ]
            amounts += [
                (_en_int(m.group(1)), "", _en_verb(sentence, m.start()))
                for m in _EN_AMOUNT.finditer(sentence)
            ]
            for more, unit_said, verb in amounts:
                for v, unit, limit, rule, n, section in said:
                    if (v, unit) != (verb, unit_said) or more <= limit or (n, line.n) in seen:
                        continue
                    if rule == written.strip():
                        continue  # the limit itself (「１〜２枚まで」)
                    turn = ("手番" in rule and "手番" in sentence) or (
                        "turn" in rule.lower() and "turn" in sentence.lower()
                    )
                    if section != line.path and not turn:
                        continue  # another part of the game (setup, a phase) may do more
                    seen.add((n, line.n))
                    problems.warning(
                        _(
                            "「{rule}」 (line {line}) and 「{other}」 say two things: {limit} at "
                            "most, then {more}; say which holds (「ただし、…」 or 'However, …' "
                            "makes the second an exception)",
                            rule=rule,
                            line=n,
                            other=written.strip(),
                            limit=limit,
                            more=more,
                        ),
                        _where(game, line.n),
                    )


# 「”現在のラウンド数”以上の数字」: a floor that rises with the round
_ROUND_FLOOR = re.compile(
    r"[”\"“「]?(?:現在の)?(ラウンド|手番|ターン)(?:数|目)[”\"“」]?\s*(?:以上|より大きい|を超える)"
)


def check_round_floor(game: Game, problems: Problems, deal: dict | None) -> None:
    """A value that must reach the round's number (「”現在のラウンド数”以上の数字」) when the
    deck's highest value is below the rounds a hand can last: from that round on, no card meets
    it. `deal`: the game's deal (game.toml's, or the rules' own), to know how long hands are."""
    from ..rulesource import dealing

    cards = [d for d in game.decks if d.component.kind == "card"]
    if not cards or not deal:
        return
    hands = {d["players"]: d["each"] for d in dealing(game, deal=deal)}
    for line in lines(game):
        if line.heading:
            continue
        for sentence, written in line.sentences():
            m = _ROUND_FLOOR.search(sentence)
            if m is None:
                continue
            named = [d for d, *_ in named_in(sentence, cards, lambda d: d.component.name)]
            deck = (named or [d for d in cards if d.id == deal["component"]] or cards)[0]
            numbers = _int_columns(deck)
            said = [
                c for c in numbers for w in COLUMN_WORDS if w in sentence and _names(deck, c, w)
            ]
            column = (said or (list(numbers) if len(numbers) == 1 else [None]))[0]
            if column is None:
                continue
            most = numbers[column][1]
            longer = {n: each for n, each in hands.items() if each > most}
            if not longer:
                continue
            problems.warning(
                _(
                    "「{rule}」 rises with the {what}, but no {name} has a {column} above {most}: "
                    "from {what} {next} on, none meets it; with {players} players a hand holds "
                    "up to {each} cards",
                    rule=written.strip(),
                    what={"ラウンド": _("round"), "手番": _("turn"), "ターン": _("turn")}[
                        m.group(1)
                    ],
                    name=deck.component.name,
                    column=column,
                    most=most,
                    next=most + 1,
                    players=", ".join(str(n) for n in sorted(longer)),
                    each=max(longer.values()),
                ),
                _where(game, line.n),
            )


# a tie the rules call a draw; not a card drawn (「１枚ドローする」, "draw a card")
_DRAW = re.compile(
    r"引き分け|ドロー(?!し|す|で|フェ)|(?i:\b(?:is|in|as|be|ends in) a draw\b|\bdrawn game\b"
    r"|\bshare (?:the|a) (?:victory|win)\b)"
)


def draw_sentence(game: Game) -> str | None:
    """The sentence that lets a game end in a draw (「それも同じなら引き分けとしてください」),
    or None when the rules allow none."""
    for line in lines(game):
        for sentence, written in line.sentences():
            if _DRAW.search(sentence):
                return written.strip()
    return None
