"""PDF pages to PNG images, rendered by PDFium (pypdfium2) from the very pages pnp writes, so
an image and its PDF agree; pages are shared out to worker processes. Returns bytes."""

from __future__ import annotations

import io
import os
from concurrent.futures import ProcessPoolExecutor


def _render(job: tuple[bytes, list[int], float, tuple | None, tuple | None]) -> list[bytes]:
    import pypdfium2 as pdfium

    data, indexes, dpi, crop, pixels = job
    doc = pdfium.PdfDocument(data)
    out = []
    try:
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
            image.save(buf, format="PNG", compress_level=1)
            out.append(buf.getvalue())
    finally:
        doc.close()
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
    if workers == 1:
        return _render((data, list(range(count)), dpi, crop, pixels))
    chunks = [list(range(i, count, workers)) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        done = list(pool.map(_render, [(data, c, dpi, crop, pixels) for c in chunks]))
    out: list[bytes] = [b""] * count
    for chunk, images in zip(chunks, done):
        for i, image in zip(chunk, images):
            out[i] = image
    return out
