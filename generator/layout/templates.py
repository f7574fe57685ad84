"""The one place that builds the Jinja environment: sandboxed, strict about unknown names.

Used for the values inside layout files (text, colours, `when:` conditions) and for the rules
source; both are fed by the model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jinja2 import BaseLoader, StrictUndefined, TemplateSyntaxError, UndefinedError, meta, nodes
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from .. import typeset
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
    """Top-level names a template or expression reads (for the unused-column warning), and the
    columns it reads as `row["…"]`."""
    tree = environment().parse(source)
    return set(meta.find_undeclared_variables(tree)) | _row_columns(tree)


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
