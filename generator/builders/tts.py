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
POKER_W = 63.5 * MM  # Tabletop Simulator's card at scale 1


def sheet_grid(n: int) -> tuple[int, int]:
    """Columns and rows for `n` cards and the hidden-card slot: 10 wide at most, 7 high."""
    cols = min(MAX_COLS, n + 1)
    return cols, math.ceil((n + 1) / cols)


def card_pixels(size: tuple[float, float], cols: int, rows: int) -> tuple[int, int]:
    """A card's image size on a sheet: 300 dpi, scaled down so the sheet stays within 4096 px."""
    w, h = (round(v * CARD_DPI / 72) for v in size)
    scale = min(1.0, MAX_SIDE / (cols * w), MAX_SIDE / (rows * h))
    return max(1, int(w * scale)), max(1, int(h * scale))


def _transform(x: float = 0.0, z: float = 0.0, scale: float = 1.0, flip: bool = False) -> dict:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": z,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if flip else 0.0,
        "scaleX": scale,
        "scaleY": 1.0,
        "scaleZ": scale,
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

        per_sheet = MAX_COLS * MAX_ROWS - 1
        chunks = [comp.pieces[i : i + per_sheet] for i in range(0, len(comp.pieces), per_sheet)]
        backs = {p.back.key for p in comp.pieces if p.back is not None}
        unique_back = len(backs) > 1
        files: dict[Path, bytes] = {}
        custom: dict[str, dict] = {}
        contained, ids = [], []
        back_image = None
        for n, chunk in enumerate(chunks, start=1):
            cols, rows = sheet_grid(len(chunk))
            px = card_pixels(comp.size, cols, rows)
            faces = [p.front for p in chunk]
            hidden = next((p.back for p in chunk if p.back is not None), None)
            images = _render(job, comp, [*faces, hidden], px)
            sheet = Image.new("RGB", (cols * px[0], rows * px[1]), "white")
            for i, image in enumerate(images[:-1]):
                sheet.paste(image, ((i % cols) * px[0], (i // cols) * px[1]))
            last = cols * rows - 1  # the hidden-card image
            sheet.paste(images[-1], ((last % cols) * px[0], (last // cols) * px[1]))
            face_path = folder / f"{comp.id}-{n}.png"
            files[face_path] = _png(sheet)
            if unique_back:
                back_sheet = Image.new("RGB", sheet.size, "white")
                for i, image in enumerate(_render(job, comp, [p.back for p in chunk], px)):
                    back_sheet.paste(image, ((i % cols) * px[0], (i // cols) * px[1]))
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
            for i, piece in enumerate(chunk):
                card_id = n * 100 + i
                ids.append(card_id)
                contained.append(
                    {
                        "Name": "Card",
                        "Nickname": piece.card.label(),
                        "CardID": card_id,
                        "Transform": _transform(scale=comp.size[0] / POKER_W),
                        "CustomDeck": {str(n): custom[str(n)]},
                    }
                )
        deck = {
            "Name": "DeckCustom",
            "Nickname": comp.name,
            "Transform": _transform(scale=comp.size[0] / POKER_W, flip=True),
            "DeckIDs": ids,
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
        scale = comp.size[0] / 25.4 / 2  # a custom tile is about 2 units across at scale 1
        for i, (p, image) in enumerate(zip(comp.pieces, images)):
            path = folder / f"{comp.id}-{keys[p.front.key] + 1}.png"
            files[path] = image
            objects.append(
                {
                    "Name": "Custom_Tile",
                    "Nickname": p.card.label(),
                    "Transform": _transform(x=(i % 10) * 1.2, z=-(i // 10) * 1.2, scale=scale),
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
            "Transform": _transform(scale=size[0] / 72 / 2),
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
