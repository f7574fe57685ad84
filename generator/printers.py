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
from .problems import BuildError, Problem, SourceRef, did_you_mean

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
        raise BuildError([Problem("error", message, where)])
    return offset


def config_dir() -> Path:
    if os.environ.get("PNP_CONFIG_DIR"):
        return Path(os.environ["PNP_CONFIG_DIR"])
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "pnp"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "pnp"


def _read() -> tuple[dict, tomlfile.TomlDoc | None, Path]:
    path = config_dir() / FILE
    if not path.is_file():
        return {}, None, path
    doc = tomlfile.read(path, SourceRef(str(path)), _("printer settings"))
    return doc.data, doc, path


def saved() -> tuple[dict[str, BackOffset], str | None]:
    """Every saved printer's offset, and the default printer's name."""
    data, doc, path = _read()
    out: dict[str, BackOffset] = {}
    for key in data:
        if key not in ("default", "printer"):
            raise BuildError(
                [
                    Problem(
                        "error",
                        _("unknown key '{key}' (the file has: default, [printer.NAME])", key=key),
                        doc.at(key) if doc else None,
                    )
                ]
            )
    for name, spec in (data.get("printer") or {}).items():
        where = doc.at("printer", name) if doc else SourceRef(str(path))
        value = spec.get("back_offset") if isinstance(spec, dict) else None
        if (
            not isinstance(value, list)
            or len(value) not in (2, 3)
            or not all(isinstance(v, (int, float)) for v in value)
        ):
            raise BuildError(
                [
                    Problem(
                        "error",
                        _(
                            "printer '{name}': back_offset must be [X, Y] or [X, Y, R] (mm, mm, "
                            "degrees)",
                            name=name,
                        ),
                        where,
                    )
                ]
            )
        out[name] = _checked(
            BackOffset(*(float(v) for v in value), printer=name), f"printer '{name}'", where
        )
    default = data.get("default")
    if default is not None and default not in out:
        raise BuildError(
            [
                Problem(
                    "error",
                    _(
                        "default = {name!r} names no [printer.{name}] (printers: {names})",
                        name=default,
                        names=", ".join(out) or _("none"),
                    ),
                    doc.at("default") if doc else None,
                )
            ]
        )
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
    """Write (or replace) printer `name`; the file is rewritten whole, written to a temporary
    file first so a kill leaves the old file or the new one."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise BuildError(_("printer name {name!r}: letters, digits, '-' and '_' only", name=name))
    printers, current = saved()
    printers[name] = offset
    chosen = name if default else current
    lines = ["# pnp's printers: the back-page offset each one's duplex needs (pnp calibrate)."]
    if chosen:
        lines.append(f'default = "{chosen}"')
    for key, value in sorted(printers.items()):
        lines += ["", f"[printer.{key}]", f"back_offset = [{value.x}, {value.y}, {value.rotate}]"]
    path = config_dir() / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path
