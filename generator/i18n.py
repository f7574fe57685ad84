"""Messages in the user's language: English in the code, other languages from gettext catalogs.

Every message a user reads is written in English inside `_()` (or `ngettext()`), as one whole
sentence with named fields: `_("'{column}' is missing", column=name)`. The catalogs live in
`data/locale/<lang>/LC_MESSAGES/pnp.po` (the translation, edited by hand) and `pnp.mo` (compiled
from it by `python3 tasks.py i18n`; a test keeps the two in step and every message translated).

The language is chosen once, by the command line: `--lang`, else `PNP_LANG`, else the first of
LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set (`ja_JP.UTF-8` → Japanese). English otherwise.
Locations, codes and exit codes are the same in every language; only the words change.
"""

from __future__ import annotations

import gettext
import os
import re

from .base import DATA

DOMAIN = "pnp"
LOCALE = DATA / "locale"
LANGUAGES = ("en", "ja")
ENV = ("PNP_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_TRANSLATED = re.compile(rf"^(.+)@({'|'.join(LANGUAGES)})$")


def translated(name: str) -> tuple[str, str] | None:
    """A name in one edition's language, as data columns and layout keys write it: `suit@en`
    is (suit, en); None for a plain name."""
    m = _TRANSLATED.match(name)
    return (m[1], m[2]) if m else None


_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def pick(given: str | None = None, environ=None) -> str:
    """The language to speak: `given` (from --lang), else the environment's; 'en' or 'ja'."""
    environ = os.environ if environ is None else environ
    if not given:
        for name in ENV:
            value = environ.get(name)
            if value:
                given = value.split(":")[0]
                break
    code = (given or "en").strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    return code if code in LANGUAGES else "en"


def use(language: str) -> None:
    """Speak `language` from now on ('en' needs no catalog)."""
    global _current, _language
    if language == "en":
        _current = gettext.NullTranslations()
    else:
        _current = gettext.translation(DOMAIN, LOCALE, [language], fallback=True)
    _language = language


def language() -> str:
    return _language


def _(message: str, **fields) -> str:
    """`message` in the current language, its `{fields}` filled in."""
    text = _current.gettext(message)
    return text.format(**fields) if fields else text


def ngettext(singular: str, plural: str, n: int, **fields) -> str:
    """The singular or plural form for `n` (`{n}` is filled in too)."""
    text = _current.ngettext(singular, plural, n)
    return text.format(n=n, **fields)


def N_(message: str) -> str:
    """Marks a message for the catalog where it is defined; translated later with `_()`."""
    return message


def count(n: int, plural: str, counter: str) -> str:
    """A number of pieces: '40 cards' in English, '40枚' in Japanese (the kind's counter word)."""
    return f"{n}{counter}" if _language == "ja" else f"{n} {plural}"


def listed(items) -> str:
    """Items named one after another in a message: 'a, b' in English, 'a、b' in Japanese."""
    return ("、" if _language == "ja" else ", ").join(items)
