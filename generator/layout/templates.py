"""The one place that builds the Jinja environment: sandboxed, strict about unknown names.

Used for the values inside layout files (text, colours, `when:` conditions) and for the rules
source; both are fed by the model.
"""

from __future__ import annotations

import importlib.util
import marshal
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


# Templates compiled in this process, by source: a layout's templates are compiled when it is
# checked and used again when a face is laid out; a long `pnp watch` keeps at most this many.
_COMPILED: dict[str, jinja2.Template] = {}
COMPILED_MOST = 4096


def compiled(source: str) -> jinja2.Template:
    """`source` as a template of the environment, compiled once. The compiled code is
    remembered in the project's cache (cache.remembering) by the source, Jinja's version and
    Python's bytecode version: a build after an edit elsewhere compiles none of its layouts'
    templates nor the rules source again (Jinja's compiler takes about a millisecond per
    template). A template that does not compile raises as `from_string` does, every time."""
    template = _COMPILED.get(source)
    if template is not None:
        return template
    env = environment()
    slot = "templates/" + cache.digest(source, jinja2.__version__, importlib.util.MAGIC_NUMBER)
    code = None
    stored = cache.recall(slot)
    if stored:
        try:
            code = marshal.loads(stored)
        except (EOFError, ValueError, TypeError):  # torn: compile again
            code = None
    if code is None:
        code = env.compile(source)
        cache.keep(slot, marshal.dumps(code))
    template = env.template_class.from_code(env, code, env.make_globals(None), None)
    if len(_COMPILED) >= COMPILED_MOST:
        _COMPILED.clear()
    _COMPILED[source] = template
    return template


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


@lru_cache(maxsize=4096)
def _names_used(source: str) -> frozenset[str]:
    tree = environment().parse(source)
    return frozenset(meta.find_undeclared_variables(tree)) | _row_columns(tree)


def names_used(source: str) -> set[str]:
    """Top-level names a template or expression reads (for the unused-column warning), and the
    columns it reads as `row["…"]`."""
    return set(_names_used(source))


def at_random(source: str) -> bool:
    """Whether a template draws at random (Jinja's `lipsum`): it renders anew for every card."""
    tree = environment().parse(source)
    return any(n.name == "lipsum" for n in tree.find_all(nodes.Name))


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
