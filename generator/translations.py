"""`pnp translations export|import`: a translator's round trip for one edition of a game.

`export` writes one CSV of every text to translate, one row each: a key (what it is, found
again whatever the row order), its context (the card, the manifest key), the source text and
the translation so far. `import` brings the file back by key: data cells into their `name@en`
columns, the title and component names into `[edition.en]`, and says what no longer matches
the source (the designer changed the text since the export) instead of writing it.
The rules (`rules.en.md`) are a file of their own, translated as a whole.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from . import output
from .i18n import _
from .load import read_table
from .problems import BuildError, Problems, SourceRef
from .project import Project
from .textfile import confine

HEADER = ["key", "context", "source", "translation"]
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")  # a text in Japanese


@dataclass
class Entry:
    key: str
    context: str
    source: str
    translation: str


def entries(project: Project, game: str, language: str, problems: Problems) -> list[Entry]:
    """Every text of the game's data and manifest to translate into `language`."""
    manifest = project.manifest(game)
    if language not in manifest.languages[1:]:
        raise BuildError(
            _(
                "{game} has no '{edition}' edition: its [game] languages are {languages} "
                "(add the language there, with its translations)",
                game=game,
                edition=language,
                languages=", ".join(manifest.languages),
            ),
            manifest.at("game", "languages"),
        )
    said = manifest.editions.get(language, {})
    out = [Entry("title", "[game] title", manifest.title, said.get("title", ""))]
    names = said.get("components", {})
    for comp in manifest.components:
        out.append(
            Entry(
                f"component:{comp.id}",
                f"[[component]] {comp.id}",
                comp.name,
                names.get(comp.id, ""),
            )
        )
    for comp in manifest.components:
        if not comp.kind_of.rows:
            continue
        path = confine(manifest.folder / comp.data, project.root, comp.at("data"), "'data'")
        rel = project.rel(path)
        table = read_table(path, SourceRef(rel), comp.sheet_name, header=comp.header)
        for row in table.rows:
            label = " ".join(str(row.values.get(k, "")) for k in _key(comp, table.columns))
            for column in table.columns:
                if "@" in column or comp.columns.get(column, "text") != "text":
                    continue
                text = row.values.get(column, "")
                if not _CJK.search(text):
                    continue  # numbers, colours, names already in Latin letters
                key = f"data:{rel}:{row.where.row}:{column}"
                out.append(Entry(key, label, text, row.values.get(f"{column}@{language}", "")))
    return out


def _key(comp, columns) -> list[str]:
    """The columns that name a row for the translator: the composition's key, else the first."""
    key = [k for k in comp.composition.get("key", []) if k in columns]
    return key or columns[:1]


def export(
    project: Project, game: str, language: str, out: Path | None, every: bool
) -> tuple[Path, int]:
    """The CSV of what is still to translate (`every`: of every text), written; its path and
    how many rows it holds."""
    rows = [
        e
        for e in entries(project, game, language, Problems())
        if every or not e.translation.strip()
    ]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows([e.key, e.context, e.source, e.translation] for e in rows)
    path = out or project.output_for(None) / game / f"translations-{language}.csv"
    output.atomic_write(path, ("\ufeff" + buf.getvalue()).encode())  # a BOM: Excel reads UTF-8
    return path, len(rows)


def import_(project: Project, game: str, language: str, file: Path) -> tuple[int, list[str]]:
    """The translations of an exported CSV written back by key: (how many written, what could
    not be, each said)."""
    known = {e.key: e for e in entries(project, game, language, Problems())}
    text = file.read_text("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    if rows and not set(HEADER) <= set(rows[0]):
        raise BuildError(
            _(
                "{file}: not a translations file (its header must be: {header})",
                file=file,
                header=", ".join(HEADER),
            )
        )
    said: list[str] = []
    data: dict[str, dict[tuple[int, str], str]] = {}
    manifest_words: dict[str, str] = {}
    written = 0
    for n, row in enumerate(rows, start=2):
        key, source, words = row["key"], row["source"], row["translation"].strip()
        if not words:
            continue
        now = known.get(key)
        if now is None:
            said.append(
                _(
                    "{file}:{row}: '{key}' is no text of {game} any more",
                    file=file.name,
                    row=n,
                    key=key,
                    game=game,
                )
            )
            continue
        if now.source != source:
            said.append(
                _(
                    "{file}:{row}: {key} now says 「{now}」, not 「{was}」 as when it was "
                    "exported: translate it again",
                    file=file.name,
                    row=n,
                    key=key,
                    now=now.source,
                    was=source,
                )
            )
            continue
        if now.translation == words:
            continue
        written += 1
        if key.startswith("data:"):
            _data, rel, line, column = key.split(":", 3)
            data.setdefault(rel, {})[(int(line), column)] = words
        else:
            manifest_words[key] = words
    for rel, cells in data.items():
        _write_csv(project.root / rel, cells, language)
    if manifest_words:
        _write_manifest(project, game, language, manifest_words)
    return written, said


def _write_csv(path: Path, cells: dict[tuple[int, str], str], language: str) -> None:
    """The translations into their `name@en` columns of a CSV data file (a column made where
    there is none); every other cell as it was."""
    if path.suffix.lower() not in (".csv", ".tsv", ".txt"):
        raise BuildError(
            _(
                "import writes CSV files only: copy these translations into the "
                "name@{language} columns of {file} yourself",
                language=language,
                file=path.name,
            )
        )
    text = path.read_text("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    for _line, column in cells:
        if f"{column}@{language}" not in header:
            header.append(f"{column}@{language}")
            for row in rows[1:]:
                row.append("")
    for (line, column), words in cells.items():
        at = header.index(f"{column}@{language}")
        row = rows[line - 1]
        row += [""] * (len(header) - len(row))
        row[at] = words
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    output.atomic_write(path, buf.getvalue().encode())


def _write_manifest(project: Project, game: str, language: str, words: dict[str, str]) -> None:
    """The title and component names into game.toml's [edition.LANG], in place (tomlkit: its
    comments and order kept)."""
    import tomlkit

    path = project.cards / game / "game.toml"
    doc = tomlkit.parse(path.read_text("utf-8"))
    editions = doc.setdefault("edition", tomlkit.table(is_super_table=True))
    table = editions.setdefault(language, tomlkit.table())
    for key, said in words.items():
        if key == "title":
            table["title"] = said
        else:
            names = table.setdefault("components", tomlkit.inline_table())
            names[key.removeprefix("component:")] = said
    output.atomic_write(path, tomlkit.dumps(doc).encode())
