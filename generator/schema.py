"""The shipped JSON Schemas (generator/data/schema/) as a check behind the code's own: after a
manifest or layout has passed every check pnp makes with its own words, the schema reports any
shape those checks do not look at (a stray key inside `players`, a list where a length goes),
at the line and key it concerns. Editors use the same files (docs/reference/manifest.md)."""

from __future__ import annotations

import hashlib
import json

from . import cache
from .base import SCHEMAS
from .i18n import N_, _
from .problems import Problem


def schema_problems(kind: str, data: dict, doc, where) -> list:
    """What the shipped JSON Schema (`game` or `layout`) finds wrong with a parsed TOML file,
    each at the line and key it concerns: the backstop behind the code's own checks, so a
    shape the code does not look at (a stray key inside `players`, a number where a length
    string goes) is still reported."""
    key = _key(kind, data)
    slot = "schema/" + cache.digest(kind, str(where))  # one marker per document, replaced
    if key is not None and cache.recall(slot) == key.encode():
        return []  # this very document passed before: jsonschema is not even imported
    passed = f"passed/{key}"  # and in the user's cache, by content: any project's document
    if key is not None and cache.recall_shared(passed) == key.encode():
        cache.keep(slot, key.encode())
        return []
    validator = _validator(kind)
    out = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        path = tuple(error.absolute_path)
        extra = _unexpected(error)
        if extra:  # point at the stray key itself, not at the table holding it
            path = (*path, extra[0])
        at = doc.at(*path) if doc is not None and path else where
        shown = "".join(f"[{k + 1}]" if isinstance(k, int) else f".{k}" for k in path)
        shown = shown.lstrip(".") or _("the file")  # box[1].bleed: people count from 1
        see = _("(see schema/{kind}.schema.json)", kind=f"{kind}")
        out.append(Problem("error", f"{shown}: {_said(error, extra)} {see}", at))
    if not out and key is not None:
        # remembered in the project's cache (cache.remembering): the next build of this very
        # document asks nothing of jsonschema (its import and a validation: a tenth of a second)
        cache.keep(slot, key.encode())
        cache.keep_shared(passed, key.encode())
    return out


def _key(kind: str, data: dict) -> str | None:
    try:
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=_typed)
    except (TypeError, ValueError):
        return None
    schema = (SCHEMAS / f"{kind}.schema.json").read_bytes()
    return hashlib.blake2b(schema + b"\0" + text.encode(), digest_size=16).hexdigest()


def _typed(value) -> str:
    """A TOML date or time in the digest, kept apart from a string that reads the same."""
    return f"{type(value).__name__}:{value}"


def _unexpected(error) -> list[str]:
    """The keys an `additionalProperties: false` refused, in order."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return []
    known = set(error.schema.get("properties", {}))
    return [k for k in error.instance if k not in known]


_TYPES = {
    "string": N_("text"),
    "integer": N_("a whole number"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
    "object": N_("a table"),
    "array": N_("a list"),
}


def _said(error, extra: list[str]) -> str:
    """The schema's finding in the user's words (and language); jsonschema's own English for
    the rarer kinds."""
    kind, value = error.validator, error.validator_value
    if kind == "additionalProperties" and extra:
        return _("unknown key {keys}", keys=", ".join(repr(k) for k in extra))
    if kind == "type":
        types = [value] if isinstance(value, str) else list(value)
        wanted = _(" or ").join(_(_TYPES.get(t, t)) for t in types)
        return _("{value!r} must be {type}", value=error.instance, type=wanted)
    if kind == "required":
        missing = [k for k in value if isinstance(error.instance, dict) and k not in error.instance]
        return _("missing key {keys}", keys=", ".join(repr(k) for k in missing or value))
    if kind == "enum":
        choices = ", ".join(repr(v) for v in value)
        return _("{value!r} must be one of {choices}", value=error.instance, choices=choices)
    if kind == "minimum":
        return _("{value!r} must be at least {limit}", value=error.instance, limit=value)
    if kind == "maximum":
        return _("{value!r} must be at most {limit}", value=error.instance, limit=value)
    if kind == "pattern":
        return _("{value!r} is not of the form {pattern}", value=error.instance, pattern=value)
    if kind in ("minItems", "minLength", "minProperties"):
        return _("{value!r} is too short or empty", value=error.instance)
    return error.message


_VALIDATORS: dict = {}


def _validator(kind: str):
    import jsonschema  # only when a file has passed the code's own checks

    if kind not in _VALIDATORS:
        schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
        _VALIDATORS[kind] = jsonschema.Draft202012Validator(schema)
    return _VALIDATORS[kind]
