"""A designer's own game from an empty folder: `pnp init`, `pnp new GAME --from FILE`, `pnp build`
— for each spreadsheet format a designer saves — and what the tool says when it cannot."""

from __future__ import annotations

import math
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, edit, run
from pdfread import MM, all_text, page_size_mm, page_text, placements, render, text_by_font, text_in
from spreadsheets import write_ods, write_xlsx

COLOURS = {"赤": "#C8323C", "青": "#2F5DA8", "黄": "#D9A400", "緑": "#3C8D4F"}


def deck_rows() -> list[list]:
    """48 cards, 4 colours × 1–12, a header that is not a name (No.), a colour code, effects
    of which some are long."""
    rows: list[list] = [["No.", "色", "数字", "色コード", "効果"]]
    for i, (colour, code) in enumerate(COLOURS.items()):
        for n in range(1, 13):
            effect = "なし" if n % 3 else f"{colour}の{n}を出したら、好きなプレイヤーから１枚引く。"
            rows.append([i * 12 + n, colour, n, code, effect])
    return rows


def save(path, rows, kind: str) -> None:
    if kind == "xlsx":
        write_xlsx(path, {"カード": rows})
    elif kind == "ods":
        write_ods(path, {"カード": rows})
    else:  # Excel's "Text (Tab delimited)" on Japanese Windows: tabs and Shift_JIS (.txt);
        # its "Unicode Text": tabs and UTF-16 with a byte-order mark, lines ending CR LF; its
        # "CSV UTF-8" where the decimal mark is a comma (German, French…): semicolons
        sep = "\t" if kind.startswith(("tsv", "txt")) else ";" if kind == "csv-semicolon" else ","
        end = "\r\n" if kind == "txt-utf16" else "\n"
        text = end.join(sep.join(str(v) for v in r) for r in rows) + end
        encoding = {
            "csv-bom": "utf-8-sig",
            "csv-semicolon": "utf-8-sig",
            "csv-sjis": "cp932",
            "txt": "cp932",
            "txt-utf16": "utf-16",
        }.get(kind, "utf-8")
        path.write_bytes(text.encode(encoding))


def csv_game(tmp_path, rows: list[list[str]], *more: str):
    """A new project with a game `deck` made by `pnp new` from these rows as deck.csv: the
    project and what `new` said."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    source = tmp_path / "deck.csv"
    source.write_text("\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
    return project, run("new", "deck", "--project", str(project), "--from", str(source), *more)


@pytest.mark.parametrize(
    "kind",
    ["csv", "csv-bom", "csv-sjis", "csv-semicolon", "tsv", "txt", "txt-utf16", "xlsx", "ods"],
)
def test_init_new_build_prints_every_card_with_every_column(tmp_path, kind):
    project = tmp_path / "myproject"
    assert run("init", str(project)).exit_code == 0
    assert (project / "layouts/_shared/sheets.toml").is_file()
    suffix = "csv" if kind.startswith("csv") else kind.split("-")[0]
    source = tmp_path / f"deck.{suffix}"
    rows = deck_rows()
    save(source, rows, kind)
    made = run(
        "new",
        "deck",
        "--project",
        str(project),
        "--from",
        str(source),
        "--title",
        "色札",
        "--style",
        "list",
    )
    assert made.exit_code == 0, made.output
    assert "48 cards" in made.output and "front: the list style" in made.output
    assert "数字: int" in made.output and "色コード: color" in made.output
    assert 'key = ["No."]' in made.output and "total = 48" in made.output
    checked = run("check", "--no-play", "--project", str(project))
    assert checked.exit_code == 0, checked.output
    assert "error" not in checked.output
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    pdf = project / "output/deck/cards.pdf"
    fronts = [p for page in range(1, 12, 2) for p in placements(pdf, page)]
    assert len(fronts) == 48
    for i, row in enumerate(rows[1:]):
        page, slot = 1 + 2 * (i // 9), i % 9
        p = placements(pdf, page)[slot]
        w, h = (v / MM for v in (p.bbox[2] + p.bbox[0], p.bbox[3] + p.bbox[1]))
        assert (round(w), round(h)) == (63, 88)
        text = text_in(pdf, page, (p.x, p.y, p.x + 63 * MM, p.y + 88 * MM))
        flat = text.replace("\r", "").replace("\n", "")
        assert f"No.：{row[0]}" in flat and row[1] in flat and f"数字：{row[2]}" in flat, (i, text)
        assert row[4].replace(" ", "") in flat.replace(" ", ""), (i, text)
    rulebook = project / "output/deck/rulebook.pdf"
    assert rulebook.is_file()


@pytest.mark.parametrize(
    "size, mm, grid",
    [("50x70", (50, 70), "3×4 per sheet"), ("mini", (44, 63), "3×6 per sheet (sideways)")],
)
def test_new_without_a_spreadsheet_makes_sample_cards_that_build(tmp_path, size, mm, grid):
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    made = run("new", "sample", "--project", str(project), "--size", size)
    assert made.exit_code == 0, made.output
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    pdf = project / "output/sample/cards.pdf"
    placed = placements(pdf, 1)
    assert len(placed) == 6  # the sample's six cards (three kinds, with copies)
    x0, y0, x1, y1 = placed[0].bbox
    assert (round((x1 + x0) / MM), round((y1 + y0) / MM)) == mm
    assert grid in page_text(pdf, 0)  # small cards: as many as fit a page, sideways if more


@pytest.mark.parametrize(
    "args, words",
    [
        (["new", "my game"], "'my game' cannot be a game's name"),
        (["new", "g", "--size", "huge"], "--size 'huge': use poker, bridge, mini, tarot, square"),
        (["new", "g", "--from", "nothing.csv"], "nothing.csv: no such file"),
        (["new", "g", "--players", "4-2"], "--players '4-2': use MIN-MAX"),
    ],
)
def test_new_refuses_what_it_cannot_make(tmp_path, args, words):
    assert run("init", str(tmp_path / "p")).exit_code == 0
    result = run(*args[:2], "--project", str(tmp_path / "p"), *args[2:])
    assert result.exit_code == 1 and words in result.output, result.output
    assert not (tmp_path / "p/cards/g").exists()


def test_new_and_init_never_overwrite(tmp_path):
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    again = run("init", str(project))
    assert again.exit_code == 1 and "already a project" in again.output
    assert run("new", "g", "--project", str(project)).exit_code == 0
    game = (project / "cards/g/game.toml").read_bytes()
    twice = run("new", "g", "--project", str(project))
    assert twice.exit_code == 1 and "cards/g/ already exists" in twice.output
    assert (project / "cards/g/game.toml").read_bytes() == game


@pytest.mark.parametrize("kind", ["ods", "xlsx"])
def test_a_workbook_of_several_sheets_gives_its_first_with_cards_and_names_it(tmp_path, kind):
    """A cover sheet (a title over a line of notes: one column, not a table) is passed over;
    the game names the sheet it read, so
    adding a sheet later changes nothing; a manifest naming no sheet of several is told how."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    book = tmp_path / f"deck.{kind}"
    writer = write_ods if kind == "ods" else write_xlsx
    writer(
        book,
        {
            "表紙": [["題"], ["更新日: 2026/11/30"]],
            "カード": deck_rows(),
            "トークン": [["名前", "数"], ["石", 9]],
        },
    )
    result = run("new", "g", "--project", str(project), "--from", str(book))
    assert result.exit_code == 0, result.output
    assert f"deck.{kind} has 3 sheets: the cards are read from 'カード'" in result.output
    assert "48 cards" in result.output
    manifest = project / "cards/g/game.toml"
    assert f'data = "deck.{kind}#カード"' in manifest.read_text("utf-8")
    assert run("build", "--project", str(project)).exit_code == 0
    # another sheet, named
    result = run("new", "t", "--project", str(project), "--from", f"{book}#トークン")
    assert result.exit_code == 0 and "has 3 sheets" not in result.output, result.output
    assert "1 card;" in result.output
    # a manifest naming no sheet of several: which to name, and how
    manifest.write_text(manifest.read_text("utf-8").replace("#カード", ""), "utf-8")
    result = run("build", "g", "--project", str(project))
    assert result.exit_code == 1
    assert (
        f"cards/g/deck.{kind}: error: the workbook has 3 sheets (表紙, カード, トークン): name "
        f"the one with the cards after a '#', for example deck.{kind}#カード"
    ) in result.output


def test_a_column_written_with_bold_marks_prints_them_as_bold(tmp_path):
    rows = [["名前", "効果"], ["狐", "**勝利点**を２点得る。"], ["梟", "１枚引く。"]]
    project, result = csv_game(tmp_path, [*rows, ["鷺", "なし"]])
    assert result.exit_code == 0
    assert "効果: written with **bold**" in result.output
    front = (project / "layouts/deck/card_front.toml").read_text("utf-8")
    assert front.count("markup = true") == 1  # the effect's box, not the name's
    assert run("build", "--project", str(project)).exit_code == 0
    pieces = text_by_font(project / "output/deck/cards.pdf", 1)
    bold = "".join(t for t, font in pieces if "Bold" in font)
    body = "".join(t for t, font in pieces if "Bold" not in font)
    assert "勝利点" in bold and "**" not in bold + body and "を２点得る。" in body


def test_a_column_that_writes_asterisks_as_data_prints_them(tmp_path):
    """** as data (two wild resources in a factory's input and output), unpaired in some cells:
    the column is not taken for markup, and a cell with two pairs prints its asterisks too."""
    rows = [["Name", "Factory"], ["Mine", "bb>**w"], ["Exodus", "ww>$**B+$**YT"], ["Farm", "g>b"]]
    project, result = csv_game(tmp_path, rows)
    assert result.exit_code == 0, result.output
    assert "written with **bold**" not in result.output
    assert "markup = true" not in (project / "layouts/deck/card_front.toml").read_text("utf-8")
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    assert "markup" not in built.output
    text = "".join(t for t, _font in text_by_font(project / "output/deck/cards.pdf", 1))
    assert "ww>$**B+$**YT" in text and "bb>**w" in text


def test_a_glyph_the_font_lacks_is_named_at_the_cell_its_box_prints(tmp_path):
    """Two columns holding arrows the font lacks, each printed by its own box: each box's
    error names its own column's cell, once for all the cards (with their count)."""
    rows = [["名前", "表", "裏"], ["甲", "bb➪w", "bb➪ww"], ["乙", "g➪b", "gg➪b"]]
    rows.append(["丙", "な", "し"])
    project, result = csv_game(tmp_path, rows)
    assert result.exit_code == 0, result.output
    checked = run("check", "--no-play", "--project", str(project))
    assert checked.exit_code == 1
    glyph = [line for line in checked.output.splitlines() if "has no glyph for 「➪」" in line]
    assert len(glyph) == 2, checked.output
    assert glyph[0].startswith("cards/deck/deck.csv:2:表: error: card 甲: ")
    assert glyph[1].startswith("cards/deck/deck.csv:2:裏: error: card 甲: ")
    assert all(line.endswith("(2 cards)") for line in glyph)


@pytest.mark.parametrize("full", [True, False])
def test_a_composition_guessed_from_two_columns_holds_for_the_data(tmp_path, full):
    """Cards told apart by type and number: when every type has every number the guess lists
    both (and still finds a card taken out); when the types run to different numbers (dragons
    1–5, caves 1–3) it does not ask for caves 4 and 5: the new game checks clean."""
    rows = [["type", "number", "name"]]
    for kind, last in (("Dragon", 5), ("Cave", 5 if full else 3)):
        rows += [[kind, str(n), f"{kind}の札"] for n in range(1, last + 1)]  # names repeat
    project, result = csv_game(tmp_path, rows)
    assert result.exit_code == 0, result.output
    manifest = (project / "cards/deck/game.toml").read_text("utf-8")
    assert 'key = ["type", "number"]' in manifest
    assert ('type = ["Dragon", "Cave"]' in manifest) is full
    checked = run("check", "--no-play", "--project", str(project))
    assert checked.exit_code == 0, checked.output
    if full:
        lines = (project / "cards/deck/deck.csv").read_text("utf-8").splitlines()
        (project / "cards/deck/deck.csv").write_text("\n".join(lines[:-1]) + "\n", "utf-8")
        checked = run("check", "--no-play", "--project", str(project))
        assert checked.exit_code == 1 and "Cave 5 is missing" in checked.output


def test_a_pip_installed_pnp_starts_a_project_outside_the_repository(tmp_path):
    """Not editable, not in the repository: what a new project needs ships in the package."""
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), "."],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    work = tmp_path / "elsewhere"
    work.mkdir()

    def pnp(*args):
        return subprocess.run(
            [sys.executable, "-m", "generator", *args],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
        )

    where = subprocess.run(
        [sys.executable, "-c", "import generator; print(generator.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(target)), where.stdout
    assert pnp("init", "proj").returncode == 0
    (work / "proj/layouts/_shared/sheets.toml").unlink()  # the tool's own is used then
    made = pnp("new", "g", "--project", "proj")
    assert made.returncode == 0, made.stderr
    built = pnp("build", "--project", "proj")
    assert built.returncode == 0, built.stderr
    assert (work / "proj/output/g/cards.pdf").is_file()

    # the documentation and the example games came with it
    listed = pnp("docs")
    assert listed.returncode == 0 and str(target) in listed.stdout, listed.stdout
    assert "reference/manifest" in listed.stdout and "tutorial" in listed.stdout
    tutorial = pnp("docs", "tutorial")
    assert tutorial.stdout.startswith("# Tutorial"), tutorial.stdout[:200]
    assert pnp("--lang", "ja", "docs", "tutorial").stdout.startswith("# チュートリアル")
    made = pnp("init", "ex", "--example")
    assert made.returncode == 0, made.stderr
    assert "pnp build fudaraku" in made.stdout
    del env["PNP_TRUST_CODE"]  # the example's rules run without asking: pnp wrote them
    checked = pnp("check", "--project", "ex")
    assert checked.returncode == 0 and "not run" not in checked.stderr, checked.stderr
    assert pnp("build", "--project", "ex").returncode == 0
    assert (work / "ex/output/fudaraku/rulebook.pdf").is_file()
    assert not list((work / "ex").rglob("__pycache__"))


def test_the_wheel_carries_every_package_of_the_source():
    """pyproject.toml lists the packages (it maps docs/ and the games into the package): a
    new folder of generator/ must be in the list, or a designer's install lacks it."""
    import tomllib

    listed = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    inits = (REPO / "generator").rglob("__init__.py")
    folders = {".".join(p.parent.relative_to(REPO).parts) for p in inits}
    mapped = set(listed["package-dir"])
    assert folders == set(listed["packages"]) - mapped
    assert all((REPO / where).is_dir() for where in listed["package-dir"].values())


def test_an_example_game_goes_into_a_new_or_an_existing_project(tmp_path):
    project = tmp_path / "p"
    made = run("init", str(project), "--example", "nyanbaa")
    assert made.exit_code == 0, made.output
    assert (project / "cards/nyanbaa/game.toml").is_file()
    assert (project / "layouts/nyanbaa/hero_front.toml").is_file()
    assert (project / "layouts/_shared/sheets.toml").is_file()
    again = run("init", str(project), "--example", "nyanbaa")
    assert again.exit_code == 1 and "cards/nyanbaa: the project already has it" in again.output
    added = run("init", str(project), "--example")  # into the project that exists
    assert added.exit_code == 0 and (project / "cards/fudaraku/rules.md").is_file()
    typo = run("init", str(project), "--example", "nyanba")
    assert typo.exit_code == 1 and "did you mean 'nyanbaa'" in typo.output
    taken = run("init", "--example", "mygames")  # the option took the folder's name
    assert taken.exit_code == 1 and "pnp init mygames --example" in taken.output
    built = run("build", "fudaraku", "--project", str(project))
    assert built.exit_code == 0, built.output
    other = tmp_path / "other"  # someone's project whose layouts/ is linked out of it
    elsewhere = tmp_path / "elsewhere"
    (other / "cards").mkdir(parents=True)
    elsewhere.mkdir()
    (other / "layouts").symlink_to(elsewhere, target_is_directory=True)
    linked = run("init", str(other), "--example", "rumbling_seed")
    assert linked.exit_code == 1 and "layouts" in linked.output, linked.output
    assert not list(elsewhere.iterdir()) and not (other / "cards/rumbling_seed").exists()


def test_docs_names_a_document_by_its_last_part_and_a_near_miss(tmp_path):
    manifest = run("docs", "manifest")
    assert manifest.exit_code == 0
    assert manifest.output.startswith("# The manifest")
    assert (REPO / "docs/reference/manifest.md").read_text(encoding="utf-8") == manifest.output
    wrong = run("docs", "manfest")
    assert wrong.exit_code == 1 and "did you mean 'manifest'" in wrong.output


def test_a_column_that_follows_from_another_catches_swapped_kinds(tmp_path):
    """`[component.depends] points = "kind"`, which `pnp new` proposes from the data: two
    cards whose kinds were swapped keep every total, but each now has the other kind's points;
    both rows are named at their cell."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    rows = [["name", "kind", "points"]]
    rows += [[f"花{i}", "花", 1] for i in range(6)] + [[f"鳥{i}", "鳥", 5] for i in range(3)]
    source = tmp_path / "deck.csv"
    save(source, rows, "csv")
    assert run("new", "g", "--project", str(project), "--from", str(source)).exit_code == 0
    manifest = (project / "cards/g/game.toml").read_text("utf-8")
    assert '[component.depends]\n  points = "kind"' in manifest
    assert run("check", "--no-play", "--project", str(project)).exit_code == 0
    data = project / "cards/g/deck.csv"
    text = data.read_text("utf-8")
    data.write_text(text.replace("花2,花,1", "花2,鳥,1").replace("鳥1,鳥,5", "鳥1,花,5"), "utf-8")
    result = run("check", "--no-play", "--project", str(project))
    assert result.exit_code == 1
    assert (
        "cards/g/deck.csv:9:points: error: 鳥1: 'points' is 5, but the other cards of kind "
        "'花' have 1 (5 rows); 'points' follows from kind" in result.output
    ), result.output
    assert (
        "cards/g/deck.csv:4:points: error: 花2: 'points' is 1, but the other cards of kind '鳥' "
        "have 5 (2 rows)" in result.output
    )
    # Two rows of a kind that disagree one to one: both values and rows are named.
    data.write_text(text.replace("鳥1,鳥,5", "鳥1,鳥,4").replace("鳥2,鳥,5\n", ""), "utf-8")
    result = run("check", "--no-play", "--project", str(project))
    assert "'points' follows from kind, but the cards of kind '鳥' disagree: 5 on row 8; 4 on " in (
        result.output
    ), result.output


def test_a_column_of_copies_under_a_japanese_header_makes_copies_and_is_not_printed(tmp_path):
    """枚数 (how many of each card) is the deck's copies, whatever the column is called: the
    deck counts them, the composition holds them, the front prints the card, not the count."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    source = tmp_path / "deck.csv"
    rows = [["名前", "効果", "枚数"], ["剣", "２点", "3"], ["盾", "１点", "2"], ["杖", "３点", ""]]
    source.write_text("\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
    made = run("new", "deck", "--project", str(project), "--from", str(source))
    assert made.exit_code == 0, made.output
    assert "6 cards" in made.output and "枚数: copies" in made.output
    manifest = (project / "cards/deck/game.toml").read_text("utf-8")
    assert '"枚数" = "copies"' in manifest and "total = 6" in manifest
    assert "枚数" not in (project / "layouts/deck/card_front.toml").read_text("utf-8")
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    assert "枚数" not in built.output  # no 'column is not used' warning for the copies column
    pdf = project / "output/deck/cards.pdf"
    names = [text_in(pdf, 1, (p.x, p.y, p.x + 63 * MM, p.y + 88 * MM)) for p in placements(pdf, 1)]
    assert [next(n for n in ("剣", "盾", "杖") if n in t) for t in names] == ["剣"] * 3 + [
        "盾"
    ] * 2 + ["杖"]
    assert not any(t.strip().endswith(("3", "2")) for t in names)
    # Removing a copy breaks the composition, named at the card.
    source_in = project / "cards/deck/deck.csv"
    source_in.write_text(source_in.read_text("utf-8").replace("剣,２点,3", "剣,２点,2"), "utf-8")
    checked = run("check", "--no-play", "--project", str(project))
    assert checked.exit_code == 1 and "5 cards, the manifest expects 6" in checked.output


def test_a_column_of_picture_files_becomes_art_with_a_stand_in_until_the_file_is_there(tmp_path):
    from PIL import Image

    rows = [["名前", "絵"], ["狐", "art/fox.png"], ["梟", "art/owl.png"]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0
    front = (project / "layouts/deck/card_front.toml").read_text("utf-8")
    assert 'type = "image"' in front and 'src = "{{ 絵 }}"' in front
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    assert "2 cards still lack their art" in built.output
    assert "2 files to make in cards/deck/: art/fox.png, art/owl.png" in built.output
    assert "fox.png" in page_text(project / "output/deck/cards.pdf", 1)  # the stand-in
    (project / "cards/deck/art").mkdir()
    for name in ("fox", "owl"):
        Image.new("RGB", (800, 600), (200, 80, 30)).save(project / f"cards/deck/art/{name}.png")
    built = run("build", "--project", str(project))
    assert built.exit_code == 0 and "lack" not in built.output, built.output
    assert "fox.png" not in page_text(project / "output/deck/cards.pdf", 1)


def test_a_card_of_a_deck_without_composition_is_named_by_its_name_column(tmp_path):
    """Messages name a card by its 名前 (or name, タイトル…) when no composition says how."""
    project, made = csv_game(tmp_path, [["名前", "効果"], ["狐", "１枚引く。"], ["梟🦉", "なし"]])
    assert made.exit_code == 0
    manifest = project / "cards/deck/game.toml"
    text = manifest.read_text("utf-8")
    manifest.write_text(text[: text.index("  [component.composition]")], "utf-8")
    result = run("build", "--project", str(project))
    assert result.exit_code == 1
    assert "cards/deck/deck.csv:3:名前: error: card 梟🦉: the font for 'bold'" in result.output


def test_a_title_above_the_header_is_said_not_made_into_a_one_column_game(tmp_path):
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    book = tmp_path / "deck.xlsx"
    rows = [["モンスター一覧"], [], ["名前", "攻撃力", "説明"], ["ゴブリン", 3, "弱い。"]]
    write_xlsx(book, {"デッキ": rows + [["オーク", 5, "強い。"]]})
    result = run("new", "g", "--project", str(project), "--from", str(book))
    assert result.exit_code == 1
    assert (
        "deck.xlsx[デッキ]:1: error: the header row names 1 column but the rows under it have "
        "more cells; row 3 looks like the header: say header = 3"
    ) in result.output
    assert not (project / "cards/g").exists()
    # the title kept: --header says where the column names are, and game.toml remembers it
    result = run("new", "g", "--project", str(project), "--from", str(book), "--header", "3")
    assert result.exit_code == 0 and "2 cards;" in result.output, result.output
    assert "header = 3" in (project / "cards/g/game.toml").read_text(encoding="utf-8")
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    assert "ゴブリン" in page_text(project / "output/g/cards.pdf", 1)
    write_xlsx(book, {"デッキ": rows[2:] + [["オーク", 5, "強い。"]]})
    result = run("new", "h", "--project", str(project), "--from", str(book))
    assert result.exit_code == 0 and "2 cards;" in result.output, result.output


def test_columns_named_like_a_template_s_own_names_print_their_values(tmp_path):
    """game, row and vars are a template's names; columns so named are row["game"] and so
    on, and a column named row does not hide the row itself."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    source = tmp_path / "deck.csv"
    source.write_text("name,game,row,vars\nA,x,1,v\nB,y,2,w\n", encoding="utf-8")
    assert run("new", "d", "--project", str(project), "--from", str(source)).exit_code == 0
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    text = page_text(project / "output/d/cards.pdf", 1)
    # an English sheet: its lines say "column: value"
    assert "game: x" in text and "row: 1" in text and "vars: v" in text and "row: 2" in text


def test_cells_some_rows_leave_empty_build_and_print_no_empty_label(tmp_path):
    """A number column with a gap is printed as written (an int column would stop the first
    build at the gap), and a card whose cell is empty prints no 'note:' with nothing after
    it."""
    rows = [["name", "power", "note"], ["A", "0", "x"], ["B", "", ""], ["C", "3", "y"]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    assert "power: text" in made.output
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    text = page_text(project / "output/deck/cards.pdf", 1)
    assert "power: 0" in text and "note: x" in text and "power: 3" in text
    assert text.count("power:") == 2 and text.count("note:") == 2


def test_numbers_written_with_leading_zeros_keep_them(tmp_path):
    """Card numbers 007 and 012: a text column, printed as written (as a number, 7)."""
    project, made = csv_game(tmp_path, [["name", "no"], ["A", "007"], ["B", "012"]])
    assert made.exit_code == 0, made.output
    assert "no: text" in made.output
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    text = page_text(project / "output/deck/cards.pdf", 1)
    assert "no: 007" in text and "no: 012" in text


def test_many_columns_on_a_small_card_go_two_to_a_line_and_every_text_fits(tmp_path):
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    header = ["名前", *(f"能力{i}" for i in range(1, 11)), "説明", "フレーバー"]
    effect = "このカードは場に出たとき、相手の手札を１枚見て捨てさせる。その後、山札から１枚引く。"
    flavour = "古い森の奥に住むという伝説の生き物。その姿を見た者は少ない。"
    rows = [[f"カード{k}", *(str(i + k) for i in range(10)), effect, flavour] for k in range(3)]
    source = tmp_path / "wide.csv"
    source.write_text("\n".join(",".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")
    made = run("new", "w", "--project", str(project), "--from", str(source), "--size", "mini")
    assert made.exit_code == 0, made.output
    front = (project / "layouts/w/card_front.toml").read_text("utf-8")
    assert front.count('w = "W / 2 - 5mm"') == 10  # the ten short values, two to a line
    built = run("build", "--project", str(project))
    assert built.exit_code == 0 and "does not fit" not in built.output, built.output
    text = page_text(project / "output/w/cards.pdf", 1).replace("\n", "")
    assert "能力10：9" in text and "山札から１枚引く。" in text and "少ない。" in text


@pytest.mark.skipif(os.name == "nt", reason="a POSIX shell's quoting")
def test_init_s_next_step_quotes_a_folder_with_a_space(tmp_path):
    """The line to copy works as written: 「ゲーム 制作」 is one folder to cd into."""
    folder = tmp_path / "ゲーム 制作"
    result = run("init", str(folder))
    assert result.exit_code == 0
    line = result.output.strip().splitlines()[-1]
    command = line.split("next: ", 1)[1].split(" && ")[0]
    assert shlex.split(command) == ["cd", str(folder)]
    here = tmp_path / "here"
    here.mkdir()
    cwd = os.getcwd()
    os.chdir(here)
    try:
        result = run("init", ".")
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0 and (here / "cards").is_dir()
    assert result.output.strip().splitlines()[-1] == "next: pnp new GAME --from YOUR_SPREADSHEET"


def test_another_sheet_of_the_workbook_becomes_a_second_deck_of_the_same_game(tmp_path):
    """Units on one sheet, events on another: the first makes the game, --add makes the second
    a deck of its own (own columns, composition from its 枚数 column, size, layouts), and the
    build prints both; new without --add says how, and a clash writes nothing."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    book = tmp_path / "war.xlsx"
    units = [["名前", "攻撃", "防御"], ["歩兵", 2, 2], ["騎兵", 3, 1], ["弓兵", 2, 1]]
    events = [
        ["名前", "効果", "枚数"],
        ["奇襲", "相手のユニットを破壊する", 2],
        ["補給", "２枚引く", 3],
    ]
    write_xlsx(book, {"ユニット": units, "イベント": events})
    at = ("--project", str(project))
    assert run("new", "war", *at, "--from", str(book)).exit_code == 0
    manifest = project / "cards/war/game.toml"
    before = manifest.read_bytes()
    result = run("new", "war", *at, "--from", f"{book}#イベント")
    assert result.exit_code == 1
    assert "--add ID" in result.output and manifest.read_bytes() == before
    result = run(
        "new", "war", *at, "--from", f"{book}#イベント", "--add", "event", "--size", "mini"
    )
    assert result.exit_code == 0, result.output
    assert "added to cards/war/game.toml" in result.output and "5 cards" in result.output
    text = manifest.read_text("utf-8")
    assert text.startswith(before.decode("utf-8").rstrip("\n"))  # the designer's lines kept
    assert 'id = "event"' in text and 'name = "イベント"' in text and 'size = "mini"' in text
    assert '"名前" = { "奇襲" = 2, "補給" = 3 }' in text
    assert sorted(p.name for p in (project / "layouts/war").iterdir()) == [
        "card_back.toml",
        "card_front.toml",
        "event_back.toml",
        "event_front.toml",
    ]
    assert [p.name for p in (project / "cards/war").glob("*.xlsx")] == ["war.xlsx"]  # one copy
    result = run("build", "war", *at)
    assert result.exit_code == 0, result.output
    pdf = project / "output/war/cards.pdf"
    fronts = [i for i in range(1, 5) if page_text(pdf, i).startswith("イベント")]
    assert len(fronts) == 2  # its front sheet and back sheet
    shown = page_text(pdf, fronts[0])
    shown = shown.replace("奇襲.png", "").replace("補給.png", "")  # the art's stand-ins aside
    assert shown.count("奇襲") == 2 and shown.count("補給") == 3
    placed = placements(pdf, fronts[0])
    assert len(placed) == 5
    x0, y0, x1, y1 = placed[0].bbox
    w, h = (x1 - x0) / MM, (y1 - y0) / MM
    assert sorted((round(w), round(h))) == [50, 69]  # mini 44×63 mm and 3 mm bleed each side
    # the same id again, a game that is not there, another file of the same name: nothing
    for args, words in [
        (
            ("war", "--from", f"{book}#イベント", "--add", "event"),
            "already has a component 'event'",
        ),
        (("nowar", "--from", str(book), "--add", "event"), "there is no game 'nowar'"),
        (("war", "--from", str(book), "--add", "Event!"), "a component's id is"),
    ]:
        now = manifest.read_bytes()
        result = run("new", *args, *at)
        assert result.exit_code == 1 and words in result.output, result.output
        assert manifest.read_bytes() == now
    other = tmp_path / "other" / "war.xlsx"
    other.parent.mkdir()
    write_xlsx(other, {"札": [["名前"], ["石"]]})
    result = run("new", "war", *at, "--from", str(other), "--add", "stone")
    assert (
        result.exit_code == 1 and "differs from" in result.output and "rename it" in result.output
    )
    assert manifest.read_bytes() == now and not (project / "layouts/war/stone_front.toml").exists()
    manifest.write_text(now.decode("utf-8") + "oops =\n", "utf-8")  # a save half-typed
    result = run("new", "war", *at, "--from", f"{book}#イベント", "--add", "more")
    assert result.exit_code == 1 and "cards/war/game.toml:" in result.output, result.output
    assert not (project / "layouts/war/more_front.toml").exists()


def test_sheets_of_tokens_and_dice_become_tokens_and_dice_of_the_game(tmp_path):
    """--kind token: coins from a sheet with a colour and a count, on the tokens sheet at 25 mm
    with no back; --kind die: six faces on a cube net in dice.pdf; --kind alone is refused."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    book = tmp_path / "kit.xlsx"
    write_xlsx(
        book,
        {
            "カード": [["名前", "効果"], ["剣士", "攻撃する"], ["僧侶", "回復する"]],
            "コイン": [
                ["名前", "値", "色", "枚数"],
                ["金貨", 5, "#D9A400", 4],
                ["銀貨", 1, "#9AA0A6", 6],
            ],
            "ダイス": [["目"], ["剣"], ["剣"], ["盾"], ["盾"], ["弓"], ["×"]],
        },
    )
    at = ("--project", str(project))
    assert run("new", "g", *at, "--from", str(book)).exit_code == 0
    result = run("new", "g", *at, "--from", f"{book}#コイン", "--kind", "token")
    assert result.exit_code == 1 and "--kind token goes with --add" in result.output
    result = run("new", "g", *at, "--from", f"{book}#コイン", "--name", "硬貨")
    assert result.exit_code == 1 and "--name goes with --add" in result.output
    result = run("new", "g", *at, "--from", f"{book}#コイン", "--add", "coin", "--title", "X")
    assert result.exit_code == 1 and "--title goes with a new game" in result.output
    coins = ("--from", f"{book}#コイン", "--add", "coin", "--kind", "token", "--name", "硬貨")
    result = run("new", "g", *at, *coins)
    assert result.exit_code == 0, result.output
    assert "10 tokens" in result.output
    result = run("new", "g", *at, "--from", f"{book}#ダイス", "--add", "die", "--kind", "die")
    assert result.exit_code == 0, result.output
    text = (project / "cards/g/game.toml").read_text("utf-8")
    assert 'name = "硬貨"' in text and 'name = "ダイス"' in text
    assert 'kind = "token"' in text and 'size = { w = "25mm", h = "25mm" }' in text
    assert 'kind = "die"' in text and 'size = { w = "18mm", h = "18mm" }' in text
    assert not (project / "layouts/g/coin_back.toml").exists()
    result = run("build", "g", *at)
    assert result.exit_code == 0, result.output
    assert "\n0 errors" in result.output
    tokens = project / "output/g/tokens.pdf"
    placed = placements(tokens, 1)
    assert len(placed) == 10  # 4 gold, 6 silver, one-sided: no back page
    x0, y0, x1, y1 = placed[0].bbox
    assert (round(-x0 / MM, 1), round(x1 / MM, 1), round(y1 / MM, 1)) == (1.0, 26.0, 26.0)
    shown = page_text(tokens, 1)
    assert shown.count("金貨") == 4 and shown.count("銀貨") == 6 and "5" in shown
    dice = project / "output/g/dice.pdf"
    faces = page_text(dice, 0)
    assert sorted(c for c in faces if c in "剣盾弓×") == sorted("剣剣盾盾弓×")


def test_a_hash_in_a_file_s_name_is_part_of_it(tmp_path):
    """deck#2.csv is a file, not deck with a sheet named 2.csv: pnp new reads it, game.toml
    names it, the build finds it; a sheet asked of a CSV says it has none."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    source = tmp_path / "deck#2.csv"
    source.write_text("name,text\n剣,斬る。\n盾,守る。\n", encoding="utf-8")
    result = run("new", "g", "--project", str(project), "--from", str(source))
    assert result.exit_code == 0, result.output
    manifest = project / "cards/g/game.toml"
    assert 'data = "deck#2.csv"' in manifest.read_text("utf-8")
    assert run("build", "g", "--project", str(project)).exit_code == 0
    assert "斬る。" in page_text(project / "output/g/cards.pdf", 1)
    edit(project, "cards/g/game.toml", '"deck#2.csv"', '"deck#2.csv#Sheet1"')
    result = run("check", "g", "--project", str(project))
    assert result.exit_code == 1
    assert (
        "cards/g/deck#2.csv#Sheet1: error: file not found; deck#2.csv is there, and it has no "
        'sheets to pick (only a workbook has): write data = "deck#2.csv"'
    ) in result.output


@pytest.mark.parametrize(
    "old, new, old_ref, new_ref",
    [("text", "効果", "text", "効果"), ("text", "効果 (説明)", "text", 'row["効果 (説明)"]')],
)
def test_a_column_renamed_in_the_spreadsheet_is_named_as_the_likely_rename(
    tmp_path, old, new, old_ref, new_ref
):
    project, result = csv_game(tmp_path, [["name", old], ["剣", "斬る。"], ["盾", "守る。"]])
    assert result.exit_code == 0, result.output
    data = project / "cards/deck/deck.csv"
    data.write_text(data.read_text("utf-8").replace(old, new, 1), "utf-8")
    result = run("check", "deck", "--project", str(project))
    assert result.exit_code == 1
    assert (
        f"cards/deck/deck.csv:1:{old}: error: missing column '{old}' (the header has: name, "
        f"{new}); renamed to '{new}' in the spreadsheet? Then rename it in game.toml's "
        f"[component.columns] and in the layouts too ({{{{ {old_ref} }}}} → {{{{ {new_ref} }}}})"
    ) in result.output


def test_a_board_to_start_from_has_a_score_track_round_its_edge(tmp_path):
    project, result = csv_game(tmp_path, [["name", "text"], ["剣", "斬る。"]], "--title", "剣の国")
    assert result.exit_code == 0, result.output
    at = ("--project", str(project))
    result = run("new", "deck", *at, "--add", "map", "--kind", "board", "--from", "x.csv")
    assert result.exit_code == 1 and "--kind board reads no spreadsheet" in result.output
    result = run("new", "deck", *at, "--add", "map", "--kind", "board", "--size", "300x200")
    assert result.exit_code == 0, result.output
    text = (project / "cards/deck/game.toml").read_text("utf-8")
    assert 'kind = "board"' in text and 'size = { w = "300mm", h = "200mm" }' in text
    assert run("build", "deck", *at).exit_code == 0
    pdf = project / "output/deck/board-a3.pdf"
    assert page_size_mm(pdf, 0) == pytest.approx((420, 297), abs=0.5)
    shown = page_text(pdf, 0)
    assert "剣の国" in shown
    numbers = {int(w) for w in shown.split() if w.isdigit()}
    assert numbers == set(range(50))  # the track, 0–49


@pytest.mark.parametrize(
    "name, how",
    [
        ("deck.numbers", "(in Numbers: File > Export To > Excel)"),
        ("deck.gsheet", "(in Google Sheets: File > Download > Microsoft Excel (.xlsx))"),
    ],
)
def test_a_spreadsheet_app_s_own_file_says_how_to_export_it(tmp_path, name, how):
    assert run("init", str(tmp_path / "p")).exit_code == 0
    source = tmp_path / name
    source.write_text('{"doc_id": "x"}', encoding="utf-8")
    result = run("new", "g", "--project", str(tmp_path / "p"), "--from", str(source))
    assert result.exit_code == 1
    assert f"cannot read {source.suffix}: use .csv" in result.output and how in result.output


def test_add_writes_nothing_through_a_folder_linked_out_of_the_project(tmp_path):
    project, result = csv_game(tmp_path, [["name", "text"], ["剣", "斬る。"]])
    assert result.exit_code == 0, result.output
    outside = tmp_path / "outside"
    (project / "layouts/deck").rename(outside)
    (project / "layouts/deck").symlink_to(outside, target_is_directory=True)
    before = (project / "cards/deck/game.toml").read_bytes()
    source = tmp_path / "deck.csv"
    result = run("new", "deck", "--project", str(project), "--from", str(source), "--add", "ev")
    assert result.exit_code == 1
    assert "layouts/deck/ev_front.toml must be a file inside the project folder" in result.output
    assert sorted(p.name for p in outside.iterdir()) == ["card_back.toml", "card_front.toml"]
    assert (project / "cards/deck/game.toml").read_bytes() == before


def test_new_writes_nothing_when_layouts_is_linked_out_of_the_project(tmp_path):
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(project / "layouts")
    (project / "layouts").symlink_to(outside, target_is_directory=True)
    source = tmp_path / "deck.csv"
    source.write_text("name,text\n剣,斬る。\n", encoding="utf-8")
    result = run("new", "g", "--project", str(project), "--from", str(source))
    assert result.exit_code == 1 and "must be a file inside the project folder" in result.output
    assert list(outside.iterdir()) == [] and list((project / "cards").iterdir()) == []


@pytest.mark.parametrize(
    "fill, ink",
    [
        ("#FFFFFF", "#222222"),
        ("#D9A400", "#222222"),
        ("yellow", "#222222"),
        ("#6B3E26", "#FFFFFF"),
        ("#2F5DA8", "#FFFFFF"),
        ("black", "#FFFFFF"),
        ("not a colour", "#222222"),
    ],
)
def test_the_ink_filter_picks_text_that_reads_on_a_fill(fill, ink):
    from generator.layout.templates import environment

    assert environment().from_string("{{ c | ink }}").render(c=fill) == ink


def test_a_light_colour_row_prints_its_name_in_dark_ink(tmp_path):
    """Salt on white: pnp new's faces read their colour column's ink ({{ 色 | ink }}), so a
    white or yellow row's name is not printed white on white."""
    rows = [["名前", "色", "枚数"], ["塩", "#FFFFFF", 2], ["醤油", "#6B3E26", 2]]
    project, result = csv_game(tmp_path, [list(map(str, r)) for r in rows])
    assert result.exit_code == 0, result.output
    front = (project / "layouts/deck/card_front.toml").read_text("utf-8")
    assert 'color = "{{ 色 | ink }}"' in front
    book = tmp_path / "t.csv"
    book.write_text("\n".join(",".join(map(str, r)) for r in rows) + "\n", encoding="utf-8")
    at = ("--project", str(project))
    assert (
        run("new", "deck", *at, "--from", str(book), "--add", "salt", "--kind", "token").exit_code
        == 0
    )
    assert 'color = "{{ 色 | ink }}"' in (project / "layouts/deck/salt_front.toml").read_text(
        "utf-8"
    )
    assert run("build", "deck", *at).exit_code == 0
    pdf = project / "output/deck/tokens.pdf"
    first = placements(pdf, 1)[0]  # a 塩 token: white, its name and ring in the ink
    page_h = page_size_mm(pdf, 1)[1] * MM
    image = render(pdf, 1, scale=2).convert("L")
    x0, y0 = 2 * first.x, 2 * (page_h - first.y - 25 * MM)  # its trim box, 25 mm, in pixels
    inside = image.crop((int(x0 + 8), int(y0 + 8), int(x0 + 50 * MM - 8), int(y0 + 50 * MM - 8)))
    assert sum(inside.histogram()[:80]) > 200  # dark pixels


def test_a_new_games_rules_mark_a_summary_so_no_command_says_none_is_marked(tmp_path):
    """`pnp new --rules` writes rules.md with its setup, turn and end marked for the summary:
    check and build say nothing of an unmarked summary, and summary.md has the three parts."""
    root, made = csv_game(tmp_path, [[str(c) for c in r] for r in deck_rows()], "--rules")
    assert made.exit_code == 0, made.output
    for command in ("check", "build"):
        result = run(command, "--project", str(root))
        assert result.exit_code == 0, result.output
        assert "no part is marked for the summary" not in result.output
    summary = next(root.glob("output/*/summary.md")).read_text("utf-8")
    assert all(f"## {part}" in summary for part in ("準備", "ゲームの流れ", "ゲームの終了"))


def test_new_with_link_refuses_a_spreadsheet_outside_the_project(tmp_path):
    root = tmp_path / "p"
    assert run("init", str(root)).exit_code == 0
    outside = tmp_path / "deck.csv"
    outside.write_text("name,cost\n火球,3\n", "utf-8")
    result = run("new", "deck", "--project", str(root), "--from", str(outside), "--link")
    assert result.exit_code == 1
    assert "--link" in result.output and "outside the project" in result.output
    assert not (root / "cards/deck").exists()  # nothing written
    copied = run("new", "deck", "--project", str(root), "--from", str(outside))
    assert copied.exit_code == 0 and "is copied into cards/deck/" in copied.output


def hana_rows() -> list[list[str]]:
    """48 cards of 12 months × 4, an id column, kinds of uneven counts (光 5, タネ 7, 短冊 12,
    カス 24) and points that follow from the kind."""
    rows = [["id", "name", "month", "kind", "points"]]
    points = {"光": "20", "タネ": "10", "短冊": "5", "カス": "1"}
    for m in range(1, 13):
        first = "光" if m in (1, 3, 8, 11, 12) else "タネ"
        for j, kind in enumerate([first, "短冊", "カス", "カス"]):
            rows.append([str(len(rows)), f"{m}月の{kind}{j}", str(m), kind, points[kind]])
    return rows


def _swap_kinds(rows):
    rows[1][3], rows[2][3] = rows[2][3], rows[1][3]


@pytest.mark.parametrize(
    "slip, change, said",
    [
        ("deleted card", lambda r: r.pop(17), "17 is missing"),
        ("added card", lambda r: r.append(["49", "13月の光", "12", "光", "20"]), ":50:id:"),
        ("two swapped kinds", _swap_kinds, ":2:points:"),
        ("duplicated row", lambda r: r.insert(6, list(r[5])), ":7: error: 5 appears twice"),
        (
            "misspelled value",
            lambda r: r[3].__setitem__(3, "カヌ"),
            ":4:kind: error: 1月のカス2 belongs to no composition group of the manifest (kind "
            "'カヌ' is none of 光, 短冊, カス, タネ) (did you mean 'カス'?)",
        ),
        ("bad number", lambda r: r[4].__setitem__(4, "ten"), ":5:points: error:"),
        ("empty required cell", lambda r: r[7].__setitem__(1, ""), ":8:name: error:"),
    ],
)
def test_the_proposed_composition_catches_a_designers_slips_unchanged(tmp_path, slip, change, said):
    """The composition `pnp new` proposes, taken as it is, catches each of the seven slips a
    designer makes in a spreadsheet, and names the row."""
    project, made = csv_game(tmp_path, hana_rows())
    assert made.exit_code == 0, made.output
    assert "each kind is counted" in made.output and "points follows from kind" in made.output
    assert run("check", "--no-play", "--project", str(project)).exit_code == 0
    rows = hana_rows()
    change(rows)
    (project / "cards/deck/deck.csv").write_text(
        "\n".join(",".join(r) for r in rows) + "\n", "utf-8"
    )
    result = run("check", "--no-play", "--project", str(project))
    assert result.exit_code == 1, (slip, result.output)
    assert f"cards/deck/deck.csv{said}" in result.output or said in result.output, (
        slip,
        result.output,
    )


def test_the_deck_is_counted_by_its_kind_not_by_a_rules_text_of_few_values(tmp_path):
    """Two effects written on every card and three kinds: the kinds sort the deck, and the
    rulebook's components table breaks the deck down by kind."""
    rows = [["Name", "Type", "Effect"]]
    for i in range(12):
        effect = "Gain 1 flour; with 3 Pastry cards gain 2 points instead." if i % 2 else "Draw."
        rows.append([f"Bake {i}", ["Bread", "Pastry", "Cake"][i % 3], effect])
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    assert "each Type is counted (Bread 4, Pastry 4, Cake 4)" in made.output, made.output
    result = run("build", "--project", str(project))
    assert result.exit_code == 0, result.output
    rulebook = page_text(project / "output/deck/rulebook.pdf", 0)
    assert "Bread: 4 cards" in rulebook and "Draw.: " not in rulebook, rulebook


def test_a_new_cards_front_keeps_room_for_its_picture_named_after_the_card(tmp_path):
    """No column of picture files: the front still has an art area, a stand-in naming the
    file it waits for (art/火球.png); check lists the files to make, and a file dropped there
    prints in its place."""
    rows = [["name", "cost"], ["火球", "3"], ["氷壁", "2"], ["雷撃", "4"]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    result = run("build", "--project", str(project))
    assert result.exit_code == 0, result.output
    assert "files to make in cards/deck/: art/火球.png" in result.output
    assert "火球.png" in page_text(project / "output/deck/cards.pdf", 1)
    from PIL import Image

    (project / "cards/deck/art").mkdir()
    Image.new("RGB", (800, 600), (200, 30, 30)).save(project / "cards/deck/art/火球.png")
    result = run("build", "--project", str(project))
    assert "art/火球.png" not in result.output and "火球.png" not in page_text(
        project / "output/deck/cards.pdf", 1
    )


def style_rows() -> list[list[str]]:
    rows = [["No.", "名前", "色", "コスト", "色コード", "効果"]]
    for i, (colour, code) in enumerate([("赤", "#C8323C"), ("青", "#2F5DA8")] * 3, 1):
        text = "山札から１枚引いて、手札から好きな１枚を場に出します。"
        rows.append([str(i), f"{colour}の札{i}", colour, str(i % 3 + 1), code, text])
    return rows


@pytest.mark.parametrize("style", ["classic", "number", "minimal"])
def test_a_starter_style_sets_the_columns_as_a_card_and_prints_every_one(tmp_path, style):
    """`pnp new --style`: the name, the small number (a corner index or a big number), a type
    line and the rules text, from the columns' roles; no column left unprinted (check says
    nothing of one), the running number small in a corner."""
    project, made = csv_game(tmp_path, style_rows(), "--style", style)
    assert made.exit_code == 0, made.output
    assert f"--style {style}" in (project / "layouts/deck/card_front.toml").read_text("utf-8")
    result = run("build", "--project", str(project))
    assert result.exit_code == 0, result.output
    assert "is not used by layout" not in result.output, result.output
    text = page_text(project / "output/deck/cards.pdf", 1).replace(" ", "").replace("\n", "")
    assert "赤の札1" in text and "山札から１枚引いて" in text and "青" in text
    if style == "classic":
        assert "赤の札1.png" in text  # the picture's stand-in, named after the card


def test_a_style_not_known_says_the_styles_and_the_one_meant(tmp_path):
    project, made = csv_game(tmp_path, style_rows(), "--style", "clasic")
    assert made.exit_code == 1
    assert "the styles are list" in made.output and "did you mean 'classic'" in made.output
    assert not (project / "cards/deck").exists()


@pytest.mark.parametrize(
    "header, row, style",
    [
        (
            ["名前", "コスト", "効果"],
            ["火球", "{n}", "敵１体に３点のダメージを与え、山札から１枚引く。"],
            "classic",
        ),
        (["名前", "数字"], ["札{n}", "{n}"], "number"),
        (["名前", "a", "b", "c", "d", "e"], ["札{n}", "1", "2", "3", "4", "5"], "list"),
    ],
)
def test_without_style_the_columns_choose_it(tmp_path, header, row, style):
    """A name and a rules text make a classic card; a name and a small number a number card;
    many short values a card of lines. `new` says which, and how to pick another."""
    rows = [header] + [[c.replace("{n}", str(n % 3 + 1)) for c in row] for n in range(6)]
    _project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    assert f"front: the {style} style (another: --style NAME)" in made.output


def test_a_card_of_a_proposed_group_is_named_by_its_name_column(tmp_path):
    """The groups `new` proposes count a column's values and have no key of their own: a card
    in them is named by its 名前, not by the group's value (「赤」 for every red card)."""
    project, made = csv_game(tmp_path, style_rows())
    assert made.exit_code == 0, made.output
    data = project / "cards/deck/deck.csv"
    data.write_text(data.read_text("utf-8").replace("1,赤の札1,赤,", "1,赤の札1,朱,"), "utf-8")
    result = run("check", "--no-play", "--project", str(project))
    assert result.exit_code == 1
    assert "deck.csv:2:色: error: 赤の札1 belongs to no composition group" in result.output, (
        result.output
    )


def test_docs_missing_from_an_install_is_said_not_a_traceback(tmp_path, monkeypatch):
    from generator import base

    monkeypatch.setattr(base, "DOCS", tmp_path)  # an install without docs/
    missing = run("docs")
    assert missing.exit_code == 1 and "no documentation is installed" in missing.output


JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff01-\uff9f]")  # kana, kanji, full-width


@pytest.mark.parametrize("header", ["text", "Effect", "効果"])
def test_a_column_headed_as_rules_text_is_read_as_text_however_short(tmp_path, header):
    """ "Burn a card" under `text` is the card's rules text: a classic card prints it alone in
    its text area, not as a 「text: Burn a card」 line of the data; a short column of another
    name stays a labelled line."""
    rows = [["name", header, "kind"], ["Fire", "Burn a card", "Spell"], ["Ice", "Freeze", "Spell"]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0 and "the classic style" in made.output, made.output
    built = run("build", "--project", str(project), "--format", "cards")
    assert built.exit_code == 0, built.output
    sheet = page_text(project / "output/deck/cards.pdf", 1)
    assert "Burn a card" in sheet and "Freeze" in sheet, sheet
    assert f"{header}" not in sheet.replace("Burn a card", ""), sheet
    assert "Spell" in sheet


def test_a_game_from_an_english_sheet_prints_in_english(tmp_path):
    """A sheet with no Japanese in it makes a game that prints in English: game.toml says
    languages = ["en"], and the rulebook, the summary and the proof page say pnp's own words in
    English ("1 card", "3 cards"), with no Japanese on any page; the summary names each part
    once."""
    rows = [
        ["name", "cost", "type", "copies", "effect"],
        ["Scout", "1", "Unit", "3", "Look at the top card of any deck and put it back."],
        ["King", "5", "Royal", "1", "Win the game at the end of your next turn."],
    ]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    assert "prints in English" in made.output and "the classic style" in made.output
    manifest = (project / "cards/deck/game.toml").read_text("utf-8")
    assert re.search(r'^languages = \["en"\]', manifest, re.M), manifest
    edit(project, "cards/deck/rules.md", "## The end\n", "## The end\n\nWith 3 players, stop.\n")
    built = run("build", "--project", str(project), "--format", "rulebook,summary,cards,tuckbox")
    assert built.exit_code == 0, built.output
    out = project / "output/deck"
    book = all_text(out / "rulebook.pdf")
    assert "Components" in book and "Setup" in book, book
    assert "With 3 players, stop." in book, book  # the designer's digits, as written
    assert "Scout: 3 cards" in book and re.search(r"King: 1 card(?!s)", book), book
    assert "4 cards" in book, book
    summary = page_text(out / "summary.pdf", 0)
    proof = page_text(out / "cards.pdf", 0)
    sheet = page_text(out / "cards.pdf", 1)
    assert "Cards front 1/1" in sheet and "cost 1 · Unit" in sheet, sheet
    box = all_text(out / "tuckbox.pdf")
    assert "4 cards" in box, box
    for text in (book, summary, proof, sheet, box):
        assert not JAPANESE.search(text) and "\u3000" not in text, text  # no ideographic space
    assert "— 1 —" in book, book  # the page's foot
    assert summary.count("Setup") == 1 and summary.count("Playing") == 1, summary
    assert "Cards: 4 cards" in proof, proof


def test_a_game_from_a_japanese_sheet_or_asked_for_prints_in_japanese(tmp_path):
    """Kana or kanji anywhere in the sheet, or --language ja, make a Japanese game: its
    rulebook's table says 「内容物」 and counts in 枚."""
    rows = [["name", "copies"], ["Scout", "3"], ["キング", "1"]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    assert 'languages = ["ja"]' in (project / "cards/deck/game.toml").read_text("utf-8")
    source = tmp_path / "english.csv"
    source.write_text("name,copies\nScout,3\n", encoding="utf-8")
    asked = run("new", "e", "--project", str(project), "--from", str(source), "--language", "ja")
    assert asked.exit_code == 0, asked.output
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    for game in ("deck", "e"):
        book = all_text(project / f"output/{game}/rulebook.pdf")
        assert "内容物" in book and "枚" in book and "Components" not in book, book


def test_an_english_count_stays_with_its_unit_and_its_label_across_lines(tmp_path):
    """The components table of an English rulebook breaks its long breakdown after a comma:
    never between '1' and 'card', nor between 'Lich:' and its count."""
    import pypdf

    names = "Goblin Troll Dragon Slime Lich Orc Wyvern Kobold Harpy Basilisk Ghoul Wraith "
    names += "Minotaur Cyclops Gorgon Hydra Chimera Griffin Manticore Banshee Imp Ogre Sphinx"
    rows = [["name", "copies"]] + [[n, str(1 + i % 3)] for i, n in enumerate(names.split())]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    built = run("build", "--project", str(project), "--format", "rulebook")
    assert built.exit_code == 0, built.output
    page = pypdf.PdfReader(project / "output/deck/rulebook.pdf").pages[0]
    text = page.extract_text(extraction_mode="layout")
    lines = [line.split("  ")[-1].strip() for line in text.splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if "Goblin:" in line)
    end = next(i for i, line in enumerate(lines) if "Sphinx:" in line)
    assert end - start >= 2, lines  # the breakdown wraps
    for before, after in zip(lines[start:end], lines[start + 1 : end + 1]):
        assert before.endswith(","), (before, after)
        assert not after.startswith("card"), (before, after)


def test_a_row_printed_too_often_names_its_own_copies_column(tmp_path):
    """The copies column is the designer's 'Qty': the error names it, not 'count'."""
    project, made = csv_game(tmp_path, [["name", "Qty"], ["Scout", "3"], ["King", "1"]])
    assert made.exit_code == 0, made.output
    (tmp_path / "p/cards/deck/deck.csv").write_text("name,Qty\nScout,4\nKing,1\n", "utf-8")
    said = run("check", "deck", "--project", str(project), "--no-play")
    assert said.exit_code == 1
    assert "deck.csv:2: error: Scout appears 4 times (row 2, Qty 4)" in said.output, said.output


def test_sample_cards_come_in_the_language_of_the_messages(tmp_path):
    """`pnp new GAME` with no spreadsheet: three sample cards an English designer can read,
    in a game printed in English; under --lang ja, Japanese ones in a Japanese game."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    for game, lang, word, printed in (
        ("en_game", "en", "Fire", "en"),
        ("ja_game", "ja", "火", "ja"),
    ):
        made = run("--lang", lang, "new", game, "--project", str(project))
        assert made.exit_code == 0, made.output
        assert word in (project / f"cards/{game}/cards.csv").read_text("utf-8")
        manifest = (project / f"cards/{game}/game.toml").read_text("utf-8")
        assert f'languages = ["{printed}"]' in manifest, manifest
    built = run("build", "--project", str(project))
    assert built.exit_code == 0, built.output
    assert "Fire" in page_text(project / "output/en_game/cards.pdf", 1)
    assert "Components" in all_text(project / "output/en_game/rulebook.pdf")
    assert "火" in page_text(project / "output/ja_game/cards.pdf", 1)


def test_a_stat_column_with_a_stray_value_keeps_its_label_on_the_type_line(tmp_path):
    """Attack holds numbers and one dash, so it is text; the classic front still labels it
    ("Attack 6"), where a bare 6 beside "HP 3" would say nothing."""
    long = "Strikes every adjacent hero and then flies away."
    rows = [
        ["name", "HP", "Attack", "text"],
        ["Goblin", "3", "6", long],
        ["Troll", "8", "9", long],
        ["Ghost", "2", "-", long],
    ]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0 and "the classic style" in made.output, made.output
    assert run("build", "--project", str(project)).exit_code == 0
    sheet = page_text(project / "output/deck/cards.pdf", 1)
    assert "HP 3 · Attack 6" in sheet and "Attack -" in sheet, sheet


def test_a_token_s_words_stay_inside_its_ring(tmp_path):
    """A 25 mm token of `pnp new --kind token` rings its edge: its name, long or short, and
    its value print inside the ring, a millimetre clear of it."""
    import pypdfium2 as pdfium

    project, made = csv_game(tmp_path, [["name", "copies"], ["Scout", "2"]])
    assert made.exit_code == 0, made.output
    coins = tmp_path / "coins.csv"
    coins.write_text("name,value,copies\nGold,1,2\nWound,5,2\nFortress,10,2\n", encoding="utf-8")
    at = ("--project", str(project))
    added = run("new", "deck", *at, "--from", str(coins), "--add", "coin", "--kind", "token")
    assert added.exit_code == 0, added.output
    assert run("build", *at, "--format", "tokens").exit_code == 0
    pdf_path = project / "output/deck/tokens.pdf"
    placed = placements(pdf_path, 1)
    assert len(placed) == 6
    radius = (25 - 2.4) / 2 * MM  # the ring's, inside the token's edge
    pdf = pdfium.PdfDocument(pdf_path)
    chars = pdf[1].get_textpage()
    inside = 0
    for i in range(chars.count_chars()):
        if not chars.get_text_range(i, 1).strip():
            continue
        left, bottom, right, top = chars.get_charbox(i)
        token = next(
            (p for p in placed if p.x <= left <= p.x + 25 * MM and p.y <= bottom <= p.y + 25 * MM),
            None,
        )
        if token is None:
            continue  # the sheet's label
        cx, cy = token.x + 12.5 * MM, token.y + 12.5 * MM
        for x, y in ((left, bottom), (left, top), (right, bottom), (right, top)):
            assert math.hypot(x - cx, y - cy) <= radius - MM, (chars.get_text_range(i, 1), x, y)
        inside += 1
    pdf.close()
    assert inside >= 6 * 4  # every token's name and value were read


def test_what_pnp_new_writes_has_no_trailing_spaces(tmp_path):
    """game.toml, the layouts and rules.md as a designer's editor shows them: no line ends in
    spaces (an editor that trims them on save would change every file pnp made)."""
    project, made = csv_game(tmp_path, hana_rows())
    assert made.exit_code == 0, made.output
    written = [*(project / "cards/deck").glob("*.*"), *(project / "layouts/deck").glob("*")]
    assert written
    for path in written:
        if path.suffix in (".toml", ".md", ".py"):
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                assert line == line.rstrip(), f"{path.name}:{n}: {line!r}"


def test_a_deck_sorted_by_a_number_checks_clean_as_pnp_new_made_it(tmp_path):
    """Two colours (a colour column sorts nothing) and the numbers 1–4 twice: the number
    sorts the deck, its groups say `number = 1`, and the game checks clean as made; a group
    written `number = "1"` by hand takes the same cards."""
    rows = [["name", "suit", "number"]]
    rows += [[f"{s} {n}", s, str(n)] for s in ("Red", "Blue") for n in (1, 2, 3, 4)]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    manifest = project / "cards/deck/game.toml"
    assert "when = { number = 1 }" in manifest.read_text("utf-8")
    checked = run("check", "--no-play", "--project", str(project))
    assert checked.exit_code == 0 and "error" not in checked.output, checked.output
    edit(project, "cards/deck/game.toml", "when = { number = 1 }", 'when = { number = "1" }')
    checked = run("check", "--no-play", "--project", str(project))
    assert checked.exit_code == 0 and "error" not in checked.output, checked.output
    edit(project, "cards/deck/game.toml", "total = 8", "total = 9")
    assert "the manifest expects 9" in run("check", "--no-play", "--project", str(project)).output


def test_copies_written_as_a_card_list_writes_them_print_that_many(tmp_path):
    """A Qty column as card lists write it, "3", "x2", "2枚", and an empty cell for one: pnp
    new takes it as the copies column, and the sheets print 3 + 1 + 2 + 2 cards."""
    rows = [["Name", "Qty"], ["Goblin", "3"], ["Orc", ""], ["Troll", "x2"], ["Imp", "2枚"]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    assert "8 cards" in made.output and "Qty: copies" in made.output, made.output
    built = run("build", "--project", str(project), "--format", "cards")
    assert built.exit_code == 0, built.output
    pdf = project / "output/deck/cards.pdf"
    fronts = all_text(pdf)
    assert [fronts.count(n) for n in ("Goblin", "Orc", "Troll", "Imp")] == [6, 2, 4, 4], fronts
    assert len(placements(pdf, 1)) == 8  # the first sheet of fronts holds all eight


def test_a_copies_cell_that_is_no_count_is_named_at_its_row(tmp_path):
    rows = [["Name", "Qty"], ["Goblin", "3"], ["Orc", "1"]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    edit(project, "cards/deck/deck.csv", "Orc,1", "Orc,two")
    checked = run("check", "--no-play", "--project", str(project))
    assert checked.exit_code == 1
    assert "cards/deck/deck.csv:3:Qty: error: 'Qty' must be a whole number, got 'two'" in (
        checked.output
    )


def test_art_put_in_the_project_s_folder_is_said_to_belong_in_the_game_s(tmp_path):
    """art/火球.png in the project's own folder, not the game's: the notice says where the
    files go, and a warning names the one put beside cards/ instead."""
    from PIL import Image

    rows = [["name", "cost"], ["火球", "3"], ["氷壁", "2"]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    (project / "art").mkdir()
    Image.new("RGB", (80, 60), (200, 30, 30)).save(project / "art/火球.png")
    said = run("check", "--no-play", "--project", str(project)).output
    assert "2 files to make in cards/deck/: art/火球.png, art/氷壁.png" in said, said
    assert (
        "warning: box 'art': art/火球.png is in the project's folder (art/火球.png), not the "
        "game's: move it into cards/deck/"
    ) in said, said
    assert "art/氷壁.png is in the project's folder" not in said


@pytest.mark.parametrize("column, values", [("Anzahl", ["3", "1"]), ("Stück", ["x3", "x1"])])
def test_copies_under_another_language_s_name_or_written_x3_are_copies(tmp_path, column, values):
    """A German sheet's 'Anzahl', or any column whose every cell is written x3: the copies
    column, so the deck holds 3 + 1 cards."""
    rows = [["Name", column], ["Fuchs", values[0]], ["Bär", values[1]]]
    project, made = csv_game(tmp_path, rows)
    assert made.exit_code == 0, made.output
    assert "4 cards" in made.output and f"{column}: copies" in made.output, made.output
