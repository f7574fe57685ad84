"""PDF pages to PNG images, rendered by PDFium (pypdfium2) from the very pages pnp writes, so
an image and its PDF agree; pages are shared out to worker processes. Returns bytes."""

from __future__ import annotations

import io
import os
from concurrent.futures import ProcessPoolExecutor

from .. import progress
from ..i18n import _

_DOC: list = [None, None]  # a worker's PDF: its bytes, and the document opened from them


def _open(data: bytes) -> None:
    """A worker's start: the PDF arrives once, not with every piece of work."""
    _DOC[:] = [data, None]


def _render(job: tuple[list[int], float, tuple | None, tuple | None]) -> list[bytes]:
    import pypdfium2 as pdfium

    indexes, dpi, crop, pixels = job
    if _DOC[1] is None:
        _DOC[1] = pdfium.PdfDocument(_DOC[0])
    doc = _DOC[1]
    out = []
    for i in indexes:
        page = doc[i]
        w, h = page.get_size()
        cut = crop or (0, 0, 0, 0)
        width, height = w - cut[0] - cut[2], h - cut[1] - cut[3]
        # 69 × 94 mm at 300 dpi is 815 × 1110 px: the size rounded, not rounded up.
        want = tuple(pixels) if pixels else (round(width * dpi / 72), round(height * dpi / 72))
        image = page.render(scale=want[0] / width, crop=cut).to_pil().convert("RGB")
        if image.size != want:
            if abs(image.size[0] - want[0]) <= 1 and abs(image.size[1] - want[1]) <= 1:
                image = image.crop((0, 0, *want))  # a partial last row of pixels
            else:
                image = image.resize(want)
        buf = io.BytesIO()
        # The resolution goes with the pixels (pHYs), so an image editor opens the face at its
        # size in mm, not at 72 dpi.
        at = want[0] * 72 / width
        image.save(buf, format="PNG", compress_level=1, dpi=(at, at))
        out.append(buf.getvalue())
        page.close()
    return out


def faces_to_png(
    title: str,
    faces: list,
    size: tuple[float, float],
    bleed: float,
    font_names: dict[str, str],
    dpi: float = 300,
    pixels: tuple[int, int] | None = None,
    workers: int | None = None,
) -> list[bytes]:
    """Each face (of one trim `size`) as PNG bytes, `bleed` around it, drawn on its own page
    and rendered from it; a face that appears more than once (a deck's back) is drawn once."""
    from .faces import FacePage, faces_pdf

    first: dict[str, int] = {}
    for face in faces:
        first.setdefault(face.key, len(first))
    unique = {face.key: face for face in faces}
    pages = [FacePage(unique[key], size, size, bleed) for key in first]
    data = faces_pdf(title, pages, font_names)
    images = pages_to_png(data, len(pages), dpi, pixels=pixels, workers=workers)
    return [images[first[face.key]] for face in faces]


def pages_to_png(
    data: bytes,
    count: int,
    dpi: float,
    crop: tuple[float, float, float, float] | None = None,
    pixels: tuple[int, int] | None = None,
    workers: int | None = None,
) -> list[bytes]:
    """Every page of the PDF `data` as PNG bytes, in page order. `crop` (points off the left,
    bottom, right and top) cuts the bleed away; `pixels` asks for an exact image size."""
    if count == 0:
        return []
    workers = max(1, min(workers or os.cpu_count() or 1, 8, count // 8 or 1))
    # Pieces of a few pages each, so the progress line moves (and the work stays shared out).
    size = max(1, min(16, count // (workers * 4) or 1))
    chunks = [list(range(i, min(i + size, count))) for i in range(0, count, size)]
    out: list[bytes] = [b""] * count
    jobs = [(c, dpi, crop, pixels) for c in chunks]
    with progress.step(_("images"), count) as shown:
        if workers == 1:
            saved = list(_DOC)
            _open(data)
            try:
                for chunk, job in zip(chunks, jobs):
                    out[chunk[0] : chunk[-1] + 1] = _render(job)
                    shown.advance(len(chunk))
            finally:
                if _DOC[1] is not None:
                    _DOC[1].close()
                _DOC[:] = saved
            return out
        with ProcessPoolExecutor(workers, initializer=_open, initargs=(data,)) as pool:
            for chunk, images in zip(chunks, pool.map(_render, jobs)):
                out[chunk[0] : chunk[-1] + 1] = images
                shown.advance(len(chunk))
    return out
