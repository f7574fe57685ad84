"""The words pnp itself prints on a game's pages — the proof page and sheet labels, a
rulebook's title, tables and marks, a tuck box's lines — in the language of the edition being
built.

They are written in the code in Japanese, the source language pnp was made for, with {fields};
`data/words/<language>.toml` gives each in another language, keyed by the Japanese. A word with
no entry is printed in Japanese (a test holds the lists complete). The source edition of a
Japanese game prints exactly what it always did.
"""

from __future__ import annotations

import tomllib

from .base import DATA

# language -> {Japanese text: its translation}; read when pnp starts, like the catalog
_FILES = {p.stem: tomllib.loads(p.read_text("utf-8")) for p in (DATA / "words").glob("*.toml")}
WORDS: dict[str, dict[str, str]] = {language: f["words"] for language, f in sorted(_FILES.items())}
# a counter word after a count of one, where the language says it apart ("1 card", "2 cards")
ONE: dict[str, dict[str, str]] = {language: f.get("one", {}) for language, f in _FILES.items()}


def say(language: str, text: str, **fields) -> str:
    """`text` (Japanese, with {fields}) as the `language` edition prints it."""
    if language != "ja":
        text = WORDS.get(language, {}).get(text, text)
    return text.format(**fields) if fields else text


def unit(language: str, counter: str, n: int) -> str:
    """The counter word printed after a count of `n` (「枚」, " cards", " card" after 1)."""
    if n == 1 and counter in ONE.get(language, {}):
        return ONE[language][counter]
    return say(language, counter)
