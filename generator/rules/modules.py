"""A game's rules module: `rules.py` in the game's own folder, found and loaded without editing
the package, checked against the contract, and its failures told as the designer's file and line.

The module is the project's Python code: it runs only once its user trusts it (trust), `check`
and `simulate` say that they run it, `check --no-play` and `build` run none of it. It is loaded
once per content (an edit in `pnp watch` loads it again) under a module name made from its
path, so two projects with a game of the same name do not meet, and worker processes load it
by the same `RulesRef`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ..i18n import _
from ..model import Game
from ..problems import BuildError, SourceRef
from ..rulesource import Unstated
from . import text as rules_text

RULES_FILE = "rules.py"
# What a module must define; the rest has a default (see docs/reference/rules.md).
REQUIRED = ("OPTIONS", "prepare", "new_state")


def _no_hint(state, action) -> float:
    """greedy_value for a module without one: every action looks alike, so greedy is random."""
    return 0.0


DEFAULTS = {
    "greedy_value": _no_hint,
    "STEP_CAP": 10_000,
    "BRANCHES": {},
    "NOTABLE": frozenset(),
    "EXPLAIN": {},
    "CHECKS": (),
    "STRATEGIES": {},
    "ROLLOUT_MOVES": None,
}


@dataclass(frozen=True)
class RulesRef:
    """Where a game's rules module is: enough for a worker process to load the same code."""

    path: str  # absolute path of rules.py
    shown: str  # the path as messages print it, relative to the project
    game: str  # the game's id (its folder's name)
    digest: str  # of the file's bytes: a changed file is a new module
    alias: str = ""  # on another machine: the name the module has where it was read

    @property
    def name(self) -> str:
        if self.alias:
            return self.alias
        where = hashlib.sha256(self.path.encode()).hexdigest()[:10]
        return f"pnp_rules_{self.game}_{where}_{self.digest[:10]}"


def shipped(ref: RulesRef) -> tuple:
    """What a worker on another machine needs to load the same module under the same name (so
    the prepared data unpickles): the name, how messages show it, the game, digest and code."""
    return (ref.name, ref.shown, ref.game, ref.digest, Path(ref.path).read_bytes())


def shipped_folder(digest: str) -> Path:
    """Where a worker keeps the code of this digest: under a temporary folder of the worker's
    own user (made 0700; one another user made, or a link, is refused)."""
    import tempfile

    from ..cache import not_private

    mine = Path(tempfile.gettempdir()) / f"pnp-rules-{os.getuid() if hasattr(os, 'getuid') else 0}"
    mine.mkdir(mode=0o700, exist_ok=True)
    if not_private(mine) is not None:
        raise BuildError(
            _(
                "{folder}: not a private folder of this user; pnp will not run code from it",
                folder=mine,
            )
        )
    return mine / digest


def load_shipped(name: str, shown: str, game: str, digest: str, source: bytes) -> ModuleType:
    """A module shipped from the machine that runs pnp (a Dask worker's side): the code checked
    against the digest it was sent with, written once per digest to the worker's own temporary
    folder (a file found there is run only if it holds those very bytes) and loaded under its
    original name."""
    if hashlib.sha256(source).hexdigest() != digest:
        raise BuildError(_("the rules code sent does not match its digest"), SourceRef(shown))
    folder = shipped_folder(digest)
    path = folder / RULES_FILE
    try:
        same = path.is_file() and not path.is_symlink() and path.read_bytes() == source
    except OSError:
        same = False
    if not same:
        folder.mkdir(mode=0o700, exist_ok=True)
        partial = folder / f".{RULES_FILE}.{os.getpid()}"
        partial.write_bytes(source)
        os.replace(partial, path)
    return load(RulesRef(str(path), shown, game, digest, alias=name))


class RulesCodeError(Exception):
    """The project's rules code raised: where (the innermost line of rules.py) and what."""

    def __init__(self, shown: str, line: int | None, text: str):
        super().__init__(shown, line, text)
        self.shown, self.line, self.text = shown, line, text

    def problem(self, seed: int | None = None, replay: str = "") -> BuildError:
        where = SourceRef(self.shown, self.line)
        if seed is None:
            message = _("the game's rules code failed: {error}", error=self.text)
        else:
            message = _(
                "the game's rules code failed in the playout of seed {seed}: {error} "
                "(replay: {command})",
                seed=seed,
                error=self.text,
                command=replay or f"pnp simulate GAME --replay {seed}",
            )
        return BuildError(message, where)


def rules_file(game: Game) -> Path:
    return game.manifest.folder / RULES_FILE


def ref_for(game: Game) -> RulesRef | None:
    """The game's rules module, if its folder has one."""
    path = rules_file(game)
    if not path.is_file():
        return None
    shown = (Path(game.manifest.where.file).parent / RULES_FILE).as_posix()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return RulesRef(str(path.resolve()), shown, game.id, digest)


def load(ref: RulesRef) -> ModuleType:
    """The module `ref` names, loaded once per content (Python's own registry of modules holds
    it under a name that carries its digest); contract errors at the file."""
    module = sys.modules.get(ref.name)
    if module is not None and getattr(module, "RULES_REF", None) == ref:
        return module
    spec = importlib.util.spec_from_file_location(ref.name, ref.path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py path always has a loader
        raise BuildError(_("cannot load the rules module"), SourceRef(ref.shown))
    module = importlib.util.module_from_spec(spec)
    sys.modules[ref.name] = module  # dataclasses and pickle look classes up by module name
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        del sys.modules[ref.name]
        raise BuildError(
            _("the game's rules code does not parse: {error}", error=exc.msg),
            SourceRef(ref.shown, exc.lineno),
        ) from None
    except BuildError:
        del sys.modules[ref.name]
        raise
    except Exception as exc:
        del sys.modules[ref.name]
        raise code_error(ref, exc).problem() from None
    missing = [name for name in REQUIRED if not hasattr(module, name)]
    if missing:
        del sys.modules[ref.name]
        raise BuildError(
            _(
                "the game's rules module lacks {names} (the contract: docs/reference/rules.md)",
                names=", ".join(missing),
            ),
            SourceRef(ref.shown),
        )
    for name, value in DEFAULTS.items():
        if not hasattr(module, name):
            setattr(module, name, value)
    wrong = _contract_shape(module)
    if wrong:
        del sys.modules[ref.name]
        raise BuildError(wrong, SourceRef(ref.shown))
    module.GAME_ID = ref.game
    module.RULES_REF = ref
    return module


def _contract_shape(module: ModuleType) -> str | None:
    """What in the module's declarations does not have the contract's shape, in words."""
    from .engine import Option

    if not isinstance(module.OPTIONS, dict):
        return _("OPTIONS must be a dict of Option(default, choices, sentence, what is open)")
    for name, option in module.OPTIONS.items():
        if not isinstance(option, Option) or option.default not in option.choices:
            return _(
                "OPTIONS[{name!r}] must be an Option(default, choices, sentence, what is open) "
                "whose default is one of its choices",
                name=name,
            )
    for table in ("BRANCHES", "STRATEGIES"):
        if not isinstance(getattr(module, table), dict):
            return _("{name} must be a dict (docs/reference/rules.md)", name=table)
    for name, entry in module.STRATEGIES.items():
        if not (isinstance(entry, tuple) and len(entry) == 2 and callable(entry[1])):
            return _(
                "STRATEGIES[{name!r}] must be (what it does, a function of state and action)",
                name=name,
            )
    moves = module.ROLLOUT_MOVES
    if moves is not None and (type(moves) is not int or moves <= 0):
        return _("ROLLOUT_MOVES must be a whole number of moves above 0, or None")
    return None


def rules_for(game: Game) -> ModuleType | None:
    """The game's rules module loaded, or None when the game has none; trust.Untrusted (and
    nothing of it run) unless its user trusts it (see trust)."""
    from .. import trust

    ref = ref_for(game)
    if ref is None:
        return None
    root = game.manifest.folder.parent.parent  # the project: PROJECT/cards/GAME/
    trust.require(root, ref.shown, ref.digest)
    module = load(ref)
    # what the game's text says of a draw, for the findings: a tie the rules call a draw is
    # how the game can end, not a gap in its tie-breakers
    module.DRAW_RULE = rules_text.draw_sentence(game)
    module.TEXTS = texts_for(game)
    return module


TEXTS_KEYS = ("open_points", "branches", "checks", "actions", "choices")


def texts_for(game: Game) -> dict:
    """The module's own words in the language of messages, from the game's folder
    (`texts.ja.toml`: [open_points] NAME = why it is open, [branches] NAME = what it counts,
    [checks] NAME = a message of its checks, with the same {fields} as its English, [actions]
    NAME = a kind of action of ACTION_TYPES, [choices] "POINT.VALUE" = what a reading means),
    so that a rules module written in English speaks Japanese under --lang ja. Empty in
    English, or without the file."""
    from .. import tomlfile
    from ..i18n import language

    lang = language()
    path = game.manifest.folder / f"texts.{lang}.toml"
    if lang == "en" or not path.is_file():
        return {}
    rel = f"cards/{game.id}/{path.name}"
    doc = tomlfile.read(path, SourceRef(rel), _("texts"))
    out: dict = {"_doc": doc, "_file": rel}
    for key in TEXTS_KEYS:
        table = doc.data.get(key, {})
        if isinstance(table, dict):
            out[key] = {k: v for k, v in table.items() if isinstance(v, str)}
    return out


def words(module, table: str, attr: str = "") -> dict[str, str]:
    """A module's own words by name in the language of messages: its `attr` (BRANCHES,
    ACTION_TYPES) with the game's texts file's `[table]` over them."""
    return {
        **((getattr(module, attr, None) or {}) if attr else {}),
        **getattr(module, "TEXTS", {}).get(table, {}),
    }


def code_error(ref: RulesRef, exc: BaseException) -> RulesCodeError:
    """An exception raised by the project's code, placed at the innermost line of its rules.py
    that the traceback passes through."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == ref.path:
            line = frame.lineno
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return RulesCodeError(ref.shown, line, text)


def guarded(module: ModuleType, call, *args, **kwargs):
    """`call(*args)` from the project's module; what it raises (other than our own BuildError)
    becomes a message at the designer's line."""
    try:
        return call(*args, **kwargs)
    except (BuildError, Unstated):
        raise
    except Exception as exc:
        raise code_error(module.RULES_REF, exc).problem() from None


def chosen_readings(game: Game, module: ModuleType, problems) -> dict[str, str]:
    """The game.toml [readings] the module knows (name -> value); a name or value it does not
    have is an error at its line in game.toml, and is not played."""
    out: dict[str, str] = {}
    for name, value in game.manifest.readings.items():
        option = module.OPTIONS.get(name)
        where = game.manifest.at("readings", name)
        if option is None:
            problems.error(
                _(
                    "[readings] {name}: the rules module has no such open point (its points: "
                    "{names})",
                    name=name,
                    names=", ".join(sorted(module.OPTIONS)) or _("none"),
                ),
                where,
            )
        elif value not in option.choices:
            problems.error(
                _(
                    "[readings] {name} = {value!r} is not one of its readings ({choices})",
                    name=name,
                    value=value,
                    choices=", ".join(option.choices),
                ),
                where,
            )
        else:
            out[name] = value
    return out
