"""`pnp init` and `pnp new`: a project folder, and a game in it, that build right away.

`new` reads the designer's spreadsheet (or writes a small sample), and writes game.toml with the
columns and their types read from the values, a composition guessed from the data (printed, to
be confirmed), a front layout that prints every column legibly, a back, and a rules.md skeleton.
Nothing existing is overwritten; every file is written only when all of them are ready.
"""

from __future__ import annotations

import itertools
import math
import re
import shlex
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import base, i18n, output, textfile
from .i18n import _, ngettext
from .limits import DEFAULT, Limits
from .load import Table, read_table, split_sheet
from .model import ID_COLUMNS, NAME_COLUMNS
from .printed import say as printed_in
from .problems import BuildError, SourceRef, did_you_mean
from .project import MANIFEST, Project
from .rules.modules import RULES_FILE
from .validate import _convert, template_ref

# --size NAME: (the size in sheets.toml, the sheet to print on)
SIZES = {
    "poker": ("poker", "poker_3x3"),
    "bridge": ("bridge", "poker_3x3"),
    "mini": ("mini", "auto"),
    "tarot": ("tarot", "tarot_2x2"),
    "square": ("square70", "auto"),
}
_GAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
# --kind: the size a piece of that kind gets without --size
PIECE_SIZES = {"card": "poker", "token": "25x25", "die": "18x18", "board": "400x280"}
# what a new game calls its cards and boards (name in game.toml), in the language it prints in
PIECE_NAMES = {
    "ja": {"card": "カード", "board": "ボード"},
    "en": {"card": "Cards", "board": "Board"},
}


def _piece_name(language: str, kind: str) -> str:
    """What a new game calls its cards or its board, in English for a language pnp has no
    names in."""
    return PIECE_NAMES.get(language, PIECE_NAMES["en"])[kind]


TRACK = 50  # the squares of a new board's score track, 0–49 around its edge
_COMPONENT = re.compile(r"^[a-z][a-z0-9_]{0,29}$")
TITLE_NAMES = (*NAME_COLUMNS, "card")  # a column that names the card, printed in the band
NOT_PRINTED = ("provisional",)  # and the copies column, whatever its name
# Headers that say how many of a card there are: a column of whole numbers under one of these
# names becomes the `copies` column (not printed; its total is the deck's size).
COPIES_NAMES = ("count", "copies", "qty", "quantity", "枚数", "部数", "個数", "数量", "枚")
COPIES_NAMES += ("anzahl", "menge", "nombre", "quantité", "cantidad", "copias")
# a count written as card lists write copies, whatever the column's name: x3, 2×
_TIMES_WRITTEN = re.compile(r"\s*(?:[xX×✕]\s*[0-9]+|[0-9]+\s*[xX×✕])\s*")
# A column of file names with these endings is the cards' art (an image box, not text).
PICTURE_ENDINGS = (".png", ".jpg", ".jpeg", ".svg", ".webp", ".tif", ".tiff", ".gif", ".bmp")
LONG = 16  # characters: a value longer than this gets a text area, not one line
# Headers of a card's rules text: a text area and no label however short its values ("Burn a
# card" is text to read, not "text: Burn a card")
TEXT_NAMES = ("text", "rules", "rules text", "effect", "ability", "description", "flavor")
TEXT_NAMES += ("flavour", "texte", "effet", "effekt", "texto", "efecto", "testo", "effetto")
TEXT_NAMES += ("テキスト", "効果", "能力", "説明", "ルール", "本文", "フレーバー", "効果テキスト")
# Three cards to start from, without a spreadsheet: in the language of the messages
SAMPLES = {
    "ja": [
        ["name", "cost", "text", "count"],
        ["火", "1", "場のカードを１枚燃やす。", "3"],
        ["水", "2", "手札を１枚引く。", "2"],
        ["風", "3", "好きなプレイヤーと手札を１枚交換する。", "1"],
    ],
    "en": [
        ["name", "cost", "text", "count"],
        ["Fire", "1", "Burn a card in play.", "3"],
        ["Water", "2", "Draw a card.", "2"],
        ["Wind", "3", "Swap a card from your hand with any player.", "1"],
    ],
}


@dataclass
class Column:
    """A spreadsheet column as `pnp new` reads it, to guess its type."""

    name: str
    type: str
    values: list[str]  # non-empty values, in row order
    blanks: bool = False  # some rows leave it empty

    @property
    def picture(self) -> bool:
        """A column of picture files (fox.png, art/owl.jpg): the front shows it as art."""
        return (
            self.type == "text"
            and bool(self.values)
            and all(v.lower().endswith(PICTURE_ENDINGS) for v in self.values)
        )

    @property
    def markup(self) -> bool:
        """Values written with card markup (`**bold**`, `{color=red}…{/color}`): its box reads
        them as formatting, as the designer meant, instead of printing the marks. Not when a
        value has a ** left unpaired: the column writes ** as data (two wild resources, say),
        and a pair in another value is two of those, not bold."""
        return (
            self.type == "text"
            and any(_MARKUP.search(v) for v in self.values)
            and all(v.count("**") % 2 == 0 for v in self.values)
        )

    @property
    def numeric(self) -> bool:
        """A whole-number column, or one whose values are mostly numbers (a stat with a date or
        a dash among them): the type line labels it ("Attack 6"), a bare 6 says nothing."""
        if self.type == "int":
            return True
        counted = sum(1 for v in self.values if re.fullmatch(r"[+-]?\d+(?:\.\d+)?%?", v))
        return self.type == "text" and counted * 2 > len(self.values)

    @property
    def longest(self) -> int:
        return max((len(v) for v in self.values), default=0)

    @property
    def long(self) -> bool:
        """Text to read in an area of its own: long values, or a column headed as rules text."""
        named = self.type == "text" and self.name.strip().lower() in TEXT_NAMES
        return self.longest > LONG or (named and not self.numeric and not self.picture)

    @property
    def ref(self) -> str:
        """How a template reads this column."""
        return template_ref(self.name)


@dataclass
class NewGame:
    """What `pnp new` made: the files, and the guessed composition to show the designer."""

    files: dict[Path, bytes] = field(default_factory=dict)
    columns: list[Column] = field(default_factory=list)
    composition: list[str] = field(default_factory=list)  # TOML lines
    cards: int = 0
    notes: list[str] = field(default_factory=list)  # what the designer should know
    replaced: set[Path] = field(default_factory=set)  # files written over (--add: game.toml)
    kind: str = "card"  # what the rows make: card, token or die
    style: str = "list"  # the front's starter style (STYLES)
    language: str = "ja"  # the language the game prints in ([game] languages)


def init(folder: Path, example: str | None = None) -> list[Path]:
    """A new project folder: cards/, layouts/_shared/ (the tool's base, to change), a README;
    with `example`, one of the shipped games in it too. An example asked for in a folder that
    is already a project is added to it."""
    if example is not None:
        _example_known(example)
    if (folder / "cards").exists() and example is None:
        raise BuildError(
            _(
                "{folder}: already a project (it has a cards/ folder); nothing written",
                folder=folder,
            )
        )
    if folder.exists() and not folder.is_dir():
        raise BuildError(
            _("{folder}: a file is in the way where the project folder should be", folder=folder)
        )
    files: dict[Path, bytes] = {}
    if not (folder / "cards").exists():
        for p in sorted(base.BASE_LAYOUTS.iterdir()):
            if p.is_file():
                files[folder / "layouts" / base.SHARED / p.name] = p.read_bytes()
        for p in sorted(base.SCHEMAS.iterdir()):  # for editors: see docs/reference/manifest.md
            files[folder / "schema" / p.name] = p.read_bytes()
        if not (folder / "README.md").exists():
            name = folder.resolve().name
            files[folder / "README.md"] = _filled("README.md.j2", name=name).encode()
        if not (folder / ".gitignore").exists():
            files[folder / ".gitignore"] = b"output/\n"
    if example is not None:
        files.update(_example_files(folder, example))
        if (folder / "cards").exists():  # a project that exists may be someone else's
            _confined(folder, files)
    _write(files)
    (folder / "cards").mkdir(parents=True, exist_ok=True)
    return [folder / "cards", *files]


_JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff01-\uff9f]")


def language_of(table: Table, title: str = "") -> str:
    """The language a new game prints in, read from its spreadsheet: Japanese ("ja") where
    its title, column names or cells hold kana, kanji or full-width forms, else English
    ("en")."""
    cells = (v for row in table.rows for v in row.values.values() if isinstance(v, str))
    said = itertools.chain([title], table.columns, cells)
    return "ja" if any(_JAPANESE.search(text) for text in said) else "en"


def _example_known(example: str) -> None:
    names = base.examples()
    if example not in names:
        raise BuildError(
            _(
                "no example game '{name}'{hint}; the examples are {names}",
                name=example,
                hint=did_you_mean(example, names),
                names=", ".join(names),
            )
        )


def _example_files(folder: Path, example: str) -> dict[Path, bytes]:
    """The shipped game's own files (its cards/ and layouts/ folders), as a project holds
    them; nothing of a game the project already has is replaced."""
    files: dict[Path, bytes] = {}
    for part in ("cards", "layouts"):
        there = folder / part / example
        if there.exists():
            raise BuildError(_("{path}: the project already has it; nothing written", path=there))
        shipped = base.EXAMPLES / part / example
        for p in sorted(shipped.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts:  # pip compiled its rules.py
                files[there / p.relative_to(shipped)] = p.read_bytes()
    return files


def new(
    root: Path,
    game: str,
    source: str | None,
    size: str = "poker",
    title: str | None = None,
    players: tuple[int, int] = (2, 4),
    limits: Limits = DEFAULT,
    rules: bool = False,
    header: int | None = None,
    link: bool = False,
    style: str | None = None,
    language: str | None = None,
) -> NewGame:
    if not _GAME.fullmatch(game):
        raise BuildError(
            _(
                "'{game}' cannot be a game's name: use a–z, A–Z, 0–9, '_' or '-' (up to 40), "
                "e.g. 'mygame'; the title printed on the cards (Japanese too) is --title",
                game=game,
            )
        )
    folder = root / "cards" / game
    if style is not None and style not in STYLES:
        raise BuildError(
            _(
                "--style {style!r}: the styles are {styles}",
                style=style,
                styles=", ".join(f"{k} ({v})" for k, v in STYLES.items()),
            )
            + did_you_mean(style, STYLES)
        )
    if folder.exists() and source and (folder / MANIFEST).is_file():
        raise BuildError(
            _(
                "{folder} already exists; nothing written. To add these cards to {game} as "
                "another deck: pnp new {game} --from {source} --add ID (ID: the deck's id, "
                "e.g. event)",
                folder=f"cards/{game}/",
                game=game,
                source=shlex.quote(source),
            )
        )
    if folder.exists():
        raise BuildError(_("{folder} already exists; nothing written", folder=f"cards/{game}/"))
    if (root / "layouts" / game).exists():
        raise BuildError(_("{folder} already exists; nothing written", folder=f"layouts/{game}/"))
    card_size, sheet = _size(size)
    # the sample cards are in the language asked for, else the messages'; a sheet says its own
    made = NewGame(language=language or i18n.language())
    table, data_name, data, data_ref = _source(source, limits, header, made, "cards.csv")
    columns = _guess(table, made)
    title = title or game
    if table is not None and language is None:
        made.language = language_of(table, title)
    if link and source:  # the designer's file, where it is: game.toml names it from the folder
        data_ref = _linked(root, folder, source)
    else:
        made.files[folder / data_name] = data
        if source:
            made.notes.append(
                _(
                    "{file} is copied into cards/{game}/: edit that copy, or start again with "
                    "--link to keep building from the spreadsheet where it is (inside the "
                    "project)",
                    file=data_name,
                    game=game,
                )
            )
    made.files[folder / MANIFEST] = _manifest(
        title, players, data_ref, card_size, sheet, columns, made, source, header
    ).encode()
    template = "rules.md.j2" if made.language == "ja" else "rules.en.md.j2"
    made.files[folder / "rules.md"] = _filled(template, title=title).encode()
    if rules:
        value = next((c.name for c in columns if c.type == "int"), None)
        made.files[folder / RULES_FILE] = _rules_module(title, "card", value).encode()
    w, h = _dimensions(root, card_size)
    layouts = root / "layouts" / game
    style = style or chosen_style(columns)
    made.style = style
    made.files[layouts / "card_front.toml"] = front_in_style(
        style, columns, w, h, made.language
    ).encode()
    made.files[layouts / "card_back.toml"] = _back().encode()
    if (root / "schema").is_dir():  # the editors' line (Taplo reads `#:schema PATH`)
        for path, data in made.files.items():
            kind = "game" if path.name == MANIFEST else "layout" if path.suffix == ".toml" else ""
            if kind and (root / "schema" / f"{kind}.schema.json").is_file():
                made.files[path] = f"#:schema ../../schema/{kind}.schema.json\n".encode() + data
    _confined(root, made.files)
    _write(made.files)
    return made


def add(
    root: Path,
    game: str,
    cid: str,
    source: str | None,
    size: str | None = None,
    limits: Limits = DEFAULT,
    header: int | None = None,
    kind: str = "card",
    deck_name: str | None = None,
) -> NewGame:
    """Another deck for an existing game (`pnp new GAME --from FILE --add ID`): a [[component]]
    appended to its game.toml, with its own columns and composition guessed from the
    spreadsheet, and its own front and back layouts; the spreadsheet copied in unless that very
    file is there already (another sheet of the same workbook). `kind` token or die: punch-out
    tokens (one-sided, on the tokens sheet) or dice (a row per face), each face its name in
    the middle."""
    if kind not in PIECE_SIZES:
        raise BuildError(
            _(
                "--kind {kind!r}: pnp new makes card, token, die or board",
                kind=kind,
            )
        )
    folder = root / "cards" / game
    manifest = folder / MANIFEST
    if not manifest.is_file():
        raise BuildError(
            _(
                "--add: there is no game '{game}' ({file} is missing); make it first: "
                "pnp new {game} --from FILE",
                game=game,
                file=f"cards/{game}/{MANIFEST}",
            )
        )
    if not _COMPONENT.fullmatch(cid):
        raise BuildError(
            _(
                "--add {id!r}: a component's id is a–z, 0–9 and '_' (up to 30), starting with a "
                "letter, e.g. 'event'; the name printed on the cards comes from the sheet's "
                "name (name in game.toml)",
                id=cid,
            )
        )
    from . import tomlfile
    from .textfile import read_text

    where = SourceRef(f"cards/{game}/{MANIFEST}")
    text = read_text(manifest, where)  # what a build reads: its encodings, its messages
    raw = tomlfile.parse(text, where, MANIFEST).data
    listed = raw.get("component", [])
    ids = [c.get("id") for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []
    if cid in ids:
        raise BuildError(
            _(
                "{game} already has a component '{id}' (components: {ids}); give the new deck "
                "another id",
                game=game,
                id=cid,
                ids=", ".join(map(str, ids)),
            )
        )
    layouts = root / "layouts" / game
    for name in (f"{cid}_front", f"{cid}_back"):  # a token or die has no back: the name is kept
        if (layouts / f"{name}.toml").exists():
            raise BuildError(
                _("{file} already exists; nothing written", file=f"layouts/{game}/{name}.toml")
            )
    card_size, sheet = _size(size or PIECE_SIZES[kind])
    made = NewGame(kind=kind)
    head = raw.get("game") if isinstance(raw.get("game"), dict) else {}
    title = head.get("title")
    said = head.get("languages")
    made.language = said[0] if isinstance(said, list) and said and said[0] in PIECE_NAMES else "ja"
    if kind == "board":  # drawn by its layout alone: no spreadsheet
        if source:
            raise BuildError(
                _(
                    "--kind board reads no spreadsheet (a board is drawn by its layout alone): "
                    "leave out --from"
                )
            )
        w, h = _dimensions(root, card_size)
        named = (deck_name or "").strip() or _piece_name(made.language, "board")
        block = _component(cid, named, "", card_size, "", [], [], None, "board")
        made.files[layouts / f"{cid}_front.toml"] = _board(w, h, str(title or game)).encode()
        return _append(root, made, layouts, manifest, text, block)
    table, data_name, data, data_ref = _source(source, limits, header, made, f"{cid}.csv")
    there = folder / data_name
    path_text = split_sheet(source)[0] if source else ""
    if there.exists() and there.read_bytes() != data:
        raise BuildError(
            _(
                "{file} is already in the game (builds read that copy) and differs from "
                "{source}; nothing written. A sheet added to your workbook since: copy the "
                "workbook over the game's copy and run this again, or add the sheet to the "
                "game's copy and give --from {file}#SHEET; another file of the same name: "
                "rename it",
                file=f"cards/{game}/{data_name}",
                source=path_text,
            )
        )
    columns = _guess(table, made)
    named = (deck_name or "").strip() or data_ref.partition("#")[2]
    named = named or (Path(path_text).stem if source else cid)
    block = _component(
        cid, named, data_ref, card_size, sheet, columns, made.composition, header, kind
    )
    if not there.exists():
        made.files[there] = data
    w, h = _dimensions(root, card_size)
    if kind == "card":
        made.style = chosen_style(columns)
        made.files[layouts / f"{cid}_front.toml"] = front_in_style(
            made.style, columns, w, h, made.language
        ).encode()
        made.files[layouts / f"{cid}_back.toml"] = _back().encode()
    else:
        made.files[layouts / f"{cid}_front.toml"] = _piece(
            columns, w, h, kind, made.language
        ).encode()
    return _append(root, made, layouts, manifest, text, block)


def _confined(root: Path, paths) -> None:
    """Nothing is written through a folder linked out of the project (a project may be
    someone else's), as builds read nothing outside it."""
    from .textfile import confine

    for path in paths:
        shown = str(path.relative_to(root))
        confine(path, root, SourceRef(shown), shown)


def _append(root: Path, made: NewGame, layouts: Path, manifest: Path, text: str, block: str):
    """Write `made`'s files, then game.toml with the component `block` appended (last, so a
    failure part way leaves the game as it was)."""
    _confined(root, [*made.files, manifest])
    if (root / "schema" / "layout.schema.json").is_file():
        for path in [p for p in made.files if p.parent == layouts]:
            made.files[path] = b"#:schema ../../schema/layout.schema.json\n" + made.files[path]
    made.files[manifest] = (text.rstrip("\r\n") + "\n\n" + block).encode()
    made.replaced = {manifest}
    _write(made.files, replace=made.replaced)
    return made


def _guess(table: Table | None, made: NewGame) -> list[Column]:
    """The columns' types, the card count and the composition, from the rows (in `made`)."""
    rows = _rows(table, made.language)
    made.columns = columns = _columns(rows)
    marked = [c.name for c in columns if c.markup and c.name not in NOT_PRINTED]
    if marked:
        made.notes.append(
            _(
                "{columns}: written with **bold** or {{color=…}} marks; the front prints them as "
                "formatting (markup = true in its layout)",
                columns=i18n.listed(marked),
            )
        )
    made.cards = sum(_copies(r, columns) for r in rows)
    made.composition = _composition(columns, rows)
    tables, words = _proposed_checks(columns, rows)
    made.composition += tables
    made.notes += words
    return columns


FEW = 12  # a column of this many values or fewer, each on several rows, sorts the deck


def _proposed_checks(columns: list[Column], rows: list[dict[str, str]]) -> tuple[list, list]:
    """What makes the composition catch a designer's slips from the first build, as TOML
    lines after [component.composition] and in plain words: a count for each value of the
    column that sorts the deck (kind: 光 5, タネ 7…), so a misspelled or moved card is named,
    and the columns that follow from it (points from kind), so two swapped kinds are."""
    if len(rows) < 6:
        return [], []
    usable = [
        c
        for c in columns
        if c.name not in NOT_PRINTED and c.type not in ("copies",) and not c.blanks and c.values
    ]
    values = {c.name: [r.get(c.name, "").strip() for r in rows] for c in usable}

    def sorts(c: Column) -> bool:  # a few values, each on two rows or more
        counts = Counter(values[c.name])
        return 2 <= len(counts) <= FEW and min(counts.values()) >= 2 and c.type != "color"

    sorters = [c for c in usable if sorts(c)]
    tables: list[str] = []
    words: list[str] = []
    # a kind or a suit, short words, before a rules text that happens to take few values
    texts = [c for c in sorters if c.type == "text"]
    text_sorters = [c for c in texts if c.longest <= LONG] or texts or sorters
    if text_sorters:
        g = min(text_sorters, key=lambda c: len(set(values[c.name])))
        per: dict[str, int] = {}
        for r in rows:
            v = r.get(g.name, "").strip()
            per[v] = per.get(v, 0) + _copies(r, columns)
        for v, n in per.items():
            value = v if g.type == "int" and re.fullmatch(r"-?[0-9]+", v) else _q(v)  # 3, "光"
            tables += ["", "[[component.composition.group]]"]
            tables += [f"when = {{ {_key(g.name)} = {value} }}", f"total = {n}"]
        words.append(
            _(
                "each {column} is counted ({counts}): a card of a misspelled or changed {column}, "
                "or one more or fewer of one, is named at its row",
                column=g.name,
                counts=i18n.listed(f"{v} {n}" for v, n in per.items()),
            )
        )
    follows = []
    for a in usable:
        for b in sorted(sorters, key=lambda c: len(set(values[c.name]))):
            if a is b or len(set(values[a.name])) < 2:
                continue
            pairs = set(zip(values[b.name], values[a.name]))
            if len(pairs) == len(set(values[b.name])):  # each value of b has one of a
                mutual = len(pairs) == len(set(values[a.name]))
                if not mutual or (a.type == "color" or columns.index(a) > columns.index(b)):
                    follows.append((a, b))
                break
    if follows:
        tables += ["", "[component.depends]"]
        tables += [f"{_key(a.name)} = {_q(b.name)}" for a, b in follows]
        for a, b in follows:
            words.append(
                _(
                    "{column} follows from {other}: two cards whose {other} were swapped are "
                    "named at their rows",
                    column=a.name,
                    other=b.name,
                )
            )
    return tables, words


def _linked(root: Path, folder: Path, source: str) -> str:
    """game.toml's `data` for a spreadsheet kept where it is (`--link`): its path from the
    game's folder, with its sheet; a file outside the project is refused (a project's paths
    stay inside it)."""
    import os

    path_text, sheet_name = split_sheet(source)
    path = Path(path_text).expanduser().resolve()
    top = root.resolve()
    if top not in path.parents:
        raise BuildError(
            _(
                "--link: {file} is outside the project; move it into {root}/ (a project's "
                "paths stay inside it), or leave out --link to copy it in",
                file=source,
                root=root,
            )
        )
    ref = Path(os.path.relpath(path, folder.resolve())).as_posix()
    return f"{ref}#{sheet_name}" if sheet_name else ref


def _source(
    source: str | None, limits: Limits, header: int | None, made: NewGame, sample_name: str
) -> tuple[Table | None, str, bytes, str]:
    """The spreadsheet `--from` names, read as a build will read it: (the table, the file's
    name in the game's folder, its bytes, game.toml's `data`); without one, sample cards."""
    if source:
        path_text, sheet_name = split_sheet(source)
        sheet_name = sheet_name or ""
        path = Path(path_text).expanduser()
        if not path.exists():
            raise BuildError(_("{file}: no such file", file=source))
        textfile.regular(path, SourceRef(str(path)))  # a folder, a pipe: said, not waited on
        table = read_table(
            path, SourceRef(path.name), sheet_name or None, limits, first=True, header=header
        )
        if table.hint:  # a title above the header: the header is not where a build reads it
            message = ngettext(
                "the header row names {n} column but the rows under it have more cells",
                "the header row names {n} columns but the rows under it have more cells",
                len(table.columns),
            )
            raise BuildError(message + table.hint, table.where.at(row=table.header_row))
        data_name = path.name
        data = path.read_bytes()
        if not sheet_name and table.others:  # the first of several sheets: named in game.toml
            sheet_name = table.where.sheet
            made.notes.append(
                _(
                    "{file} has {n} sheets: the cards are read from '{sheet}', the first that "
                    "reads as a table; for another, --from {file}#SHEET (or data in game.toml)",
                    file=data_name,
                    n=len(table.others) + 1,
                    sheet=sheet_name,
                )
            )
        data_ref = f"{data_name}#{sheet_name}" if sheet_name else data_name
        return table, data_name, data, data_ref
    data = ("\n".join(",".join(r) for r in _samples(made.language)) + "\n").encode()
    return None, sample_name, data, sample_name


def rules_module(project: Project, game: str) -> Path:
    """A rules.py for an existing game (`pnp new GAME --rules`): it plays the dealt component
    (else the first deck of cards) and scores its first whole-number column."""
    manifest = project.manifest(game)
    path = manifest.folder / RULES_FILE
    if path.exists():
        raise BuildError(_("{file} already exists; nothing written", file=project.rel(path)))
    decks = [c for c in manifest.components if c.data and c.printed]
    dealt = (manifest.deal or {}).get("component")
    picked = next((c for c in decks if c.id == dealt), None) or next(
        (c for c in decks if c.kind == "card"), decks[0] if decks else None
    )
    if picked is None:
        raise BuildError(
            _(
                "{game} has no component with a data file for its rules to play; add one to "
                "game.toml first",
                game=game,
            )
        )
    value = next(
        (n for n, t in picked.columns.items() if t == "int" and n != picked.copies_column), None
    )
    _write({path: _rules_module(manifest.title, picked.id, value).encode()})
    return path


def _rules_module(title: str, component: str, value: str | None) -> str:
    """A game that already plays (deal the deck, each player in turn plays a card, the highest
    total wins), for the designer to make theirs."""
    return _filled(
        "rules.py.j2",
        title=title,
        component=component,
        value=f"the {value!r} column" if value else "cards played",
        value_of=f"card[{value!r}]" if value else "1",
    )


def _filled(template: str, **context) -> str:
    """A file of data/scaffold, filled in."""
    from .layout.templates import tool_file

    return tool_file(template, {"toml": _q}, **context)


def _write(files: dict[Path, bytes], replace: frozenset | set = frozenset()) -> None:
    """Every file, or (a failure part way) none of those this call created; a file in `replace`
    (game.toml, given last) is written over, atomically."""
    written: list[Path] = []
    try:
        for path, data in files.items():
            if path.exists() and path not in replace:
                continue
            output.atomic_write(path, data)
            written.append(path)
    except OSError as exc:
        for path in written:
            path.unlink(missing_ok=True)
        raise BuildError(output.describe(exc, None)) from None


def _size(size: str) -> tuple[str | dict, str]:
    from .layout.sheets import width_by_height
    from .layout.units import MM

    if size in SIZES:
        return SIZES[size]
    written = width_by_height(size)
    if written:
        w, h = (round(v / MM, 2) for v in written)
        if 10 <= w <= 400 and 10 <= h <= 400:
            return {"w": f"{w:g}mm", "h": f"{h:g}mm"}, "auto"
    raise BuildError(
        _(
            "--size {size!r}: use {sizes} or a width×height in mm between 10 and 400, e.g. 50x70",
            size=size,
            sizes=", ".join(SIZES),
        )
    )


def _dimensions(root: Path, size: str | dict) -> tuple[float, float]:
    """The card's width and height in mm, from the project's sheets.toml (else the tool's)."""
    from .layout.sheets import card_size, load_sheet_defs
    from .layout.units import MM
    from .problems import rel

    defs = load_sheet_defs(root / "layouts", lambda p: rel(p, root))
    w, h, _ = card_size(defs, size, defs.where)
    return w / MM, h / MM


def _samples(language: str) -> list[list[str]]:
    return SAMPLES.get(language, SAMPLES["en"])


def _rows(table: Table | None, language: str = "ja") -> list[dict[str, str]]:
    if table is None:
        header, *body = _samples(language)
        return [dict(zip(header, r)) for r in body]
    return [row.values for row in table.rows]


def _copies(row: dict[str, str], columns: list[Column]) -> int:
    """How many cards a row makes: its copies column's value, else 1."""
    name = next((c.name for c in columns if c.type == "copies"), None)
    value, problem = _convert("copies", row.get(name, "") if name else "")
    return 1 if problem or value is None else int(value)


def _columns(rows: list[dict[str, str]]) -> list[Column]:
    names = list(rows[0]) if rows else []
    out = []
    for name in names:
        values = [r.get(name, "").strip() for r in rows]
        values = [v for v in values if v]
        kind = _type_of(name, values)
        if kind in ("int", "color") and len(values) < len(rows):
            # numbers or colours some rows leave empty: printed as written (an int or color
            # column needs a value on every row, and the first build would stop at the gap)
            kind = "text"
        if kind == "copies" and any(c.type == "copies" for c in out):
            kind = "int"  # one copies column: the first
        out.append(Column(name, kind, values, blanks=len(values) < len(rows)))
    return out


_MARKUP = re.compile(r"\*\*[^*\n]+\*\*|\{(color|size)=[^{}]*\}.*?\{/\1\}")


def _type_of(name: str, values: list[str]) -> str:
    named = name.strip().lower() in COPIES_NAMES or (
        values and all(_TIMES_WRITTEN.fullmatch(v) for v in values)
    )
    if named and all((n := _convert("copies", v)[0]) is not None and n >= 0 for v in values):
        return "copies"  # 3, x2, 2枚; an empty cell is one card
    if name == "provisional":
        return "bool"
    if not values:
        return "text"
    if any(len(v) > 1 and v[0] == "0" and v[1].isdigit() for v in values):
        return "text"  # 007: the zeros are meant to print (as a number it would print 7)
    for kind in ("int", "color"):
        if all(_convert(kind, v)[1] is None for v in values):
            return kind
    return "text"


def _composition(columns: list[Column], rows: list[dict[str, str]]) -> list[str]:
    """TOML lines for [component.composition]: the total always; a key (the fewest columns whose
    values tell every row apart) with its values when there are few, and copies when every card
    comes the same number of times."""
    total = sum(_copies(r, columns) for r in rows)
    lines = [f"total = {total}"]
    candidates = [
        c for c in columns if c.name not in NOT_PRINTED and c.type not in ("color", "copies")
    ]

    def tells_rows_apart(group: tuple[Column, ...]) -> bool:
        combos = [tuple(r.get(c.name, "").strip() for c in group) for r in rows]
        return all(all(combo) for combo in combos) and len(set(combos)) == len(combos)

    key = next(
        (
            list(group)
            for size in (1, 2)
            for group in itertools.combinations(candidates, size)
            if tells_rows_apart(group)
        ),
        None,
    )
    if not key:
        return lines
    copies = {_copies(r, columns) for r in rows}
    lines.insert(0, "key = [" + ", ".join(_q(c.name) for c in key) + "]")
    if len(copies) != 1:  # copies differ card to card: how many of each, from the count column
        if len(key) == 1 and len(rows) <= 60:
            counts = ", ".join(
                f"{_q(r[key[0].name].strip())} = {_copies(r, columns)}"
                for r in rows
                if _copies(r, columns)
            )
            lines.append(f"{_key(key[0].name)} = {{ {counts} }}")
            return lines
        return lines[1:]  # the total holds the deck
    if len(key) > 1 and len(rows) != math.prod(len({r[c.name].strip() for r in rows}) for c in key):
        # not every value of one with every value of the other (Dragon 1–183 but Cave 1–75):
        # each column's values would ask for cards the deck does not have
        lines.append(f"copies = {copies.pop()}")
        return lines
    for c in key:
        distinct = sorted(set(c.values), key=c.values.index)
        if c.type == "int":
            numbers = sorted(int(_convert("int", v)[0]) for v in distinct)  # type: ignore[arg-type]
            if numbers == list(range(numbers[0], numbers[-1] + 1)):
                lines.append(f"{_key(c.name)} = {{ min = {numbers[0]}, max = {numbers[-1]} }}")
                continue
        if len(distinct) <= 12 and len(key) > 1:
            lines.append(f"{_key(c.name)} = [" + ", ".join(_q(v) for v in distinct) + "]")
    lines.append(f"copies = {copies.pop()}")
    return lines


def _q(text: str) -> str:
    """`text` as a TOML basic string, quotes and control characters (a line break in a title or
    a header cell) escaped, so the file parses whatever the text is."""
    import tomlkit

    return tomlkit.string(text).as_string()


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _q(name)


def _manifest(
    title: str,
    players: tuple[int, int],
    data: str,
    size: str | dict,
    sheet: str,
    columns: list[Column],
    made: NewGame,
    source: str | None,
    header: int | None = None,
) -> str:
    origin = f"from {Path(source).name}" if source else "with sample cards"
    lines = [
        f"# Made by `pnp new` {origin}. The columns' types and the composition were guessed",
        "# from the data: confirm them. `pnp check` holds the deck to the composition.",
        "[game]",
        f"title = {_q(title)}",
        f"players = {{ min = {players[0]}, max = {players[1]} }}",
        'rules = "rules.md"',
        f"languages = [{_q(made.language)}]  # what it prints in; more: its editions",
        "",
        "[fonts]",
        'body = { family = "Noto Sans CJK JP", weight = "Regular" }',
        'bold = { family = "Noto Sans CJK JP", weight = "Bold" }',
        "",
    ]
    name = _piece_name(made.language, "card")
    block = _component("card", name, data, size, sheet, columns, made.composition, header)
    return "\n".join(lines) + "\n" + block


def _component(
    cid: str,
    name: str,
    data: str,
    size: str | dict,
    sheet: str,
    columns: list[Column],
    composition: list[str],
    header: int | None,
    kind: str = "card",
) -> str:
    """A [[component]] table of game.toml: a deck read from `data`, its layouts `ID_front` and
    `ID_back` (a token or die: a front alone, on its kind's own sheet)."""
    size_text = _q(size) if isinstance(size, str) else f'{{ w = "{size["w"]}", h = "{size["h"]}" }}'
    if kind == "board":  # drawn by its layout alone
        return "\n".join(
            [
                "[[component]]",
                f"id = {_q(cid)}",
                f"name = {_q(name)}",
                'kind = "board"',
                f"size = {size_text}",
                f"front = {_q(cid + '_front')}",
                "",
            ]
        )
    lines = [
        "[[component]]",
        f"id = {_q(cid)}",
        f"name = {_q(name)}",
        *([f"kind = {_q(kind)}"] if kind != "card" else []),
        f"data = {_q(data)}",
        f"size = {size_text}",
        f"front = {_q(cid + '_front')}",
        *([f"back = {_q(cid + '_back')}", f"sheet = {_q(sheet)}"] if kind == "card" else []),
        *([f"header = {header}  # the row of the column names"] if header else []),
        "",
        "  [component.columns]",
        *(f"  {_key(c.name)} = {_q(c.type)}" for c in columns),
        "",
        "  [component.composition]",
        *(f"  {line}" if line else "" for line in composition),
        "",
    ]
    return "\n".join(lines)


STYLES = {
    "list": "every column: the name in a band, a picture, short values as 「column：value」 lines",
    "classic": "a corner index, the name in a band, a picture, a type line and a rules box",
    "number": "a big number in the middle, the name above it, the text under it",
    "minimal": "text only: the name, a rule, a type line and the rules text",
}


def chosen_style(columns: list[Column]) -> str:
    """The style the columns ask for, when --style does not say: a name and a rules text
    make a `classic` card (with its corner index where a small number repeats); a name and
    such a number with little else, a `number` card; many short values, or no name, print
    every column a line each (`list`)."""
    roles = _roles(columns)
    if roles["title"] is None or len(roles["short"]) > 4:  # many values: a line each
        return "list"
    if roles["long"]:
        return "classic"
    return "number" if roles["index"] is not None and len(roles["short"]) <= 2 else "list"


def front_in_style(
    style: str, columns: list[Column], w: float, h: float, language: str = "ja"
) -> str:
    """The front layout `pnp new` writes in `style` (STYLES; without --style, the one
    `chosen_style` picks): `list` prints every column as lines; the others set the columns
    as a card sets them, each read by its role: the name, a small number (the corner index
    or the big number), picture files, short values (a type line) and long ones (the rules
    text), through data/scaffold/styled.toml.j2."""
    if style == "list":
        return _front(columns, w, h, language)
    roles = _roles(columns)
    title, index, colour = roles["title"], roles["index"], roles["colour"]
    fill = f"{{{{ {colour.ref} }}}}" if colour else "#2F5DA8"
    ink = f"{{{{ {colour.ref} | ink }}}}" if colour else "#FFFFFF"
    band = round(max(9.0, min(16.0, h * 0.14)), 1)
    boxes: list[dict] = []

    def text(name, cols, x, y, width, tall, font, size, least, color, align=None, raw=None):
        box = _text_box(
            name,
            raw or cols[0].ref,
            x,
            y,
            tall,
            font,
            size,
            least,
            color,
            "middle",
            cols[0],
            raw=raw is not None,
            w=width,
        )
        box.update(kind="text", align=align, markup=any(c.markup for c in cols))
        boxes.append(box)

    def shape(kind, name, x, y, width, tall, colour, bleed=False):
        boxes.append(
            {
                "kind": kind,
                "name": name,
                "x": _length(x),
                "y": _length(y),
                "w": _length(width),
                "h": _length(tall),
                "fill": colour,
                "bleed": bleed,
            }
        )

    y = 3.0
    if style == "classic":
        shape("rect", "band", 0, 0, "W", band, fill, bleed=True)
        x = 3.0
        if index is not None:
            d = band - 2
            shape("ellipse", "badge", 1.5, 1, d, d, "#FFFFFF")
            text("index", [index], 1.5, 1, f"{d:g}mm", d, "bold", 14, 8, fill, "center")
            x = d + 3
        if title is not None:
            text("title", [title], x, 1.5, f"W - {x + 3:g}mm", band - 3, "bold", 14, 8, ink)
        y = band + 2
        picture = roles["picture"]
        src = (
            "{{ " + picture.ref + " }}"
            if picture
            else f"art/{{{{ {title.ref} }}}}.png"
            if title is not None
            else None
        )
        if src:
            art_h = round((h - y - 4) * 0.42, 1)
            boxes.append(
                {
                    "kind": "image",
                    "name": "art",
                    "x": "4mm",
                    "y": _length(y),
                    "w": "W - 8mm",
                    "h": _length(art_h),
                    "src": src,
                }
            )
            y += art_h + 1.5
    elif style == "number":
        if title is not None:
            text("title", [title], 4, 3, "W - 8mm", 8, "bold", 13, 8, "#222222", "center")
        y = 12.0
        if index is not None:
            big = round(h * 0.3, 1)
            text("number", [index], 4, y, "W - 8mm", big, "bold", 72, 24, fill, "center")
            y += big + 2
    else:  # minimal
        if title is not None:
            text("title", [title], 4, 4, "W - 8mm", 8, "bold", 13, 8, "#222222")
        shape("rect", "rule", 4, 12.5, "W - 8mm", 0.4, fill)
        y = 15.0
    shown = roles["short"] if style != "minimal" or index is None else [index, *roles["short"]]
    if shown:
        typed = printed_in(language, " ・ ").join(
            f"{_label(c.name)} {{{{ {c.ref} }}}}" if c.numeric else f"{{{{ {c.ref} }}}}"
            for c in shown
        )
        text("type", shown, 4, y, "W - 8mm", 5, "bold", 8, 6, "#444444", raw=typed)
        y += 6
    each = max(6.0, (h - 4 - y) / len(roles["long"])) if roles["long"] else 0
    for i, c in enumerate(roles["long"]):
        text(f"text{i + 1}", [c], 4, y, "W - 8mm", each - 1, "body", 9, 6, "#222222")
        boxes[-1]["valign"] = "top"
        y += each
    for c in roles["ids"]:  # a running number, small in the corner, as printed cards carry one
        text("serial", [c], "W - 14mm", h - 5, "10mm", 3.5, "body", 6, 5, "#888888", "right")
    return _filled("styled.toml.j2", style=style, words=STYLES[style], boxes=boxes)


def _roles(columns: list[Column]) -> dict:
    """What each column is to a card: its name, a small number (not an id), picture files,
    a colour, short values and long text."""
    printed = [c for c in columns if c.name not in NOT_PRINTED and c.type != "copies"]
    picture = next((c for c in printed if c.picture), None)
    colour = next((c for c in printed if c.type == "color"), None)
    words = [c for c in printed if c is not picture and c is not colour]
    title = _title_column(words)

    def small(c: Column) -> bool:  # a cost or a rank, not a running number
        numbers = [
            int(_convert("int", v)[0]) for v in c.values if _convert("int", v)[0] is not None
        ]
        return bool(numbers) and max(numbers) <= 20 and len(set(numbers)) < len(numbers)

    ints = [c for c in words if c.type == "int" and c is not title and not c.blanks]
    index = next((c for c in ints if small(c)), None)
    ids = [c for c in words if c not in (title, index) and c.name.strip().lower() in ID_COLUMNS]
    rest = [c for c in words if c not in (title, index) and c not in ids]
    return {
        "title": title,
        "index": index,
        "ids": ids,
        "picture": picture,
        "colour": colour,
        "short": [c for c in rest if not c.long],
        "long": [c for c in rest if c.long],
    }


def _length(value) -> str:
    return f"{value:g}mm" if isinstance(value, (int, float)) else value


def _front(columns: list[Column], w: float, h: float, language: str = "ja") -> str:
    """A front that prints every column: the title column in a band at the top (in the colour
    column's colour, if there is one), a column of picture files as art below it (a labelled
    placeholder until the file is in the game's folder), short values one line each as
    「column：value」, long values in text areas sharing the rest of the card; text shrinks to
    fit, down to 6 pt."""
    picture = next((c for c in columns if c.picture and c.name not in NOT_PRINTED), None)
    printed = [
        c
        for c in columns
        if c.name not in NOT_PRINTED and c.type not in ("color", "copies") and c is not picture
    ]
    colour = next((c for c in columns if c.type == "color"), None)
    title = _title_column(printed)
    rest = [c for c in printed if c is not title]
    short = [c for c in rest if not c.long]
    long = [c for c in rest if c.long]
    band = round(max(9.0, min(16.0, h * 0.14)), 1)
    before_art = []
    if title is not None:
        ink = f"{{{{ {colour.ref} | ink }}}}" if colour else "#FFFFFF"  # reads on a light row too
        before_art.append(
            _text_box("title", title.ref, 3, 1.5, band - 3, "bold", 14, 8, ink, "middle", title)
        )
    y, art = band + 3, None
    # A card has room for its picture from the start: the column of picture files, else a
    # file named after the card (art/NAME.png), a stand-in naming it until it is there.
    named_art = picture is None and title is not None and not title.blanks
    if named_art:  # only where the card's words leave the room (a short line each, 12 mm a text)
        free = h - y - 4 - 6.0 * len(short) - 12.0 * len(long)
        named_art = free >= 0.3 * h
    if picture is not None or named_art:
        art_h = round((h - y - 4) * 0.45, 1)
        if named_art:
            art_h = round(min(art_h, h - y - 4 - 6.0 * len(short) - 12.0 * len(long) - 2), 1)
        src = "{{ " + picture.ref + " }}" if picture else "art/{{ " + title.ref + " }}.png"
        note = (
            "The picture each row names, from the game's folder"
            if picture
            else f"Each card's picture: art/ and the card's {title.name} in the game's folder"
        )
        art = {"y": f"{y:g}mm", "h": f"{art_h:g}mm", "src": src, "note": note}
        y += art_h + 2
    line_h = 6.0
    room = h - y - 4
    # Crowded (many short values and no room for them a line each): two to a line, so the long
    # texts keep room enough to be read.
    per_line = 2 if len(short) > 4 and line_h * len(short) + 12 * len(long) > room else 1
    lines = -(-len(short) // per_line)
    need = line_h * lines + 12 * len(long)
    if need > room and need:
        line_h = max(3.5, line_h * room / need)
    boxes = []
    for i, c in enumerate(short):
        half = per_line == 2
        box = _text_box(
            f"col{i + 1}",
            f"{_label(c.name)}{printed_in(language, '：')}{{{{ {c.ref} }}}}",
            "W / 2 + 1mm" if half and i % 2 else 4,
            y,
            line_h,
            "body",
            9,
            6,
            "#222222",
            "middle",
            c,
            raw=True,
            w="W / 2 - 5mm" if half else None,
        )
        boxes.append({**box, "when": c.ref if c.blanks else None})
        if i % per_line == per_line - 1 or i == len(short) - 1:
            y += line_h
    if long:
        each = max(4.0, (h - 4 - y - 1) / len(long))
        for i, c in enumerate(long):
            boxes.append(
                _text_box(
                    f"text{i + 1}", c.ref, 4, y + 1, each - 1, "body", 9, 6, "#222222", "top", c
                )
            )
            y += each
    fill = f"{{{{ {colour.ref} }}}}" if colour else "#2F5DA8"
    return _filled(
        "front.toml.j2", band=f"{band:g}mm", fill=fill, before_art=before_art, art=art, boxes=boxes
    )


def _title_column(printed: list[Column]) -> Column | None:
    """The column that names a piece (name, 名前…), else the first of text, else the first."""
    return next(
        (c for c in printed if c.name.strip().lower() in TITLE_NAMES),
        next((c for c in printed if c.type == "text"), printed[0] if printed else None),
    )


def _label(name: str) -> str:
    """A column's name as printed text (Jinja's own braces escaped)."""
    return name.replace("{", "{{ '{' }}").replace("}", "{{ '}' }}")


def _text_box(
    name: str,
    value: str,
    x: float | str,
    y: float,
    h: float,
    font: str,
    size: float,
    min_size: float,
    color: str,
    valign: str,
    column: Column,
    raw: bool = False,
    w: str | None = None,
) -> dict:
    """A text box of the front (data/scaffold/_boxes.j2); `x` a length in mm or an expression
    (`W / 2 + 1mm`), `w` by default the card's width less `x` on each side."""
    return {
        "name": name,
        "x": _length(x),
        "y": _length(round(y, 2)),
        "w": w or f"W - {2 * x:g}mm",
        "h": _length(round(h, 2)),
        "text": value if raw else f"{{{{ {value} }}}}",
        "font": font,
        "size": f"{size:g}pt",
        "min_size": f"{min_size:g}pt",
        "valign": valign,
        "color": color,
        "markup": column.markup,
        "say_markup": True,
    }


def _piece(columns: list[Column], w: float, h: float, kind: str, language: str = "ja") -> str:
    """A token's or a die face's front: the name column large in the middle (white on the
    colour column's colour, if there is one), the other short columns small under it; a token
    gets a ring inside its edge."""
    printed = [
        c
        for c in columns
        if c.name not in NOT_PRINTED
        and c.type not in ("color", "copies")
        and not c.picture
        and not (kind == "die" and c.name == "die")  # which die a face is on
    ]
    colour = next((c for c in columns if c.type == "color"), None)
    title = _title_column(printed)
    rest = [c for c in printed if c is not title and not c.long]
    ink = f"{{{{ {colour.ref} | ink }}}}" if colour else "#222222"  # white on dark, dark on light
    small = round(min(w, h) * 0.22, 1) if rest else 0.0
    # a token's text stays inside its ring (a circle's chord narrows above and below the middle)
    side = round(min(w, h) * 0.15, 1) if kind == "token" else 2.5
    centred = {
        "font": "bold",
        "align": "center",
        "valign": "middle",
        "color": ink,
        "x": f"{side:g}mm",
    }
    boxes = []
    if title is not None:
        boxes.append(
            {
                **centred,
                "name": "name",
                "y": "2.5mm",
                "w": f"W - {2 * side:g}mm",
                "h": f"H - {5 + small:g}mm",
                "text": f"{{{{ {title.ref} }}}}",
                "size": f"{max(8, min(20, round(min(w, h) * 0.9))):g}pt",
                "min_size": "5pt",
                "markup": title.markup,
            }
        )
    if rest:
        boxes.append(
            {
                **centred,
                "name": "more",
                "y": f"H - {2.5 + small:g}mm",
                "w": f"W - {2 * side:g}mm",
                "h": f"{small:g}mm",
                "text": printed_in(language, "　").join(f"{{{{ {c.ref} }}}}" for c in rest),
                "size": f"{max(6, round(small * 2)):g}pt",  # a coin's value: read at a glance
                "min_size": "4pt",
            }
        )
    fill = f"{{{{ {colour.ref} }}}}" if colour else "#F4F1E8"
    return _filled("piece.toml.j2", kind=kind, fill=fill, ink=ink, boxes=boxes)


def _board(w: float, h: float, title: str, squares: int = TRACK) -> str:
    """A board to start from: the game's title in the middle and a score track of `squares`
    numbered from 0 round its edge, clockwise from the top left (as many across as the board's
    shape asks); the middle is left for the game's own spaces."""
    # cols + rows - 2 squares a side pair: 2 (cols + rows) - 4 = squares, cols / rows ≈ w / h
    rows = max(3, round((squares + 4) / 2 / (1 + w / h)))
    cols = (squares + 4) // 2 - rows
    sw, sh = w / cols, h / rows
    spots = [(c, 0) for c in range(cols)]
    spots += [(cols - 1, r) for r in range(1, rows)]
    spots += [(c, rows - 1) for c in range(cols - 2, -1, -1)]
    spots += [(0, r) for r in range(rows - 2, 0, -1)]
    brown = {"font": "bold", "align": "center", "valign": "middle", "color": "#4A3B2A"}
    heading = {
        **brown,
        "name": "title",
        "x": f"{sw + 5:.1f}mm",
        "y": f"{sh + 5:.1f}mm",
        "w": f"W - {2 * sw + 10:.1f}mm",
        "h": f"{min(30.0, h - 2 * sh - 10):.1f}mm",
        "text": title,
        "size": "36pt",
        "min_size": "12pt",
    }
    track = []
    for n, (c, r) in enumerate(spots[:squares]):
        square = {"x": f"{c * sw:.2f}mm", "y": f"{r * sh:.2f}mm", "w": f"{sw:.2f}mm"}
        square["h"] = f"{sh:.2f}mm"
        number = {
            **brown,
            **square,
            "name": f"track{n}_number",
            "text": str(n),
            "size": f"{max(8, min(18, round(min(sw, sh) * 1.2))):g}pt",
            "min_size": "6pt",
        }
        track.append(
            {**square, "n": n, "fill": "#E9DFC6" if n % 5 else "#D8C8A0", "number": number}
        )
    return _filled("board.toml.j2", title=heading, track=track)


def _back() -> str:
    """One back for the whole deck, with the game's title."""
    from .base import DATA

    return (DATA / "scaffold" / "back.toml").read_text(encoding="utf-8")
