"""Draws one laid-out face (card, token or board) with ReportLab, its trim box's bottom-left
corner at (0, 0).

Fed by layout's `Face`; used by the sheets, the board and the rulebook's sample cards alike, so
the rulebook shows exactly what prints.
"""

from __future__ import annotations

import hashlib

from reportlab.lib.colors import HexColor

from ..layout import markup
from ..layout.faces import Face
from ..layout.images import read_svg
from ..typeset import RUBY_SIZE, base_text, has_ruby, segments, vertical_pieces


def new_canvas(buf, page: tuple[float, float], title: str, font_names: dict[str, str]):
    """A canvas for one of pnp's PDFs: reproducible bytes (invariant), compressed pages, its
    first font ours (not an unembedded Helvetica), titled and signed."""
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(
        buf, pagesize=page, invariant=1, pageCompression=1, initialFontName=font_names["body"]
    )
    c.setTitle(title)
    c.setAuthor("pnp")
    c.setCreator("pnp generator")
    return c


def draw_face(
    c,
    face: Face,
    w: float,
    h: float,
    bleed: float,
    font_names: dict[str, str],
    layers: dict | None = None,
    uses: dict | None = None,
) -> None:
    """Draw with the face's top-left trim corner at (0, h): layout y runs downwards. With
    `layers` (the file's layer forms so far) and `uses` (how often the file draws each layer),
    a run of boxes that many cards of the layout draw alike is drawn once as a form and
    placed on each."""
    if layers is None or not face.layers:
        _draw_boxes(c, face.boxes, w, h, bleed, font_names)
        return
    at = 0
    for start, end, digest in face.layers:
        if uses is None or uses.get(digest, 0) < FORM_FROM:
            continue  # drawn with the boxes around it
        _draw_boxes(c, face.boxes[at:start], w, h, bleed, font_names)
        name = layers.get((digest, w, h, bleed))
        if name is None:
            name = layers[(digest, w, h, bleed)] = form_name("layer", digest, w, h, bleed)
            c.beginForm(name, lowerx=-bleed, lowery=-bleed, upperx=w + bleed, uppery=h + bleed)
            _draw_boxes(c, face.boxes[start:end], w, h, bleed, font_names)
            c.endForm()
        c.doForm(name)
        at = end
    _draw_boxes(c, face.boxes[at:], w, h, bleed, font_names)


def form_name(kind: str, *what) -> str:
    """A form's name from what it draws, not from how many came before it: a page's content
    then reads the same whatever an edit changed earlier in the file (render/pdf.py keeps
    such pages from one build to the next)."""
    return kind + hashlib.blake2b(repr(what).encode(), digest_size=8).hexdigest()


# A form costs about 470 bytes of its own (its dictionary, resources, a stream), and boxes drawn
# inline compress well with the page around them. Measured with a frame and a line of text the
# same on every card: the file is 1 % larger with forms at 8 cards, even at 30, 3 % smaller at
# 200 and 7 % at 3,000 (drawing time alike). So a layer becomes a form from 30 placements on.
FORM_FROM = 30


def _into_bleed(x: float, y: float, bw: float, bh: float, w: float, h: float, bleed: float):
    """A `bleed = true` box grown into the bleed on the sides where it meets the trim (PDF
    coordinates, y up): a band along the top reaches up, left and right, not down into the
    card; a background reaches every way."""
    edge = 0.01  # points: a box laid at 0 or at W or H
    x0 = x - bleed if x <= edge else x
    x1 = x + bw + bleed if x + bw >= w - edge else x + bw
    y0 = y - bleed if y <= edge else y
    y1 = y + bh + bleed if y + bh >= h - edge else y + bh
    return x0, y0, x1 - x0, y1 - y0


def _draw_boxes(c, boxes, w: float, h: float, bleed: float, font_names: dict[str, str]) -> None:
    for box in boxes:
        DRAW[box.type](c, box, box.x, h - box.y - box.h, w, h, bleed, font_names)


def _draw_text(c, box, x: float, y: float, w, h, bleed, font_names: dict[str, str]) -> None:
    if box.props.get("styles"):
        _draw_styled(c, box, x, y, font_names)
    else:
        draw_lines(c, box, x, y, font_names[box.props["font"]])


def _draw_image(c, box, x: float, y: float, w, h, bleed, font_names: dict[str, str]) -> None:
    draw_image(c, box, x, y, font_names["body"])


def _draw_icon(c, box, x: float, y: float, w, h, bleed, font_names) -> None:
    side = min(box.w, box.h)
    draw_icon(c, box.props["shapes"], x + (box.w - side) / 2, y + (box.h - side) / 2, side)


def _draw_shape(c, box, x: float, y: float, w: float, h: float, bleed: float, font_names) -> None:
    """A rect, ellipse, polygon or line: filled and stroked as its props say (a `bleed` rect
    grown into the bleed where it meets the trim)."""
    p = box.props
    bw, bh = box.w, box.h
    if p.get("bleed"):
        x, y, bw, bh = _into_bleed(x, y, bw, bh, w, h, bleed)
    fill, stroke = p.get("fill"), p.get("stroke")
    if not fill and not stroke:
        return
    c.saveState()
    if fill:
        c.setFillColor(HexColor(fill))
    if stroke:
        c.setStrokeColor(HexColor(stroke))
        c.setLineWidth(p.get("stroke_width", 0.5))
        if p.get("dash"):
            c.setDash(p["dash"], p["dash"])
    mode = {"stroke": 1 if stroke else 0, "fill": 1 if fill else 0}
    if box.type == "ellipse":
        c.ellipse(x, y, x + bw, y + bh, **mode)
    elif box.type in ("polygon", "line"):
        path = c.beginPath()
        top = y + bh
        for i, (px, py) in enumerate(p["points"]):
            (path.lineTo if i else path.moveTo)(x + px, top - py)
        if box.type == "polygon":
            path.close()
            c.drawPath(path, **mode)
        else:
            c.drawPath(path, stroke=1, fill=0)
    elif p.get("radius"):
        c.roundRect(x, y, bw, bh, p["radius"], **mode)
    else:
        c.rect(x, y, bw, bh, **mode)
    c.restoreState()


# How each box type is drawn (layout/boxes.TYPES): the canvas, the box, its bottom-left corner
# in PDF coordinates (y up), the piece's width and height, its bleed and the fonts.
DRAW = {
    "text": _draw_text,
    "image": _draw_image,
    "icon": _draw_icon,
    "rect": _draw_shape,
    "ellipse": _draw_shape,
    "polygon": _draw_shape,
    "line": _draw_shape,
}


PLACEHOLDER_FILL, PLACEHOLDER_LINE, PLACEHOLDER_TEXT = "#E4E4E4", "#9A9A9A", "#4D4D4D"


def draw_image(c, box, x: float, y: float, font_name: str) -> None:
    """A picture in its box (bottom-left corner at x, y), clipped to the box and its rounded
    corners; or, while the picture is missing, a labelled grey stand-in."""
    p = box.props
    c.saveState()
    clip = c.beginPath()
    if p.get("radius"):
        clip.roundRect(x, y, box.w, box.h, p["radius"])
    else:
        clip.rect(x, y, box.w, box.h)
    c.clipPath(clip, stroke=0, fill=0)
    if p.get("opacity", 1.0) < 1.0:
        c.setFillAlpha(p["opacity"])
        c.setStrokeAlpha(p["opacity"])
    image = p.get("image")
    try:
        form = image_form(c, image) if image is not None else None
    except (OSError, ValueError, AttributeError):  # gone since layout (an old face in a diff)
        form = None
    if form is None:
        c.translate(x, y)
        c.doForm(placeholder_form(c, box, font_name))
    else:
        dx, dy, dw, dh = p["draw"]
        name, (fw, fh) = form
        c.translate(x + dx, y + box.h - dy - dh)
        c.scale(dw / fw, dh / fh)
        c.doForm(name)
    c.restoreState()


def image_form(c, image) -> tuple[str, tuple[float, float]]:
    """The PDF form that draws `image` (made on its first use in this file, so a picture on a
    hundred cards is embedded once) and the size it is drawn at before scaling."""
    name = f"img{image.digest}"
    # a drawing at its own size (layout measured it), a raster picture in the unit square
    size = tuple(map(float, image.px)) if image.kind == "svg" else (1.0, 1.0)
    if not c.hasForm(name):
        if image.kind == "svg":  # read again (as layout did, inside the project) for this file
            drawing, source = read_svg(image.path, image.root), None
        else:
            source = _raster(image.path, image.kind)
        c.beginForm(name, 0, 0, *size)  # the file is read: nothing can fail inside the form
        if source is None:
            from reportlab.graphics import renderPDF

            renderPDF.draw(drawing, c, 0, 0)
        else:
            if image.orientation != 1:  # stored on its side or mirrored: shown as EXIF says
                c.transform(*ORIENTATIONS[image.orientation])
            c.drawImage(source, 0, 0, 1, 1, mask="auto")
        c.endForm()
    return name, size


# EXIF orientation -> the matrix taking the stored picture in the unit square to it as seen
# (PDF's u right, v up): 2 mirrored, 3 half a turn, 4 flipped, 5 transposed, 6 a quarter turn
# clockwise, 7 transversed, 8 a quarter turn anticlockwise.
ORIENTATIONS = {
    2: (-1, 0, 0, 1, 1, 0),
    3: (-1, 0, 0, -1, 1, 1),
    4: (1, 0, 0, -1, 0, 1),
    5: (0, -1, -1, 0, 1, 1),
    6: (0, -1, 1, 0, 0, 1),
    7: (0, 1, 1, 0, 0, 0),
    8: (0, 1, -1, 0, 1, 0),
}


def _raster(path: str, kind: str):
    """A PNG or JPEG for ReportLab: a JPEG is embedded as it is; a PNG as pixels, its
    transparency (alpha or a transparent colour) kept as a soft mask."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    if kind == "jpeg":
        return ImageReader(path)
    with Image.open(path) as im:
        alpha = im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
        if im.mode.startswith("I"):  # 16-bit grey: to 8 bits by scale (converting clips it white)
            im = im.point(lambda v: v * (1 / 256)).convert("L")
        im = im.convert("RGBA" if alpha else "RGB")
    return ImageReader(im)


def placeholder_form(c, box, font_name: str) -> str:
    """The PDF form of a stand-in (made on its first use in the file): every card that lacks
    the same picture in the same box places one drawing, as every card showing a picture does."""
    p = box.props
    shown = (box.w, box.h, font_name) + tuple(
        p.get(k) for k in ("placeholder", "label_size", "label_width", "ascent")
    )
    name = "stand" + hashlib.blake2b(repr(shown).encode(), digest_size=8).hexdigest()
    if not c.hasForm(name):
        c.beginForm(name, 0, 0, box.w, box.h)
        _placeholder(c, box, 0, 0, font_name)
        c.endForm()
    return name


def _placeholder(c, box, x: float, y: float, font_name: str) -> None:
    """A card's stand-in (layout measured its label): see stand_in."""
    p = box.props
    label = (p["placeholder"], p["label_size"], p["label_width"], p["ascent"])
    stand_in(c, x, y, box.w, box.h, font_name, label if "label_size" in p else None)


def stand_in(c, x: float, y: float, w: float, h: float, font: str, label=None) -> None:
    """Grey with a cross and the stand-in's label (text, size, width, ascent): plainly not the
    art. Without a label (a picture gone missing), the cross alone."""
    c.setFillColor(HexColor(PLACEHOLDER_FILL))
    c.setStrokeColor(HexColor(PLACEHOLDER_LINE))
    c.setLineWidth(0.5)
    c.rect(x, y, w, h, stroke=1, fill=1)
    c.line(x, y, x + w, y + h)
    c.line(x, y + h, x + w, y)
    if label is None:
        return
    text, size, lw, ascent = label
    pad = 0.3 * size
    lx, ly = x + (w - lw) / 2, y + (h - size) / 2
    c.setFillColor(HexColor(PLACEHOLDER_FILL))
    c.rect(lx - pad, ly - pad, lw + 2 * pad, size + 2 * pad, stroke=0, fill=1)
    c.setFillColor(HexColor(PLACEHOLDER_TEXT))
    c.setFont(font, size)
    c.drawString(lx, ly + (1 - ascent) * size, text)


def draw_icon(c, shapes, x: float, y: float, size: float) -> None:
    """An icon's shapes (1×1 box, y down) scaled to `size`, bottom-left corner at (x, y)."""

    def pt(px: float, py: float) -> tuple[float, float]:
        return x + px * size, y + (1 - py) * size

    c.saveState()
    for s in shapes:
        fill, stroke = s.get("fill"), s.get("stroke")
        if fill:
            c.setFillColor(HexColor(fill))
        if stroke:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(s.get("stroke_width", 0.06) * size)
            c.setLineJoin(1)
            c.setLineCap(1)
        mode = {"stroke": 1 if stroke else 0, "fill": 1 if fill else 0}
        kind = s["type"]
        if kind == "circle":
            cx, cy = pt(s["cx"], s["cy"])
            c.circle(cx, cy, s["r"] * size, **mode)
        elif kind == "rect":
            rx, ry = pt(s["x"], s["y"] + s["h"])
            if s.get("radius"):
                c.roundRect(rx, ry, s["w"] * size, s["h"] * size, s["radius"] * size, **mode)
            else:
                c.rect(rx, ry, s["w"] * size, s["h"] * size, **mode)
        else:
            path = c.beginPath()
            for i, (px, py) in enumerate(s["points"]):
                (path.lineTo if i else path.moveTo)(*pt(px, py))
            if kind == "polygon":
                path.close()
                c.drawPath(path, **mode)
            else:
                c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def draw_lines(c, box, x: float, y: float, font_name: str) -> None:
    p = box.props
    if p.get("direction") == "vertical":
        _draw_vertical(c, box, x, y, font_name)
        return
    lines, size, leading = p["lines"], p["size"], p["leading"]
    top = _first_top(box, y)
    colour = HexColor(p.get("color") or "#000000")
    c.setFillColor(colour)
    c.setFont(font_name, size)
    baseline = top - p["ascent"] * size
    icons = p.get("inline_icons", {})
    indents = p.get("indents") or (0.0,) * len(lines)
    for line, width, indent in zip(lines, p["widths"], indents):
        if p["align"] == "center":
            lx = x + (box.w - width) / 2
        elif p["align"] == "right":
            lx = x + box.w - width
        else:
            lx = x + indent
        if has_ruby(line):
            _draw_ruby_line(c, line, lx, baseline, size, font_name, icons, colour, p["ascent"])
        elif not icons:
            c.drawString(lx, baseline, line)
        else:
            draw_runs(c, line, lx, baseline, size, font_name, icons, colour, p["ascent"])
        baseline -= leading


def _first_top(box, y: float) -> float:
    """The top of a horizontal text box's first line (bottom of the box at y): the lines'
    block placed by `valign`, room kept above for ruby readings."""
    p = box.props
    lines, size = p["lines"], p["size"]
    reserve = RUBY_SIZE * size if any(has_ruby(line) for line in lines) else 0.0
    block = (len(lines) - 1) * p["leading"] + size + reserve
    top = y + box.h - reserve
    if p["valign"] == "middle":
        top -= (box.h - block) / 2
    elif p["valign"] == "bottom":
        top -= box.h - block
    return top


def _draw_styled(c, box, x: float, y: float, font_names: dict[str, str]) -> None:
    """Text with markup (layout/markup.py): each run in its own weight, colour and size, on the
    line's one baseline."""
    p = box.props
    lines, size, leading, styles = p["lines"], p["size"], p["leading"], p["styles"]
    top = _first_top(box, y)
    baseline = top - p["ascent"] * size
    icons = p.get("inline_icons", {})
    for line, width in zip(lines, p["widths"]):
        lx = x + {"center": (box.w - width) / 2, "right": box.w - width}.get(p["align"], 0.0)
        for style, run in markup.runs(line, styles):
            name = font_names["bold" if style.bold else p["font"]]
            scaled = size * style.size
            colour = HexColor(style.color or p.get("color") or "#000000")
            c.setFillColor(colour)
            c.setFont(name, scaled)
            if has_ruby(run):
                _draw_ruby_line(c, run, lx, baseline, scaled, name, icons, colour, p["ascent"])
            else:
                draw_runs(c, run, lx, baseline, scaled, name, icons, colour, p["ascent"])
            rest = "".join(ch for ch in base_text(run) if ch not in icons)
            ems = sum(icons[ch][1] for ch in run if ch in icons)
            lx += c.stringWidth(rest, name, scaled) + ems * scaled
        baseline -= leading


def _draw_ruby_line(c, line, x, baseline, size, font_name, icons, colour, ascent) -> None:
    """A line with ruby: each base in turn, its reading centred above it at half size."""
    for base, reading in segments(line):
        if icons:
            draw_runs(c, base, x, baseline, size, font_name, icons, colour, ascent)
        else:
            c.drawString(x, baseline, base)
        x += draw_reading(c, base, reading, x, baseline, size, font_name, ascent)


def draw_reading(c, base, reading, x, baseline, size, font_name, ascent=0.88) -> float:
    """A reading centred above `base` drawn at x (half size, just above its em box); returns
    the base's width."""
    width = c.stringWidth(base, font_name, size)
    if reading:
        small = RUBY_SIZE * size
        c.setFont(font_name, small)
        rw = c.stringWidth(reading, font_name, small)
        above = baseline + ascent * size + (1 - ascent) * small + 0.05 * size
        c.drawString(x + (width - rw) / 2, above, reading)
        c.setFont(font_name, size)
    return width


def _draw_vertical(c, box, x: float, y: float, font_name: str) -> None:
    """縦書き: columns from the right, each character in its cell top to bottom (see
    layout/typeset.py for which turn, which take vertical forms and which stand as 縦中横)."""
    p = box.props
    columns, size, pitch, ascent = p["lines"], p["size"], p["leading"], p["ascent"]
    icons = p.get("inline_icons", {})
    colour = HexColor(p.get("color") or "#000000")
    reserve = RUBY_SIZE * size if any(has_ruby(col) for col in columns) else 0.0
    block = (len(columns) - 1) * pitch + size + reserve
    if p["align"] == "left":
        right = x + block
    elif p["align"] == "center":
        right = x + (box.w + block) / 2
    else:
        right = x + box.w
    c.setFillColor(colour)
    c.setFont(font_name, size)
    for i, (column, length) in enumerate(zip(columns, p["widths"])):
        cx = right - reserve - size / 2 - i * pitch
        top = y + box.h
        if p["valign"] == "middle":
            top -= (box.h - length) / 2
        elif p["valign"] == "bottom":
            top -= box.h - length
        for base, reading in segments(column):
            start = top
            for kind, piece in vertical_pieces(base):
                top = _draw_cell(c, kind, piece, cx, top, size, ascent, font_name, icons, colour)
            if reading:
                _draw_reading(c, reading, cx + size / 2, start, top, size, ascent, font_name)


def _draw_cell(c, kind, piece, cx, top, size, ascent, font_name, icons, colour) -> float:
    """One cell (or sideways run) of a column at `top`; returns the top of the next."""
    if kind == "space":
        return top - size / 2
    if kind == "sideways":  # turned a quarter clockwise, centred on the column
        width = c.stringWidth(piece, font_name, size)
        c.saveState()
        c.translate(cx, top)
        c.rotate(-90)
        c.drawString(0, -(ascent - 0.5) * size, piece)
        c.restoreState()
        return top - width
    baseline = top - ascent * size
    if kind == "tcy":  # 縦中横: upright across one cell, narrowed if it must be
        width = c.stringWidth(piece, font_name, size)
        c.saveState()
        c.translate(cx, baseline)
        c.scale(min(1.0, 0.95 * size / width), 1.0)
        c.drawCentredString(0, 0, piece)
        c.restoreState()
    elif kind == "small":  # small kana sit up and to the right in their cell
        c.drawCentredString(cx + 0.1 * size, baseline + 0.1 * size, piece)
    elif piece in icons:
        shapes, _advance = icons[piece]
        draw_icon(c, shapes, cx - size / 2, top - size, size)
        c.setFillColor(colour)
        c.setFont(font_name, size)
    else:
        c.drawCentredString(cx, baseline, piece)
    return top - size


def _draw_reading(c, reading, cx, start, end, size, ascent, font_name) -> None:
    """A vertical reading beside its base (to the right), spread along it."""
    small = RUBY_SIZE * size
    cells = vertical_pieces(reading)
    span = start - end
    step = max(small, span / max(1, len(cells)))
    top = start - (span - step * len(cells)) / 2 if step * len(cells) < span else start
    c.setFont(font_name, small)
    for kind, piece in cells:
        x = cx + small / 2
        if kind == "small":
            c.drawCentredString(x + 0.1 * small, top - ascent * small + 0.1 * small, piece)
        else:
            c.drawCentredString(x, top - ascent * small, piece)
        top -= step
    c.setFont(font_name, size)


def draw_runs(
    c,
    line: str,
    x: float,
    baseline: float,
    size: float,
    font_name: str,
    icons: dict,
    colour,
    ascent: float,
) -> None:
    """Text with icons: each icon an em square sitting where the font's em box sits on the line."""
    run = ""
    for ch in line + "\0":
        if ch in icons or ch == "\0":
            if run:
                c.drawString(x, baseline, run)
                x += c.stringWidth(run, font_name, size)
                run = ""
            if ch in icons:
                shapes, advance = icons[ch]
                box_bottom = baseline - (1 - ascent) * size
                draw_icon(c, shapes, x + (advance - 1) * size / 2, box_bottom, size)
                x += advance * size
                c.setFillColor(colour)
                c.setFont(font_name, size)
        else:
            run += ch
