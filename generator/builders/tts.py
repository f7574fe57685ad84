"""tts/: the game for Tabletop Simulator. For each deck, sheets of card faces (at most 10 × 7
slots and 4096 px a side; the last slot of each sheet holds the image players see for a card
hidden in another's hand), a back image, and a saved object (DeckCustom) that Tabletop
Simulator loads from its Saved Objects folder; tokens and boards become custom tiles. Images
are named by absolute file:/// URLs (which Tabletop Simulator loads where relative paths fail)
or under `--url-base` for hosted images. Not built by default: `pnp build --format tts`."""

from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path

from ..layout.plan import Plan
from ..layout.units import MM
from . import Builder, Job
from .faces import Component, components

MAX_COLS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
CARD_DPI = 300  # a card's image before a sheet scales it to fit 4096 px
POKER_W, POKER_H = 63.5 * MM, 88.9 * MM  # Tabletop Simulator's card at scale 1


def sheet_grid(n: int, size: tuple[float, float]) -> tuple[int, int]:
    """Columns and rows for `n` faces and the hidden-card slot (at most 10 × 7): the grid whose
    cards keep the most pixels inside 4096 px a side, then the one with fewest empty slots."""
    best = None
    for cols in range(1, MAX_COLS + 1):
        rows = math.ceil((n + 1) / cols)
        if rows > MAX_ROWS:
            continue
        w = card_pixels(size, cols, rows)[0]
        key = (w, -(cols * rows), cols)
        if best is None or key > best[0]:
            best = (key, (cols, rows))
    return best[1]


def card_pixels(size: tuple[float, float], cols: int, rows: int) -> tuple[int, int]:
    """A card's image size on a sheet: 300 dpi, scaled down so the sheet stays within 4096 px."""
    w, h = (round(v * CARD_DPI / 72) for v in size)
    scale = min(1.0, MAX_SIDE / (cols * w), MAX_SIDE / (rows * h))
    return max(1, int(w * scale)), max(1, int(h * scale))


def card_scale(size: tuple[float, float]) -> tuple[float, float]:
    """A card's scaleX and scaleZ: Tabletop Simulator's card at scale 1 is 63.5 × 88.9 mm
    (1 : 1.4) whatever its image, so a card of another shape keeps its aspect by a scaleZ of
    its own (a tarot card 70 × 120 mm: 1.10 × 1.35)."""
    w, h = size
    return w / POKER_W, h / POKER_H


def tile_scale(width: float) -> float:
    """A custom tile's scale for a piece `width` points wide: about 2 units (inches) across at
    scale 1, so tokens and boards keep their sizes' ratio."""
    return width / 72 / 2


def _transform(
    x: float = 0.0, z: float = 0.0, scale: float | tuple = 1.0, flip: bool = False
) -> dict:
    sx, sz = scale if isinstance(scale, tuple) else (scale, scale)
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": z,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if flip else 0.0,
        "scaleX": sx,
        "scaleY": 1.0,
        "scaleZ": sz,
    }


class TtsBuilder(Builder):
    name = "tts"
    what = "tts/: card sheets, backs and saved objects for Tabletop Simulator (--url-base)"
    default = False
    needs = "decks laid out on sheets (boards and tokens too)"

    def applies(self, plan: Plan) -> bool:
        return bool(plan.sheets or plan.boards)

    def files(self, plan: Plan) -> list[str]:
        return [f"tts/{c.id}.json" for c in components(plan)]

    def build(self, job: Job) -> dict[Path, bytes]:
        plan = job.plan
        folder = job.out / "tts"
        base = plan.outputs.get("url_base")

        def url(path: Path) -> str:
            if base:
                return f"{base.rstrip('/')}/{path.relative_to(job.out).as_posix()}"
            # The output folder as the designer sees it (not where its link points).
            return Path(os.path.abspath(path)).as_uri()

        files: dict[Path, bytes] = {}
        for comp in components(plan):
            if _kind(plan, comp.id) == "token":
                files.update(self._tiles(job, comp, folder, url))
            else:
                files.update(self._deck(job, comp, folder, url))
        for board in plan.boards:
            files.update(self._board(job, board, folder, url))
        return files

    # -- decks -----------------------------------------------------------------------------

    def _deck(self, job: Job, comp: Component, folder: Path, url) -> dict[Path, bytes]:
        from PIL import Image

        backs = {p.back.key for p in comp.pieces if p.back is not None}
        unique_back = len(backs) > 1
        # One slot a distinct face (front and back, where backs differ); every physical card
        # still gets its own CardID, naming its face's slot.
        per_sheet = MAX_COLS * MAX_ROWS - 1
        sheets: list[list] = []  # each sheet's pieces whose faces its slots show
        slot_of: dict = {}  # a face's key: its (sheet number, slot)
        where = []  # each piece's (sheet number, slot)
        for p in comp.pieces:
            key = (p.front.key, p.back.key if unique_back and p.back is not None else None)
            if key not in slot_of:
                if not sheets or len(sheets[-1]) == per_sheet:
                    sheets.append([])
                sheets[-1].append(p)
                slot_of[key] = (len(sheets), len(sheets[-1]) - 1)
            where.append((*slot_of[key], p))
        files: dict[Path, bytes] = {}
        custom: dict[str, dict] = {}
        back_image = None
        for n, shown in enumerate(sheets, start=1):
            cols, rows = sheet_grid(len(shown), comp.size)
            px = card_pixels(comp.size, cols, rows)
            hidden = next((p.back for p in shown if p.back is not None), None)
            images = _render(job, comp, [*(p.front for p in shown), hidden], px)
            image = Image.new("RGB", (cols * px[0], rows * px[1]), "white")
            for i, face in enumerate(images[:-1]):
                image.paste(face, ((i % cols) * px[0], (i // cols) * px[1]))
            last = cols * rows - 1  # the hidden-card image
            image.paste(images[-1], ((last % cols) * px[0], (last // cols) * px[1]))
            face_path = folder / f"{comp.id}-{n}.png"
            files[face_path] = _png(image)
            if unique_back:
                back_sheet = Image.new("RGB", image.size, "white")
                for i, face in enumerate(_render(job, comp, [p.back for p in shown], px)):
                    back_sheet.paste(face, ((i % cols) * px[0], (i // cols) * px[1]))
                back_path = folder / f"{comp.id}-{n}-back.png"
                files[back_path] = _png(back_sheet)
            else:
                back_path = folder / f"{comp.id}-back.png"
                if back_image is None:  # one back for the deck: the hidden-card image
                    back_image = images[-1]
                    files[back_path] = _png(back_image)
            custom[str(n)] = {
                "FaceURL": url(face_path),
                "BackURL": url(back_path),
                "NumWidth": cols,
                "NumHeight": rows,
                "BackIsHidden": True,
                "UniqueBack": unique_back,
                "Type": 0,
            }
        scale = card_scale(comp.size)
        contained = [
            {
                "Name": "Card",
                "Nickname": p.card.label(),
                "CardID": n * 100 + slot,
                "Transform": _transform(scale=scale),
                "CustomDeck": {str(n): custom[str(n)]},
            }
            for n, slot, p in where
        ]
        deck = {
            "Name": "DeckCustom",
            "Nickname": comp.name,
            "Transform": _transform(scale=scale, flip=True),
            "DeckIDs": [c["CardID"] for c in contained],
            "CustomDeck": custom,
            "ContainedObjects": contained,
        }
        saved = {"SaveName": f"{job.plan.game.title} {comp.name}", "ObjectStates": [deck]}
        files[folder / f"{comp.id}.json"] = _json(saved)
        return files

    # -- tokens and boards -------------------------------------------------------------------

    def _tiles(self, job: Job, comp: Component, folder: Path, url) -> dict[Path, bytes]:
        from ..render.images import faces_to_png

        keys: dict[str, int] = {}  # each distinct token face: one image
        for p in comp.pieces:
            keys.setdefault(p.front.key, len(keys))
        images = faces_to_png(
            comp.name, [p.front for p in comp.pieces], comp.size, 0.0, job.font_names, CARD_DPI
        )
        files: dict[Path, bytes] = {}
        objects = []
        scale = tile_scale(comp.size[0])
        # A grid ten wide, a tenth of a piece apart: 2 units across at scale 1.
        step_x = 2 * scale * 1.1
        step_z = 2 * tile_scale(comp.size[1]) * 1.1
        for i, (p, image) in enumerate(zip(comp.pieces, images)):
            path = folder / f"{comp.id}-{keys[p.front.key] + 1}.png"
            files[path] = image
            objects.append(
                {
                    "Name": "Custom_Tile",
                    "Nickname": p.card.label(),
                    "Transform": _transform(
                        x=(i % 10) * step_x, z=-(i // 10) * step_z, scale=scale
                    ),
                    "CustomImage": {
                        "ImageURL": url(path),
                        "ImageSecondaryURL": url(path),
                        "CustomTile": {"Type": 0, "Thickness": 0.2, "Stackable": True},
                    },
                }
            )
        saved = {"SaveName": f"{job.plan.game.title} {comp.name}", "ObjectStates": objects}
        files[folder / f"{comp.id}.json"] = _json(saved)
        return files

    def _board(self, job: Job, board, folder: Path, url) -> dict[Path, bytes]:
        from ..render.images import faces_to_png

        size = next(iter(board.tilings.values())).board
        dpi = min(150, MAX_SIDE * 72 / max(size))
        path = folder / f"{board.id}.png"
        (image,) = faces_to_png(board.name, [board.face], size, 0.0, job.font_names, dpi)
        tile = {
            "Name": "Custom_Tile",
            "Nickname": board.name,
            "Transform": _transform(scale=tile_scale(size[0])),
            "CustomImage": {
                "ImageURL": url(path),
                "ImageSecondaryURL": url(path),
                "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False},
            },
        }
        saved = {"SaveName": f"{job.plan.game.title} {board.name}", "ObjectStates": [tile]}
        return {path: image, folder / f"{board.id}.json": _json(saved)}


def _kind(plan: Plan, cid: str) -> str:
    return next(c.kind for c in plan.game.manifest.components if c.id == cid)


def _render(job: Job, comp: Component, faces: list, px: tuple[int, int]) -> list:
    """Faces (None: a blank card) as images of `px` pixels, cut at the trim."""
    from PIL import Image

    from ..render.images import faces_to_png

    drawn = [f for f in faces if f is not None]
    images = faces_to_png(comp.name, drawn, comp.size, 0.0, job.font_names, pixels=px)
    it = iter(Image.open(io.BytesIO(b)).convert("RGB") for b in images)
    return [next(it) if f is not None else Image.new("RGB", px, "white") for f in faces]


def _png(image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def _json(data: dict) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
