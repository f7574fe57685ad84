"""Every face on its own: print-shop PDFs (`printshop`: one face per page at trim + bleed, page
boxes set, in the order a shop's preset says) and PNG images (`png`: one image per face, named
from the data). Both come from the same one-face-per-page PDF, so a PNG shows what the PDF
prints. Not built by default: `pnp build --format printshop,png`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..i18n import _
from ..layout import images as art
from ..layout.faces import Face
from ..layout.plan import Plan, laid_decks
from ..layout.presets import Preset, pick
from ..layout.units import MM
from ..model import Card
from . import Builder, Job


@dataclass(frozen=True)
class Piece:
    """One card or token of a component, with its faces."""

    card: Card
    front: Face
    back: Face | None


@dataclass(frozen=True)
class Component:
    """One component's pieces as single faces are written: each piece's files and its trim."""

    id: str
    name: str
    size: tuple[float, float]  # trim, points, as laid out
    pieces: list[Piece]


def components(plan: Plan) -> Iterator[Component]:
    """Each component laid out on sheets, in manifest order, with its cards and faces (tokens
    that share a sheet are taken apart again)."""
    for laid, decks in laid_decks(plan):
        pairs = iter(laid.faces)
        for deck in decks:
            pieces = [Piece(card, *next(pairs)) for card in deck.cards]
            yield Component(deck.id, deck.component.name, laid.geometry.card, pieces)


_UNSAFE = re.compile(r'[\\/:*?"<>|\s]+')


def file_names(pieces: list[Piece]) -> list[str]:
    """A file name for each piece, from its data: '貪欲-5', a copy '貪欲-5-2'; unique."""
    out, seen = [], set()
    for p in pieces:
        stem = _UNSAFE.sub("-", p.card.label()).strip("-.") or f"{p.card.index + 1}"
        if p.card.copy > 1:
            stem += f"-{p.card.copy}"
        name, n = stem, 2
        while name in seen:
            name, n = f"{stem}-{n}", n + 1
        seen.add(name)
        out.append(name)
    return out


def ordered(pieces: list[Piece], order: str) -> list[tuple[Piece, str]]:
    """The faces of a deck in a shop's page order."""
    if order == "fronts-then-backs":
        fronts = [(p, "front") for p in pieces]
        return fronts + [(p, "back") for p in pieces if p.back is not None]
    first, second = ("back", "front") if order == "back-front" else ("front", "back")
    out = []
    for p in pieces:
        for side in (first, second):
            if side == "front" or p.back is not None:
                out.append((p, side))
    return out


def face_of(piece: Piece, side: str) -> Face:
    return piece.front if side == "front" else piece.back  # type: ignore[return-value]


def preflight(
    preset: Preset, comp: Component, pages: int, scale: float, trim: tuple[float, float]
) -> str:
    """One line a designer reads before uploading: the trim the pages' TrimBox has, fonts, the
    smallest text, the thinnest line, images."""
    sizes, lines, dpis = [], [], []
    for p in comp.pieces:
        for face in (p.front, p.back):
            for box in face.boxes if face else ():
                if box.type == "text" and box.props.get("lines"):
                    sizes.append(box.props["size"] * scale)
                elif box.type == "image" and box.props.get("image") is not None:
                    image = box.props["image"]
                    if image.kind != "svg":  # vectors print sharp at any size
                        _x, _y, dw, dh = box.props["draw"]
                        dpis.append(art.dpi(image.px, (dw * scale, dh * scale)))
                elif box.props.get("stroke"):
                    lines.append(box.props.get("stroke_width", 0.5) * scale)
    smallest = f"{min(sizes):.1f} pt" if sizes else "—"
    thinnest = f"{min(lines):.2f} pt" if lines else "—"
    if not dpis:
        images = _("no raster images")
    elif min(dpis) < preset.dpi - 0.5:
        images = _(
            "lowest image {low:.0f} dpi, under the shop's {dpi} dpi", low=min(dpis), dpi=preset.dpi
        )
    else:
        images = _("every image at least {dpi} dpi", dpi=preset.dpi)
    return _(
        "preflight {preset}: {name} {pages} pages, {w:g}×{h:g} mm + {bleed:g} mm bleed; TrimBox "
        "and BleedBox on every page; every font embedded; smallest text {smallest}; thinnest "
        "line {thinnest}; {images}",
        preset=preset.name,
        name=comp.name,
        pages=pages,
        w=round(trim[0] / MM, 1),
        h=round(trim[1] / MM, 1),
        bleed=round(preset.bleed / MM, 2),
        smallest=smallest,
        thinnest=thinnest,
        images=images,
    )


class PrintshopBuilder(Builder):
    name = "printshop"
    what = "printshop/PRESET/COMPONENT.pdf: one face per page at trim + bleed, for a print shop"
    default = False
    needs = "decks laid out on sheets, and a print-shop preset"

    def applies(self, plan: Plan) -> bool:
        return bool(plan.sheets)

    def files(self, plan: Plan) -> list[str]:
        preset = pick(plan.presets, plan.outputs.get("preset"))
        tail = ".pdf" if preset.format == "pdf" else "/"
        return [f"printshop/{preset.name}/{c.id}{tail}" for c in components(plan)]

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render.faces import FacePage, faces_pdf
        from ..render.images import pages_to_png

        plan = job.plan
        preset = pick(plan.presets, plan.outputs.get("preset"))
        folder = job.out / "printshop" / preset.name
        files: dict[Path, bytes] = {}
        for comp in components(plan):
            trim = preset.fits(comp.size)
            if trim is None:
                job.problems.warning(
                    _(
                        "preset {preset} is for {w:g}×{h:g} mm pieces: {name} ({cw:g}×{ch:g} mm) "
                        "is left out",
                        preset=preset.name,
                        w=round(preset.trim[0] / MM, 1),
                        h=round(preset.trim[1] / MM, 1),
                        name=comp.name,
                        cw=round(comp.size[0] / MM, 1),
                        ch=round(comp.size[1] / MM, 1),
                    )
                )
                continue
            order = ordered(comp.pieces, preset.order)
            pages = [FacePage(face_of(p, s), comp.size, trim, preset.bleed) for p, s in order]
            data = faces_pdf(f"{plan.game.title} {comp.name}", pages, job.font_names)
            if preset.format == "pdf":
                files[folder / f"{comp.id}.pdf"] = data
            else:
                images = pages_to_png(data, len(pages), preset.dpi, pixels=preset.pixels)
                names = dict(zip((id(p) for p in comp.pieces), file_names(comp.pieces)))
                for n, ((piece, side), image) in enumerate(zip(order, images), 1):
                    files[folder / comp.id / f"{n:03d}-{names[id(piece)]}-{side}.png"] = image
            scale = pages[0].scale if pages else 1.0
            job.problems.notice(preflight(preset, comp, len(pages), scale, trim))
        return files


class PngBuilder(Builder):
    name = "png"
    what = "png/COMPONENT/NAME-front.png: every face as an image (--dpi, --no-bleed)"
    default = False
    needs = "decks laid out on sheets"

    def applies(self, plan: Plan) -> bool:
        return bool(plan.sheets)

    def files(self, plan: Plan) -> list[str]:
        return [f"png/{c.id}/" for c in components(plan)]

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render.images import faces_to_png

        plan = job.plan
        dpi = plan.outputs.get("dpi") or 300
        bleed = plan.outputs.get("bleed_pt", 3 * MM) if plan.outputs.get("bleed", True) else 0.0
        files: dict[Path, bytes] = {}
        for comp in components(plan):
            order = ordered(comp.pieces, "front-back")
            faces = [face_of(piece, side) for piece, side in order]
            title = f"{plan.game.title} {comp.name}"
            images = faces_to_png(title, faces, comp.size, bleed, job.font_names, dpi)
            names = dict(zip((id(p) for p in comp.pieces), file_names(comp.pieces)))
            for (piece, side), image in zip(order, images):
                files[job.out / "png" / comp.id / f"{names[id(piece)]}-{side}.png"] = image
        return files
