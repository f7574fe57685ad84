"""Finds the games of a project (folders under cards/ with a game.toml) and reads each manifest.

The first stage: everything else starts from a `Project` and a `Manifest`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .problems import BuildError, Problem, SourceRef, rel

MANIFEST = "game.toml"


KINDS = {
    # kind: (needs data rows, needs a back, needs a sheet, counter word, output file)
    "card": (True, True, True, "枚", "cards"),
    "token": (True, False, True, "個", "tokens"),
    "board": (False, False, False, "枚", "board"),
}


@dataclass(frozen=True)
class Component:
    id: str
    name: str
    kind: str  # card, token or board (see KINDS)
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

    @property
    def unit(self) -> str:
        return KINDS[self.kind][3]

    @property
    def output(self) -> str:
        return KINDS[self.kind][4]


@dataclass(frozen=True)
class Manifest:
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
    warnings: tuple = ()  # problems found reading it that do not stop the build


@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def cards(self) -> Path:
        return self.root / "cards"

    @property
    def layouts(self) -> Path:
        return self.root / "layouts"

    def rel(self, path: Path) -> str:
        return rel(path, self.root)

    def game_ids(self) -> list[str]:
        if not self.cards.is_dir():
            return []
        return sorted(p.name for p in self.cards.iterdir() if (p / MANIFEST).is_file())

    def manifest(self, game: str) -> Manifest:
        path = self.cards / game / MANIFEST
        if not path.is_file():
            known = ", ".join(self.game_ids()) or "none"
            raise BuildError(f"no game {game!r} in {self.rel(self.cards)}/ (games: {known})")
        return read_manifest(self, game, path)


def find_project(start: Path) -> Project:
    root = start.resolve()
    if not (root / "cards").is_dir():
        raise BuildError(
            f"{start}: not a project folder: it has no cards/ folder "
            "(run inside a project, or pass --project DIR)"
        )
    return Project(root)


GAME_KEYS = {"title", "working_title", "players", "rules"}
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
}
TOP_KEYS = {"game", "fonts", "component", "deal", "setup"}


def read_manifest(project: Project, game: str, path: Path) -> Manifest:
    where = SourceRef(project.rel(path))
    try:
        text = path.read_text(encoding="utf-8")
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BuildError([Problem("error", f"cannot read the manifest: {exc}", where)]) from None
    except UnicodeDecodeError:
        raise BuildError([Problem("error", "the manifest must be saved as UTF-8", where)]) from None

    def at(key: str) -> SourceRef:
        """The line a key is written on, for messages (first match; TOML keeps no positions)."""
        for n, line in enumerate(text.splitlines(), start=1):
            if line.strip().startswith((f"{key} ", f"{key}=", f"[{key}]", f"[[{key}]]")):
                return where.at(row=n)
        return where

    def need(table: dict, key: str, kind: type, context: str):
        if key not in table:
            raise BuildError([Problem("error", f"missing key '{key}' in {context}", where)])
        value = table[key]
        if not isinstance(value, kind):
            raise BuildError(
                [Problem("error", f"'{key}' in {context} must be a {kind.__name__}", at(key))]
            )
        return value

    def unknown(table: dict, known: set[str], context: str) -> None:
        for key in sorted(set(table) - known):
            extra.append(
                Problem(
                    "warning",
                    f"unknown key '{key}' in {context} is ignored "
                    f"(known: {', '.join(sorted(known))})",
                    at(key),
                )
            )

    extra: list[Problem] = []
    unknown(raw, TOP_KEYS, "the manifest")
    info = need(raw, "game", dict, "the manifest")
    unknown(info, GAME_KEYS, "[game]")
    players = need(info, "players", dict, "[game]")
    lo, hi = (
        need(players, "min", int, "[game].players"),
        need(players, "max", int, "[game].players"),
    )
    if not 1 <= lo <= hi:
        raise BuildError(
            [
                Problem(
                    "error",
                    f"players: min {lo} and max {hi} must satisfy 1 ≤ min ≤ max",
                    at("players"),
                )
            ]
        )
    components = []
    for i, c in enumerate(raw.get("component", [])):
        ctx = f"[[component]] #{i + 1}"
        cid = need(c, "id", str, ctx)
        ctx = f"component '{cid}'"
        unknown(c, COMPONENT_KEYS, ctx)
        kind = c.get("kind", "card")
        if kind not in KINDS:
            raise BuildError(
                [
                    Problem(
                        "error",
                        f"{ctx}: kind must be one of {', '.join(KINDS)}, got {kind!r}",
                        at("kind"),
                    )
                ]
            )
        has_data, has_back, has_sheet, _, _ = KINDS[kind]
        data, sheet_name = (need(c, "data", str, ctx) if has_data else c.get("data")), None
        if data and "#" in data:  # "cards.xlsx#煩悩": one sheet of a workbook per deck
            data, sheet_name = data.split("#", 1)
        columns = need(c, "columns", dict, ctx) if has_data else c.get("columns", {})
        composition = c.get("composition", {})
        for group in [composition, *composition.get("group", [])]:
            for key in [*group.get("key", []), *group.get("when", {})]:
                if key not in columns:
                    raise BuildError(
                        [
                            Problem(
                                "error",
                                f"{ctx}: composition key '{key}' is not one of its columns "
                                f"({', '.join(columns)})",
                                at("key"),
                            )
                        ]
                    )
        size = c.get("size")
        if not isinstance(size, (str, dict)):
            raise BuildError(
                [
                    Problem(
                        "error",
                        f"{ctx}: 'size' must be a size name such as \"poker\" or "
                        f'{{ w = "63mm", h = "88mm" }}',
                        at("size") if "size" in c else where,
                    )
                ]
            )
        printed = c.get("printed", True)
        if not isinstance(printed, bool):
            raise BuildError(
                [Problem("error", f"{ctx}: 'printed' must be true or false", at("printed"))]
            )
        components.append(
            Component(
                id=cid,
                name=need(c, "name", str, ctx),
                kind=kind,
                data=data,
                sheet_name=sheet_name,
                size=size,
                front=need(c, "front", str, ctx),
                back=need(c, "back", str, ctx) if has_back else c.get("back"),
                sheet=need(c, "sheet", str, ctx) if has_sheet else c.get("sheet"),
                columns=columns,
                composition=composition,
                bleed=c.get("bleed"),
                printed=printed,
                where=where,
                unprinted_columns=tuple(c.get("unprinted_columns", ())),
            )
        )
    if not components:
        raise BuildError([Problem("error", "the manifest lists no [[component]]", where)])
    fonts = raw.get("fonts", {})
    for role, spec in fonts.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("family"), str):
            raise BuildError(
                [
                    Problem(
                        "error",
                        f"[fonts] {role} needs a family, e.g. "
                        f'{role} = {{ family = "Noto Sans CJK JP", weight = "Regular" }}',
                        at(role),
                    )
                ]
            )
    deal = raw.get("deal")
    if deal is not None and deal.get("component") not in {c.id for c in components}:
        raise BuildError(
            [
                Problem(
                    "error",
                    f"[deal] component {deal.get('component')!r} is not a component of "
                    f"this game ({', '.join(c.id for c in components)})",
                    at("deal"),
                )
            ]
        )
    return Manifest(
        id=game,
        folder=path.parent,
        title=need(info, "title", str, "[game]"),
        players=(lo, hi),
        rules=info.get("rules"),
        fonts=fonts,
        components=components,
        deal=deal,
        where=where,
        warnings=tuple(extra),
        setup=raw.get("setup", {}),
    )
