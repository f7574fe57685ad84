"""Finds the games of a project (folders under cards/ with a game.toml) and reads each manifest.

The first stage: everything else starts from a `Project` and a `Manifest`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import tomlfile
from .i18n import LANGUAGES, N_, _
from .kinds import KINDS, Kind
from .problems import BuildError, Problem, SourceRef, did_you_mean, rel, unknown_key
from .textfile import confine

MANIFEST = "game.toml"


@dataclass(frozen=True)
class Component:
    """One [[component]] of game.toml."""

    id: str
    name: str
    kind: str  # a name in kinds.KINDS: card, token, board
    data: str | None  # file name, relative to the game folder; boards have none
    sheet_name: str | None  # workbook sheet, for .xlsx
    size: str | dict  # a named size from sheets.toml, or { w = "…", h = "…" }
    front: str
    back: str | None  # tokens may be one-sided; boards have no back
    sheet: str | None
    columns: dict[str, str]
    composition: dict
    bleed: str | None
    printed: bool  # false: the designer buys it; listed, not printed
    where: SourceRef
    unprinted_columns: tuple = ()  # data for the rules engine only (e.g. skill effect keys)
    depends: dict = field(default_factory=dict)  # column -> the columns whose values fix it
    tuckbox: dict = field(default_factory=dict)  # [component.tuckbox]: its box's settings
    index: int = 0  # its place among the manifest's [[component]]s
    doc: tomlfile.TomlDoc | None = field(default=None, compare=False, repr=False)
    header: int | None = None  # the spreadsheet row of the column names, when not the first
    # How the printed words name a column's values: 「数字」 (数字２) or 「{}月」 (１月).
    labels: dict = field(default_factory=dict)
    # Columns no card may leave empty; None: not said (then the column that names the cards).
    required: tuple | None = None

    def labelled(self, column: str, value: object) -> str:
        """A value of `column` as a rulebook names it: by its label (「数字２」, 「１月」), or
        as it is when the column has none."""
        label = self.labels.get(column)
        text = str(value)
        if not label:
            return text
        return label.replace("{}", text) if "{}" in label else f"{label}{text}"

    @property
    def kind_of(self) -> Kind:
        return KINDS[self.kind]

    @property
    def copies_column(self) -> str | None:
        """The column that says how many cards a row makes: the one of type `copies`, else a
        column named `count` (the older spelling), else none (one card a row)."""
        named = [c for c, kind in self.columns.items() if kind == "copies"]
        return named[0] if named else ("count" if "count" in self.columns else None)

    @property
    def unit(self) -> str:
        """The counter word printed after a count of it: 枚, 個."""
        return self.kind_of.counter

    @property
    def output(self) -> str:
        return self.kind_of.output

    def at(self, *keys) -> SourceRef:
        """Where a key of this component is written in the manifest."""
        return self.doc.at("component", self.index, *keys) if self.doc else self.where


@dataclass(frozen=True)
class Manifest:
    """A game's game.toml, read and checked."""

    id: str
    folder: Path
    title: str
    players: tuple[int, int]
    rules: str | None
    fonts: dict[str, dict]
    components: list[Component]
    deal: dict | None
    where: SourceRef
    setup: dict = field(default_factory=dict)
    # [readings]: the reading the designer means at each open point of the rules (an option of
    # the game's rules module, name -> value); check and simulate play these by default
    readings: dict = field(default_factory=dict)
    warnings: tuple = ()  # problems found reading it that do not stop the build
    doc: tomlfile.TomlDoc | None = field(default=None, compare=False, repr=False)
    private_use: tuple = ()  # (first, last) code points the project's fonts define
    # digits in running text: full-width (３人), half-width, or as written (by default, full in
    # a Japanese game)
    digits: str = "full"
    mark_added: bool = True  # the rulebook prints what the designer did not write apart
    rulebook_size: float = 10.5  # the rulebook's body text, in points
    rulebook_measure: int = 40  # its line, in characters of body text (a comfortable 35–40)
    # [game] languages: the editions the game has, the first its source ("ja" when not said)
    languages: tuple[str, ...] = ("ja",)
    # [edition.LANG]: what an edition says otherwise (title; rules, a file beside rules.md)
    editions: dict = field(default_factory=dict)
    edition: str = ""  # the language of the edition this manifest is read for; "" the source
    # [game] version: printed on the proof page, the rulebook's footer and the summary, and
    # {{ game.version }} in layouts; "git" reads the project's git tag or commit (see versions)
    version: str = ""
    # [game] feedback: the designer's form for playtesters, a URL with {game}, {version} and
    # {language} filled in, shown as a QR code on the proof page and the rulebook's last page
    feedback: str = ""

    @property
    def language(self) -> str:
        """The language this game prints in: its edition's, else its source's."""
        return self.edition or self.languages[0]

    @property
    def out_name(self) -> str:
        """Its folder under output/: the game's id, and an edition's language under it."""
        return f"{self.id}/{self.edition}" if self.edition else self.id

    def at(self, *keys) -> SourceRef:
        """Where a key of the manifest is written: file, line and key."""
        return self.doc.at(*keys) if self.doc else self.where


@dataclass(frozen=True)
class Project:
    """A project folder: cards/, layouts/, fonts/ and output/."""

    root: Path

    @property
    def cards(self) -> Path:
        return self.root / "cards"

    @property
    def layouts(self) -> Path:
        return self.root / "layouts"

    @property
    def output(self) -> Path:
        """PROJECT/output, where builds write unless told --out: never a folder linked out of
        the project (a project may be someone else's, and a build replaces its games' folders
        there); a designer who wants the outputs elsewhere says so with --out."""
        out = self.root / "output"
        try:
            target = out.resolve()
            inside = target.is_relative_to(self.root.resolve())
        except (OSError, RuntimeError):  # a symbolic link loop
            target, inside = out, False
        if not inside:
            raise BuildError(
                _(
                    "output/ is a symbolic link out of the project (to {target}): pnp "
                    "writes outside a project only when told, pass --out {target} to "
                    "build there",
                    target=target,
                ),
                SourceRef("output"),
            )
        return out

    def output_for(self, out: Path | None) -> Path:
        """The output folder of a command: --out where given, else PROJECT/output. A folder
        --out names may be anywhere but the project's sources: not the project folder itself
        or one holding it, nor inside cards/, layouts/ or fonts/ (a build replaces its games'
        folders there with links)."""
        if out is None:
            return self.output
        try:
            target, root = out.resolve(), self.root.resolve()
        except (OSError, RuntimeError):
            target, root = out.absolute(), self.root.absolute()
        sources = [root / name for name in ("cards", "layouts", "fonts")]
        if (
            target == root
            or target in root.parents
            or any(target == s or target.is_relative_to(s) for s in sources)
        ):
            raise BuildError(
                _(
                    "--out {out}: that is the project's own sources (or holds them); "
                    "a build replaces its games' folders there with links. Give a "
                    "folder of its own, such as {suggested}",
                    out=out,
                    suggested=root / "output",
                ),
                None,
            )
        return out

    def rel(self, path: Path) -> str:
        return rel(path, self.root)

    def game_ids(self) -> list[str]:
        if not self.cards.is_dir():
            return []
        return sorted(p.name for p in self.cards.iterdir() if (p / MANIFEST).is_file())

    def manifest(self, game: str) -> Manifest:
        path = self.cards / game / MANIFEST
        if "/" in game or "\\" in game or game in (".", ".."):
            raise BuildError(
                _("'{game}' is not a game name: name a folder under cards/", game=game)
            )
        if not path.is_file():
            known = ", ".join(self.game_ids()) or _("none")
            raise BuildError(
                _(
                    "no game {game!r} in {folder}/ (games: {games})",
                    game=game,
                    folder=self.rel(self.cards),
                    games=known,
                )
            )
        confine(path, self.root, SourceRef(self.rel(path)), _("a game's manifest"))
        return read_manifest(self, game, path)


def find_project(start: Path) -> Project:
    root = start.resolve()
    if not (root / "cards").is_dir():
        raise BuildError(
            _(
                "{folder}: not a project folder: it has no cards/ folder "
                "(run inside a project, or pass --project DIR)",
                folder=start,
            )
        )
    return Project(root)


GAME_KEYS = {
    "title",
    "working_title",
    "players",
    "rules",
    "private_use",
    "digits",
    "mark_added",
    "rulebook_size",
    "rulebook_measure",
    "languages",
    "version",
    "feedback",
}
EDITION_KEYS = {"title", "rules", "components", "fonts"}
DIGITS = ("full", "half", "as-written")  # digits in the rulebook's running text
# Private-use code points the tool gives meaning to (rulebook marks, inline markup, icons).
RESERVED_PRIVATE = (0xE000, 0xE7FF)
PRIVATE_RANGES = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))
COMPONENT_KEYS = {
    "id",
    "name",
    "kind",
    "data",
    "size",
    "front",
    "back",
    "sheet",
    "columns",
    "composition",
    "bleed",
    "printed",
    "unprinted_columns",
    "depends",
    "tuckbox",
    "header",
    "labels",
    "required",
}
# [component.tuckbox]: the deck's tuck box (pnp build --format tuckbox)
TUCKBOX_KEYS = {"thickness", "clearance", "front", "back", "side", "color"}
TOP_KEYS = {"game", "fonts", "component", "deal", "setup", "readings", "edition"}
DEAL_KEYS = {"component": str, "each": int, "all": bool, "rule": str, "remove": list}
REMOVE_KEYS = {"players", "count", "rule"}
MOST_PLAYERS = 100  # [game] players: each count from min to max is dealt and played
MOST_NUMBER = 1_000_000  # any whole number in a manifest: counts of cards, copies, players


def _whole(value) -> bool:
    """A whole number as TOML writes one (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _whole_numbers(data, path: tuple = ()):
    """(key path, value) of every whole number in parsed TOML data (booleans are not)."""
    stack = [(path, data)]
    while stack:
        here, value = stack.pop()
        if isinstance(value, dict):
            stack.extend(((*here, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*here, i), v) for i, v in enumerate(value))
        elif _whole(value):
            yield here, value  # [[deal.remove]]: cards out for a player count


SETUP_KEYS = {"piles"}
PILES_KEYS = {"component": str, "count": int, "rule": str}
FONT_KEYS = {"family", "weight"}


def read_manifest(project: Project, game: str, path: Path) -> Manifest:
    where = SourceRef(project.rel(path))
    doc = tomlfile.read(path, where, _("the manifest"))
    raw = doc.data
    extra: list[Problem] = []

    def need(table: dict, key: str, kind: type, context: str, *path):
        if key not in table:
            raise BuildError(
                _("missing key '{key}' in {context}", key=key, context=context), doc.at(*path)
            )
        value = table[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            message = _(
                "'{key}' in {context} must be {type}", key=key, context=context, type=_type(kind)
            )
            raise BuildError(message, doc.at(*path, key))
        return value

    def unknown(table: dict, known: set[str], context: str, *path) -> None:
        for key in sorted(set(table) - known):
            raise BuildError(unknown_key(key, known, context), doc.at(*path, key))

    unknown(raw, TOP_KEYS, _("the manifest"))
    for number_at, value in _whole_numbers(raw):
        if abs(value) > MOST_NUMBER:
            message = _(
                "{value:,} is far larger than any count of a game's pieces or players (at most "
                "{most:,})",
                value=value,
                most=MOST_NUMBER,
            )
            raise BuildError(message, doc.at(*number_at))
    info = need(raw, "game", dict, _("the manifest"))
    unknown(info, GAME_KEYS, "[game]", "game")
    players = need(info, "players", dict, "[game]", "game")
    unknown(players, {"min", "max"}, "[game].players", "game", "players")
    lo = need(players, "min", int, "[game].players", "game", "players")
    hi = need(players, "max", int, "[game].players", "game", "players")
    if not 1 <= lo <= hi:
        message = _("players: min {lo} and max {hi} must satisfy 1 ≤ min ≤ max", lo=lo, hi=hi)
        raise BuildError(message, doc.at("game", "players"))
    if hi > MOST_PLAYERS:  # every check deals and plays each count from min to max
        message = _(
            "players: max {hi:,} is more players than a table seats; pnp checks and plays up to "
            "{most}",
            hi=hi,
            most=MOST_PLAYERS,
        )
        raise BuildError(message, doc.at("game", "players", "max"))
    components = []
    listed = raw.get("component", [])
    if not isinstance(listed, list):
        raise BuildError(
            _("'component' must be a list of [[component]] tables"), doc.at("component")
        )
    for i, c in enumerate(listed):
        here = ("component", i)
        cid = need(c, "id", str, f"[[component]] #{i + 1}", *here)
        ctx = _("component '{id}'", id=cid)
        unknown(c, COMPONENT_KEYS, ctx, *here)
        kind = c.get("kind", "card")
        if kind not in KINDS:
            message = _(
                "{ctx}: kind must be one of {kinds}, got {kind!r}",
                ctx=ctx,
                kinds=", ".join(KINDS),
                kind=kind,
            )
            raise BuildError(message, doc.at(*here, "kind"))
        required = KINDS[kind].required()
        if not KINDS[kind].rows:  # a board: its layout draws it, no spreadsheet is read
            for key in ("data", "columns", "composition"):
                if key in c:
                    message = _(
                        "{ctx}: a {kind} is drawn by its layout alone and reads no spreadsheet; "
                        "remove '{key}' (for pieces drawn from rows, kind = \"card\" or "
                        '"token")',
                        ctx=ctx,
                        kind=kind,
                        key=key,
                    )
                    raise BuildError(message, doc.at(*here, key))

        def get(key: str, type_: type, default=None, c=c, ctx=ctx, here=here, required=required):
            """A key of this component: required by its kind, or optional of the right type."""
            if key in required:
                return need(c, key, type_, ctx, *here)
            value = c.get(key, default)
            if value is not None and not isinstance(value, type_):
                message = _(
                    "'{key}' in {context} must be {type}", key=key, context=ctx, type=_type(type_)
                )
                raise BuildError(message, doc.at(*here, key))
            return value

        data, sheet_name = get("data", str), None
        if data and "#" in data:  # "cards.xlsx#煩悩": one sheet of a workbook per deck
            from .load import split_sheet

            data, sheet_name = split_sheet(data)
        if "columns" in required and "columns" not in c:
            message = _(
                "missing key 'columns' in {ctx}: the type of each column of its spreadsheet, "
                'e.g. [component.columns] with name = "text" and count = "copies" (types: text, '
                "int, color, bool, copies)",
                ctx=ctx,
            )
            raise BuildError(message, doc.at(*here))
        columns = get("columns", dict, {})
        several = [name for name, kind in columns.items() if kind == "copies"]
        if len(several) > 1:
            message = _(
                "{ctx}: only one column can say how many copies a row makes; {columns} are all "
                "'copies'",
                ctx=ctx,
                columns=", ".join(several),
            )
            raise BuildError(message, doc.at(*here, "columns", several[1]))
        composition = get("composition", dict, {})
        groups = composition.get("group", [])
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            message = _(
                "{ctx}: composition 'group' must be [[component.composition.group]] tables",
                ctx=ctx,
            )
            raise BuildError(message, doc.at(*here, "composition", "group"))
        for g, group in enumerate([composition, *groups]):
            at = (*here, "composition") if g == 0 else (*here, "composition", "group", g - 1)
            _check_group(group, ctx, doc, at)
            written = [("key", k) for k in group.get("key", [])]
            written += [("when", k) for k in group.get("when", {})]
            for part, key in written:
                if key not in columns:
                    names = ", ".join(columns)
                    if part == "key":
                        message = _(
                            "{ctx}: composition key '{key}' is not one of its columns ({columns})",
                            ctx=ctx,
                            key=key,
                            columns=names,
                        )
                    else:
                        message = _(
                            "{ctx}: when: '{key}' is not one of its columns ({columns})",
                            ctx=ctx,
                            key=key,
                            columns=names,
                        )
                    message += did_you_mean(key, columns)
                    at_key = doc.at(*at, "when", key) if part == "when" else doc.at(*at, "key")
                    raise BuildError(message, at_key)
            _unknown_group_keys(group, ctx, doc, at, top=g == 0)
            _numbers_as_numbers(group.get("when", {}), columns)
        depends = {}
        for column, on in get("depends", dict, {}).items():
            names = [on] if isinstance(on, str) else on
            if (
                not isinstance(names, list)
                or not names
                or not all(isinstance(n, str) for n in names)
            ):
                message = _(
                    "{ctx}: depends: '{column}' must name the column (or list of columns) it "
                    'follows from, e.g. {column} = "kind"',
                    ctx=ctx,
                    column=column,
                )
                raise BuildError(message, doc.at(*here, "depends", column))
            for name in [column, *names]:
                _a_column(name, columns, "depends", ctx, doc.at(*here, "depends", column))
            depends[column] = tuple(names)
        labels = get("labels", dict, {})
        for column, label in labels.items():
            _a_column(column, columns, "labels", ctx, doc.at(*here, "labels", column))
            if not isinstance(label, str) or not label.strip():
                message = _(
                    "{ctx}: labels: '{column}' must be the words that name its values, e.g. "
                    '{column} = "数字" (数字２) or {column} = "{{}}月" (１月)',
                    ctx=ctx,
                    column=column,
                )
                raise BuildError(message, doc.at(*here, "labels", column))
        required = _required(c, columns, ctx, doc, here)
        tuckbox = get("tuckbox", dict, {})
        for key, value in tuckbox.items():
            if key not in TUCKBOX_KEYS:
                message = f"{ctx}: tuckbox: " + unknown_key(key, TUCKBOX_KEYS)
                raise BuildError(message, doc.at(*here, "tuckbox", key))
            if not isinstance(value, str):
                message = _("{ctx}: tuckbox: '{key}' must be text", ctx=ctx, key=key)
                raise BuildError(message, doc.at(*here, "tuckbox", key))
        size = c.get("size")
        if not isinstance(size, (str, dict)) or (
            isinstance(size, dict) and set(size) != {"w", "h"}
        ):
            message = _(
                "{ctx}: 'size' must be a size name such as \"poker\" or "
                '{{ w = "63mm", h = "88mm" }}',
                ctx=ctx,
            )
            raise BuildError(message, doc.at(*here, "size"))
        header = c.get("header")
        if header is not None and not (_whole(header) and header >= 1):
            message = _(
                "{ctx}: 'header' is the row the column names are on, a whole number from 1, "
                "e.g. header = 2",
                ctx=ctx,
            )
            raise BuildError(message, doc.at(*here, "header"))
        printed = c.get("printed", True)
        if not isinstance(printed, bool):
            raise BuildError(
                _("{ctx}: 'printed' must be true or false", ctx=ctx), doc.at(*here, "printed")
            )
        components.append(
            Component(
                id=cid,
                name=need(c, "name", str, ctx, *here),
                kind=kind,
                data=data,
                sheet_name=sheet_name,
                size=size,
                front=need(c, "front", str, ctx, *here),
                back=get("back", str),
                sheet=get("sheet", str) or KINDS[kind].sheet,
                columns=columns,
                composition=composition,
                bleed=c.get("bleed"),
                printed=printed,
                where=SourceRef(where.file, doc.line(*here)),
                unprinted_columns=tuple(c.get("unprinted_columns", ())),
                depends=depends,
                tuckbox=tuckbox,
                index=i,
                doc=doc,
                header=header,
                labels=labels,
                required=required,
            )
        )
    if not components:
        raise BuildError(_("the manifest lists no [[component]]"), where)
    fonts = raw.get("fonts", {})
    for role, spec in fonts.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("family"), str):
            message = _(
                "[fonts] {role} needs a family, e.g. "
                '{role} = {{ family = "Noto Sans CJK JP", weight = "Regular" }}',
                role=role,
            )
            raise BuildError(message, doc.at("fonts", role))
        unknown(spec, FONT_KEYS, f"[fonts] {role}", "fonts", role)
    deal = _table(raw, "deal", doc)
    setup = _table(raw, "setup", doc) or {}
    unknown(deal or {}, set(DEAL_KEYS), "[deal]", "deal")
    unknown(setup, SETUP_KEYS, "[setup]", "setup")
    _typed(deal, DEAL_KEYS, "deal", doc)
    piles = _table(setup, "piles", doc, "setup")
    unknown(piles or {}, set(PILES_KEYS), "[setup] piles", "setup", "piles")
    _typed(piles, PILES_KEYS, "setup.piles", doc)
    if piles is not None and piles.get("count", 1) < 1:
        raise BuildError(
            _("[setup] piles: 'count' must be at least 1"), doc.at("setup", "piles", "count")
        )
    for i, removal in enumerate((deal or {}).get("remove", [])):
        at = ("deal", "remove", i)
        if not isinstance(removal, dict):
            raise BuildError(_("[[deal.remove]] entries must be tables"), doc.at(*at))
        unknown(removal, REMOVE_KEYS, "[[deal.remove]]", *at)
        players, count = removal.get("players"), removal.get("count")
        counts = count if isinstance(count, list) else [count]
        if not _whole(players) or not lo <= players <= hi:
            message = _(
                "[[deal.remove]] 'players' must be a player count from {lo} to {hi}", lo=lo, hi=hi
            )
            raise BuildError(message, doc.at(*at, "players"))
        if not counts or not all(_whole(c) and c >= 0 for c in counts):
            message = _(
                "[[deal.remove]] 'count' must be how many cards leave the game, or a list of the "
                "counts the rules' readings give, e.g. [2, 6]"
            )
            raise BuildError(message, doc.at(*at, "count"))
    readings = _table(raw, "readings", doc) or {}
    for name, value in readings.items():
        if not isinstance(value, str):
            message = _(
                "[readings] {name} must be the name of a reading in quotes, e.g. "
                '{name} = "{example}"',
                name=name,
                example="…",
            )
            raise BuildError(message, doc.at("readings", name))
    languages, editions = _languages(raw, info, doc)
    if deal is not None and deal.get("each", 1) < 0:
        raise BuildError(_("[deal] 'each' must be 0 or more"), doc.at("deal", "each"))
    if deal is not None and deal.get("component") not in {c.id for c in components}:
        message = _(
            "[deal] component {id!r} is not a component of this game ({ids})",
            id=deal.get("component"),
            ids=", ".join(c.id for c in components),
        )
        raise BuildError(message, doc.at("deal", "component"))
    return Manifest(
        id=game,
        folder=path.parent,
        title=need(info, "title", str, "[game]", "game"),
        players=(lo, hi),
        rules=_text_or_none(info, "rules", doc),
        private_use=_private_use(info.get("private_use", []), doc),
        # full-width digits are Japanese type: a game in another language prints them as written
        digits=_digits(info.get("digits", "full" if languages[0] == "ja" else "as-written"), doc),
        mark_added=_flag(info, "mark_added", True, doc),
        rulebook_size=_number(info, "rulebook_size", 10.5, (7, 14), doc),
        rulebook_measure=int(_number(info, "rulebook_measure", 40, (15, 80), doc, True)),
        fonts=fonts,
        components=components,
        deal=deal,
        where=where,
        warnings=tuple(extra),
        setup=setup,
        readings=dict(readings),
        doc=doc,
        languages=languages,
        editions=editions,
        version=_text_or_none(info, "version", doc) or "",
        feedback=_feedback(info, doc),
    )


def _feedback(info: dict, doc) -> str:
    """`[game] feedback = "https://…?game={game}&v={version}&lang={language}"`: an http(s)
    URL, its fields among game, version and language."""
    url = _text_or_none(info, "feedback", doc) or ""
    if not url:
        return ""
    import string

    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(url) if f is not None}
    except ValueError:
        fields = {"{"}
    if not url.startswith(("https://", "http://")) or fields - {"game", "version", "language"}:
        message = _(
            "[game] feedback must be a web address (https://…), its fields among {{game}}, "
            "{{version}} and {{language}}: got {url!r}",
            url=url,
        )
        raise BuildError(message, doc.at("game", "feedback"))
    return url


def _languages(raw: dict, info: dict, doc) -> tuple[tuple[str, ...], dict]:
    """`[game] languages = ["ja", "en"]` (the first the source) and `[edition.en]`: what each
    other edition says otherwise (title = "…", rules = "rules.en.md")."""
    listed = info.get("languages", ["ja"])
    known = ", ".join(LANGUAGES)
    if not isinstance(listed, list) or not listed or not all(isinstance(x, str) for x in listed):
        message = _(
            "[game] languages must list language codes, the source first, e.g. "
            'languages = ["ja", "en"] (pnp prints: {known})',
            known=known,
        )
        raise BuildError(message, doc.at("game", "languages"))
    for code in listed:
        if code not in LANGUAGES:
            message = _(
                "[game] languages: '{code}' is no language pnp prints (it prints: {known})",
                code=code,
                known=known,
            ) + did_you_mean(code, LANGUAGES)
            raise BuildError(message, doc.at("game", "languages"))
    if len(set(listed)) != len(listed):
        message = _("[game] languages names a language twice")
        raise BuildError(message, doc.at("game", "languages"))
    editions = _table(raw, "edition", doc) or {}
    for code, table in editions.items():
        if code not in listed[1:]:
            message = _(
                "[edition.{code}]: '{code}' is not one of the game's other languages "
                "([game] languages: {listed})",
                code=code,
                listed=", ".join(listed),
            )
            raise BuildError(message, doc.at("edition", code))
        _table(editions, code, doc, "edition")
        for key in sorted(set(table) - EDITION_KEYS):
            message = unknown_key(key, EDITION_KEYS, f"[edition.{code}]")
            raise BuildError(message, doc.at("edition", code, key))
        names = table.get("components", {})
        if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
            message = _(
                "[edition.{code}] components must name each component in this language, e.g. "
                'components = {{ klesha = "Klesha cards" }}',
                code=code,
            )
            raise BuildError(message, doc.at("edition", code, "components"))
        faces = table.get("fonts", {})
        roles = raw.get("fonts", {})
        for role, spec in faces.items() if isinstance(faces, dict) else [("", None)]:
            if (
                role not in roles
                or not isinstance(spec, dict)
                or not isinstance(spec.get("family"), str)
                or set(spec) - FONT_KEYS
            ):
                message = _(
                    "[edition.{code}] fonts: each is a role of [fonts] ({roles}) with its family, "
                    'e.g. fonts = {{ body = {{ family = "Source Sans Pro" }} }}',
                    code=code,
                    roles=", ".join(roles),
                )
                raise BuildError(message, doc.at("edition", code, "fonts"))
        for key, value in table.items():
            if key not in ("components", "fonts") and not isinstance(value, str):
                message = _(
                    "'{key}' in {context} must be {type}",
                    key=key,
                    context=f"[edition.{code}]",
                    type=_type(str),
                )
                raise BuildError(message, doc.at("edition", code, key))
    return tuple(listed), {k: dict(v) for k, v in editions.items()}


def _required(c: dict, columns: dict, ctx: str, doc, here) -> tuple[str, ...] | None:
    """The columns no card may leave empty, as `required = ["name", "cost"]` lists them (None
    when it is not written: the column that names the cards, validate.py; `[]`: none)."""
    if "required" not in c:
        return None
    listed = c["required"]
    if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
        message = _(
            "{ctx}: required must list the columns no card may leave empty, e.g. "
            'required = ["name"]',
            ctx=ctx,
        )
        raise BuildError(message, doc.at(*here, "required"))
    for name in listed:
        _a_column(name, columns, "required", ctx, doc.at(*here, "required"))
    return tuple(listed)


def _a_column(name: str, columns: dict, key: str, ctx: str, at) -> None:
    """A column a component's `key` names (depends, labels, required) is one of its columns,
    else an error at `at` with the column meant and the columns there are."""
    if name not in columns:
        message = (
            _("{ctx}: {key}: '{name}' is not one of its columns", ctx=ctx, key=key, name=name)
            + did_you_mean(name, columns)
            + f" ({', '.join(columns)})"
        )
        raise BuildError(message, at)


def _flag(table: dict, key: str, default: bool, doc) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise BuildError(_("[game] {key} must be true or false", key=key), doc.at("game", key))
    return value


def _number(table: dict, key: str, default, within, doc, whole: bool = False) -> float:
    """A number of [game] within `within` (inclusive), whole when `whole`, else an error."""
    value = table.get(key, default)
    kinds = (int,) if whole else (int, float)
    if (
        isinstance(value, bool)
        or not isinstance(value, kinds)
        or not within[0] <= value <= within[1]
    ):
        lo, hi = within
        message = _(
            "[game] {key} must be a {what} from {lo} to {hi}, got {value!r}",
            key=key,
            what=_("whole number") if whole else _("number"),
            lo=lo,
            hi=hi,
            value=value,
        )
        raise BuildError(message, doc.at("game", key))
    return value


def _digits(value, doc) -> str:
    if value not in DIGITS:
        message = _("[game] digits must be one of {choices}", choices=", ".join(DIGITS))
        raise BuildError(message, doc.at("game", "digits"))
    return value


def _text_or_none(info: dict, key: str, doc) -> str | None:
    """An optional [game] key written as text (rules = "rules.md"), else an error at it."""
    value = info.get(key)
    if value is not None and not isinstance(value, str):
        message = _(
            "'{key}' in {context} must be {type}", key=key, context="[game]", type=_type(str)
        )
        raise BuildError(message, doc.at("game", key))
    return value


def _private_use(value, doc) -> tuple:
    """`[game] private_use = ["F0000-F00FF", "E900"]`: private-use code points the project's own
    fonts give glyphs to (an icon font), allowed in its data; the tool's own range is refused."""
    at = doc.at("game", "private_use")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BuildError(_('[game] private_use must be a list like ["F0000-F00FF"]'), at)
    out = []
    for text in value:
        first, _dash, last = text.strip().upper().removeprefix("U+").partition("-")
        try:
            lo, hi = int(first, 16), int((last or first).removeprefix("U+"), 16)
        except ValueError:
            raise BuildError(
                _("[game] private_use: {text!r} is not a range like F0000-F00FF", text=text), at
            ) from None
        if lo > hi or not any(a <= lo and hi <= b for a, b in PRIVATE_RANGES):
            raise BuildError(
                _("[game] private_use: {text!r} is not a private-use range", text=text), at
            )
        r0, r1 = RESERVED_PRIVATE
        if lo <= r1 and hi >= r0:
            raise BuildError(
                _(
                    "[game] private_use: {text!r} overlaps {range}, which the tool uses for "
                    "icons and markup; use U+E800–U+F8FF or the planes F0000 and 100000",
                    text=text,
                    range=f"U+{r0:04X}–U+{r1:04X}",
                ),
                at,
            )
        out.append((lo, hi))
    return tuple(out)


GROUP_KEYS = {"key", "when", "copies", "total", "label"}  # label: the group's name, for people


def _unknown_group_keys(group: dict, ctx: str, doc, at: tuple, top: bool) -> None:
    """No key a composition does not know: a misspelt `copies` would silently check nothing."""
    key = group.get("key", [])
    known = GROUP_KEYS | set(key) | ({"group"} if top else set())
    for name in group:
        if name not in known:
            hint = did_you_mean(name, known)
            extra = (
                "; "
                + _(
                    "values are listed only for the key's columns ({columns})",
                    columns=", ".join(key),
                )
                if key and not hint
                else ""
            )
            message = (
                _("{ctx}: unknown composition key '{name}'", ctx=ctx, name=name) + hint + extra
            )
            raise BuildError(message, doc.at(*at, name))


def _numbers_as_numbers(when: dict, columns: dict) -> None:
    """A `when` value written in quotes for a column of whole numbers (`number = "1"`) is the
    number, as a card's cell "1" is: the group takes the cards it says."""

    def number(value):
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        return value

    for column, value in when.items():
        if columns.get(column) == "int":
            when[column] = [number(v) for v in value] if isinstance(value, list) else number(value)


def _check_group(group: dict, ctx: str, doc, at: tuple) -> None:
    """A composition (or one of its groups) of the right shape: key a list of column names,
    when a table, copies and total whole numbers, allowed values a list or { min, max }."""
    key = group.get("key", [])
    if not isinstance(key, list) or not all(isinstance(k, str) for k in key):
        raise BuildError(
            _("{ctx}: composition 'key' must be a list of column names", ctx=ctx),
            doc.at(*at, "key"),
        )

    if not isinstance(group.get("when", {}), dict):
        message = _(
            "{ctx}: composition 'when' must be a table, e.g. {{ kind = \"シード\" }}", ctx=ctx
        )
        raise BuildError(message, doc.at(*at, "when"))
    for name in ("copies", "total"):
        value = group.get(name, 1)
        if not _whole(value) or value < 0:
            raise BuildError(
                _("{ctx}: composition '{name}' must be a whole number", ctx=ctx, name=name),
                doc.at(*at, name),
            )
    for k in key:
        spec = group.get(k)
        if spec is None or isinstance(spec, list):
            continue
        ok = isinstance(spec, dict) and all(_whole(spec.get(b)) for b in ("min", "max"))
        counts = isinstance(spec, dict) and not set(spec) & {"min", "max"}
        if counts and all(_whole(n) and n >= 0 for n in spec.values()):
            ok = True  # {0 = 1, "1-9" = 2}: how many of each value
        if not ok:
            message = _(
                "{ctx}: composition '{key}' must be a list of values, {{ min = 1, max = 8 }}, "
                'or how many of each value, e.g. {{ 0 = 1, "1-9" = 2 }}',
                ctx=ctx,
                key=k,
            )
            raise BuildError(message, doc.at(*at, k))


def _table(parent: dict, key: str, doc, *path) -> dict | None:
    """parent[key] if it is a table (or absent), else an error naming the key."""
    value = parent.get(key)
    if value is not None and not isinstance(value, dict):
        raise BuildError(
            _("[{table}] must be a table", table=".".join((*path, key))), doc.at(*path, key)
        )
    return value


def _typed(table: dict | None, types: dict[str, type], name: str, doc) -> None:
    """Each listed key of a table, where present, of its type (bool is not an int here)."""
    for key, type_ in types.items() if table else ():
        value = table.get(key)
        wrong = value is not None and (
            not isinstance(value, type_) or (type_ is int and isinstance(value, bool))
        )
        if wrong:
            message = _("[{table}] '{key}' must be {type}", table=name, key=key, type=_type(type_))
            raise BuildError(message, doc.at(*name.split("."), key))


TYPE_WORDS = {
    str: N_("text"),
    int: N_("a whole number"),
    bool: N_("true or false"),
    dict: N_("a table"),
    list: N_("a list"),
}


def _type(kind: type) -> str:
    """What a value of `kind` is called in a message: 'text', 'a table'…"""
    return _(TYPE_WORDS[kind]) if kind in TYPE_WORDS else kind.__name__
