"""Tabletop Simulator: for each deck, face sheets of at most 10 × 7 slots and 4096 px a side (the
last slot the hidden-card image), a back image and a saved object whose cards, ids and images
Tabletop Simulator reads; tokens and boards as custom tiles."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from conftest import make_fixture_project, run


def saved(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def image_of(url: str, out: Path) -> Path:
    assert url.startswith("file:///"), url
    path = Path(url.removeprefix("file://"))
    assert path.is_file() and out in path.parents, url
    return path


def test_a_small_deck_one_sheet_with_the_hidden_card_last(tiny):
    r = run("build", "--project", str(tiny), "--format", "tts")
    assert r.exit_code == 0, r.output
    out = tiny / "output/tiny"
    data = saved(out / "tts/card.json")
    (deck,) = data["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "数字カード"
    assert deck["DeckIDs"] == list(range(100, 110))
    sheet = deck["CustomDeck"]["1"]
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (10, 2)  # 10 cards and the hidden slot
    assert sheet["BackIsHidden"] is True and sheet["UniqueBack"] is False
    faces = Image.open(image_of(sheet["FaceURL"], out))
    assert faces.size[0] <= 4096 and faces.size[1] <= 4096
    w, h = faces.size[0] // 10, faces.size[1] // 2
    assert abs(w / h - 63 / 88) < 0.01  # cards keep their shape
    back = Image.open(image_of(sheet["BackURL"], out))
    assert back.size == (w, h)
    # the hidden-card slot (the sheet's last) shows the back
    hidden = faces.crop((9 * w, h, 10 * w, 2 * h)).convert("RGB")
    assert hidden.tobytes() == back.convert("RGB").tobytes()
    cards = deck["ContainedObjects"]
    assert [c["Nickname"] for c in cards][:3] == ["赤 1", "赤 2", "赤 3"]
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]


def test_a_deck_over_69_cards_takes_more_sheets_and_repeats_copies(tmp_path):
    root = make_fixture_project("decks", tmp_path)
    r = run("build", "uno", "--project", str(root), "--format", "tts")
    assert r.exit_code == 0, r.output
    out = root / "output/uno"
    (deck,) = (
        saved(out / "tts/card.json")["ObjectStates"]
        if (out / "tts/card.json").exists()
        else (saved(next((out / "tts").glob("*.json")))["ObjectStates"])
    )
    assert len(deck["ContainedObjects"]) == 108  # every physical card, copies repeated
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    first, second = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert (second["NumWidth"], second["NumHeight"]) == (10, 4)  # 39 cards and the hidden one
    assert deck["DeckIDs"][:2] == [100, 101] and deck["DeckIDs"][69] == 200
    assert deck["DeckIDs"][-1] == 238
    for entry in (first, second):
        size = Image.open(image_of(entry["FaceURL"], out)).size
        assert max(size) <= 4096
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert len(set(names)) < len(names)  # copies keep their card's name


def test_tokens_and_boards_become_tiles(kit):
    r = run("build", "--project", str(kit), "--format", "tts")
    assert r.exit_code == 0, r.output
    out = kit / "output/kit"
    chips = saved(out / "tts/chip.json")["ObjectStates"]
    assert chips and all(o["Name"] == "Custom_Tile" for o in chips)
    assert len(chips) == 12
    image_of(chips[0]["CustomImage"]["ImageURL"], out)
    board = saved(out / "tts/board.json")["ObjectStates"][0]
    assert board["Name"] == "Custom_Tile"
    assert max(Image.open(image_of(board["CustomImage"]["ImageURL"], out)).size) <= 4096


def test_url_base_names_hosted_images(tiny):
    r = run(
        "build", "--project", str(tiny), "--format", "tts", "--url-base", "https://example.org/g/"
    )
    assert r.exit_code == 0, r.output
    deck = saved(tiny / "output/tiny/tts/card.json")["ObjectStates"][0]
    assert deck["CustomDeck"]["1"]["FaceURL"] == "https://example.org/g/tts/card-1.png"
