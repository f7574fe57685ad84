"""A game's editions: the same game printed in another of its languages (`[game] languages =
["ja", "en"]`, the first the source).

An edition's words live beside the source's, where a translator works:
- data: a column `name@en` beside `name` (a cell left empty prints the source's, and is listed);
- rules: `rules.en.md` beside `rules.md` (or `[edition.en] rules = "…"`);
- the manifest: `[edition.en]` (title, component names, fonts);
- layouts: a quoted box key `"text@en" = "…"` (any key: `"size@en"` too) over the source's
  (layout/boxes.edition_props);
- terms: `glossary.toml`, `[en] "渡海" = "Sail"`, which check holds the edition to.

The source edition reads none of these, so adding a translation never changes it. Fed by
project.py's manifest and load's tables; the model, layout and builders see a game as usual,
its manifest's `edition` saying which one it is (and `out_name` where its files go).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import replace

from .i18n import _, ngettext, translated
from .load.table import Row, Table
from .model import Deck, freeze
from .problems import Problems, SourceRef
from .project import Manifest
from .textfile import confine, read_text


def manifest_for(manifest: Manifest, language: str, problems: Problems) -> Manifest:
    """The manifest as the `language` edition reads it: its title and rules file."""
    said = manifest.editions.get(language, {})
    title = said.get("title")
    if title is None:
        problems.notice(
            _(
                "the {language} edition has no title of its own: [edition.{language}] title = "
                '"…" names it; the source\'s title is printed',
                language=language,
            ),
            manifest.at("game", "title"),
        )
    rules = said.get("rules")
    if rules is None and manifest.rules:
        stem, dot, suffix = manifest.rules.rpartition(".")
        beside = f"{stem}.{language}.{suffix}" if dot else f"{manifest.rules}.{language}"
        if (manifest.folder / beside).is_file():
            rules = beside
        else:
            problems.notice(
                _(
                    "the {language} edition has no rules of its own ({file} beside {source}): "
                    "its rulebook prints the source's",
                    language=language,
                    file=beside,
                    source=manifest.rules,
                ),
                manifest.at("game", "rules"),
            )
    names = said.get("components", {})
    components = [replace(c, name=names.get(c.id, c.name)) for c in manifest.components]
    for cid in sorted(set(names) - {c.id for c in manifest.components}):
        problems.warning(
            _(
                "[edition.{language}] components: '{id}' is no component of the game ({ids})",
                language=language,
                id=cid,
                ids=", ".join(c.id for c in manifest.components),
            ),
            manifest.at("edition", language, "components", cid),
        )
    return replace(
        manifest,
        edition=language,
        title=title or manifest.title,
        rules=rules or manifest.rules,
        components=components,
        fonts={**manifest.fonts, **said.get("fonts", {})},  # a Latin face for Latin text, say
        # digits as the translator typed them: full-width ones are Japanese type
        digits=manifest.digits if language == "ja" else "as-written",
    )


def table_for(table: Table, manifest: Manifest, problems: Problems) -> Table:
    """A data table without its translation columns (`name@en`), as it is checked: the
    composition and every other check hold the source's values, in every edition. The
    manifest's edition keeps each row's translations on the table (`Table.translations`), to be
    printed in place of the source's once the deck is checked (`deck_for`); a cell with no
    translation keeps the source's and is listed (a notice per column)."""
    others = set(manifest.languages[1:])
    of = {c: said for c in table.columns if (said := translated(c)) and said[1] in others}
    if not of:
        return table  # nothing translated in this table
    columns = [c for c in table.columns if c not in of]
    language = manifest.edition
    for column, (base, _lang) in of.items():
        if base not in columns:
            problems.warning(
                _(
                    "'{column}' translates no column of the sheet: there is no '{base}' (its "
                    "columns: {columns})",
                    column=column,
                    base=base,
                    columns=", ".join(columns),
                ),
                table.where.at(row=table.header_row, column=column),
            )
    taken = [c for c in columns if f"{c}@{language}" in table.columns] if language else []
    missing: dict[str, list[Row]] = {c: [] for c in taken}
    # (column, source text) -> (its first translation, the row that says it): one text, one
    # translation; a second is a term translated two ways
    first: dict[tuple[str, str], tuple[str, Row]] = {}
    rows, said = [], {}
    for row in table.rows:
        values = {c: row.values.get(c, "") for c in columns}
        rows.append(Row(row.where, values, tuple(values[c] for c in columns)))
        mine = {}
        for column in taken:
            text = row.values.get(f"{column}@{language}", "")
            if text.strip():
                mine[column] = text
                was = first.setdefault((column, values[column]), (text, row))
                if was[0].strip() != text.strip():
                    problems.warning(
                        _(
                            "「{source}」 is translated two ways: '{text}' here, '{was}' at row "
                            "{row}; say it one way",
                            source=values[column],
                            text=text,
                            was=was[0],
                            row=was[1].where.row,
                        ),
                        row.where.at(column=f"{column}@{language}"),
                    )
            elif values[column].strip():
                missing[column].append(row)
        said[row.where.row] = mine
    for column, untranslated in missing.items():
        if untranslated:
            shown = ", ".join(str(r.where.row) for r in untranslated[:12])
            problems.notice(
                ngettext(
                    "the {language} edition has no translation in '{column}@{language}' for "
                    "{n} row ({rows}): the source's text is printed there",
                    "the {language} edition has no translation in '{column}@{language}' for "
                    "{n} rows ({rows}): the source's text is printed there",
                    len(untranslated),
                    language=language,
                    column=column,
                    rows=shown + ("…" if len(untranslated) > 12 else ""),
                ),
                untranslated[0].where.at(column=f"{column}@{language}"),
            )
    return replace(table, columns=columns, rows=rows, translated=tuple(taken), translations=said)


def deck_for(deck: Deck, table: Table, manifest: Manifest) -> Deck:
    """The checked deck with each card's translated cells in place of the source's, and the
    source's kept as `name@ja`: a picture's `src` reads those (layout/boxes.FILE_KEYS), so a
    picture named after a card is one file in every edition."""
    if not table.translated:
        return deck
    source = manifest.languages[0]
    made: dict[int | None, Mapping] = {}
    cards = []
    for card in deck.cards:
        row = card.where.row
        if row not in made:
            fields = dict(card.fields)
            for column in table.translated:
                fields[f"{column}@{source}"] = fields.get(column)
            fields.update(table.translations.get(row, {}))
            made[row] = freeze(fields)
        cards.append(replace(card, fields=made[row]))
    return replace(deck, cards=tuple(cards))


def at_translations(problems: Problems, since: int, game) -> None:
    """The problems found since `since` at a cell an edition took from its translation, moved
    to the translation's cell (`name@en`): that is the text to mend."""
    taken = dict(game.translated)
    language = game.manifest.edition
    for i in range(since, len(problems.items)):
        p = problems.items[i]
        where = p.where
        if where is not None and where.column in taken.get(where.file, ()):
            problems.items[i] = replace(p, where=where.at(column=f"{where.column}@{language}"))


_HEADING = re.compile(r"^(#{1,6})\s")
_MARK = re.compile(r"<!--\s*(/?)(summary|added)\b")
_DIRECTIVE = re.compile(r"^:::\s*(\S+)")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s")


def structure(source: str) -> list[tuple[str, int]]:
    """A rules source's shape, line by line: headings by level, summary and added marks,
    directives (`::: deal`), list items; (what, line)."""
    out = []
    source = re.sub(r"\{#.*?#\}", lambda m: "\n" * m[0].count("\n"), source, flags=re.S)
    for n, line in enumerate(source.splitlines(), start=1):
        if m := _HEADING.match(line):
            out.append((f"heading {len(m[1])}", n))
        for m in _MARK.finditer(line):
            out.append((f"<!-- {m[1]}{m[2]} -->", n))
        if m := _DIRECTIVE.match(line):
            out.append((f"::: {m[1]}", n))
        elif _ITEM.match(line):
            out.append(("item", n))
    return out


def source_rules(
    project, manifest: Manifest, source_file: str, rules: str, where, limits, problems: Problems
) -> str:
    """The source's rules an edition is held to (its glossary check reads them): the source's
    file, read once and the edition's structure checked against it, when the edition has a
    translation (`rules`, read from `where`); the text itself when it prints the source's."""
    if source_file == manifest.rules:
        return rules
    there = confine(
        manifest.folder / source_file, project.root, manifest.at("game", "rules"), "'rules'"
    )
    source_where = SourceRef(project.rel(there))
    if not there.is_file():
        return ""
    source = read_text(there, source_where, max_mb=limits.file_mb)
    check_structure(source, rules, where, source_where, problems)
    return source


def check_structure(source: str, edition: str, where, there, problems: Problems) -> None:
    """An edition's rules shaped as the source's: the same headings at the same levels, the same
    marks and directives, the same lists, in the same order. Each difference is a warning at
    the edition's line, naming the source's (at most five: a first mend often settles more)."""
    a, b = structure(source), structure(edition)
    seen = 0
    matcher = difflib.SequenceMatcher(None, [x for x, _ in a], [x for x, _ in b], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or seen >= 5:
            continue
        seen += 1
        mine = ", ".join(x for x, _ in b[j1:j2]) or _("nothing")
        theirs = ", ".join(x for x, _ in a[i1:i2]) or _("nothing")
        line = b[j1][1] if j1 < len(b) else (b[-1][1] if b else 1)
        at = a[i1][1] if i1 < len(a) else (a[-1][1] if a else 1)
        problems.warning(
            _(
                "the translated rules have {mine} where {source}:{line} has {theirs}: keep the "
                "source's headings, marks, directives and lists, so both editions say the same "
                "in the same order",
                mine=mine,
                source=there.file,
                line=at,
                theirs=theirs,
            ),
            where.at(row=line),
        )


GLOSSARY = "glossary.toml"  # cards/<game>/glossary.toml: [en] 煩悩カード = "Klesha cards"


def check_glossary(game, root, source_rules: str, source_names: dict, problems: Problems) -> None:
    """The game's glossary held to its edition: each source term the rules use is said with its
    translation in the edition's rules, each translated cell that holds a term says its
    translation, and each component is named as the glossary names it."""
    from . import tomlfile

    path = game.manifest.folder / GLOSSARY
    language = game.manifest.edition
    if not language or not path.is_file():
        return
    rel = f"cards/{game.id}/{GLOSSARY}"
    confine(path, root, SourceRef(rel), _("glossary"))
    doc = tomlfile.read(path, SourceRef(rel), _("glossary"))
    terms = doc.data.get(language, {})
    if not isinstance(terms, dict):
        return
    source = game.manifest.languages[0]
    # each translated cell once: (where, column, the source's text, its translation)
    cells = [
        (card.where.at(column=f"{column}@{language}"), column, card.fields[f"{column}@{source}"])
        + (card.fields[column],)
        for deck in game.decks
        for card, _n in deck.alike
        for file, columns in game.translated
        if file == deck.where.file
        for column in columns
    ]
    said = (game.rules_source or "").casefold()
    for term, words in terms.items():
        if not isinstance(words, str):
            continue
        uses = source_rules.count(term)
        if uses and words.casefold() not in said:
            problems.warning(
                ngettext(
                    "the source rules say 「{term}」 once, but the {language} rules never say "
                    "'{words}', the glossary's translation",
                    "the source rules say 「{term}」 {n} times, but the {language} rules never "
                    "say '{words}', the glossary's translation",
                    uses,
                    term=term,
                    language=language,
                    words=words,
                ),
                doc.at(language, term),
            )
        for comp in game.manifest.components:
            if source_names.get(comp.id) == term and comp.name != words:
                problems.warning(
                    _(
                        "the glossary translates 「{term}」 as '{words}', but [edition.{language}] "
                        "names the component '{name}'",
                        term=term,
                        words=words,
                        language=language,
                        name=comp.name,
                    ),
                    game.manifest.at("edition", language, "components", comp.id),
                )
        for where, column, text, value in cells:
            if term in str(text) and words.casefold() not in str(value).casefold():
                problems.warning(
                    _(
                        "「{term}」 is '{words}' in the glossary, but this translation of "
                        "「{source}」 says '{value}'",
                        term=term,
                        words=words,
                        source=text,
                        value=value,
                    ),
                    where,
                    fold=f"glossary:{rel}:{term}:{column}",
                    each=3,
                )
