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
WORDS: dict[str, dict[str, str]] = {
    path.stem: tomllib.loads(path.read_text("utf-8"))["words"]
    for path in sorted((DATA / "words").glob("*.toml"))
}


def say(language: str, text: str, **fields) -> str:
    """`text` (Japanese, with {fields}) as the `language` edition prints it."""
    if language != "ja":
        text = WORDS.get(language, {}).get(text, text)
    return text.format(**fields) if fields else text
