"""The shipped JSON Schemas (generator/data/schema/) as a check behind the code's own: after a
manifest or layout has passed every check pnp makes with its own words, the schema reports any
shape those checks do not look at (a stray key inside `players`, a list where a length goes),
at the line and key it concerns. Editors use the same files (docs/reference/manifest.md)."""

from __future__ import annotations

import json

from .base import SCHEMAS
from .problems import Problem


def schema_problems(kind: str, data: dict, doc, where) -> list:
    """What the shipped JSON Schema (`game` or `layout`) finds wrong with a parsed TOML file,
    each at the line and key it concerns: the backstop behind the code's own checks, so a
    shape the code does not look at (a stray key inside `players`, a number where a length
    string goes) is still reported."""
    validator = _validator(kind)
    out = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        path = tuple(error.absolute_path)
        at = doc.at(*path) if doc is not None and path else where
        shown = "".join(f"[{k + 1}]" if isinstance(k, int) else f".{k}" for k in path)
        shown = shown.lstrip(".") or "the file"  # box[1].bleed: people count from 1
        out.append(
            Problem("error", f"{shown}: {error.message} (see schema/{kind}.schema.json)", at)
        )
    return out


_VALIDATORS: dict = {}


def _validator(kind: str):
    import jsonschema  # only when a file has passed the code's own checks

    if kind not in _VALIDATORS:
        schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
        _VALIDATORS[kind] = jsonschema.Draft202012Validator(schema)
    return _VALIDATORS[kind]
