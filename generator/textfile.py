"""One decoding rule for every text file a project holds: spreadsheets (CSV), TOML, the rules
source.

Designers save from Excel on Japanese Windows as often as from anything else, so a file is read
as UTF-8 with a BOM, then UTF-8, then Shift_JIS (cp932), then Windows-1252 (Excel's "CSV" on
Western Windows) where it reads as a Western language; anything else is an error naming the
first bad line. Used by load (CSV) and tomlfile (manifests, layouts, sheets, icons, vars).
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from pathlib import Path

from .i18n import _
from .limits import DEFAULT, exceeded
from .problems import BuildError, SourceRef

BOM = b"\xef\xbb\xbf"


def decode(data: bytes, where: SourceRef, advice: str | None = None) -> str:
    """The text of a file's bytes: UTF-8 with BOM, UTF-16 with its BOM (Excel's "Unicode Text"),
    UTF-8, then cp932 (Excel on Japanese Windows), then Windows-1252 (Excel elsewhere) when
    the text reads as a Western language and not as Japanese."""
    advice = advice or _("Save it as UTF-8.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")  # the BOM says which byte order, and goes
        except UnicodeDecodeError as exc:
            raise _undecodable(data, exc.start, where, advice) from None
    if data.startswith(BOM):
        try:
            return data[len(BOM) :].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _undecodable(data, exc.start + len(BOM), where, advice) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as utf8_error:
        try:
            text = data.decode("cp932")
        except UnicodeDecodeError:
            western = _western(data)
            if western is not None:
                return western
            raise _undecodable(data, utf8_error.start, where, advice) from None
        # Shift_JIS with no kana, and a kanji inside a Latin word: 「Pok駑on」 is 'Pokémon'
        if not _WIDE_KANA.search(text) and _INSIDE_A_WORD.search(text):
            western = _western(data)
            if western is not None:
                return western
        _plausible_japanese(text, where, advice)
        return text


_KANA = re.compile("[\u3000-\u30ff\uff01-\uff9f]")  # kana, CJK punctuation, full-width forms
# the same less half-width katakana, which is what Windows-1252's accented letters read as
_WIDE_KANA = re.compile("[\u3000-\u30ff\uff01-\uff60]")
_NON_ASCII = re.compile("[^\x00-\x7f]+")


# Windows-1252's accented Latin letters (not × and ÷); and what its text holds beyond ASCII:
# those, Latin-1's signs, and the code page's own quotes, dashes, ellipsis, bullet, euro and
# trade mark (“don’t” – 5 €)
_ACCENTED = re.compile("[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff]")
_WESTERN = re.compile("[\u00a0-\u00d6\u00d8-\u00f6\u00f8-\u00ff‘’“”–—…•€™]")
# a kanji or kana with Latin letters on both sides, or a half-width kana before a small one
_INSIDE_A_WORD = re.compile(
    "[A-Za-z][\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff][A-Za-z]|[\uff61-\uff9f][a-z]"
)


def _cp1252(data: bytes, allowed: re.Pattern) -> str | None:
    """The bytes read as Windows-1252, when every character beyond ASCII is one `allowed`."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    return text if all(allowed.match(ch) for ch in text if ord(ch) > 127) else None


def _western(data: bytes) -> str | None:
    """The text read as Windows-1252, when it reads as a Western language: its characters
    beyond ASCII accented letters and the code page's punctuation, and few of its letters
    (Cyrillic or Greek saved in their own code page decode to accented letters alone:
    «Ïðèâåò»)."""
    text = _cp1252(data, _WESTERN)
    if text is None:
        return None
    letters = [ch for ch in text if ch.isalpha()]
    accented = sum(not ch.isascii() for ch in letters)
    return text if 4 * accented <= len(letters) else None


def _plausible_japanese(text: str, where: SourceRef, advice: str) -> None:
    """Text taken as Shift_JIS must read as Japanese: some kana or Japanese punctuation, or bytes
    that are not accented Latin letters. Bytes of another code page ('é' in a Windows-1252
    'Pokémon') decode as rare kanji by accident: 「Pok駑on」."""
    if _KANA.search(text):
        return
    found = _NON_ASCII.search(text)
    if not found or _cp1252(text.encode("cp932"), _ACCENTED) is None:
        return
    line = text[: found.start()].count("\n") + 1
    raise BuildError(
        _(
            "the file is not UTF-8, and read as Shift_JIS it holds no kana at all: line "
            "{line} would read 「{text}」. It is likely another code page (Windows-1251 "
            "for Cyrillic, for one).",
            line=line,
            text=found.group(0)[:12],
        )
        + " "
        + advice,
        where.at(row=line),
    )


def _undecodable(data: bytes, start: int, where: SourceRef, advice: str) -> BuildError:
    line = data[:start].count(b"\n") + 1
    return BuildError(
        _(
            "cannot read the file's text: it is neither UTF-8 nor Shift_JIS (cp932); "
            "the first bad byte is on line {line}.",
            line=line,
        )
        + " "
        + advice,
        where.at(row=line),
    )


def same_name(path: Path) -> Path:
    """The file in `path`'s folder whose name is `path`'s written in another Unicode form (a
    Mac writes が as か and a combining ゛, a spreadsheet as one character), else `path`."""
    want = unicodedata.normalize("NFC", path.name)
    try:
        for entry in sorted(path.parent.iterdir()):
            if entry.name != path.name and unicodedata.normalize("NFC", entry.name) == want:
                return entry
    except OSError:
        pass
    return path


def confine(path: Path, root: Path, where: SourceRef, what: str) -> Path:
    """`path` if it lies inside the project folder `root` once symbolic links are resolved; else
    an error at `where` (the file, line and key that named it), quoting nothing of the outside
    file. A project folder may be someone else's: it may read only its own files."""
    try:
        inside = path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a symbolic link loop
        inside = False
    if not inside:
        raise BuildError(
            _(
                "{what} must be a file inside the project folder; it names one outside "
                "it (an absolute path, '..' or a symbolic link out of the project)",
                what=what,
            ),
            where,
        )
    return path


def _not_a_file(mode: int) -> str | None:
    """Why a file of this mode is not one pnp reads (None: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return _("this is a folder, not a file")
    return _(
        "this is not a regular file (a pipe, a device or a socket): pnp reads only files, "
        "which cannot keep it waiting"
    )


def _unreadable(error: str, where: SourceRef) -> BuildError:
    return BuildError(_("cannot read the file: {error}", error=error), where)


def regular(path: Path, where: SourceRef) -> os.stat_result:
    """`path`'s status if it is a regular file pnp may read; else a clean error: not found, a
    folder, a pipe or device (reading one may wait for ever), or one it may not read."""
    try:
        status = path.stat()
    except FileNotFoundError:
        raise BuildError(_("file not found"), where) from None
    except OSError as exc:
        raise _unreadable(exc.strerror, where) from None
    why = _not_a_file(status.st_mode)
    if why is not None:
        raise BuildError(why, where)
    if not os.access(path, os.R_OK):
        raise _unreadable(os.strerror(13), where)
    return status


def read_bytes(path: Path, where: SourceRef, most: int, too_big) -> bytes:
    """A project file's bytes: opened without waiting (a pipe put where a file was named
    answers at once, as not a file), its size checked against `most` bytes before a byte is
    read (`too_big(size)`: the error then), and no more than that read whatever it grows to."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise BuildError(_("file not found"), where) from None
    except IsADirectoryError:
        raise BuildError(_("this is a folder, not a file"), where) from None
    except OSError as exc:
        raise _unreadable(exc.strerror, where) from None
    with open(fd, "rb", closefd=True) as f:
        status = os.fstat(fd)
        why = _not_a_file(status.st_mode)
        if why is not None:
            raise BuildError(why, where)
        if status.st_size > most:
            raise too_big(status.st_size)
        try:
            data = f.read(most + 1)
        except OSError as exc:
            raise _unreadable(exc.strerror, where) from None
    if len(data) > most:  # it grew while being read
        raise too_big(len(data))
    return data


def read_text(
    path: Path, where: SourceRef, advice: str | None = None, max_mb: int | None = None
) -> str:
    """A project file's text by the one decoding rule; missing, unreadable, not a file or
    larger than `max_mb` (the `file_mb` limit; checked before reading): a clean error. Files
    read with no `max_mb` (manifests, layouts) are held to the default, which no project
    should approach."""

    def too_big(size: int) -> BuildError:
        what = _("the file has {mb:.0f} MB", mb=size / 1e6)
        if max_mb is None:
            message = _(
                "{what}: far more than a project file needs ({mb} MB at most)",
                what=what,
                mb=DEFAULT.file_mb,
            )
            return BuildError(message, where)
        return exceeded("file_mb", what, max_mb, where)

    data = read_bytes(path, where, (max_mb or DEFAULT.file_mb) * 1_000_000, too_big)
    return decode(data, where, advice)
