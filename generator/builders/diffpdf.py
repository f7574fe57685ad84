"""The words of `pnp diff`'s proof PDF, in the game's language (printed.py), and the PDF."""

from __future__ import annotations

from .. import printed
from ..diff import Change, Snapshot
from ..layout.faces import Face, Fonts
from ..render import fonts as render_fonts
from ..render.diff import diff_pdf
from . import use_common_glyphs

HEADING = "{title}　変更されたカード（{since}からの変更）　左：前　右：今"
ADDED, REMOVED, LAYOUT = "追加されたカード", "削除されたカード", "データは同じ（レイアウトの変更）"


def heading(title: str, since: str, language: str = "ja") -> str:
    return printed.say(language, HEADING, title=title, since=since)


def notes(change: Change, language: str = "ja") -> list[str]:
    e = change.entry

    def say(text: str, **fields) -> str:
        return printed.say(language, text, **fields)

    named = say(
        "{component}　{card}（{where}）", component=e.component, card=change.named, where=e.where
    )
    lines = [named]
    if change.old is None:
        lines.append(say(ADDED))
    elif change.new is None:
        lines.append(say(REMOVED))
    elif not change.fields:
        lines.append(say(LAYOUT))
    for name, old, new in change.fields:
        was, now = (_short(v, language) for v in (old, new))
        lines.append(say("{name}：{old} → {new}", name=name, old=was, new=now))
    return lines


def _short(value, language: str) -> str:
    text = printed.say(language, "（空）") if value in (None, "") else str(value)
    return text if len(text) <= 28 else text[:27] + "…"


def pdf(
    title: str,
    since: str,
    changes: list[Change],
    old: Snapshot,
    new: Snapshot,
    fonts: Fonts,
    cache,
    language: str = "ja",
) -> bytes:
    """Old beside new for every change; `fonts` are the game's (the old faces' characters and
    these words are added before subsetting)."""
    pairs = []
    head = heading(title, since, language)
    use_common_glyphs(fonts)
    fonts.use("bold", head)
    olds = old.faces(c.old.face for c in changes if c.old)
    news = new.faces(c.new.face for c in changes if c.new)
    for change in changes:
        of = olds.get(change.old.face) if change.old else None
        nf = news.get(change.new.face) if change.new else None
        lines = notes(change, language)
        fonts.use("bold", lines[0])
        for line in lines[1:]:
            fonts.use("body", line)
        for face in (of, nf):
            if face is not None:
                use_glyphs(fonts, face)
        pairs.append((of, nf, change.entry.size, lines))
    names = render_fonts.register(fonts, cache)
    names = _with_every_role(names, pairs)
    return diff_pdf(head, head, pairs, names)


def _with_every_role(names: dict[str, str], pairs) -> dict[str, str]:
    """An old face may name a font role the manifest no longer has: it prints in body."""
    out = dict(names)
    for of, nf, _size, _lines in pairs:
        for face in (of, nf):
            for box in face.boxes if face else ():
                role = box.props.get("font")
                if role and role not in out:
                    out[role] = names["body"]
    return out


def use_glyphs(fonts: Fonts, face: Face) -> None:
    """The characters a face draws: an old face was laid out by an earlier build, so its
    characters are not among this layout's."""
    for box in face.boxes:
        role = box.props.get("font", "body")
        if box.type == "text" and role in fonts.metrics:
            fonts.use(role, "".join(box.props.get("lines", ())))
            if box.props.get("styles"):
                fonts.use("bold", "".join(box.props.get("lines", ())))
        elif box.type == "image":
            fonts.use("body", str(box.props.get("placeholder") or ""))
