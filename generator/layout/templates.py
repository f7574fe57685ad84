"""The one place that builds the Jinja environment: sandboxed, strict about unknown names.

Used for the values inside layout files (text, colours, `when:` conditions) and for the rules
source; both are fed by the model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jinja2 import BaseLoader, StrictUndefined, TemplateSyntaxError, UndefinedError, meta, nodes
from jinja2.sandbox import SandboxedEnvironment, SecurityError

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
    return env


def is_template(value: object) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def names_used(source: str) -> set[str]:
    """Top-level names a template or expression reads (for the unused-column warning)."""
    env = environment()
    return set(meta.find_undeclared_variables(env.parse(source)))


def names_used_in_expression(expression: str) -> set[str]:
    env = environment()
    tree = env.parse("{{ " + expression + " }}")
    return {n.name for n in tree.find_all(nodes.Name) if n.ctx == "load"}


__all__ = [
    "environment",
    "zen",
    "is_template",
    "names_used",
    "names_used_in_expression",
    "TemplateSyntaxError",
    "UndefinedError",
]
