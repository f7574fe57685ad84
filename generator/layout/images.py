"""Card art: the files an `image` box names, checked before anything is drawn.

A box names its picture by a path relative to the game's folder (`src = "art/{{ id }}.png"`);
`ImageSet` resolves it inside the project, reads its size (PNG and JPEG by Pillow, SVG by
svglib), and remembers each file once. `place()` works out where the picture lies in its box for
each fit mode and the resolution it prints at. The renderer gets an `ImageRef`: the file's
digest (what the PDF names it by, so a picture used on many cards is embedded once) and its
path.
"""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .. import textfile
from ..i18n import _
from ..problems import BuildError, SourceRef
from ..textfile import confine, same_name

FITS = ("contain", "cover", "stretch")
MIN_DPI = 300
# Pillow's name of a raster format -> how it is embedded: a JPEG as it is, the others as
# pixels ("png": WebP from the web, TIFF from a paint program, GIF and BMP read by Pillow).
_DRIVE = re.compile(r"[A-Za-z]:/|//")  # a Windows drive or network path (backslashes made /)
PICTURE_SUFFIXES = {".png", ".jpg", ".jpeg", ".svg", ".webp", ".tif", ".tiff", ".gif", ".bmp"}
FORMATS = {"PNG": "png", "JPEG": "jpeg", "WEBP": "png", "TIFF": "png", "GIF": "png", "BMP": "png"}
# A picture this large is not card art: refuse it before decoding (Pillow's own guard against
# decompression bombs is a warning at 89 Mpx; ours is an error naming the file).
MAX_PIXELS = 60_000_000
MOST_BYTES = 500_000_000  # a picture file's size (a 60-megapixel TIFF, uncompressed, is 180 MB)


def _too_big(size: int) -> BuildError:
    return BuildError(
        _("{mb:,.0f} MB is far more than a picture of card art needs", mb=size / 1_000_000)
    )


@dataclass(frozen=True)
class ImageRef:
    """One image file as the renderer needs it. Its repr names it by project path and digest
    only, so a face's key (and the PDF) is the same wherever the project lies."""

    rel: str  # the path as messages show it (project-relative)
    digest: str  # of the file's bytes: equal digests are one picture
    kind: str  # png, jpeg or svg
    px: tuple[float, float]  # pixels as seen (raster: turned as EXIF says) or the SVG's points
    path: str = field(default="", repr=False, compare=False)  # where to read it
    root: str = field(default="", repr=False, compare=False)  # an SVG's references stay inside
    # EXIF orientation (1–8) of a photo: 6 is stored on its side, shown turned clockwise
    orientation: int = 1


EXIF_ORIENTATION = 0x0112  # the tag phones and cameras write instead of turning the pixels


class ImageError(Exception):
    """A file that is not a picture pnp can print (the message says why)."""


class ImageSet:
    """Every picture a game's layouts name, read once."""

    def __init__(self, root: Path, folder: Path, rel) -> None:
        self.root = root  # the project: nothing outside it is read
        self.folder = folder  # the game's folder: paths are relative to it
        self.rel = rel
        self._seen: dict[Path, ImageRef | None | str] = {}
        self._named: dict[str, ImageRef | None | str] = {}
        self._stats: dict[str, tuple | None] = {}
        self._listings: dict[Path, list[str]] = {}  # a folder's file names, for near_twin
        self.recorder: list | None = None  # lacking art noted while a face is laid out
        self.files: list | None = None  # (path, its size and time) a face's pictures depend on
        # (layout file, box name) -> (card, the file it names) for each card drawn with a
        # stand-in
        self.lacking: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.noting = True  # off while a face is laid out again (see `unnoted`)

    def find(self, name: str, where: SourceRef) -> ImageRef | None:
        """The picture `name` (relative to the game's folder), or None when there is no such
        file. Raises ImageError when the file is not a picture or lies outside the project."""
        name = name.strip().replace("\\", "/")  # art\\fox.png as Windows writes it
        if self.files is not None:
            path = str(self.folder / name)
            self.files.append((path, self._stat(path)))
        if name in self._named:  # every card naming one file: resolved once
            found = self._named[name]
            if isinstance(found, str):
                raise ImageError(found)
        else:
            try:
                found = self._find(name, where)
            except ImageError as exc:
                self._named[name] = str(exc)
                raise
            self._named[name] = found
        if found is not None and self.files is not None:
            if Path(found.path).name != Path(self.files[-1][0]).name:  # in another Unicode form
                self.files.append((found.path, self._stat(found.path)))
        return found

    def near_twin(self, name: str) -> str | None:
        """The picture beside `name` whose name differs from it only in upper and lower case
        (`art/Fox.PNG` for `art/fox.png`: found on a Mac or Windows, not on Linux) or in its
        suffix (`art/fox.jpg`: saved as another format); only inside the game's folder."""
        wanted = Path(name.strip().replace("\\", "/"))
        folder = self.folder / wanted.parent
        try:
            if not folder.resolve().is_relative_to(self.folder.resolve()):
                return None
        except (OSError, RuntimeError):
            return None
        if folder not in self._listings:  # one reading of a folder, whatever asks of it
            try:
                self._listings[folder] = sorted(entry.name for entry in folder.iterdir())
            except OSError:
                self._listings[folder] = []
        others = [n for n in self._listings[folder] if n != wanted.name]
        full, stem = _name_key(wanted.name), _name_key(Path(wanted.name).stem)
        twin = next((n for n in others if _name_key(n) == full), None) or next(
            (
                n
                for n in others
                if Path(n).suffix.lower() in PICTURE_SUFFIXES and _name_key(Path(n).stem) == stem
            ),
            None,
        )
        return (wanted.parent / twin).as_posix() if twin else None

    def elsewhere(self, name: str) -> str | None:
        """`name` found in the project's own folder instead of the game's (`art/fox.png` put
        in the project's art/), as the project names it; else None."""
        wanted = self.root / name.strip().replace("\\", "/")
        try:
            inside = wanted.resolve().is_relative_to(self.root.resolve())
            return self.rel(wanted) if inside and wanted.is_file() else None
        except (OSError, RuntimeError):
            return None

    def note_lacking(self, where: tuple[str, str], item: tuple[str, str]) -> None:
        if not self.noting:
            return
        self.lacking.setdefault(where, []).append(item)
        if self.recorder is not None:
            self.recorder.append((where, item))

    def _stat(self, path: str) -> tuple | None:
        if path not in self._stats:
            try:
                st = Path(path).stat()
                self._stats[path] = (st.st_size, st.st_mtime_ns)
            except OSError:
                self._stats[path] = None
        return self._stats[path]

    def unchanged(self, files) -> bool:
        """Whether the pictures a face drew are as they were (a memo's check)."""
        return all(self._stat(path) == stat for path, stat in files)

    def _find(self, name: str, where: SourceRef) -> ImageRef | None:
        path = self.folder / name
        try:
            if _DRIVE.match(name):  # C:/Users/…: a path on a Windows machine, absolute there
                raise BuildError(name)
            confine(path, self.root, where, _("an image"))
        except BuildError:
            raise ImageError(
                _(
                    "{path} lies outside the project folder (an absolute path, '..' or a "
                    "symbolic link out of it): copy the picture into {folder} and write its "
                    "path from there, e.g. {example}",
                    path=name,
                    folder=self.rel(self.folder) + "/",
                    example="art/" + name.rsplit("/", 1)[-1],
                )
            ) from None
        path = path.resolve()
        if not path.is_file():
            other = same_name(path).resolve()
            if other.is_relative_to(self.root.resolve()):
                path = other
        if path not in self._seen:
            self._seen[path] = self._read(path) if path.is_file() else None
        found = self._seen[path]
        if isinstance(found, str):
            raise ImageError(found)
        return found

    def _read(self, path: Path) -> ImageRef | str:
        rel = self.rel(path)
        try:
            data = textfile.read_bytes(path, SourceRef(rel), MOST_BYTES, _too_big)
        except BuildError as exc:
            return f"{rel}: {exc.problems[0].message}"
        digest = hashlib.blake2b(data, digest_size=12).hexdigest()
        if path.suffix.lower() == ".svg":
            drawing = read_svg(path, self.root)
            if drawing is None or not drawing.width or not drawing.height:
                return _("{path}: not an SVG picture pnp can read", path=rel)
            return ImageRef(
                rel, digest, "svg", (drawing.width, drawing.height), str(path), str(self.root)
            )
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(path) as im:
                kind = FORMATS.get(im.format or "")
                size = im.size
                turned = im.getexif().get(EXIF_ORIENTATION, 1)
        except Image.DecompressionBombError:  # Pillow's own bound, from the header alone
            return _(
                "{path}: far more pixels than card art needs (at most {most} million)",
                path=rel,
                most=MAX_PIXELS // 1_000_000,
            )
        except (UnidentifiedImageError, OSError, ValueError):
            kind, size, turned = None, (0, 0), 1
        if kind is None:
            return _(
                "{path}: not a picture pnp can print (PNG, JPEG, SVG, WebP, TIFF, GIF or BMP)",
                path=rel,
            )
        if size[0] * size[1] > MAX_PIXELS:
            return _(
                "{path}: {w}×{h} pixels is far more than card art needs (at most {most} million)",
                path=rel,
                w=size[0],
                h=size[1],
                most=MAX_PIXELS // 1_000_000,
            )
        turned = turned if turned in range(1, 9) else 1
        if turned >= 5:  # a quarter turn: as seen, the picture is as wide as it is stored high
            size = (size[1], size[0])
        px = (float(size[0]), float(size[1]))
        return ImageRef(rel, digest, kind, px, str(path), orientation=turned)


def read_svg(path: Path | str, root: Path | str):
    """An SVG file as a ReportLab drawing (None if it cannot be read); references to other
    files resolve inside the project only, and XML entities are not expanded."""
    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.CRITICAL)
    try:
        return svg2rlg(str(path), external_reference_root=str(root))
    except Exception:  # noqa: BLE001 - any failure of a hostile or broken file is "unreadable"
        return None


def place(
    box: tuple[float, float], image: tuple[float, float], fit: str, align: str, valign: str
) -> tuple[float, float, float, float]:
    """Where the picture lies in its box (x, y, w, h from the box's top-left corner, y down):
    `contain` shows all of it, `cover` fills the box (the overflow clipped), `stretch` fills it
    whatever the proportions."""
    bw, bh = box
    iw, ih = image
    if fit == "stretch":
        return 0.0, 0.0, bw, bh
    scale = (max if fit == "cover" else min)(bw / iw, bh / ih)
    w, h = iw * scale, ih * scale
    x = {"left": 0.0, "center": (bw - w) / 2, "right": bw - w}[align]
    y = {"top": 0.0, "middle": (bh - h) / 2, "bottom": bh - h}[valign]
    return x, y, w, h


def dpi(image: tuple[float, float], drawn: tuple[float, float]) -> float:
    """The resolution a raster picture prints at: its pixels over the inches they cover (the
    lower of the two directions)."""
    return min(72 * image[0] / drawn[0], 72 * image[1] / drawn[1])


@contextmanager
def unnoted(images: ImageSet | None):
    """A face laid out again (a large deck read where it is drawn) notes no lacking art: its
    first layout did."""
    if images is None:
        yield
        return
    was, images.noting = images.noting, False
    try:
        yield
    finally:
        images.noting = was


def _name_key(name: str) -> str:
    """A file name as a Mac or Windows compares names: one Unicode form, either case."""
    return unicodedata.normalize("NFC", name).casefold()
