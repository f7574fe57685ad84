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
    cols, rows = sheet["NumWidth"], sheet["NumHeight"]
    assert cols * rows >= 11 and cols * (rows - 1) < 11  # 10 cards and the hidden slot
    assert sheet["BackIsHidden"] is True and sheet["UniqueBack"] is False
    faces = Image.open(image_of(sheet["FaceURL"], out))
    assert faces.size[0] <= 4096 and faces.size[1] <= 4096
    w, h = faces.size[0] // cols, faces.size[1] // rows
    assert w == round(63 / 25.4 * 300)  # 11 slots of 300 dpi fit 4096 px a side
    assert abs(w / h - 63 / 88) < 0.01  # cards keep their shape
    back = Image.open(image_of(sheet["BackURL"], out))
    assert back.size == (w, h)
    # the hidden-card slot (the sheet's last) shows the back
    last = cols * rows - 1
    hidden = faces.crop(
        ((last % cols) * w, (last // cols) * h, (last % cols + 1) * w, (last // cols + 1) * h)
    ).convert("RGB")
    assert hidden.tobytes() == back.convert("RGB").tobytes()
    cards = deck["ContainedObjects"]
    assert [c["Nickname"] for c in cards][:3] == ["赤 1", "赤 2", "赤 3"]
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]


def test_a_deck_keeps_one_slot_a_distinct_face_and_a_card_id_a_physical_card(tmp_path):
    root = make_fixture_project("decks", tmp_path)
    r = run("build", "uno", "--project", str(root), "--format", "tts")
    assert r.exit_code == 0, r.output
    out = root / "output/uno"
    (deck,) = saved(next((out / "tts").glob("*.json")))["ObjectStates"]
    cards = deck["ContainedObjects"]
    assert len(cards) == 108  # every physical card, copies repeated
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]
    by_name: dict[str, set] = {}
    for c in cards:
        by_name.setdefault(c["Nickname"], set()).add(c["CardID"])
    assert all(len(ids) == 1 for ids in by_name.values())  # copies share their face's slot
    slots = sorted({c["CardID"] for c in cards})
    assert len(slots) == len(by_name) < 69  # one slot a distinct face: one sheet
    (sheet,) = deck["CustomDeck"].values()
    cols, rows = sheet["NumWidth"], sheet["NumHeight"]
    assert cols * rows >= len(slots) + 1 and cols * (rows - 1) < len(slots) + 1
    faces = Image.open(image_of(sheet["FaceURL"], out)).convert("RGB")
    w, h = faces.size[0] // cols, faces.size[1] // rows
    # 300 dpi, or as near as a 4096 px sheet of this many slots allows: no slot is a copy's,
    # and the grid is the one that keeps the cards largest.
    best = max(
        min(300 * 63 / 25.4, 4096 / c, 4096 / -(-(len(slots) + 1) // c) * 63 / 88)
        for c in range(1, 11)
        if -(-(len(slots) + 1) // c) <= 7
    )
    assert w >= best - 2
    seen = set()
    for slot in slots:
        i = slot - 100
        cell = faces.crop(
            ((i % cols) * w, (i // cols) * h, (i % cols + 1) * w, (i // cols + 1) * h)
        )
        assert cell.tobytes() not in seen  # no face stored twice
        seen.add(cell.tobytes())


def test_cards_of_any_shape_keep_their_aspect_in_tabletop_simulator(kit):
    """Tabletop Simulator's card is 1 : 1.4 at any uniform scale; a tarot card (70 × 120 mm)
    must be scaled more along its height than its width to stay 70 : 120."""
    r = run("build", "--project", str(kit), "--format", "tts")
    assert r.exit_code == 0, r.output
    (deck,) = saved(kit / "output/kit/tts/hero.json")["ObjectStates"]
    for t in [deck["Transform"], *(c["Transform"] for c in deck["ContainedObjects"])]:
        width, height = 63.5 * t["scaleX"], 88.9 * t["scaleZ"]  # mm, at TTS's card size
        assert abs(width - 70) < 0.05 and abs(height - 120) < 0.05, t


def test_tokens_and_boards_keep_their_sizes_ratio_and_lie_apart(kit):
    r = run("build", "--project", str(kit), "--format", "tts")
    assert r.exit_code == 0, r.output
    out = kit / "output/kit"
    chips = saved(out / "tts/chip.json")["ObjectStates"]
    board = saved(out / "tts/board.json")["ObjectStates"][0]
    # 16 mm chips and a 380 mm board: tiles of one kind, scaled as their widths.
    ratio = chips[0]["Transform"]["scaleX"] / board["Transform"]["scaleX"]
    assert abs(ratio - 16 / 380) < 1e-6
    # A custom tile is 2 units across at scale 1: no two chips' squares overlap.
    side = 2 * chips[0]["Transform"]["scaleX"]
    spots = [(o["Transform"]["posX"], o["Transform"]["posZ"]) for o in chips]
    for i, a in enumerate(spots):
        for b in spots[i + 1 :]:
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= side, (a, b)


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
