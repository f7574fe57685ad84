"""Typed columns and deck composition: loaded rows become model cards, every defect a located
problem.

Fed by load (rows with origins) and the manifest; feeds model. Collects all problems of a deck
before anyone fails, so the designer sees every bad cell at once.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping

from . import colours
from .i18n import _, ngettext
from .i18n import count as _pieces
from .limits import DEFAULT, exceeded
from .load import Table
from .model import (
    NAME_COLUMNS,
    Card,
    Deck,
    alike,
    freeze,
    group_label,
    matches,
    name_column,
    of_group,
    when_label,
)
from .problems import Problems, SourceRef, did_you_mean
from .project import Component

TYPES = ("text", "int", "color", "bool", "copies")  # copies: how many cards the row makes


_PRIVATE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")


def private_use(text: str, allowed: tuple = ()) -> str | None:
    """A private-use character of `text` the project does not define (`allowed`: its declared
    ranges), if any: it means nothing outside one machine's fonts, and inside the tool it stands
    for icons and markup."""
    if not text or _PRIVATE.search(text) is None:
        return None
    for found in _PRIVATE.finditer(text):
        code = ord(found.group(0))
        if not any(lo <= code <= hi for lo, hi in allowed):
            return found.group(0)
    return None


def template_ref(column: str) -> str:
    """How a layout's template reads a column: its name, or row["No."] for a name that is no
    identifier or is one a template already means (game, vars, row, true…)."""
    import keyword

    if column.isidentifier() and not keyword.iskeyword(column):
        if column not in ("game", "vars", "row", "true", "false", "none"):
            return column
    return 'row["' + column.replace("\\", "\\\\").replace('"', '\\"') + '"]'


def _convert(kind: str, raw: str, allowed: tuple = ()) -> tuple[object, str | None]:
    """A cell's typed value, or an error message saying what was expected."""
    if (ch := private_use(raw, allowed)) is not None:
        return None, _(
            "holds the private-use character {code}, which prints as nothing or as "
            "something else on another machine; write icons as :name: (icons.toml), or declare "
            "the code points your own font defines in [game] private_use",
            code=f"U+{ord(ch):04X}",
        )
    if kind == "text":
        return raw, None
    if kind == "copies" and not raw.strip():
        return 1, None  # a blank count is one card
    if kind in ("int", "copies"):
        text = raw.translate(_ZEN_DIGITS)
        if kind == "copies" and (times := _TIMES.fullmatch(text)):  # x2, 2×, 3枚
            return int(next(g for g in times.groups() if g)), None
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text), None
        if re.fullmatch(r"[+-]?\d+\.0+", text):  # Excel stores 5 as 5.0
            return int(float(text)), None
        if re.fullmatch(r"[+-]?\d{1,3}(,\d{3})+", text):  # 1,200 as a workbook shows it
            return int(text.replace(",", "")), None
        return (
            None,
            _("must be a whole number, got {value!r}", value=raw)
            if raw
            else _("is empty: a whole number is needed"),
        )
    if kind == "color":
        value = colours.colour(raw)
        if value is not None:
            return value, None
        return (
            None,
            _(
                "must be a colour like #C8323C or one of {names}, got {value!r}",
                names=colours.NAMES,
                value=raw,
            )
            if raw
            else _("is empty: a colour like #C8323C is needed"),
        )
    if kind == "bool":
        low = raw.lower()
        if low in NO:
            return False, None
        if low in YES:
            return True, None
        return None, _(
            "must be yes or no ({yes} / {no}, or empty), got {value!r}",
            yes=", ".join(sorted(YES - {"y"})),
            no=", ".join(sorted(NO - {"", "n"})),
            value=raw,
        )
    raise AssertionError(kind)


# A bool cell as designers mark one: words, Excel's and Google Sheets' TRUE/FALSE, and marks
# (○ typed three ways: U+25CB, U+25EF, the kanji 〇; ✓ ✔; × ✕ ✗).
YES = {"1", "yes", "y", "true", "はい", "○", "◯", "〇", "✓", "✔"}
NO = {"", "0", "no", "n", "false", "いいえ", "×", "✕", "✗"}

# How many copies as card lists write it: x2, ×2, 2x, 2×, 2枚 (部, 個), "2 copies"
_TIMES = re.compile(r"\s*[xX×✕]\s*(\d+)\s*|\s*(\d+)\s*(?:[xX×✕]|枚|部|個|copies|copy)\s*")
# Full-width digits and signs, and the minus sign (U+2212) a word processor or IME types for -.
_ZEN_DIGITS = str.maketrans("０１２３４５６７８９－＋−", "0123456789-+-")


def build_deck(
    component: Component,
    table: Table,
    problems: Problems,
    used: int = 0,
    limit: int = DEFAULT.cards,
    private: tuple = (),
) -> Deck:
    """The deck of one component: typed cells, copies made, composition checked. `used` cards
    of the game are made already; together they may not pass the `cards` limit. `private` are
    the private-use ranges the project's fonts define."""
    where = table.where
    errors_before = problems.count("error")
    for column, kind in component.columns.items():
        if kind not in TYPES:
            problems.error(
                _(
                    "component '{id}': column '{column}' has unknown type {kind!r} (types: "
                    "{types})",
                    id=component.id,
                    column=column,
                    kind=kind,
                    types=", ".join(TYPES),
                ),
                component.at("columns", column),
            )
    if any(kind not in TYPES for kind in component.columns.values()):
        return Deck(component, (), tuple(table.columns), where)
    missing = [c for c in component.columns if c not in table.columns]
    unknown = [c for c in table.columns if c not in component.columns]
    for column in missing:
        renamed = ""
        if len(missing) == 1 and len(unknown) == 1 and not table.hint:
            # one name gone and one come: most likely the same column, renamed in the sheet
            renamed = _(
                "; renamed to '{new}' in the spreadsheet? Then rename it in game.toml's "
                "[component.columns] and in the layouts too ({{{{ {old_ref} }}}} → "
                "{{{{ {new_ref} }}}})",
                new=unknown[0],
                old_ref=template_ref(column),
                new_ref=template_ref(unknown[0]),
            )
        problems.error(
            _(
                "missing column '{column}' (the header has: {columns})",
                column=column,
                columns=", ".join(table.columns),
            )
            + renamed
            + table.hint,
            where.at(row=table.header_row, column=column),
        )
    if missing:
        return Deck(component, (), tuple(table.columns), where)

    cards: list[Card] = []
    # Rows typed before, by their cells (a deck's copies written as rows of their own): cells ->
    # (typed values, label, the cards' fields: read-only, shared by the rows written alike).
    now: dict[tuple, tuple[dict, str | None, Mapping]] = {}
    # Each text value once, whichever rows print it (a suit, a colour, a label): a large deck's
    # cards share their repeated values instead of each holding a copy.
    texts: dict[str, str] = {}
    one = texts.setdefault
    count, columns = component.copies_column, table.columns
    # Columns no card may leave empty: as the manifest lists them, else the cards' name column
    # (a blank name prints a blank title band).
    named = name_column(component.columns)
    wanted = component.required if component.required is not None else (named,) if named else ()
    required = [(c, columns.index(c)) for c in wanted if c in columns]
    for row in table.rows:
        cells = row.cells
        if len(cells) != len(columns):
            get = row.values.get
            cells = tuple([get(column, "") for column in columns])
        for column, at in required:  # a blank title band, an empty cost: said at its cell
            if not str(cells[at]).strip():
                problems.error(
                    _(
                        "'{column}' is empty, and every card needs one (required columns: "
                        "{columns})",
                        column=column,
                        columns=", ".join(c for c, _i in required),
                    ),
                    row.where.at(column=column),
                    fold=f"{where}:{column}:required",
                )
        known = now.get(cells)
        if known is None:
            typed: dict[str, object] = {}
            ok = True
            for column, raw in zip(columns, cells):
                kind = component.columns.get(column, "text")
                value, err = _convert(kind, raw, private)
                if err:
                    problems.error(
                        _("'{column}' {problem}", column=column, problem=err),
                        row.where.at(column=column),
                        fold=f"{where}:{column}:{err}",
                    )
                    ok = False
                typed[column] = one(value, value) if type(value) is str else value
            if not ok:
                continue
            label = _label(typed, component.composition, component.columns)
            label = one(label, label) if label else label
            fields = dict(typed, _label=label) if label else dict(typed)
            known = (typed, label, freeze(fields))  # a card's fields: read-only, shared
        now[cells] = known
        typed, label, fields = known
        if not count and used + len(cards) < limit:  # one card a row, as most decks
            cards.append(Card(component.id, len(cards), fields, row.where))
            continue
        copies = typed.get(count, 1) if count else 1
        if copies is None or copies < 0:
            problems.error(
                _("'{column}' must be 0 or more, got {n}", column=count, n=copies),
                row.where.at(column=count),
            )
            continue
        if used + len(cards) + copies > limit:
            what = _("the game's cards, with the {n:,} this row makes", n=copies)
            raise exceeded("cards", what, limit, row.where.at(column=count if copies > 1 else None))
        for copy in range(1, int(copies) + 1):  # type: ignore[arg-type]
            cards.append(Card(component.id, len(cards), fields, row.where, copy))
    deck = Deck(component, tuple(cards), tuple(table.columns), where)
    if problems.count("error") == errors_before:
        depends = Problems()
        suspects = check_depends(deck, depends)  # rows breaking a dependency: edited, likely
        check_composition(deck, problems, suspects)
        problems.extend(depends.items)
    return deck


def check_depends(deck: Deck, problems: Problems) -> set[int]:
    """`[component.depends] points = "kind"`: every row of one kind has the same points. The
    value most rows of a kind agree on is taken as meant; a row that differs is named at its
    cell. This catches two cards whose kinds were swapped, where every count still holds.
    Returns the rows that differ."""
    differing: set[int] = set()
    for column, on in deck.component.depends.items():
        rows: dict[tuple, dict[object, list[Card]]] = {}
        for card in deck.cards:
            if card.copy > 1:
                continue  # copies of one row agree with it
            given = tuple(card.fields.get(k) for k in on)
            rows.setdefault(given, {}).setdefault(card.fields.get(column), []).append(card)
        what = _(" and ").join(on)
        for given, by_value in rows.items():
            if len(by_value) < 2:
                continue
            ranked = sorted(by_value.items(), key=lambda kv: -len(kv[1]))
            (agreed, agreeing), *others = ranked
            named = ", ".join(f"{k} {v!r}" for k, v in zip(on, given))
            if len(agreeing) == len(others[0][1]):  # no majority: name every value and its rows
                values = "; ".join(
                    ngettext(
                        "{value!r} on row {rows}",
                        "{value!r} on rows {rows}",
                        len(cs),
                        value=v,
                        rows=", ".join(str(c.where.row) for c in cs),
                    )
                    for v, cs in ranked
                )
                problems.error(
                    _(
                        "'{column}' follows from {what}, but the cards of {named} disagree: "
                        "{values}",
                        column=column,
                        what=what,
                        named=named,
                        values=values,
                    ),
                    agreeing[0].where.at(column=column),
                )
                continue
            for value, cards in others:
                for card in cards:
                    differing.add(card.where.row or 0)
                    problems.error(
                        ngettext(
                            "{card}: '{column}' is {value!r}, but the other cards of {named} "
                            "have {agreed!r} ({n} row); '{column}' follows from {what}",
                            "{card}: '{column}' is {value!r}, but the other cards of {named} "
                            "have {agreed!r} ({n} rows); '{column}' follows from {what}",
                            len(agreeing),
                            card=card.label(),
                            column=column,
                            value=value,
                            named=named,
                            agreed=agreed,
                            what=what,
                        ),
                        card.where.at(column=column),
                    )
    return differing


def _label(typed: dict, composition: dict, columns: dict) -> str | None:
    """How messages name a card: its name if it has one, else its group's `when` values and key
    values, e.g. 'シード 地 2'; with no composition to say it, a column that names the card
    (名前, タイトル…), else its first text (a token's 種類: 'コイン')."""
    if typed.get("name"):
        return str(typed["name"])
    named = next(
        (
            str(v)
            for c, v in typed.items()
            if c.strip().lower() in NAME_COLUMNS and v not in ("", None)
        ),
        None,
    )
    for group in composition.get("group") or [composition]:
        when = group.get("when", {})
        if matches(typed, when):
            if named and group is not composition and not group.get("key"):
                break  # a group counted without a key names no card: the card's name does
            key = group.get("key") or composition.get("key", [])
            parts = [*(typed.get(k) for k in when), *(typed.get(k) for k in key)]
            if (
                "number" in typed
                and "number" not in group.get("key", [])
                and typed["number"] is not None
            ):
                parts.append(typed["number"])
            said = " ".join(str(p) for p in parts if p not in (None, ""))
            if said:
                return said
            break
    if named:
        return named
    return next(
        (v.strip() for c, v in typed.items() if columns.get(c) == "text" and str(v or "").strip()),
        None,
    )  # None: "card N"


def check_composition(deck: Deck, problems: Problems, suspects: set[int] = frozenset()) -> None:
    """Missing, duplicated and extra cards against the manifest's composition, each named.

    A composition is one group (key columns, allowed values, copies), or several `[[group]]`s,
    each for the cards that match its `when` (e.g. seeds by element, minions by strength).
    """
    comp = deck.component.composition
    if not comp:
        return
    where = deck.where
    groups = comp.get("group") or [comp]
    if comp.get("group") and comp.get("key"):
        # A key over the whole deck holds as well as each group's own: both are enforced.
        types = deck.component.columns
        whole = _("the whole deck")
        _check_group(
            list(deck.cards), comp, where, problems, whole, types, suspects, _declared(deck)
        )
    claimed: set[int] = set()
    for n, group in enumerate(groups, start=1):
        cards = of_group(deck, group.get("when", {}))
        claimed.update(c.index for c in cards)
        named = (
            (group_label(group) or when_label(group.get("when", {})) or _("group {n}", n=n))
            if comp.get("group")
            else None
        )
        declared = _declared(deck, n - 1 if comp.get("group") else None)
        _check_group(
            cards, group, where, problems, named, deck.component.columns, suspects, declared
        )
        total = group.get("total")
        if group is not comp and total is not None and len(cards) != int(total):
            problems.error(
                _(
                    "{group} ({when}) has {count}, the manifest expects {total} (total at {place})",
                    group=named,
                    when=_when_text(group),
                    count=_count(deck, len(cards)),
                    total=total,
                    place=deck.component.at("composition", "group", n - 1, "total").row_place,
                ),
                where,
            )
    # The values the groups' `when` name, column by column: a card in none is most often a
    # value written another way (カヌ for カス), said with the one meant.
    named_values: dict[str, list] = {}
    for group in groups:
        for column, value in group.get("when", {}).items():
            for v in value if isinstance(value, list) else [value]:
                named_values.setdefault(column, []).append(v)
    for card in deck.cards if len(claimed) < len(deck.cards) else ():
        if card.index not in claimed:
            hint = ""
            for column, known in named_values.items():
                value = card.fields.get(column)
                if value not in known:
                    names = [str(v) for v in dict.fromkeys(known)]
                    meant = did_you_mean(str(value), names) or _one_letter_off(str(value), names)
                    hint = (
                        _(
                            " ({column} {value!r} is none of {values})",
                            column=column,
                            value=value,
                            values=", ".join(names),
                        )
                        + meant
                    )
                    break
            problems.error(
                _("{card} belongs to no composition group of the manifest", card=card.label())
                + hint,
                card.where.at(column=column) if hint else card.where,
                fold=f"nogroup:{card.where}",
            )
    total = comp.get("total")
    if total is not None and len(deck.cards) != int(total):
        problems.error(
            _(
                "{count}, the manifest expects {total} (total at {place})",
                count=_count(deck, len(deck.cards)),
                total=total,
                place=deck.component.at("composition", "total").row_place,
            ),
            where,
        )
    _check_colours(deck, groups[0].get("key", []), problems)


def _declared(deck: Deck, group: int | None = None) -> Callable[[str], SourceRef]:
    """Where the manifest lists a key column's values (of the composition, or of its group
    `group`): a message about a value not listed points there too."""
    path = ("composition",) if group is None else ("composition", "group", group)
    return lambda column: deck.component.at(*path, column)


def _count(deck: Deck, n: int) -> str:
    """'40 cards' (English), '40枚' (Japanese): the deck's kind names its pieces."""
    kind = deck.component.kind_of
    return _pieces(n, kind.plural, kind.counter)


def _when_text(group: dict) -> str:
    return ", ".join(
        f"{k} {_(' or ').join(map(str, v)) if isinstance(v, list) else v}"
        for k, v in group.get("when", {}).items()
    )


def value_counts(spec: dict) -> dict | None:
    """`{0 = 1, "1-9" = 2}`: how many of each value (ranges of whole numbers written "a-b");
    None for `{ min, max }` or anything else."""
    if not isinstance(spec, dict) or set(spec) <= {"min", "max"}:
        return None
    out: dict = {}
    for raw, n in spec.items():
        text = str(raw).strip()
        m = re.fullmatch(r"(-?\d+)\s*[-–〜~]\s*(-?\d+)", text)
        if m:
            for v in range(int(m.group(1)), int(m.group(2)) + 1):
                out[v] = n
        elif re.fullmatch(r"-?\d+", text):
            out[int(text)] = n
        else:
            out[text] = n
    return out


def _check_group(
    cards: list[Card],
    group: dict,
    where,
    problems: Problems,
    named: str | None = None,  # None: the deck, when it has no groups
    types: dict | None = None,
    suspects: set[int] = frozenset(),  # type: ignore[assignment]
    declared: Callable[[str], SourceRef] | None = None,  # where a key column's values are listed
) -> None:
    types = types or {}
    key = list(group.get("key", []))
    if not key:
        return  # a composition of a total only: nothing names one card apart from another
    base_copies = int(group.get("copies", 1))
    allowed: dict[str, list] = {}
    counts: dict[str, dict] = {}  # column -> copies of each value, where the manifest says
    for k in key:
        spec = group.get(k)
        per_value = value_counts(spec) if isinstance(spec, dict) else None
        if per_value is not None and types.get(k) != "int":
            per_value = {str(v): n for v, n in per_value.items()}  # a text column's "1" is "1"
        if isinstance(spec, list):
            allowed[k] = spec
        elif per_value is not None:
            allowed[k], counts[k] = list(per_value), per_value
        elif isinstance(spec, dict) and "min" in spec and "max" in spec:
            allowed[k] = list(range(int(spec["min"]), int(spec["max"]) + 1))

    def expected(combo: tuple) -> int:
        n = base_copies
        for k, v in zip(key, combo):
            if k in counts:
                n *= int(counts[k].get(v, 0))
        return n

    def detail(combo: tuple) -> str:
        return ", ".join(f"{k} {v!r}" for k, v in zip(key, combo))

    rows_of: dict[tuple, list[int]] = defaultdict(list)
    label_of: dict[int, str] = {}  # row -> how the card of that row is named
    key_of = {id(c.fields): tuple(c.fields[k] for k in key) for c, _n in alike(cards)}
    for card in cards:
        row = card.where.row or 0
        rows_of[key_of[id(card.fields)]].append(row)
        if row not in label_of:
            label_of[row] = card.label()

    when = group.get("when", {})
    label = group_label(group)
    prefix = (
        [label]
        if label
        else [str(v) for v in when.values() if v not in ("", None) and not isinstance(v, list)]
    )

    def name(combo: tuple) -> str:
        return " ".join(prefix + [str(v) for v in combo])

    # Where the card belongs, when its name does not say so already.
    among = "" if label or named in (None, *prefix) else _(" in {group}", group=named)

    for combo, rows in rows_of.items():
        bad = [(k, v) for k, v in zip(key, combo) if k in allowed and v not in allowed[k]]
        if bad or len(rows) > expected(combo):
            distinct = sorted(set(rows))
        if bad:
            k, v = bad[0]
            shown = allowed[k]
            whole = all(isinstance(x, int) for x in shown)
            span = (  # 1–12 for a run of numbers; a list as a list: one of 1, 3, 8, 11, 12
                f"{shown[0]}–{shown[-1]}"
                if whole and len(shown) > 1 and list(shown) == list(range(shown[0], shown[-1] + 1))
                else _("one of {values}", values=", ".join(map(str, shown)))
            )
            for row in distinct:
                problems.error(
                    (
                        _("{card} is not in the composition", card=label_of[row])
                        if named is None
                        else _(
                            "{card} is not in the composition of {group}",
                            card=label_of[row],
                            group=named,
                        )
                    )
                    + ": "
                    + _("'{column}' must be {span}, got {value!r}", column=k, span=span, value=v)
                    + (
                        ""
                        if declared is None
                        else _(
                            " (a new card? add its value to the list at {place})",
                            place=declared(k).row_place,
                        )
                    ),
                    where.at(row=row, column=k),
                )
        elif len(rows) > expected(combo):
            times = {2: _("twice"), 3: _("three times")}.get(len(rows), _("{n} times", n=len(rows)))
            copies = next((c for c, kind in types.items() if kind == "copies"), "count")
            rows_text = (
                _("row {row}, {column} {n}", row=distinct[0], column=copies, n=len(rows))
                if len(distinct) == 1
                else _("rows {rows}", rows=", ".join(map(str, distinct)))
            )
            problems.error(
                _(
                    "{card} appears {times} ({rows}); the manifest expects {n}{among} ({detail})",
                    card=name(combo),
                    times=times,
                    rows=rows_text,
                    n=expected(combo),
                    among=among,
                    detail=detail(combo),
                ),
                where.at(row=_edited_row(distinct, rows_of, suspects)),
            )
    if len(allowed) == len(key) and key:
        for combo in _product([allowed[k] for k in key]):
            have, want = len(rows_of.get(combo, [])), expected(combo)
            if have == 0 and want:
                problems.error(
                    _(
                        "{card} is missing{among} ({detail})",
                        card=name(combo),
                        among=among,
                        detail=detail(combo),
                    ),
                    where,
                )
            elif have < want:
                problems.error(
                    _(
                        "{card} has {have} of {want} copies{among} ({detail})",
                        card=name(combo),
                        have=have,
                        want=want,
                        among=among,
                        detail=detail(combo),
                    ),
                    where,
                )


def _edited_row(rows: list[int], rows_of: dict[tuple, list[int]], suspects: set[int]) -> int:
    """Of a duplicated card's rows, the one most likely edited: the only one whose other
    columns disagree with its kind (`depends`), else the only one out of order in a sorted
    file, else the last."""
    flagged = [r for r in rows if r in suspects]
    if len(flagged) == 1:
        return flagged[0]
    return _out_of_place(rows, rows_of) or rows[-1]


def _out_of_place(rows: list[int], rows_of: dict[tuple, list[int]]) -> int | None:
    """Of a duplicated card's rows, the one out of order among its neighbours in the file (the
    row that was edited, when the rest of the file is sorted); None when that is not clear."""
    order = sorted((r, combo) for combo, rs in rows_of.items() for r in rs)
    position = {r: i for i, (r, _) in enumerate(order)}
    odd = []
    for r in rows:
        i = position[r]
        before = order[i - 1][1] if i > 0 else None
        after = order[i + 1][1] if i + 1 < len(order) else None
        here = order[i][1]
        try:
            if (before is not None and before > here) or (after is not None and here > after):
                odd.append(r)
        except TypeError:
            return None
    return odd[0] if len(odd) == 1 else None


def _check_colours(deck: Deck, key: list[str], problems: Problems) -> None:
    """'A colour per suit': the cards of one value of the first key column share a colour."""
    if "color" not in deck.columns or not key:
        return
    group = key[0]
    colours: dict[object, Counter] = defaultdict(Counter)
    for card, n in deck.alike:
        colours[card.fields[group]][card.fields["color"]] += n
    for value, counts in colours.items():
        if len(counts) > 1:
            usual = counts.most_common(1)[0][0]
            for card in deck.cards:
                if card.fields[group] == value and card.fields["color"] != usual:
                    problems.warning(
                        _(
                            "{card} has colour {colour}, other {value} cards have {usual}",
                            card=card.label(),
                            colour=card.fields["color"],
                            value=value,
                            usual=usual,
                        ),
                        card.where.at(column="color"),
                    )


def _product(lists: list[list]) -> list[tuple]:
    out: list[tuple] = [()]
    for values in lists:
        out = [prefix + (v,) for prefix in out for v in values]
    return out


def _one_letter_off(word: str, known: list[str]) -> str:
    """' (did you mean 'カス'?)' for the one value of `known` of the same length that differs
    from `word` in one character alone (カヌ for カス: too short a word for difflib)."""
    close = [k for k in known if len(k) == len(word) and sum(a != b for a, b in zip(k, word)) == 1]
    return _(" (did you mean '{key}'?)", key=close[0]) if len(close) == 1 else ""
