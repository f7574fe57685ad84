"""The message catalog, for maintainers and tests: what `_()`, `ngettext()` and `N_()` mark in
the package, the Japanese translation beside it, and the compiled file gettext reads.

    python3 tasks.py i18n     # extract, merge into pnp.po (new messages untranslated), compile

Babel does the extraction and compiling (a test dependency: the running tool needs only the
standard library's gettext and the compiled .mo shipped in the package).
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "generator"
LOCALE = PACKAGE / "data" / "locale"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def po_path(lang: str = "ja") -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "pnp.po"


def extracted():
    """The messages the package marks, as a babel Catalog (each with its source lines)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="pnp", fuzzy=False)
    found = extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=()
    )
    # Babel warns of every f-string inside a marked call, field values included; the tests
    # refuse an f-string as the message itself, so the warnings are noise here.
    with contextlib.redirect_stderr(io.StringIO()):
        for filename, lineno, message, _comments, context in found:
            catalog.add(message, None, [(f"generator/{filename}", lineno)], context=context)
    for filename, lineno, message in command_help():
        catalog.add(message, None, [(filename, lineno)])
    return catalog


def command_help():
    """What `--help` shows of pnp's own: each command's and group's docstring as click shows
    it (cleaned), and each option's `help="…"` written out: translated where it is shown
    (cli/common.py)."""
    import ast

    for path in sorted((PACKAGE / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"generator/cli/{path.name}"
            if isinstance(node, ast.FunctionDef):
                named = [ast.unparse(d) for d in node.decorator_list]
                if any(".command(" in d or ".group(" in d for d in named):
                    text = ast.get_docstring(node, clean=True)
                    if text:
                        yield where, node.lineno, text
            elif (
                isinstance(node, ast.keyword)
                and node.arg == "help"
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                yield where, node.value.lineno, node.value.value


def read(lang: str = "ja"):
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def compiled(catalog) -> bytes:
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def translated(message) -> bool:
    """Every form of the message has a translation."""
    forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return bool(forms) and all(forms)


def update(lang: str = "ja") -> None:
    """Merge what the code marks into the language's .po (keeping every translation, dropping
    messages the code no longer has), then compile the .mo beside it."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = extracted()
    path = po_path(lang)
    if path.exists():
        catalog = read(lang)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(locale=lang, project="pnp", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalog.obsolete.clear()
    with path.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=False, include_lineno=False)
    missing = [m.id for m in catalog if m.id and not translated(m)]
    path.with_suffix(".mo").write_bytes(compiled(read(lang)))
    print(f"{path.relative_to(ROOT)}: {len(catalog) - 1} messages, {len(missing)} untranslated")


if __name__ == "__main__":
    update(*sys.argv[1:2])
