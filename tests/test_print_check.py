"""Every shipped sheet (those written alike once), for every card size (named and custom), on
A4, Letter, A3 and B5, with printer margins of 3, 5 and 8 mm and bleeds of 0, 1 and 3 mm, full
and partial sheets: built as a designer builds them and read back by the independent checker
(tests/sheetcheck.py), which knows only the card sizes, the paper and the margin. The shipped
games' own builds too."""

from __future__ import annotations

import multiprocessing
import re
import tomllib
from pathlib import Path

import pytest

from generator import base

from conftest import run
from sheetcheck import problems

SHEETS_TOML = tomllib.loads((base.BASE_LAYOUTS / "sheets.toml").read_text(encoding="utf-8"))
PAPERS = {"a4": (210, 297), "letter": (215.9, 279.4), "a3": (297, 420), "b5": (182, 257)}
CUSTOM = {"50x30": (50, 30), "100x140": (100, 140), "25.4x38.1": (25.4, 38.1)}


def _mm(text: str) -> float:
    value = float(re.match(r"[\d.]+", text).group())
    return value * 25.4 if text.endswith("in") else value


SIZES = {
    **{k: (_mm(v["w"]), _mm(v["h"])) for k, v in SHEETS_TOML["size"].items()},
    **CUSTOM,
}
# Sheets written alike (the fold-over sheets named for a size) print alike: each spec once.
DISTINCT = list(
    {repr(sorted(v.items())): k for k, v in reversed(SHEETS_TOML["sheet"].items())}.values()
)[::-1]
COUNT = 11  # cards a deck: a full sheet where 9 or fewer fit, and a partial one after it

FRONT = """extends = "card_base"
[[box]]
name = "background"
fill = "#C04040"
[[box]]
name = "name"
type = "text"
x = "1mm"
y = "1mm"
w = "W - 2mm"
h = "4mm"
text = "{{ name }}"
size = "5pt"
"""
BACK = 'extends = "card_base"\n[[box]]\nname = "background"\nfill = "#4040C0"\n'


def _project(root, sheet: str, sizes) -> dict[int, str]:
    """A game with a deck of COUNT cards of each size on `sheet`; returns each deck's
    [[component]] line in game.toml and its size."""
    shared = root / "layouts" / base.SHARED
    shared.mkdir(parents=True)
    (shared / "mx_front.toml").write_text(FRONT, encoding="utf-8")
    (shared / "mx_back.toml").write_text(BACK, encoding="utf-8")
    game = root / "cards" / "mx"
    game.mkdir(parents=True)
    lines = [
        "[game]",
        'title = "mx"',
        "players = { min = 2, max = 4 }",
        "[fonts]",
        'body = { family = "Noto Sans CJK JP", weight = "Regular" }',
        'bold = { family = "Noto Sans CJK JP", weight = "Bold" }',
    ]
    at = {}
    for i, size in enumerate(sizes):
        rows = "".join(f"{size} {k}\n" for k in range(COUNT))
        (game / f"c{i}.csv").write_text("name\n" + rows, encoding="utf-8")
        at[len(lines) + 1] = size
        lines += [
            "[[component]]",
            f'id = "c{i}"',
            f'name = "札{i}"',
            f'data = "c{i}.csv"',
            f'size = "{size}"',
            'front = "mx_front"',
            'back = "mx_back"',
            f'sheet = "{sheet}"',
            "  [component.columns]",
            '  name = "text"',
        ]
    (game / "game.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return at


def _drop(root, size: str) -> None:
    """Leave the deck of `size` out of the game (its grid does not fit the paper)."""
    path = root / "cards" / "mx" / "game.toml"
    text = path.read_text(encoding="utf-8")
    head, *decks = text.split("[[component]]\n")
    kept = [d for d in decks if f'size = "{size}"' not in d]
    path.write_text("[[component]]\n".join([head, *kept]), encoding="utf-8")


def _build_and_check(args) -> tuple[int, list[str]]:
    """Build every size that fits and check cards.pdf: (decks built, problems). A deck whose
    grid does not fit is said so at its [[component]] and left out."""
    root, sheet, paper, margin, bleed = args
    root = Path(root)
    at = _project(root, sheet, SIZES)
    built = dict(at)
    opts = ["--paper", paper, "--margin", str(margin), "--bleed", str(bleed), "-q"]
    for _attempt in range(len(SIZES) + 1):
        r = run("build", "--project", str(root), "--format", "cards", *opts)
        if r.exit_code == 0:
            break
        lines = r.output.splitlines()
        others = [line for line in lines if ": error:" in line and "do not fit" not in line]
        assert "do not fit" in r.output and not others, r.output
        for size in list(built.values()):
            w, h = SIZES[size]
            named = size if size in SHEETS_TOML["size"] else f"{w:g}×{h:g} mm"
            if f" of {named} (" in r.output:
                _drop(root, size)
                built = {k: v for k, v in built.items() if v != size}
    else:
        raise AssertionError(r.output)
    if not built:
        return 0, []
    backs = SHEETS_TOML["sheet"][sheet].get("backs", "long-edge")
    sizes = [SIZES[s] for s in built.values()]
    pdf = root / "output" / "mx" / "cards.pdf"
    said = problems(pdf, sizes, PAPERS[paper], margin, backs)
    return len(built), [f"m{margin} b{bleed}: {p}" for p in said]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("sheet", DISTINCT)
def test_every_sheet_size_paper_margin_and_bleed_passes_the_checker(tmp_path, sheet, paper):
    most = _mm(SHEETS_TOML["sheet"][sheet].get("max_bleed", "3mm"))  # more is refused
    # The corners of margin × bleed and its middle: a sheet runs out of room at the most
    # margin and bleed, and packs tightest at the least (all nine pairs cost 60 s a run)
    cases = [
        (str(tmp_path / f"{m}-{b}"), sheet, paper, m, b)
        for m, b in ((3, 0), (3, 3), (5, 1), (8, 0), (8, 3))
        if b <= most
    ]
    # Two processes (the machines these run on have two cores), forked: warm as this one is.
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(_build_and_check, cases)
    assert sum(n for n, _ in results), "nothing fits"
    found = [p for _n, said in results for p in said]
    assert not found, "\n".join(found[:40])


def _game_sizes(root, kind: str) -> dict[str, list[tuple[float, float]]]:
    """{game: the sizes (mm) of its printed components of `kind`}, from its game.toml."""
    out = {}
    for toml in sorted((root / "cards").glob("*/game.toml")):
        manifest = tomllib.loads(toml.read_text(encoding="utf-8"))
        sizes = []
        for comp in manifest.get("component", []):
            if comp.get("kind", "card") != kind or comp.get("printed") is False:
                continue
            size = comp["size"]
            if isinstance(size, dict):
                sizes.append((_mm(size["w"]), _mm(size["h"])))
            elif size in SIZES:
                sizes.append(SIZES[size])
            else:
                w, h = re.split(r"[x×]", size)
                sizes.append((float(w), float(h)))
        if sizes:
            out[toml.parent.name] = sizes
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_shipped_games_sheets_pass_the_checker(project, paper):
    r = run("build", "--project", str(project), "--paper", paper, "--format", "cards,tokens")
    assert r.exit_code == 0, r.output
    found = []
    for kind, name, backs in (("card", "cards", "long-edge"), ("token", "tokens", "none")):
        for game, sizes in _game_sizes(project, kind).items():
            pdf = project / "output" / game / f"{name}.pdf"
            found += [f"{game} {name}: {p}" for p in problems(pdf, sizes, PAPERS[paper], 5, backs)]
    assert not found, "\n".join(found[:40])


def test_the_shipped_games_on_fold_over_sheets_pass_the_checker(project):
    """Each shipped deck of cards moved to the fold-over sheet of its size."""
    for toml in (project / "cards").glob("*/game.toml"):
        text = toml.read_text(encoding="utf-8")
        text = re.sub(r'sheet = "(poker|tarot)_\dx\d"', r'sheet = "\1_foldover"', text)
        toml.write_text(text.replace('sheet = "square_auto"', 'sheet = "foldover"'), "utf-8")
    r = run("build", "--project", str(project), "--format", "cards")
    assert r.exit_code == 0, r.output
    found = []
    for game, sizes in _game_sizes(project, "card").items():
        pdf = project / "output" / game / "cards.pdf"
        found += [f"{game}: {p}" for p in problems(pdf, sizes, PAPERS["a4"], 5, "foldover")]
    assert not found, "\n".join(found[:40])


def _without(pdf, out, page: int, drop) -> None:
    """A copy of `pdf` whose page `page` lacks the strokes `drop(x1, y1, x2, y2)` picks: a
    fault planted in a good file, as a printer driver or a bug might lose a mark."""
    import pypdf
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(pdf)
    writer = pypdf.PdfWriter(clone_from=reader)
    target = writer.pages[page]
    content = ContentStream(target.get_contents(), writer)
    ops, kept, pending, dropped = content.operations, [], [], 0
    for operands, op in ops:
        if op == b"m":
            pending = [(operands, op)]
            continue
        if pending:
            pending.append((operands, op))
            if op == b"l":
                continue
            if op == b"S" and len(pending) == 3:
                (m, _), (l, _), _s = pending
                if drop(*(float(v) for v in (*m, *l))):
                    pending, dropped = [], dropped + 1
                    continue
            kept += pending
            pending = []
            continue
        kept.append((operands, op))
    assert dropped, "the fault was not planted"
    content.operations = kept
    target.replace_contents(content)
    writer.write(out)


def test_the_checker_fails_a_sheet_that_lost_one_mark(tiny_built, tmp_path):
    """The checker passes the tiny game's sheets, and fails each of them with one mark gone,
    naming the cut line."""
    pdf = tiny_built / "cards.pdf"
    assert problems(pdf, [SIZES["poker"]], PAPERS["a4"], 5) == []
    from sheetcheck import read

    for page in (1, 2):
        marks = read(pdf)[page].marks
        x1, y1, x2, y2 = next(k for k in marks if k[1] == k[3])  # a horizontal mark
        planted = tmp_path / f"lost-{page}.pdf"
        _without(pdf, planted, page, lambda *k, want=(x1, y1, x2, y2): k == want)
        said = problems(planted, [SIZES["poker"]], PAPERS["a4"], 5)
        assert said and all("not marked at both ends" in p for p in said), said
        assert f"y = {y1 / (72 / 25.4):.2f} mm" in said[0]


def test_every_pdf_pnp_writes_embeds_every_font(kit, project, tmp_path):
    """Sheets, tokens, boards, dice, tuck boxes, print-shop files, the rulebook, the summary,
    simulation reports and the calibration sheet: no font a reader must stand in for (a
    drawing's default Helvetica was named, unembedded, in simulation reports)."""
    from pdfread import fonts

    r = run(
        "build",
        "--project",
        str(kit),
        "--format",
        "cards,tokens,board,dice,tuckbox,printshop",
    )
    assert r.exit_code == 0, r.output
    r = run(
        "build",
        "fudaraku",
        "--project",
        str(project),
        "--format",
        "cards,rulebook,summary,simulation",
    )
    assert r.exit_code == 0, r.output
    r = run("calibrate", "--out", str(tmp_path / "calibration.pdf"))
    assert r.exit_code == 0, r.output
    pdfs = [
        *(kit / "output").rglob("*.pdf"),
        *(project / "output").rglob("*.pdf"),
        tmp_path / "calibration.pdf",
    ]
    names = {p.name for p in pdfs}
    assert {"cards.pdf", "tokens.pdf", "board.pdf", "dice.pdf", "tuckbox.pdf"} <= names
    assert {"rulebook.pdf", "summary.pdf", "calibration.pdf"} <= names
    assert any(n.startswith("simulation-") for n in names)
    for pdf in pdfs:
        found = fonts(pdf)
        assert found, pdf
        for f in found:
            assert f["embedded"], (str(pdf.relative_to(pdf.parents[2])), f["name"])
