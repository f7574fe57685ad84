"""The only unit parser: lengths in layout and sheet data ("63mm", "0.5in", "10pt", "W - 4mm") to
points.

Fed by the layout files; everything downstream works in PDF points (1/72 in).
"""

from __future__ import annotations

import re

from ..i18n import _

MM = 72.0 / 25.4
UNITS = {"mm": MM, "cm": 10 * MM, "in": 72.0, "pt": 1.0}

_TERM = re.compile(
    r"\s*([+-])?\s*(?:(\d+(?:\.\d+)?)\s*(mm|cm|in|pt|%)?|([A-Za-z_]\w*))"
    r"\s*(?:([*/])\s*(\d+(?:\.\d+)?)\s*)?"
)


class UnitError(ValueError):
    pass


def to_pt(
    value: object, names: dict[str, float] | None = None, percent_of: float | None = None
) -> float:
    """A length as points.

    Accepts a number (points), or a sum of terms: `12mm`, `0.5in`, `10pt`, `50%` (of
    `percent_of`), and names from `names` (e.g. `W`, `H`, `bleed`), joined by + and -.
    """
    if isinstance(value, bool):
        raise UnitError(_("expected a length such as '12mm', got {value!r}", value=value))
    if isinstance(value, (int, float)):
        return float(value)
    if not isinstance(value, str) or not value.strip():
        raise UnitError(_("expected a length such as '12mm', got {value!r}", value=value))
    text = value.strip()
    pos, total, first = 0, 0.0, True
    while pos < len(text):
        m = _TERM.match(text, pos)
        if not m or m.end() == pos or (not first and not m.group(1)):
            raise UnitError(
                _(
                    "cannot read length {value!r} (at {rest!r}); "
                    "use e.g. '12mm', '0.5in', '10pt', 'W - 4mm'",
                    value=value,
                    rest=text[pos:],
                )
            )
        sign = -1.0 if m.group(1) == "-" else 1.0
        if m.group(4):
            if not names or m.group(4) not in names:
                known = ", ".join(sorted(names or {})) or _("none")
                raise UnitError(
                    _(
                        "unknown name {name!r} in length {value!r} (known: {known})",
                        name=m.group(4),
                        value=value,
                        known=known,
                    )
                )
            amount = names[m.group(4)]
        else:
            number, unit = float(m.group(2)), m.group(3)
            if unit is None:
                raise UnitError(
                    _("length {value!r} needs a unit (mm, cm, in, pt or %)", value=value)
                )
            if unit == "%":
                if percent_of is None:
                    raise UnitError(_("'%' is not allowed in {value!r}", value=value))
                amount = number / 100.0 * percent_of
            else:
                amount = number * UNITS[unit]
        if m.group(5):
            factor = float(m.group(6))
            if m.group(5) == "/" and factor == 0:
                raise UnitError(_("division by zero in length {value!r}", value=value))
            amount = amount * factor if m.group(5) == "*" else amount / factor
        total += sign * amount
        pos, first = m.end(), False
    return total
