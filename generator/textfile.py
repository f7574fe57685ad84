"""One decoding rule for every text file a project holds: spreadsheets (CSV), TOML, the rules
source.

Designers save from Excel on Japanese Windows as often as from anything else, so a file is read
as UTF-8 with a BOM, then UTF-8, then Shift_JIS (cp932); anything else is an error naming the
first bad line. Used by load (CSV) and tomlfile (manifests, layouts, sheets, icons, vars).
"""

from __future__ import annotations

from pathlib import Path

from .problems import BuildError, Problem, SourceRef

BOM = b"\xef\xbb\xbf"


def decode(data: bytes, where: SourceRef, advice: str = "save it as UTF-8") -> str:
    """The text of a file's bytes: UTF-8 with BOM, UTF-8, then cp932 (Excel on Japanese Windows)."""
    if data.startswith(BOM):
        try:
            return data[len(BOM) :].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _undecodable(data, exc.start + len(BOM), where, advice) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as utf8_error:
        try:
            return data.decode("cp932")
        except UnicodeDecodeError:
            raise _undecodable(data, utf8_error.start, where, advice) from None


def _undecodable(data: bytes, start: int, where: SourceRef, advice: str) -> BuildError:
    line = data[:start].count(b"\n") + 1
    return BuildError(
        [
            Problem(
                "error",
                "cannot read the file's text: it is neither UTF-8 nor Shift_JIS (cp932); "
                f"the first bad byte is on line {line}. {advice[0].upper()}{advice[1:]}",
                where.at(row=line),
            )
        ]
    )


def read_text(path: Path, where: SourceRef, advice: str = "save it as UTF-8") -> str:
    """A project file's text by the one decoding rule; missing or unreadable: a clean error."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BuildError([Problem("error", "file not found", where)]) from None
    except OSError as exc:
        raise BuildError(
            [Problem("error", f"cannot read the file: {exc.strerror}", where)]
        ) from None
    return decode(data, where, advice)
