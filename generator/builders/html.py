"""rulebook.html: the rulebook as one self-contained web page for sharing online — the same
text, headings, lists and tables as rulebook.pdf (counted from the data), ruby as <ruby>, and
the sample cards as images inside the file (rendered from the same pages as the PDFs). Not
built by default: `pnp build --format html`."""

from __future__ import annotations

from pathlib import Path

from .. import printed
from ..layout.plan import Plan
from ..layout.rulebook import Block, directive_table
from ..layout.text import inside_words, phrases
from ..rulesource import runs
from ..typeset import designer_breaks, parse_ruby, segments
from . import Builder, Job

# Lines break as a Japanese book breaks them: strict kinsoku (no small kana, 。 or 」 at a line
# start) and between phrases only (BudouX's, marked <wbr>; `keep-all` holds each phrase
# whole, so 「８個」 and 「シャルモント」 stay on one line), a phrase too long for the line
# broken anywhere rather than overflowing a phone's screen; a table too wide for it scrolls
# inside its own box. Paragraphs and items are justified (両端揃え), two marks in a row set in
# 1.5 em (text-spacing-trim, where the browser has it).
STYLE = "html/rulebook.css"  # in the package's data folder


def _style() -> str:
    from ..base import DATA

    return (DATA / STYLE).read_text(encoding="utf-8").strip()


def inline(text: str, words: tuple[str, ...] = ()) -> str:
    """A marked text as HTML: **strong**, links, and ruby; everything else escaped, a <wbr>
    between its phrases (where a line may break), none inside one of `words` (words.txt)."""
    import html  # here, not when builders register: most builds make no page

    def broken(text: str) -> str:
        text, marked, kept = designer_breaks(text)  # the designer's <wbr>, <nobr>…</nobr>
        inside, at, out = inside_words(text, words) | kept, 0, []
        for phrase in phrases(text):
            for i, ch in enumerate(phrase):
                if out and (at in marked or (i == 0 and at not in inside)):
                    out.append("<wbr>")
                out.append(html.escape(ch))
                at += 1
        return "".join(out)

    out = []
    for run in runs(parse_ruby(text)):
        piece = "".join(
            f"<ruby>{html.escape(base)}<rt>{html.escape(reading)}</rt></ruby>"
            if reading
            else broken(base)
            for base, reading in segments(run.text)
        )
        if run.em:
            piece = f"<em>{piece}</em>"
        if run.strong:
            piece = f"<strong>{piece}</strong>"
        if run.link:
            piece = f'<a href="{html.escape(run.link, quote=True)}">{piece}</a>'
        out.append(piece)
    return "".join(out)


FROM_DATA_HTML = "（この表はデータから作成）"


def table(
    block: Block, generated: bool = False, words: tuple[str, ...] = (), language: str = "ja"
) -> list[str]:
    rows = block.items
    out = ['<table class="generated-table">' if generated else "<table>"]
    for r, row in enumerate(rows):
        cell = "th" if r == 0 else "td"
        out.append(
            "<tr>" + "".join(f"<{cell}>{inline(str(c), words)}</{cell}>" for c in row) + "</tr>"
        )
    out.append("</table>")
    if generated:
        said = printed.say(language, FROM_DATA_HTML)
        out.append(f'<p class="generated">{said}</p>')
    return out


class HtmlBuilder(Builder):
    name = "html"
    what = "rulebook.html: the rulebook as one self-contained web page"
    default = False
    needs = "a rules source"
    file = "rulebook.html"

    def applies(self, plan: Plan) -> bool:
        return plan.book is not None

    def glyphs(self, plan: Plan) -> None:
        plan.fonts.use("body", printed.say(plan.game.manifest.language, FROM_DATA_HTML))

    def build(self, job: Job) -> dict[Path, bytes]:
        import html

        plan = job.plan
        book = plan.book
        words = plan.game.words
        images = self._samples(job)
        body: list[str] = []
        for block in book.blocks:
            if block.kind == "heading":
                level = min(max(block.level, 1), 4)
                body.append(f"<h{level}>{inline(block.text, words)}</h{level}>")
            elif block.kind == "para" and block.quote:
                body.append(f"<blockquote><p>{inline(block.text, words)}</p></blockquote>")
            elif block.kind == "para":
                body.append(f"<p>{inline(block.text, words)}</p>")
            elif block.kind in ("list", "olist"):
                tag = "ol" if block.kind == "olist" else "ul"
                start = f' start="{block.level}"' if block.kind == "olist" and block.level else ""
                depth = f' style="margin-left: {1.5 * block.depth:g}em"' if block.depth else ""
                body.append(f"<{tag}{start}{depth}>")
                body += [f"<li>{inline(item, words)}</li>" for item in block.items]
                body.append(f"</{tag}>")
            elif block.kind == "table":
                body += table(block, words=words)
            elif block.kind == "directive" and block.text in ("deal", "components"):
                body += table(
                    directive_table(block, plan.game), True, words, plan.game.manifest.language
                )
            elif block.kind == "directive" and block.text == "samples":
                cards = images.get(block.items, [])
                body.append('<figure class="samples">')
                body += [
                    f'<div><img alt="{html.escape(label, quote=True)}" '
                    f'src="data:image/png;base64,{data}"><span>{html.escape(label)}</span></div>'
                    for label, data in cards
                ]
                body.append("</figure>")
        page = [
            "<!DOCTYPE html>",
            f'<html lang="{plan.game.manifest.language}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(book.title)}</title>",
            f"<style>\n{self._fonts(job)}\n{_style()}\n</style>",
            "</head>",
            "<body>",
            *body,
            "</body>",
            "</html>",
        ]
        return {job.out / self.file: ("\n".join(page) + "\n").encode("utf-8")}

    def _fonts(self, job: Job) -> str:
        """The game's own fonts inside the page (the same subsets the PDFs embed), so it reads
        the same on a machine without Japanese fonts."""
        import base64

        from ..render.fonts import subsets

        fonts = subsets(job.plan.fonts, job.cache)
        rules = []
        for role in ("body", "bold"):
            if role not in fonts:
                continue
            encoded = base64.b64encode(fonts[role]).decode("ascii")
            rules.append(
                f'@font-face {{ font-family: "pnp-{role}"; '
                f'src: url(data:font/ttf;base64,{encoded}) format("truetype"); }}'
            )
        return "\n".join(rules)

    def _samples(self, job: Job) -> dict:
        """Each samples directive's cards as base64 PNG images (150 dpi, no bleed)."""
        import base64

        from ..render.images import faces_to_png

        out = {}
        for key, (faces, size) in job.plan.samples.items():
            drawn = [face for _label, face in faces]
            title = job.plan.game.title
            pngs = faces_to_png(title, drawn, size, 0.0, job.font_names, 150, workers=1)
            out[key] = [
                (label, base64.b64encode(png).decode("ascii"))
                for (label, _face), png in zip(faces, pngs)
            ]
        return out
