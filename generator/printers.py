"""The designer's printers: how far each one's duplex puts the back of a sheet off its front,
measured once with `pnp calibrate` and kept in a user config file (not in a project: a printer
belongs to the person, not the game).

`printers.toml` lives in PNP_CONFIG_DIR, else $XDG_CONFIG_HOME/pnp, else ~/.config/pnp
(%APPDATA%\\pnp on Windows):

    default = "home"

    [printer.home]
    back_offset = [0.5, -1.0, 0.2]   # mm right, mm up, degrees anticlockwise, as seen on the back
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from . import tomlfile
from .i18n import _
from .problems import BuildError, SourceRef, did_you_mean

FILE = "printers.toml"
MOST_MM, MOST_DEG = 20.0, 5.0  # beyond these it is not a printer's drift but a wrong reading


@dataclass(frozen=True)
class BackOffset:
    """What back pages are moved by so they land behind their fronts: x mm to the right and
    y mm up, then turned `rotate` degrees anticlockwise about the page's centre, all as seen
    looking at the back page."""

    x: float = 0.0
    y: float = 0.0
    rotate: float = 0.0
    printer: str | None = None  # the saved printer it came from, if any

    def __bool__(self) -> bool:
        return any(abs(v) > 1e-9 for v in (self.x, self.y, self.rotate))

    def words(self) -> str:
        """'x +0.5 mm, y -1.0 mm, 0.20°' for messages and the proof page."""
        return f"x {self.x:+.2f} mm, y {self.y:+.2f} mm, {self.rotate:+.2f}°"


def parse(text: str, what: str = "--back-offset") -> BackOffset:
    """`X,Y` or `X,Y,R` (mm, mm, degrees)."""
    parts = [p.strip() for p in re.split(r"[,\s]+", text.strip()) if p.strip()]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) not in (2, 3) or not all(math.isfinite(v) for v in values):
        raise BuildError(
            _(
                "{what} {value!r}: give X,Y in mm, or X,Y,R with R in degrees (e.g. 0.5,-1 or "
                "0.5,-1,0.2)",
                what=what,
                value=text,
            )
        )
    return _checked(BackOffset(*values), what)


def _checked(offset: BackOffset, what: str, where: SourceRef | None = None) -> BackOffset:
    if abs(offset.x) > MOST_MM or abs(offset.y) > MOST_MM or abs(offset.rotate) > MOST_DEG:
        message = _(
            "{what}: {offset} is more than a printer drifts (at most {mm:g} mm and {deg:g}°); "
            "read the calibration sheet again",
            what=what,
            offset=offset.words(),
            mm=MOST_MM,
            deg=MOST_DEG,
        )
        raise BuildError(message, where)
    return offset


def config_dir() -> Path:
    if os.environ.get("PNP_CONFIG_DIR"):
        return Path(os.environ["PNP_CONFIG_DIR"])
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "pnp"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "pnp"


def read_config(name: str, what: str) -> tuple[tomlfile.TomlDoc | None, Path]:
    """A file of the user's config folder, read as every TOML file is (its errors at their
    lines), and its path; None where there is none (a config folder that is a file has none)."""
    path = config_dir() / name
    try:
        there = path.exists()
    except OSError:
        there = False
    return (tomlfile.read(path, SourceRef(str(path)), what) if there else None), path


def write_config(path: Path, text: str, what: str) -> None:
    """Replace a file of the user's config folder whole, through a temporary file (a kill
    leaves the old file or the new one); `what` names it when it cannot be written."""
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        message = _("the settings folder is a file, not a folder; move it away")
        raise BuildError(message, SourceRef(str(folder)))
    tmp = path.with_suffix(".tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        message = _("cannot write {what}: {error}", what=what, error=exc.strerror)
        raise BuildError(message, SourceRef(str(path))) from None


def _read() -> tuple[dict, tomlfile.TomlDoc | None, Path]:
    doc, path = read_config(FILE, _("printer settings"))
    return (doc.data if doc else {}), doc, path


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def saved() -> tuple[dict[str, BackOffset], str | None]:
    """Every saved printer's offset, and the default printer's name."""
    data, doc, path = _read()
    here = doc.at if doc else (lambda *keys: SourceRef(str(path)))
    out: dict[str, BackOffset] = {}
    for key in data:
        if key not in ("default", "printer"):
            message = _("unknown key '{key}' (the file has: default, [printer.NAME])", key=key)
            raise BuildError(message, here(key))
    listed = data.get("printer", {})
    if not isinstance(listed, dict):
        message = _(
            "'printer' must be a table of printers by name: [printer.NAME] with back_offset = "
            "[X, Y] under it"
        )
        raise BuildError(message, here("printer"))
    for name, spec in listed.items():
        where = here("printer", name)
        value = spec.get("back_offset") if isinstance(spec, dict) else None
        if not isinstance(value, list) or len(value) not in (2, 3) or not all(map(_number, value)):
            message = _(
                "printer '{name}': back_offset must be [X, Y] or [X, Y, R] (mm, mm, degrees)",
                name=name,
            )
            raise BuildError(message, here("printer", name, "back_offset") if spec else where)
        out[name] = _checked(
            BackOffset(*(float(v) for v in value), printer=name), f"printer '{name}'", where
        )
    default = data.get("default")
    if default is not None and (not isinstance(default, str) or default not in out):
        message = _(
            "default = {name!r} names no [printer.{name}] (printers: {names})",
            name=default,
            names=", ".join(out) or _("none"),
        )
        raise BuildError(message, here("default"))
    return out, default


def pick(name: str | None, given: str | None) -> BackOffset | None:
    """The offset a build uses: `--back-offset` as given, else the `--printer` named, else the
    saved default printer, else none."""
    if given is not None:
        return parse(given) or None
    printers, default = saved()
    name = name or default
    if name is None:
        return None
    if name not in printers:
        raise BuildError(
            _(
                "no printer '{name}' in {path} (printers: {names}); save one with pnp printer "
                "save NAME --back-offset X,Y",
                name=name,
                path=config_dir() / FILE,
                names=", ".join(printers) or _("none"),
            )
            + did_you_mean(name, set(printers))
        )
    return printers[name] or None


def save(name: str, offset: BackOffset, default: bool) -> Path:
    """Write (or replace) printer `name` in the file as it is, its comments and the way each
    name is quoted kept (tomlkit edits it in place); written to a temporary file first, so a
    kill leaves the old file or the new one."""
    import tomlkit

    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise BuildError(_("printer name {name!r}: letters, digits, '-' and '_' only", name=name))
    saved()  # the file as it is must read (its errors said at their lines) before it is changed
    _data, doc, path = _read()
    if doc is None:
        book = tomlkit.document()
        book.add(
            tomlkit.comment(
                "pnp's printers: the back-page offset each one's duplex needs (pnp calibrate)."
            )
        )
    else:
        book = tomlkit.parse(path.read_text(encoding="utf-8").lstrip("\ufeff"))
    if default:
        book["default"] = name
    if "printer" not in book:
        book["printer"] = tomlkit.table(is_super_table=True)
    entry = tomlkit.table()
    entry["back_offset"] = [offset.x, offset.y, offset.rotate]
    book["printer"][name] = entry
    write_config(path, tomlkit.dumps(book), _("the printer settings"))
    return path
