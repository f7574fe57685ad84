"""The one place that builds the Jinja environment: sandboxed, strict about unknown names.

Used for the values inside layout files (text, colours, `when:` conditions) and for the rules
source; both are fed by the model.
"""

from __future__ import annotations

import contextvars
import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache, update_wrapper

import jinja2
from jinja2 import (
    BaseLoader,
    StrictUndefined,
    TemplateError,
    TemplateSyntaxError,
    UndefinedError,
    meta,
    nodes,
)
from jinja2.compiler import CodeGenerator
from jinja2.sandbox import SandboxedEnvironment, SecurityError
from jinja2.utils import generate_lorem_ipsum

from .. import typeset
from ..colours import ink
from ..i18n import N_, _
from ..limits import active as active_limits
from ..limits import out_of_time

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


# -- Bounds -------------------------------------------------------------------------------
# A project may be someone else's: a template must not be able to make a value of gigabytes
# or loop for hours. Every operator and call that can make a large value is checked against
# the size it would make before it runs, every loop over `range` and every piece of output
# counts against a step budget, and a render's output against a size budget (--limit
# template_chars=N, template_steps=N raise them).


class TooMuch(SecurityError):
    """A template asked for more than a render may make: its message says what and the limit."""


@dataclass
class _Budget:
    chars: int
    steps: int
    used: int = 0
    clock: int = 10_000  # steps after which the build's deadline is looked at

    def step(self, n: int = 1) -> None:
        self.used += n
        if self.used >= self.clock:  # now and then: the build's own clock
            self.clock += 10_000
            late = out_of_time()
            if late is not None:
                raise TooMuch(late)
        if self.used > self.steps:
            raise TooMuch(
                _(
                    "the template takes more than {steps:,} steps (loops and pieces of "
                    "output); raise it with --limit template_steps=N if it really needs them",
                    steps=self.steps,
                )
            )

    def size(self, n: int, what: str) -> None:
        if n > self.chars:
            raise TooMuch(
                _(
                    "{what} would be {n:,} characters or items, more than the limit {chars:,}; "
                    "raise it with --limit template_chars=N if it really needs them",
                    what=_(what),
                    n=n,
                    chars=self.chars,
                )
            )


_ACTIVE: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar(
    "template_budget", default=None
)


def _bounds() -> tuple[int, int]:
    """The template limits of the build in force (limits.in_force)."""
    limits = active_limits()
    return limits.template_chars, limits.template_steps


def _budget() -> _Budget:
    active = _ACTIVE.get()
    if active is None:  # an expression evaluated alone (a `when`): a budget of its own
        active = _Budget(*_bounds())
    return active


def _length(value) -> int | None:
    return len(value) if isinstance(value, (str, bytes, list, tuple)) else None


_WIDTH = re.compile(r"[%:][^%:{}]*?(\d+)")


def _formatted(spec: str) -> int:
    """At most how long a format string makes its text: itself and its widest field."""
    return len(spec) + max((int(m.group(1)) for m in _WIDTH.finditer(spec)), default=0)


def _replaced(text: str, old: str, new: str) -> int:
    """At most how long `text` is with `old` replaced by `new` ('' replaces between letters)."""
    count = len(text) + 1 if not old else len(text) // len(old) + 1
    return len(text) + count * len(new)


_WIDE = {"center", "ljust", "rjust", "zfill", "expandtabs"}


class _Generator(CodeGenerator):
    """Jinja's code generator, with `a ~ b` joined by the environment's `bounded_concat` (Jinja
    joins `~` itself, where no sandbox hook sees it)."""

    def visit_Concat(self, node, frame) -> None:
        self.write("environment.bounded_concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class _BoundedEnvironment(SandboxedEnvironment):
    """Jinja's sandbox, with the operators and calls that can make a huge value checked
    first (through the sandbox's own hooks: intercepted operators and `call`)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = _Generator

    @staticmethod
    def bounded_concat(parts) -> str:
        """`a ~ b`: joined only within template_chars."""
        texts = [str(p) for p in parts]
        _budget().size(sum(map(len, texts)), N_("a joined text"))
        return "".join(texts)

    def call_binop(self, context, operator, left, right):
        budget = _budget()
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                n = _length(seq)
                if n is not None and isinstance(times, int):
                    budget.size(n * max(times, 0), N_("a repeated text or list"))
        elif operator == "**" and isinstance(left, int) and isinstance(right, int):
            if right > 0 and abs(left) > 1 and right * max(abs(left), 2).bit_length() > 64_000:
                raise TooMuch(
                    _("{left} ** {right} is a number too large to print", left=left, right=right)
                )
        elif operator == "%" and isinstance(left, str):
            budget.size(_formatted(left), N_("a formatted text"))
        elif operator == "+":
            n, m = _length(left), _length(right)
            if n is not None and m is not None:
                budget.size(n + m, N_("a joined text or list"))
        return super().call_binop(context, operator, left, right)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - the sandbox's own names
        budget = _budget()
        name = getattr(__obj, "__name__", "")
        # str.format comes as the sandbox's wrapper of the bound method (its __wrapped__).
        owner = getattr(getattr(__obj, "__wrapped__", __obj), "__self__", None)
        if isinstance(owner, str):
            if name in _WIDE:
                width = next((a for a in args if isinstance(a, int)), 0)
                budget.size(max(width, len(owner)), f"'…'.{name}()")  # the method's own name
            elif name in ("format", "format_map"):
                budget.size(_formatted(owner), N_("a formatted text"))
            elif name == "replace" and len(args) >= 2 and isinstance(args[1], str):
                old = args[0] if isinstance(args[0], str) else " "
                budget.size(_replaced(owner, old, args[1]), N_("a replaced text"))
            elif name == "join":
                items = args[0] if args else ()
                n = _length(items)
                if n is not None:
                    budget.size(n * (len(owner) + 1), N_("a joined text"))
        return super().call(__context, __obj, *args, **kwargs)


def _range(*args: int):
    """`range` of at most template_steps items, each counted as it is taken."""
    budget = _budget()
    items = range(*args)
    budget.size(len(items), N_("a range"))
    return _counted(items, budget)


def _counted(items, budget: _Budget):
    for item in items:
        budget.step()
        yield item


def _lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002
    budget = _budget()
    budget.size(n * max, N_("lorem ipsum"))
    return generate_lorem_ipsum(n, html, min, max)


def _bounded_filter(name: str, filter_):
    """A builtin filter whose size comes from its arguments, checked before it runs (a filter
    Jinja passes its environment or context to takes that first)."""
    passes = getattr(filter_, "jinja_pass_arg", None) is not None

    def wrapped(*args, **kwargs):
        value, *params = args[1:] if passes else args
        budget = _budget()
        text = value if isinstance(value, str) else str(value)
        if name == "center":
            width = params[0] if params else kwargs.get("width", 80)
            budget.size(max(int(width), len(text)), N_("a centred text"))
        elif name == "indent":
            width = params[0] if params else kwargs.get("width", 4)
            width = len(width) if isinstance(width, str) else int(width)
            budget.size(len(text) + (text.count("\n") + 1) * width, N_("an indented text"))
        elif name == "format":
            budget.size(_formatted(text), N_("a formatted text"))
        elif name == "replace" and len(params) >= 2:
            budget.size(_replaced(text, str(params[0]), str(params[1])), N_("a replaced text"))
        elif name == "wordwrap":
            wrap = kwargs.get("wrapstring") or (params[2] if len(params) > 2 else "\n")
            budget.size(len(text) * (len(str(wrap or "")) + 2), N_("a wrapped text"))
        return filter_(*args, **kwargs)

    return update_wrapper(wrapped, filter_)


# Builtin filters whose result's size follows from their arguments: checked before they run.
_SIZED_FILTERS = ("center", "indent", "format", "replace", "wordwrap")


@lru_cache(maxsize=1)
def environment() -> SandboxedEnvironment:
    env = _BoundedEnvironment(
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
    for name in _SIZED_FILTERS:
        env.filters[name] = _bounded_filter(name, env.filters[name])
    env.globals["range"] = _range
    env.globals["lipsum"] = _lipsum
    return env


# Where templates compiled are kept while a Session is in force (see kept_in): a layout's
# templates are compiled when it is checked and used again when a face is laid out, and `pnp
# watch` rebuilds with the very same templates.
_KEPT: contextvars.ContextVar[dict | None] = contextvars.ContextVar("pnp_templates", default=None)
KEPT_MOST = 4096  # templates a long `pnp watch` keeps at most


@contextmanager
def kept_in(store: dict):
    """Templates compiled within the block are kept in `store` (a Session's)."""
    token = _KEPT.set(store)
    try:
        yield
    finally:
        _KEPT.reset(token)


def _compiled(source: str) -> tuple[jinja2.Template, frozenset[str], bool]:
    """`source` compiled, the names it reads and whether it draws at random. A template that
    does not compile raises as `from_string` does, every time."""
    store = _KEPT.get()
    held = store.get(source) if store is not None else None
    if held is not None:
        return held
    env = environment()
    tree = env.parse(source)
    names = frozenset(meta.find_undeclared_variables(tree)) | _row_columns(tree)
    random = any(n.name == "lipsum" for n in tree.find_all(nodes.Name))
    held = (env.from_string(tree), names, random)
    if store is not None:
        if len(store) >= KEPT_MOST:
            store.clear()
        store[source] = held
    return held


def compiled(source: str) -> jinja2.Template:
    """`source` as a template of the environment, compiled once (see _compiled)."""
    return _compiled(source)[0]


def render(template, context: dict, shared: bool = True, source_chars: int = 0) -> str:
    """A compiled template rendered with `context`, the environment's globals and a card's
    fields made into one dict once per card (Template.render copies both for every value of
    every card; `shared=False` adds the globals here). Top-level `{% set %}` writes the
    template's own variables, never `context`. Within the render's budget: each piece of
    output is a step, and the output may not grow past template_chars more than the
    template's own text (`source_chars`: a long rules source prints itself)."""
    ctx = template.new_context(context, shared=shared)
    budget = _Budget(*_bounds())
    token = _ACTIVE.set(budget)
    try:
        pieces, size = [], 0
        for piece in template.root_render_func(ctx):
            size += len(piece)
            budget.size(size - source_chars, N_("the template's output"))
            budget.step()
            pieces.append(piece)
        return template.environment.concat(pieces)
    except Exception:
        # As Template.render does: the traceback's frames become the template's own lines
        # (a rules source error is told at its line).
        template.environment.handle_exception()
    finally:
        _ACTIVE.reset(token)


def failure(exc: BaseException) -> str:
    """What went wrong in a designer's template, said for them: Jinja's own message, a macro
    that calls itself for ever, else the Python error by name ("ZeroDivisionError: …")."""
    if isinstance(exc, TemplateError):
        return str(exc)
    if isinstance(exc, RecursionError):
        return _("a macro calls itself without end (or nests too deep)")
    return f"{type(exc).__name__}: {exc}"


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


def tool_file(template: str, filters: dict, **context) -> str:
    """One of the files `pnp init` and `pnp new` write (`data/scaffold/NAME`), filled in: the
    tool's own templates, not a project's (`filters` as the writer quotes values)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("generator", "data/scaffold"),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters.update(filters)
    return env.get_template(template).render(**context)


def html_page(name: str, **context) -> str:
    """One of the tool's own HTML pages (`data/serve/NAME`, the gallery of `pnp serve`)
    rendered with autoescape: every value the page shows (a game's folder name, a title, a
    message) is text, never markup or script, whoever wrote the project."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("generator", "data/serve"), autoescape=True
    )
    return env.get_template(name).render(**context)
