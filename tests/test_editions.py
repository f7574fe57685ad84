"""Editions: one game printed in another of its languages (`[game] languages = ["ja", "en"]`),
from translations beside the source — `name@en` in the data, rules.en.md, `"text@en"` in a
layout, `[edition.en]` in game.toml. Read back from the files a designer gets: the text on the
English pages, where a missing translation and an overflowing one are said, and the source
edition byte for byte the same with translations as without."""

from __future__ import annotations

import csv
import io

import pypdf
import pytest

from conftest import REPO, edit, make_fixture_project, run
from pdfread import page_text as _page_text

GAME = "kinoko"
DATA = f"cards/{GAME}/kinoko.csv"
NAMES = {"ベニテング": "Fly agaric", "アオゾメ": "Blue stain", "キイロ": "Sulphur tuft"}
RULES_EN = """# {{ title }}

## 1. Overview

Gather mushrooms in the forest and race for points.

## 2. Components

::: components

## 3. Setup

Shuffle the cards and deal them all out evenly.

## 4. Play

On your turn, play one card from your hand.
"""


def translate(root, missing: str = "", long: str = "") -> None:
    """The planted game made two-edition: every name translated (but `missing`, left empty;
    `long`, given a name too long for its box), its rules in English, its title and deck."""
    manifest = root / f"cards/{GAME}/game.toml"
    text = manifest.read_text("utf-8")
    text = text.replace('rules = "rules.md"\n', 'rules = "rules.md"\nlanguages = ["ja", "en"]\n')
    text += '\n[edition.en]\ntitle = "Mushroom Hunt"\ncomponents = { card = "Mushroom cards" }\n'
    manifest.write_text(text, "utf-8")
    path = root / DATA
    rows = list(csv.reader(io.StringIO(path.read_text("utf-8"))))
    rows[0].append("name@en")
    for row in rows[1:]:
        stem, number = row[0].rstrip("0123456789"), row[0][len(row[0].rstrip("0123456789")) :]
        english = f"{NAMES.get(stem, 'Mushroom')} {number}"
        too_long, _, words = long.partition("|")
        row.append("" if row[0] == missing else words if row[0] == too_long else english)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), "utf-8")
    (root / f"cards/{GAME}/rules.en.md").write_text(RULES_EN, "utf-8")


@pytest.fixture
def planted(tmp_path):
    return make_fixture_project("planted", tmp_path)


def build(root, *args):
    result = run("build", GAME, "--project", str(root), *args)
    assert "Traceback" not in result.output
    return result


def page_text(path, page: int) -> str:
    return _page_text(path, page) or ""


def test_the_english_edition_prints_the_translations(planted):
    translate(planted)
    result = build(planted, "--edition", "en")
    assert result.exit_code == 0, result.output
    en = planted / "output" / GAME / "en"
    assert sorted(p.name for p in en.glob("*.pdf")) == ["cards.pdf", "rulebook.pdf", "summary.pdf"]
    proof = page_text(en / "cards.pdf", 0)
    assert "Mushroom Hunt" in proof and "Print this PDF at" in proof
    assert "Mushroom cards: 36 cards" in proof  # the deck's name and pnp's own words
    fronts = page_text(en / "cards.pdf", 1)
    assert "Fly agaric 1" in fronts and "ベニテング" not in fronts
    book = "\n".join(page_text(en / "rulebook.pdf", i) for i in range(1))
    assert "Mushroom Hunt" in book and "Gather mushrooms in the forest" in book
    assert "Component" in book and "Mushroom cards" in book and "コンポーネント" not in book
    assert not (planted / "output" / GAME / "cards.pdf").exists()  # the source was not asked


def test_the_source_edition_is_the_same_bytes_with_translations_as_without(planted, tmp_path):
    assert build(planted).exit_code == 0
    before = {p.name: p.read_bytes() for p in (planted / "output" / GAME).glob("*.*")}
    translate(planted)
    result = build(planted, "--edition", "all")
    assert result.exit_code == 0, result.output
    after = {p.name: p.read_bytes() for p in (planted / "output" / GAME).glob("*.*")}
    assert after.keys() == before.keys()
    assert [n for n in before if before[n] != after[n]] == []
    assert (planted / "output" / GAME / "en" / "cards.pdf").is_file()
    # and a build of the source alone keeps the English edition's files where they are
    assert build(planted).exit_code == 0
    assert (planted / "output" / GAME / "en" / "cards.pdf").is_file()


def test_a_missing_translation_is_listed_at_its_cell(planted):
    translate(planted, missing="アオゾメ3")
    result = run("check", GAME, "--no-play", "--edition", "en", "--project", str(planted))
    assert result.exit_code == 0, result.output
    assert (
        f"{DATA}:13:name@en: notice: the en edition has no translation in 'name@en' for 1 row "
        "(13): the source's text is printed there"
    ) in result.output
    plain = run("check", GAME, "--no-play", "--project", str(planted))
    assert "translation" not in plain.output  # the source edition is not the translator's


def test_an_english_name_too_long_for_its_box_is_said_at_its_translation(planted):
    long = "ベニテング2|" + "An extraordinarily long-winded mushroom name " * 3
    translate(planted, long=long)
    result = run("check", GAME, "--no-play", "--edition", "en", "--project", str(planted))
    said = [line for line in result.output.splitlines() if "does not fit" in line]
    assert said and said[0].startswith(f"{DATA}:3:name@en: "), result.output
    source = run("check", GAME, "--no-play", "--project", str(planted))
    assert "does not fit" not in source.output  # the Japanese fitted


def test_an_edition_the_game_does_not_have_is_an_error_naming_its_languages(planted):
    translate(planted)
    result = build(planted, "--edition", "fr")
    assert result.exit_code == 1
    assert "kinoko has no 'fr' edition: its [game] languages are ja, en" in result.output


def test_a_language_pnp_cannot_print_is_an_error_at_its_line(planted):
    edit(
        planted,
        f"cards/{GAME}/game.toml",
        'rules = "rules.md"\n',
        'rules = "rules.md"\nlanguages = ["ja", "jp"]\n',
    )
    result = build(planted)
    assert result.exit_code == 1
    assert (
        f"cards/{GAME}/game.toml:8:game.languages: error: [game] languages: 'jp' is no language "
        "pnp prints (it prints: en, ja)"
    ) in result.output


def test_a_layout_key_for_an_edition_is_printed_there_only(planted):
    translate(planted)
    layout = planted / f"layouts/{GAME}/card_front.toml"
    layout.write_text(
        layout.read_text("utf-8").replace(
            'text = "{{ color }}"', 'text = "{{ color }}"\n"text@en" = "colour {{ color }}"'
        ),
        "utf-8",
    )
    assert build(planted, "--edition", "all").exit_code == 0
    assert "colour 赤" in page_text(planted / "output" / GAME / "en" / "cards.pdf", 1)
    assert "colour" not in page_text(planted / "output" / GAME / "cards.pdf", 1)


def test_every_word_pnp_prints_has_its_english():
    """Each Japanese text the code hands `printed.say` (a literal, or one of the sheet and
    rulebook words) has an entry in data/words/en.toml, with the same {fields}."""
    import ast
    import string

    from generator import kinds, printed
    from generator.builders import board, html, reprint, sheets, tuckbox
    from generator.builders import rulebook as book_builder
    from generator.layout import rulebook

    said = set()
    for path in (REPO / "generator").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                args = node.args[1:] if name == "say" and len(node.args) > 1 else node.args
                if name == "say" and args and isinstance(args[0], ast.Constant):
                    if isinstance(args[0].value, str):
                        said.add(args[0].value)
    said |= {*sheets.PROOF_LINES, sheets.DUPLEX_LINE, sheets.FOLD_LINE, *sheets.SIDES}
    said |= {sheets.TURNED, *sheets.PROOF_LINES_ON}
    said |= {sheets.SHARED_BOTH, sheets.SHARED_ACROSS, sheets.SHARED_DOWN}
    said |= {k.heading for k in kinds.KINDS.values() if k.heading} | {
        k.counter for k in kinds.KINDS.values()
    }
    said |= {book_builder.QUICK_REFERENCE, book_builder.RULEBOOK}
    said |= {rulebook.ADDED_NOTE, rulebook.FROM_DATA, rulebook.PROVISIONAL}
    said |= {rulebook.PROVISIONAL_NOTE, tuckbox.HOW, html.FROM_DATA_HTML}
    said |= {reprint.HEADING, reprint.SINCE, board.TILES, board.JOIN, board.ORDER}
    said = {s for s in said if any("\u3040" <= ch <= "\u9fff" for ch in s)}
    english = printed.WORDS["en"]
    assert sorted(said - set(english)) == []

    def fields(text: str) -> set:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    assert [k for k, v in english.items() if fields(k) != fields(v)] == []


def test_translated_rules_shaped_otherwise_are_said_at_their_line(planted):
    """rules.en.md keeps the source's headings, marks and directives in order; the planted
    rules.md has a `::: components` and a summary the English leaves out."""
    translate(planted)
    result = run("check", GAME, "--no-play", "--edition", "en", "--project", str(planted))
    said = [line for line in result.output.splitlines() if "the translated rules have" in line]
    assert said, result.output
    assert said[0].startswith(f"cards/{GAME}/rules.en.md:"), said
    assert f"cards/{GAME}/rules.md:" in said[0]
    source = (planted / f"cards/{GAME}/rules.md").read_text("utf-8")
    (planted / f"cards/{GAME}/rules.en.md").write_text(source, "utf-8")  # the same shape
    again = run("check", GAME, "--no-play", "--edition", "en", "--project", str(planted))
    assert "the translated rules have" not in again.output


def test_one_source_text_translated_two_ways_is_said_at_its_cell(planted):
    """Every 赤 is Red in the English edition; one row calling it Crimson is named at its cell."""
    translate(planted)
    path = planted / DATA
    rows = path.read_text("utf-8").splitlines()
    english = {"赤": "Red", "青": "Blue"}
    rows[0] += ",color@en"
    rows[1:] = [r + "," + english.get(r.split(",")[1], "Other") for r in rows[1:]]
    rows[3] = rows[3].removesuffix(",Red") + ",Crimson"
    path.write_text("\n".join(rows) + "\n", "utf-8")
    result = run("check", GAME, "--no-play", "--edition", "en", "--project", str(planted))
    assert (
        f"{DATA}:4:color@en: warning: 「赤」 is translated two ways: 'Crimson' here, 'Red' at row 2"
    ) in result.output


def test_a_translators_file_goes_out_and_comes_back_by_key(planted, tmp_path):
    """export lists what is still to translate; import writes it back into name@en and
    [edition.en], and names a text the designer changed since the export instead."""
    import csv as csvfile

    edit(
        planted,
        f"cards/{GAME}/game.toml",
        'rules = "rules.md"\n',
        'rules = "rules.md"\nlanguages = ["ja", "en"]\n',
    )
    sheet = tmp_path / "en.csv"

    def export():
        return run(
            *("translations", "export", GAME, "--edition", "en", "--to", str(sheet)),
            *("--project", str(planted)),
        )

    result = export()
    assert result.exit_code == 0, result.output
    rows = list(csvfile.DictReader(io.StringIO(sheet.read_text("utf-8-sig"))))
    keys = {r["key"]: r for r in rows}
    assert keys["title"]["source"] == "きのこ狩り"
    assert keys[f"data:{DATA}:2:name"] == {
        "key": f"data:{DATA}:2:name",
        "context": "ベニテング1",
        "source": "ベニテング1",
        "translation": "",
    }
    for r in rows:
        r["translation"] = "Mushroom Hunt" if r["key"] == "title" else f"EN {r['source']}"
    out = io.StringIO()
    writer = csvfile.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    sheet.write_text(out.getvalue(), "utf-8")
    edit(planted, DATA, "ベニテング2,赤,2", "ベニテング弐,赤,2")  # changed since the export
    back = run(
        "translations", "import", GAME, str(sheet), "--edition", "en", "--project", str(planted)
    )
    assert back.exit_code == 0, back.output
    assert f"data:{DATA}:3:name now says 「ベニテング弐」, not 「ベニテング2」" in back.output
    data = (planted / DATA).read_text("utf-8").splitlines()
    assert data[0] == "name,color,number,name@en,color@en"
    assert data[1] == "ベニテング1,赤,1,EN ベニテング1,EN 赤" and data[2].startswith(
        "ベニテング弐,赤,2,,"
    )
    assert 'title = "Mushroom Hunt"' in (planted / f"cards/{GAME}/game.toml").read_text("utf-8")
    again = export()
    assert "wrote" in again.output and f"data:{DATA}:3:name" in sheet.read_text("utf-8-sig")
    assert f"data:{DATA}:2:name" not in sheet.read_text("utf-8-sig")  # translated now


def test_the_glossary_holds_the_edition_to_one_word_for_each_term(planted):
    """glossary.toml's [en] terms: the English rules say each term the source rules use, and
    the component is named as the glossary says."""
    translate(planted)
    (planted / f"cards/{GAME}/glossary.toml").write_text(
        '[en]\n"胞子トークン" = "spore token"\n"きのこカード" = "Mushroom card"\n', "utf-8"
    )
    result = run("check", GAME, "--no-play", "--edition", "en", "--project", str(planted))
    assert (
        f"cards/{GAME}/glossary.toml:2:en.胞子トークン: warning: the source rules say "
        "「胞子トークン」 once, but the en rules never say 'spore token'"
    ) in result.output
    assert "names the component 'Mushroom cards'" in result.output
    (planted / f"cards/{GAME}/rules.en.md").write_text(
        RULES_EN + "\nTake one spore token for each Mushroom card.\n", "utf-8"
    )
    edit(planted, f"cards/{GAME}/game.toml", 'card = "Mushroom cards"', 'card = "Mushroom card"')
    again = run("check", GAME, "--no-play", "--edition", "en", "--project", str(planted))
    assert "glossary" not in again.output and "names the component" not in again.output


def test_an_edition_sets_its_own_fonts(planted):
    """[edition.en] fonts: the English edition's body in another face; the source's unchanged."""
    translate(planted)
    edit(
        planted,
        f"cards/{GAME}/game.toml",
        'components = { card = "Mushroom cards" }',
        'components = { card = "Mushroom cards" }\n'
        'fonts = { body = { family = "Noto Sans CJK JP", weight = "Bold" } }',
    )
    assert build(planted, "--edition", "all").exit_code == 0

    def faces(path):
        reader = pypdf.PdfReader(path)
        found = set()
        for page in reader.pages:
            for font in (page["/Resources"].get("/Font") or {}).values():
                found.add(str(font.get_object()["/BaseFont"]))
        return found

    en = faces(planted / "output" / GAME / "en" / "rulebook.pdf")
    ja = faces(planted / "output" / GAME / "rulebook.pdf")
    assert not any("Regular" in f for f in en), en  # body and bold both Bold now
    assert any("Regular" in f for f in ja), ja


def test_the_tuck_box_and_the_web_rulebook_speak_the_editions_language(planted):
    translate(planted)
    result = build(planted, "--edition", "en", "--format", "tuckbox,html")
    assert result.exit_code == 0, result.output
    en = planted / "output" / GAME / "en"
    box = page_text(en / "tuckbox.pdf", 0)
    assert "Mushroom Hunt: tuck box for the Mushroom cards" in box and "Cut on the solid" in box
    page = (en / "rulebook.html").read_text("utf-8")
    assert '<html lang="en">' in page and "(this table is made from the data)" in page


def test_an_editions_rules_outside_the_project_are_refused_at_their_key(planted):
    translate(planted)
    edit(
        planted,
        f"cards/{GAME}/game.toml",
        "[edition.en]\n",
        '[edition.en]\nrules = "../../../x.md"\n',
    )
    result = build(planted, "--edition", "en")
    assert result.exit_code == 1
    assert (
        "edition.en.rules: error: 'rules' must be a file inside the project folder" in result.output
    )


def test_an_edition_of_the_whole_project_passes_over_the_games_without_it(planted):
    """`pnp build --edition en` with no game named builds each game that has an English
    edition and says of the others that they have none; naming one without is an error."""
    import shutil

    shutil.copytree(planted / f"cards/{GAME}", planted / "cards/other")
    shutil.copytree(planted / f"layouts/{GAME}", planted / "layouts/other")
    translate(planted)  # kinoko only
    result = run("build", "--edition", "en", "--project", str(planted))
    assert result.exit_code == 0, result.output
    assert "other has no 'en' edition (its [game] languages: ja): not built in it" in result.output
    assert (planted / "output" / GAME / "en" / "cards.pdf").is_file()
    assert not (planted / "output" / "other").exists()
    named = run("build", "other", "--edition", "en", "--project", str(planted))
    assert (
        named.exit_code == 1 and "other has no 'en' edition: its [game] languages" in named.output
    )


def test_a_translators_export_reads_no_data_outside_the_project(planted, tmp_path):
    """A game whose data names a file outside the project: the export refuses, and says so,
    rather than copying another's file into a spreadsheet."""
    secret = tmp_path / "secret.csv"
    secret.write_text("name,color,number\n秘密,赤,1\n", "utf-8")
    edit(
        planted,
        f"cards/{GAME}/game.toml",
        'rules = "rules.md"\n',
        'rules = "rules.md"\nlanguages = ["ja", "en"]\n',
    )
    edit(
        planted,
        f"cards/{GAME}/game.toml",
        'data = "kinoko.csv"',
        f'data = "../../../{secret.name}"',
    )
    sheet = tmp_path / "en.csv"
    result = run(
        *("translations", "export", GAME, "--edition", "en", "--to", str(sheet)),
        *("--project", str(planted)),
    )
    assert result.exit_code == 1 and "inside the project folder" in result.output
    assert not sheet.exists() or "秘密" not in sheet.read_text("utf-8-sig")


def test_a_picture_named_after_a_card_is_the_same_file_in_every_edition(planted):
    """`src = "art/{{ name }}.png"`: the English edition, printing 'Fly agaric 1', looks for
    the picture the Japanese one does, art/ベニテング1.png, not art/Fly agaric 1.png."""
    translate(planted)
    layout = planted / f"layouts/{GAME}/card_front.toml"
    layout.write_text(
        layout.read_text("utf-8")
        + '\n[[box]]\nname = "art"\ntype = "image"\nx = "5mm"\ny = "30mm"\nw = "20mm"\n'
        'h = "20mm"\nsrc = "art/{{ name }}.png"\nplaceholder = "{{ name }}"\n',
        "utf-8",
    )
    result = run("check", GAME, "--no-play", "--edition", "en", "--project", str(planted))
    assert "art/ベニテング1.png" in result.output, result.output
    assert "art/Fly agaric 1.png" not in result.output
    assert build(planted, "--edition", "en").exit_code == 0
    assert "Fly agaric 1" in page_text(planted / "output" / GAME / "en" / "cards.pdf", 1)
