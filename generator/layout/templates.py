"""The one place that builds the Jinja environment: sandboxed, strict about unknown names.

Used for the values inside layout files (text, colours, `when:` conditions) and for the rules
source; both are fed by the model.
"""

from __future__ import annotations

import importlib.util
import marshal
import pickle
import re
from functools import lru_cache

import jinja2
from jinja2 import BaseLoader, StrictUndefined, TemplateSyntaxError, UndefinedError, meta, nodes
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from .. import cache, typeset
from ..colours import ink

_ZEN = str.maketrans("0123456789-", "０１２３４５６７８９－")


def zen(value: object) -> str:
    """Full-width digits, as the designer writes numbers in Japanese text: 40 -> ４０."""
    return str(value).translate(_ZEN)


_ICON = re.compile(r":[^\s:：]{1,12}:\s?")


def noicons(value: object) -> str:
    """Card text without its inline icons (`:酒肴: ` -> ''), for places that print plain text."""
    return _ICON.sub("", str(value))


class _NoFiles(BaseLoader):
    """Templates read no files: {% include %}, {% import %} and {% extends %} are refused with
    a message, so a project cannot reach outside its data through a template."""

    def get_source(self, environment, template):
        raise SecurityError(
            f"a template cannot include, import or extend another file ({template!r}): "
            "what it shows comes from the data and the layout"
        )


@lru_cache(maxsize=1)
def environment() -> SandboxedEnvironment:
    env = SandboxedEnvironment(
        loader=_NoFiles(),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["zen"] = zen
    env.filters["noicons"] = noicons
    env.filters["ruby"] = typeset.ruby
    env.filters["ink"] = ink  # {{ color | ink }}: text that reads on that fill
    return env


# Templates compiled in this process, by source, with the names each reads and whether it
# draws at random: a layout's templates are compiled when it is checked and used again when a
# face is laid out; a long `pnp watch` keeps at most this many.
_COMPILED: dict[str, tuple[jinja2.Template, frozenset[str], bool]] = {}
COMPILED_MOST = 4096


def _compiled(source: str) -> tuple[jinja2.Template, frozenset[str], bool]:
    """`source` compiled, the names it reads and whether it draws at random, worked out once.
    Remembered in the project's cache (cache.remembering) by the source, Jinja's version and
    Python's bytecode version: a build after an edit elsewhere neither compiles nor parses its
    layouts' templates and the rules source again (Jinja's compiler takes about a millisecond
    per template). A code object is only ever loaded from an entry sealed by this user (see
    cache.py). A template that does not compile raises as `from_string` does, every time."""
    held = _COMPILED.get(source)
    if held is not None:
        return held
    env = environment()
    slot = "templates/" + cache.digest(source, jinja2.__version__, importlib.util.MAGIC_NUMBER)
    code = None
    stored = cache.recall(slot)
    if stored:
        try:
            raw, names, random = pickle.loads(stored)
            code = marshal.loads(raw)
        except Exception:  # noqa: BLE001 - torn: work it out again
            code = None
    if code is None:
        tree = env.parse(source)
        names = frozenset(meta.find_undeclared_variables(tree)) | _row_columns(tree)
        random = any(n.name == "lipsum" for n in tree.find_all(nodes.Name))
        code = env.compile(source)
        cache.keep(slot, pickle.dumps((marshal.dumps(code), names, random), protocol=5))
    template = env.template_class.from_code(env, code, env.make_globals(None), None)
    if len(_COMPILED) >= COMPILED_MOST:
        _COMPILED.clear()
    held = _COMPILED[source] = (template, names, random)
    return held


def compiled(source: str) -> jinja2.Template:
    """`source` as a template of the environment, compiled once (see _compiled)."""
    return _compiled(source)[0]


def render(template, context: dict) -> str:
    """A compiled template rendered with `context`, the environment's globals and a card's
    fields made into one dict once per card (Template.render copies both for every value of
    every card). Top-level `{% set %}` writes the template's own variables, never `context`."""
    ctx = template.new_context(context, shared=True)
    return template.environment.concat(template.root_render_func(ctx))


def is_template(value: object) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


ROW = "row"  # every column by its header, for headers that are not names: {{ row["No."] }}


def _row_columns(tree) -> set[str]:
    return {
        n.arg.value
        for n in tree.find_all(nodes.Getitem)
        if isinstance(n.node, nodes.Name)
        and n.node.name == ROW
        and isinstance(n.arg, nodes.Const)
        and isinstance(n.arg.value, str)
    }


def names_used(source: str) -> set[str]:
    """Top-level names a template reads (for the unused-column warning), and the columns it
    reads as `row["…"]`."""
    return set(_compiled(source)[1])


def at_random(source: str) -> bool:
    """Whether a template draws at random (Jinja's `lipsum`): it renders anew for every card."""
    return _compiled(source)[2]


def names_used_in_expression(expression: str) -> set[str]:
    tree = environment().parse("{{ " + expression + " }}")
    names = {n.name for n in tree.find_all(nodes.Name) if n.ctx == "load"}
    return names | _row_columns(tree)


__all__ = [
    "environment",
    "zen",
    "is_template",
    "names_used",
    "names_used_in_expression",
    "TemplateSyntaxError",
    "UndefinedError",
]
