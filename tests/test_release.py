"""`pnp release GAME VERSION`: two releases of a fixture game, read back from what the designer
hands a playtest group — changes.md, the 変更点 sheet (changes.pdf) and the reprint pack of
only the changed cards — and the record kept in the project."""

from __future__ import annotations

import json

import pypdf

from conftest import edit, make_fixture_project, run
from pdfread import page_text

GAME = "kinoko"


def committed(root, tag: str):
    """The project made a git repository, everything but its output committed and tagged."""
    import subprocess

    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "cards", "layouts"], check=True)
    subprocess.run([*git, "commit", "-qm", "first"], check=True)
    subprocess.run([*git, "tag", tag], check=True)
    return git


def release(root, version: str):
    result = run("release", GAME, version, "--project", str(root))
    assert "Traceback" not in result.output
    return result


def test_two_releases_give_a_changes_sheet_and_a_reprint_pack_of_the_changed_cards(tmp_path):
    root = make_fixture_project("planted", tmp_path)
    first = release(root, "1.0")
    assert first.exit_code == 0, first.output
    folder = root / "output" / GAME / "releases"
    assert sorted(p.name for p in (folder / "1.0").iterdir()) == ["changes.md", "changes.pdf"]
    assert "最初のリリースです（36枚）" in (folder / "1.0/changes.md").read_text("utf-8")
    record = json.loads((root / f"cards/{GAME}/releases/1.0.json").read_text("utf-8"))
    assert record["version"] == "1.0" and len(record["pieces"]) == 36

    edit(root, f"cards/{GAME}/kinoko.csv", "ベニテング3,赤,3", "ベニテング3,赤,7")
    edit(
        root,
        f"cards/{GAME}/rules.md",
        "手番のプレイヤーは手札からカードを出します。",
        "手番のプレイヤーは手札からカードを１枚出します。",
    )
    second = release(root, "1.1")
    assert second.exit_code == 0, second.output
    assert f"{GAME} 1.1: 1 piece changed since 1.0" in second.output
    md = (folder / "1.1/changes.md").read_text("utf-8")
    assert "1.0 からの変更：変更 1枚、追加 0枚、削除 0枚。" in md
    assert "- ベニテング3：number 3→7" in md
    assert "- 削除：「手番のプレイヤーは手札からカードを出します。」" in md
    assert "- 追加：「手番のプレイヤーは手札からカードを１枚出します。」" in md
    sheet = page_text(folder / "1.1/changes.pdf", 0)
    assert "変更点" in sheet and "ベニテング3" in sheet and "3→7" in sheet
    pack = folder / "1.1/reprint.pdf"
    pages = pypdf.PdfReader(pack).pages
    assert len(pages) == 3  # how to print it, the changed card's sheet and its back
    front = page_text(pack, 1)
    assert "ベニテング3" in front and "7" in front and "アオゾメ" not in front
    assert "1.0" in page_text(pack, 0)  # changed since which release


def test_a_release_is_named_once_and_with_a_name_that_is_a_version(tmp_path):
    root = make_fixture_project("planted", tmp_path)
    assert release(root, "0.3").exit_code == 0
    again = release(root, "0.3")
    assert again.exit_code == 1
    assert "kinoko 0.3 is released already (releases: 0.3); name this one anew" in again.output
    bad = release(root, "../x")
    assert bad.exit_code == 1 and "'../x' is no version name" in bad.output
    assert not (root / "cards" / "x.json").exists()


def test_a_release_with_nothing_changed_says_so(tmp_path):
    root = make_fixture_project("planted", tmp_path)
    assert release(root, "1").exit_code == 0
    assert release(root, "2").exit_code == 0
    folder = root / "output" / GAME / "releases" / "2"
    assert "変更はありません。" in (folder / "changes.md").read_text("utf-8")
    assert not (folder / "reprint.pdf").exists()


def test_a_version_is_printed_where_a_playtester_looks(tmp_path):
    """[game] version on the proof page, the rulebook's footer and the summary's heading, and
    {{ game.version }} wherever a layout puts it; a release prints its own."""
    root = make_fixture_project("planted", tmp_path)
    edit(
        root,
        f"cards/{GAME}/game.toml",
        'rules = "rules.md"\n',
        'rules = "rules.md"\nversion = "0.3"\n',
    )
    assert run("build", GAME, "--project", str(root)).exit_code == 0
    fronts = page_text(root / "output" / GAME / "cards.pdf", 1)
    assert fronts.count("0.3") == 9  # small on each card of the sheet, by default
    layout = root / f"layouts/{GAME}/card_front.toml"
    layout.write_text(
        layout.read_text("utf-8").replace(
            'text = "{{ number }}"', 'text = "{{ number }} v{{ game.version }}"'
        ),
        "utf-8",
    )
    result = run("build", GAME, "--project", str(root))
    assert result.exit_code == 0, result.output
    out = root / "output" / GAME
    assert "版：0.3" in page_text(out / "cards.pdf", 0)
    assert "1 v0.3" in page_text(out / "cards.pdf", 1)
    assert page_text(out / "cards.pdf", 1).count("0.3") == 9  # where the layout puts it, only
    assert "— 1 —　0.3" in page_text(out / "rulebook.pdf", 0)
    assert "クイックリファレンス（0.3）" in page_text(out / "summary.pdf", 0)
    assert release(root, "0.4").exit_code == 0
    assert "版：0.4" in page_text(out / "cards.pdf", 0)


def asking_git(tmp_path):
    """The planted game with `version = "git"`."""
    root = make_fixture_project("planted", tmp_path)
    edit(
        root,
        f"cards/{GAME}/game.toml",
        'rules = "rules.md"\n',
        'rules = "rules.md"\nversion = "git"\n',
    )
    return root


def test_a_version_from_git_says_when_the_build_has_uncommitted_edits(tmp_path):
    root = asking_git(tmp_path)
    committed(root, "playtest-1")
    assert run("build", GAME, "--project", str(root)).exit_code == 0
    proof = root / "output" / GAME / "cards.pdf"
    assert "版：playtest-1" in page_text(proof, 0) and "+edits" not in page_text(proof, 0)
    edit(root, f"cards/{GAME}/kinoko.csv", "ベニテング3,赤,3", "ベニテング3,赤,7")
    assert run("build", GAME, "--project", str(root)).exit_code == 0
    assert "版：playtest-1 +edits" in page_text(proof, 0)


def test_a_commit_alone_changes_a_git_version_printed(tmp_path):
    """Nothing in the game's files changed, but a new tag is a new printing: built again."""
    import subprocess

    root = asking_git(tmp_path)
    git = committed(root, "a")
    assert run("build", GAME, "--project", str(root)).exit_code == 0
    subprocess.run([*git, "tag", "-d", "a"], check=True, capture_output=True)
    subprocess.run([*git, "tag", "b"], check=True)
    assert run("build", GAME, "--project", str(root)).exit_code == 0
    assert "版：b" in page_text(root / "output" / GAME / "cards.pdf", 0)


def test_diff_compares_with_a_release_by_its_name(tmp_path):
    root = make_fixture_project("planted", tmp_path)
    assert release(root, "1.0").exit_code == 0
    edit(root, f"cards/{GAME}/kinoko.csv", "ベニテング4,赤,4", "ベニテング4,赤,8")
    assert run("build", GAME, "--project", str(root)).exit_code == 0  # the last build moves on
    result = run("diff", GAME, "--since", "1.0", "--project", str(root))
    assert result.exit_code == 0, result.output
    assert "compared with release 1.0" in result.output
    assert "ベニテング4 (cards/kinoko/kinoko.csv:5) number: 4 → 8" in result.output


def test_the_feedback_form_is_a_qr_code_a_phone_reads(tmp_path):
    """[game] feedback with {game}, {version} and {language}: the proof page and the
    rulebook's last page carry it as a QR code that decodes to the form's address."""
    import pypdfium2
    import zxingcpp

    root = make_fixture_project("planted", tmp_path)
    edit(
        root,
        f"cards/{GAME}/game.toml",
        'rules = "rules.md"\n',
        'rules = "rules.md"\nversion = "0.5 beta"\n'
        'feedback = "https://forms.example.org/f?game={game}&v={version}&lang={language}"\n',
    )
    assert run("build", GAME, "--project", str(root)).exit_code == 0
    want = "https://forms.example.org/f?game=kinoko&v=0.5%20beta&lang=ja"

    def read(path, page):
        pdf = pypdfium2.PdfDocument(path)
        try:
            image = pdf[page if page >= 0 else len(pdf) + page].render(scale=3).to_pil()
        finally:
            pdf.close()
        return [r.text for r in zxingcpp.read_barcodes(image)]

    out = root / "output" / GAME
    assert read(out / "cards.pdf", 0) == [want]
    assert read(out / "rulebook.pdf", -1) == [want]
    edit(root, f"cards/{GAME}/game.toml", 'feedback = "https://', 'feedback = "ftp://')
    bad = run("build", GAME, "--project", str(root))
    assert bad.exit_code == 1 and "[game] feedback must be a web address" in bad.output


def test_diff_of_a_versioned_game_draws_both_faces(tmp_path):
    """The version printed on every card is left out of the comparison, not out of the
    picture: diff.pdf still draws the old face beside the new."""
    root = make_fixture_project("planted", tmp_path)
    edit(
        root,
        f"cards/{GAME}/game.toml",
        'rules = "rules.md"\n',
        'rules = "rules.md"\nversion = "1"\n',
    )
    assert run("build", GAME, "--project", str(root)).exit_code == 0
    edit(root, f"cards/{GAME}/kinoko.csv", "ベニテング4,赤,4", "ベニテング4,赤,8")
    edit(root, f"cards/{GAME}/game.toml", 'version = "1"', 'version = "2"')
    result = run("diff", GAME, "--project", str(root))
    assert "1 changed" in result.output, result.output
    text = page_text(root / "output" / GAME / "diff.pdf", 0)
    assert text.count("ベニテング4") == 3, text  # the old face, the new face and the note


def test_a_release_writes_nothing_through_a_folder_linked_out_of_the_project(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    root = make_fixture_project("planted", tmp_path)
    (root / f"cards/{GAME}/releases").symlink_to(outside, target_is_directory=True)
    result = release(root, "1.0")
    assert result.exit_code == 1, result.output
    assert "must be a file inside the project folder" in result.output
    assert list(outside.iterdir()) == []
    assert not (root / "output" / GAME / "releases").exists()  # refused before anything is built
    assert release(root, "1.0/../../x").exit_code == 1
    bad = run("release", "../etc", "1.0", "--project", str(root))
    assert bad.exit_code == 1 and "Traceback" not in bad.output


def test_an_english_game_s_release_and_rulebook_lists_speak_english(tmp_path):
    """A game printed in English: its changes sheet says 'effect: Look. → Look twice.', its
    items and the rulebook's list items have the bullet '•', and neither page has Japanese."""
    import re

    from pdfread import drawn_text

    root = tmp_path / "p"
    assert run("init", str(root)).exit_code == 0
    source = tmp_path / "deck.csv"
    source.write_text("name,copies,effect\nScout,3,Look.\nKing,1,Win.\n", encoding="utf-8")
    assert run("new", "deck", "--project", str(root), "--from", str(source)).exit_code == 0
    rules = root / "cards/deck/rules.md"
    rules.write_text(rules.read_text("utf-8") + "\n## Notes\n\n- Ships sink.\n- Cargo floats.\n")
    assert run("release", "deck", "1.0", "--project", str(root)).exit_code == 0
    edit(root, "cards/deck/deck.csv", "Look.", "Look twice.")
    done = run("release", "deck", "1.1", "--project", str(root))
    assert done.exit_code == 0, done.output
    folder = root / "output/deck/releases/1.1"
    md = (folder / "changes.md").read_text("utf-8")
    assert "- Scout ×3: effect: Look. → Look twice." in md, md
    sheet = drawn_text(folder / "changes.pdf", 0)
    book = drawn_text(root / "output/deck/rulebook.pdf", 0)
    assert "• Scout ×3" in sheet and "• Ships sink." in book, (sheet, book)
    japanese = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff01-\uff9f]")
    for text in (sheet, book):
        assert not japanese.search(text), text
