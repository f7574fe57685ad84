"""`pnp release GAME VERSION`: two releases of a fixture game, read back from what the designer
hands a playtest group — changes.md, the 変更点 sheet (changes.pdf) and the reprint pack of
only the changed cards — and the record kept in the project."""

from __future__ import annotations

import json

import pypdf

from conftest import edit, make_fixture_project, run
from pdfread import page_text

GAME = "kinoko"


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
