"""Open points the rules text leaves, found from the text and the data with no rules module:
a choice with nobody to make it, a count without a number, a card laid face down that no rule
turns up, a layout with fewer places than the cards drawn for it, and cards named by a value
that several cards share. Each finding quotes its sentence and goes away when the sentence
settles the point, however the designer words it.

A rules module that decides one of these points states it as a reading (an Option quoting the
same sentence); each finding says which reading plays it, or that the module plays it without
one (it decides the point in its code, unseen): the text leaves it open whatever a module chose.
"""

from __future__ import annotations

import re
from itertools import permutations

from ..i18n import _, listed
from ..model import Game
from ..problems import Problems
from ..typeset import strip_ruby
from .text import _EN_WORDS, _SETUP, HOLE, _found, _in, _short, _where, lines

_NUMBER = "[0-9０-９]+"


def check_all(game: Game, problems: Problems, module=None) -> None:
    """Every open point of the text, each with what the game's rules module (if it has one)
    makes of it."""
    said = _Said(problems, module)
    for check in (check_choices, check_counts, check_face_down, check_layouts, check_named_cards):
        check(game, said)


class _Said:
    """Problems as the checks add them, each open point followed by the module's reading of
    its sentence when there is a module: the Option that quotes it, or none."""

    def __init__(self, problems: Problems, module):
        self.problems = problems
        self.readings = (
            {strip_ruby(o.rule).strip(): name for name, o in module.OPTIONS.items() if o.rule}
            if module is not None
            else None
        )

    def _reading(self, sentence: str) -> str:
        if self.readings is None:
            return ""
        sentence = sentence.strip()
        for rule, name in self.readings.items():
            if rule and (rule in sentence or sentence in rule):
                return " — " + _(
                    "the rules module plays it as its reading '{name}' (game.toml [readings] "
                    "chooses)",
                    name=name,
                )
        return " — " + _(
            "the rules module declares no reading for it, so it decides this point in its code "
            "unseen; declare an Option quoting the sentence"
        )

    def warning(self, message: str, where, sentence: str = "") -> None:
        self.problems.warning(message + self._reading(sentence), where)

    def notice(self, message: str, where, sentence: str = "") -> None:
        self.problems.notice(message + self._reading(sentence), where)


_DIGITS = re.compile(r"[0-9０-９]|[一二三四五六七八九十]+(?:枚|個|つ|人|組|山)")
_ZEN = str.maketrans("０１２３４５６７８９", "0123456789")

# --- a choice with nobody to make it ------------------------------------------------------------
_CHOICE = re.compile(r"どちらか|いずれか|任意の|好きな(?!方法|ように|タイミング|時|とき)")
# who may choose: a player, a role of the rules (親, 手番プレイヤー…), 自分, あなた; in its own
# sentence any mention will do (「自分の手札から好きな１枚」, a hand's too), elsewhere in the
# section only the subject of a sentence (「手番のプレイヤーは」, not 「プレイヤー全員に配る」)
_ACTOR = (
    r"プレイヤー|親|自分|あなた|全員|各自|それぞれ|手番|勝者|敗者|[一-龥ァ-ヶー]{1,6}(?:者|役|係)"
)
_CHOOSER = re.compile(_ACTOR + r"|手札|手元")  # 「手札から好きな１枚」: its holder chooses
_SUBJECT = re.compile(rf"(?:{_ACTOR})(?:は|が|から順|の順)|各自|それぞれ")


# An English sentence names who acts unless it is passive: "Either card is discarded." names
# no one ("Discard either card" tells the reader to choose; "at random" and a roll decide).
_EN_CHOICE = re.compile(
    r"(?i)\b(?:either|whichever|any\s+one|any\s+of|one\s+of\s+the)\b"
    r"|\bany\s+(?:[a-z]+\s+)?(?:cards?|tiles?|tokens?|dice|spaces?|pieces?)\b"
)
_EN_PASSIVE = re.compile(
    r"(?i)\b(?:is|are|be|gets?)\s+(?:[a-z]+ly\s+)?(?:[a-z]+ed|[a-z]+en|put|set|laid|kept|dealt"
    r"|drawn|chosen|taken|given|shown|thrown|split|cut)\b"
)
_EN_ACTOR = re.compile(
    r"(?i)\b(?:you|your|players?|they|them|their|he|she|his|her|each|everyone|everybody|someone"
    r"|whoever|dealer|winner|loser|leader|owner|opponents?|who|by|random|randomly|roll(?:s|ed)?)\b"
)


def _en_choice(sentence: str) -> str | None:
    """The word of an English sentence that leaves a choice with no one named to make it."""
    m = _EN_CHOICE.search(sentence)
    if m and _EN_PASSIVE.search(sentence) and not _EN_ACTOR.search(sentence):
        return m.group(0)
    return None


def check_choices(game: Game, problems: _Said) -> None:
    """「どちらか」「任意の」「好きな」 in a section that names nobody who could choose (no player
    or role in its heading or any of its lines; Japanese leaves out the subject a section has
    already named), or "either" in an English sentence that names no one: an open point, since
    the engine, or a table, must pick for it."""
    text = lines(game)
    named = {line.path for line in text if not line.heading and _SUBJECT.search(line.text)}
    named |= {
        line.path + (line.text,) for line in text if line.heading and _CHOOSER.search(line.text)
    }
    for line in text:
        if line.heading or any(line.path[:k] in named for k in range(len(line.path) + 1)):
            continue
        for sentence, written in line.sentences():
            m = _CHOICE.search(sentence)
            word = m.group(0) if m and not _CHOOSER.search(sentence) else _en_choice(sentence)
            if word:
                problems.notice(
                    _(
                        "open point: 「{rule}」 leaves a choice (「{word}」) but does not say who "
                        "makes it; name the player who chooses, or the rule that decides",
                        rule=written.strip(),
                        word=word,
                    ),
                    _where(game, line.n),
                    written,
                )


# --- a count without a number -------------------------------------------------------------------
_PLACES = re.compile(r"(?:並べ|置き|置い|置く|置きます|配置し|配置す|配置して|配り|配って|配る)")
_AFTER = re.compile(r"(?:並べ|置い|置き|配置し|配っ)(?:たら|た後|たあと|てから|た上で)")
# a sentence that says how many: a number, all, the rest, a pile, one each, the player count
_HOW_MANY = re.compile(
    rf"{_DIGITS.pattern}|全|すべて|総て|残り|残った|山|束|デッキ|ずつ|人数|等分|等枚数|それぞれ"
    r"|好きなだけ|同じ数|同数|だけ|分の"
)


# English: "Place the Elder cards face down in a ring." says no number either
_EN_PLACES = re.compile(r"(?i)\b(?:place|put|lay|set out|arrange|deal)\b")
# how many, anywhere in the sentence, or just before the deck's name ("six cards", "a card")
_EN_HOW_MANY = re.compile(
    r"(?i)[0-9]|\b(?:all|every|each|rest|remaining|pile|deck|stack|as many|equal(?:ly)?|evenly)\b"
)
_EN_COUNTED = re.compile(rf"(?i)\b(?:a|an|{'|'.join(_EN_WORDS)})\s+(?:\w+\s+)?$")


def _puts_out(sentence: str, name: str) -> bool:
    """Whether the sentence puts out the deck `name` and says no number for it."""
    if _EN_PLACES.search(sentence):
        at = _found(sentence, name)
        return (
            at is not None
            and not _EN_HOW_MANY.search(sentence)
            and not _EN_COUNTED.search(sentence[: at[0]])
        )
    if _HOW_MANY.search(sentence) or not _PLACES.search(sentence):
        return False
    at = max(sentence.find(f"{w}を") for w in (name, _short(name)))
    return at >= 0 and not _AFTER.search(sentence, at)


def check_counts(game: Game, problems: _Said) -> None:
    """A setup sentence that puts out a deck's cards (並べ, 置き, 配り; place, lay, put) without
    saying how many, when the deck has more than one: 「老師カードを…裏向きで並べてください」."""
    decks = [(d, d.component.name) for d in game.decks if len(d.cards) > 1]
    for line in lines(game):
        if line.heading or not _in(line, _SETUP):
            continue
        for sentence, written in line.sentences():
            if HOLE in sentence:
                continue
            for deck, name in decks:
                if not _puts_out(sentence, name):
                    continue
                problems.warning(
                    _(
                        "「{rule}」 puts out {name} but does not say how many (the deck has "
                        "{count}); write the number, or 「残り全て」 ('all the rest')",
                        rule=written.strip(),
                        name=name,
                        count=len(deck.cards),
                    ),
                    _where(game, line.n),
                    written,
                )
                break


# --- a card laid face down that no rule uses ----------------------------------------------------
_FACE_DOWN = re.compile(r"伏せ|裏向き|裏向け|裏にして|裏を上|表を下|(?i:\bface[- ]down\b)")
# what a later rule does with a hidden card: turns it up, reveals it, or speaks of it
_TURNED = re.compile(
    r"伏せ|裏向き|裏向け|裏の|裏返|裏にし|表を下|公開|オープン"
    r"|(?i:\bface[- ](?:down|up)\b|\breveal|\bturn(?:s|ed)?\s+(?:\w+\s+){0,3}(?:over|up)\b|\bflip)"
)
# a face-down draw pile is used by drawing
_PILE = re.compile(r"山札|山を|山に|山と|デッキ|束|(?i:\bdraw pile\b|\bdeck\b|\bstack\b|\bpile\b)")


def check_face_down(game: Game, problems: _Said) -> None:
    """A setup step that lays something face down (not a draw pile) when no later rule turns it
    up, reveals it or speaks of it: a step no rule puts to work."""
    text = lines(game)
    setup = [line for line in text if _in(line, _SETUP) and not line.heading]
    if not setup:
        return
    later = "\n".join(line.text for line in text if line.n > setup[-1].n)
    if _TURNED.search(later):
        return
    for line in setup:
        for sentence, written in line.sentences():
            if _FACE_DOWN.search(sentence) and not _PILE.search(sentence):
                problems.warning(
                    _(
                        "a setup step no rule uses: 「{rule}」 lays something face down, but no "
                        "later rule turns it up, reveals it or says what it does",
                        rule=written.strip(),
                    ),
                    _where(game, line.n),
                    written,
                )
                return


# --- a layout with fewer places than the cards drawn for it -------------------------------------
_BY_PLAYERS = re.compile(
    r"[”\"“「]?プレイヤー(?:の)?(?:人数|数)[”\"“」]?(?:と同じ)?(?:枚|分|だけ)|人数分|人数と同じ"
    r"|(?i:\b(?:one|a|1)\s+(?:card\s+)?(?:per|for each|for every)\s+player\b"
    r"|\bas many (?:cards )?as (?:there are )?players\b|\bequal to the number of players\b)"
)
_GRID = re.compile(rf"({_NUMBER})\s*[×xX✕＊*]\s*({_NUMBER})")
_GRID_FOR = re.compile(
    rf"({_NUMBER})\s*人(?:プレイ|で(?:遊ぶ|プレイする))?(?:時|とき|の場合|場合)?(?:は|なら|では)?"
    rf"[^0-9０-９）)]{{0,4}}({_NUMBER})\s*[×xX✕＊*]\s*({_NUMBER})"
)
# English: "2×1 with 3 players", "(2x1 for a 3-player game)"; "with 3 players, a 2×1 grid"
_EN_GRID_AFTER = re.compile(
    r"(?i)(\d+)\s*[×xX✕*]\s*(\d+)\s*(?:grid\s+)?(?:with|for|in)\s+(?:a\s+)?(\d+)[\s-]*players?"
)
_EN_GRID_BEFORE = re.compile(
    r"(?i)(?:with|for)\s+(\d+)\s+players?[,:]?\s*(?:use\s+|in\s+)?(?:an?\s+)?"
    r"(\d+)\s*[×xX✕*]\s*(\d+)"
)


def _grids_for(sentence: str) -> tuple[dict[int, tuple[int, int]], str]:
    """The layouts a sentence gives a player count ({3: (2, 1)}), and the sentence without
    them, where the layout for every other count is."""
    special, rest = {}, sentence
    # each pattern with its groups' order: the player count, then the layout's two sides
    for pattern, (n, a, b) in (
        (_GRID_FOR, (1, 2, 3)),
        (_EN_GRID_AFTER, (3, 1, 2)),
        (_EN_GRID_BEFORE, (1, 2, 3)),
    ):
        for m in pattern.finditer(rest):
            special[_int(m.group(n))] = (_int(m.group(a)), _int(m.group(b)))
        rest = pattern.sub("", rest)
    return special, rest


def check_layouts(game: Game, problems: _Said) -> None:
    """「”プレイヤー人数”枚引いて、それを２×２（３人プレイ時は２×１）に並べます」: for each player
    count, the cards drawn against the places of the layout it says."""
    lo, hi = game.manifest.players
    for line in lines(game):
        if line.heading:
            continue
        for sentence, written in line.sentences():
            if not _BY_PLAYERS.search(sentence):
                continue
            special, rest = _grids_for(sentence)
            main = _GRID.search(rest)
            if main is None and not special:
                continue
            for players in range(lo, hi + 1):
                grid = special.get(players) or (main and (_int(main[1]), _int(main[2])))
                if not grid or grid[0] * grid[1] == players:
                    continue
                places = grid[0] * grid[1]
                problems.warning(
                    _(
                        "「{rule}」: with {players} players {players} are drawn but a "
                        "{rows}×{cols} layout has {places} places; the rules do not say where the "
                        "rest go, or how many are drawn",
                        rule=written.strip(),
                        players=players,
                        rows=grid[0],
                        cols=grid[1],
                        places=places,
                    ),
                    _where(game, line.n),
                    written,
                )


# --- cards named by a value several share -------------------------------------------------------
_REMOVES = re.compile(r"抜き|抜いて|抜く|取り除|除外|除い|使いません|使用しません|使わない|箱に戻")
_SAYS_ALL = re.compile(r"各|全て|すべて|それぞれ|ずつ|全部|全スート|全色")
_TOTAL = re.compile(rf"(?:計|合計|全部で)\s*({_NUMBER})\s*枚")
_OBJECT = re.compile(
    r"([^。、：:「」（）()]+?)(?:を|は)\s*(?:ゲームから)?\s*(?:" + _REMOVES.pattern + ")"
)
_PARTS = re.compile(r"と|、|・|，|および|及び|や")
# English: "With 5 players, remove the 1 and the 2." or "…the 1 and the 2 are set aside"
_EN_VERBS = r"remove|take out|set aside|leave out|put away|return"
_EN_OBJECT = re.compile(
    rf"(?i)\b(?:{_EN_VERBS})\s+(.+?)(?=\s+(?:from|to|out|before|then|and then)\b|[.;:(]|$)"
    r"|([^.;:,]+?)\s+(?:are|is)\s+(?:removed|taken out|set aside|left out|put away|not used)\b"
)
# every card of a value: "all", "each", "both"; a plural ("the 4s", "the fours")
_EN_SAYS_ALL = re.compile(
    r"(?i)\b(?:all|every|each|both|any)\b|\d+'?s\b"
    r"|\b(?:ones|twos|threes|fours|fives|sixes|sevens|eights|nines|tens)\b"
)
_EN_TOTAL = re.compile(r"(?i)\b(\d+)\s+cards?\s+(?:in all|in total|altogether)|a total of\s+(\d+)")
_EN_PARTS = re.compile(r"(?i)\s*(?:,|&|\band\b|\bor\b)\s*")
# a card named by its values: "the 4", "the 7 of Hearts", "the Red 7" (a bare "2" is an amount)
_EN_NAMED = re.compile(r"(?i)^(the\s+)?(.+?)(?:\s+of\s+(.+))?$")


def _removed(sentence: str) -> tuple[list[str], re.Match | None] | None:
    """The cards a sentence takes out of the game, as the words that name them, and what says
    the total; None when it takes out none, or every card of a value (各, all, the 4s)."""
    m = _OBJECT.search(sentence)
    if m is not None:
        if _SAYS_ALL.search(m.group(1)):
            return None
        phrase = re.sub(r"^.*(?:は|では|なら|時|とき|場合)[、,]?", "", m.group(1))
        return [p.strip() for p in _PARTS.split(phrase) if p.strip()], _TOTAL.search(sentence)
    m = _EN_OBJECT.search(sentence)
    if m is None:
        return None
    phrase = (m.group(1) or m.group(2) or "").strip()
    if _EN_SAYS_ALL.search(phrase):
        return None
    names = []
    for part in (p.strip() for p in _EN_PARTS.split(phrase) if p.strip()):
        the, name, of = _EN_NAMED.match(part).groups()
        if not the and not of:
            return None  # "2 cards", "a King": an amount or a kind, no card by its values
        names.append("".join(f"{name}{of or ''}".split()))
    return names, _EN_TOTAL.search(sentence)


def check_named_cards(game: Game, problems: _Said) -> None:
    """「３人プレイ時は４△と３△を抜き」 when each suit has a 4△ and a 3△: the sentence names
    two cards and the deck holds six that fit. Unless the sentence says 各/全て or a total that
    matches, the rules leave open how many leave the game."""
    decks = [d for d in game.decks if len(d.cards) > 1]
    for line in lines(game):
        if line.heading:
            continue
        for sentence, written in line.sentences():
            removed = None if HOLE in sentence else _removed(sentence)
            if removed is None:
                continue
            names, stated = removed
            for deck in decks:
                matched = {name: _cards_named(deck, name) for name in names}
                if not names or not all(matched.values()):
                    continue
                total = sum(len(c) for c in matched.values())
                said = stated and _int(next(g for g in stated.groups() if g))
                if total == len(names) or said == total:
                    continue
                shown = listed(f"{n} {len(c)}" for n, c in matched.items())
                problems.warning(
                    _(
                        "「{rule}」 names {named} cards, but {total} {deck} fit ({shown}): the "
                        "rules do not say whether {named} or {total} leave",
                        rule=written.strip(),
                        named=len(names),
                        total=total,
                        deck=deck.component.name,
                        shown=shown,
                    ),
                    _where(game, line.n),
                    written,
                )
                break


def _cards_named(deck, name: str) -> list:
    """The cards a word of the text names by their values: two written together (「４△」 is
    number 4 and mark △), or a number alone (「４」). A word such as 「赤」 names a group, every
    red card, and is no single card."""
    want = name.translate(_ZEN).casefold()
    if not want or len(want) > 12:
        return []
    out = []
    for card in deck.cards:
        values = [
            str(v).translate(_ZEN).casefold()
            for k, v in card.fields.items()
            if not k.startswith("_")
        ]
        values = [v for v in values if v]
        if any(a + b == want for a, b in permutations(values, 2)):
            out.append(card)
        elif want in values and want.isdigit():  # 「４を抜く」; 「赤を抜く」 means every red one
            out.append(card)
    return out


def _int(text: str) -> int:
    return int(text.translate(_ZEN))
