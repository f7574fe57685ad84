"""The layout editor of `pnp serve`, driven in a real headless chromium as a designer drives it:
drag, resize, a colour typed in the panel, a box added from a column, undo. What is checked is
what the designer gets: the layout file on disk (exactly those changes, every comment kept), the
next build's print-shop PDF read back (each box where the editor showed it, within 0.1 mm), and
writes the editor did not send (no token, another site, a stale tab) refused."""

from __future__ import annotations

import difflib
import json
import os
import urllib.error
import urllib.request

import pytest

from conftest import CHROMIUM, make_fixture_project, run, start_serving, stop_serving
from pdfread import render

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine"),
    pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process"),
]

MM = 72 / 25.4
CARD = (63.0, 88.0)  # poker, as the fixture's manifest names it
BLEED = 3.0  # the sheet's bleed

LAYOUT = """\
# 数字カード, front: a layout begun from scratch, placed by hand
description = "marker, panel and number"
extends = "card_base"

# a block of the suit's colour
[[box]]
name = "marker"
type = "rect"
x = "10mm"
y = "20mm"
w = "8mm"
h = "6mm"
fill = "#204080"   # blue, for now

# a panel behind the number
[[box]]
name = "panel"
type = "rect"
x = "30mm"
y = "40mm"
w = "20mm"
h = "15mm"
fill = "#A0A0A0"

[[box]]
name = "number"
type = "text"
x = "4mm"
y = "62mm"
w = "W - 8mm"
h = "20mm"
text = "{{ number }}"
size = "24pt"
"""


@pytest.fixture
def project(tmp_path):
    root = make_fixture_project("tiny", tmp_path)
    (root / "layouts/tiny/card_front.toml").write_text(LAYOUT, encoding="utf-8")
    return root


@pytest.fixture
def served(project):
    proc, url = start_serving(project)
    yield project, url
    assert stop_serving(proc) == 0


def changed(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def open_editor(browser, url, side="front", width=1280):
    page = browser.new_page(viewport={"width": width, "height": 860})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}edit/tiny/card/{side}")
    page.wait_for_selector(".box")
    page.wait_for_load_state("networkidle")
    return page, errors


def scale(page) -> float:
    """Pixels a mm on the page: the stage is the card with its bleed."""
    width = page.locator("#stage").bounding_box()["width"]
    return width / (CARD[0] + 2 * BLEED)


def shown_mm(page, name) -> tuple[float, float, float, float]:
    """Where the page shows a box, in mm from the card's trim corner (read in one go: the page
    draws itself again whenever a build ends)."""
    page.wait_for_selector(f'.box[data-name="{name}"]')
    return tuple(
        page.evaluate(
            """([name, card, bleed]) => {
                const stage = document.querySelector("#stage").getBoundingClientRect();
                const box = document.querySelector(`.box[data-name="${name}"]`)
                    .getBoundingClientRect();
                const s = stage.width / (card + 2 * bleed);
                return [(box.left - stage.left) / s - bleed, (box.top - stage.top) / s - bleed,
                        box.width / s, box.height / s];
            }""",
            [name, CARD[0], BLEED],
        )
    )


def drag(page, selector, dx_mm, dy_mm):
    page.wait_for_selector(selector)
    s = scale(page)
    x, y = page.evaluate(
        """selector => {
            const r = document.querySelector(selector).getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
        }""",
        selector,
    )
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx_mm * s, y + dy_mm * s, steps=12)
    page.mouse.up()


def writes(project, before_text):
    return changed(before_text, (project / "layouts/tiny/card_front.toml").read_text("utf-8"))


def settled(page) -> bool:
    """Whether the page has no write or load still under way (what it shows is the file)."""
    return page.evaluate("document.body.dataset.pending || '0'") == "0"


def wait_for_file(page, project, lines, timeout=30):
    """Until the layout file has changed by `lines` and the page has finished what it sent:
    a designer typing next types into the page the save drew."""
    for _ in range(timeout * 10):
        if writes(project, LAYOUT) == lines and settled(page):
            return
        page.wait_for_timeout(100)
    said = page.locator("#message").text_content()
    assert writes(project, LAYOUT) == lines, f"the page says: {said!r}"
    assert settled(page), f"the page is still saving; it says: {said!r}"


def painted(pdf, colour: str, dpi: float = 600) -> tuple[float, float, float, float] | None:
    """Where the first page of a print-shop PDF (one face a page, trim + bleed) paints
    `colour`: (x, y, w, h) in mm from the trim corner, read from its pixels (pypdfium2)."""
    from PIL import Image, ImageChops

    image = render(pdf, 0, dpi / 72)
    solid = Image.new("RGB", image.size, colour)
    mask = ImageChops.difference(image, solid).convert("L").point(lambda v: 255 if v < 4 else 0)
    box = mask.getbbox()
    if box is None:
        return None
    per_mm = dpi / 25.4
    x0, y0, x1, y1 = (v / per_mm for v in box)
    return (x0 - BLEED, y0 - BLEED, x1 - x0, y1 - y0)


def near(a, b, within=0.1):
    return all(abs(p - q) <= within for p, q in zip(a, b))


def test_placing_by_hand_writes_the_layout_and_the_pdf_agrees(served, browser):
    project, url = served
    page, errors = open_editor(browser, url)
    assert near(shown_mm(page, "marker"), (10, 20, 8, 6), 0.05)

    # Drag the marker 10 mm right.
    drag(page, '.box[data-name="marker"]', 10, 0)
    wait_for_file(page, project, ['-x = "10mm"', '+x = "20mm"'])

    # Resize the panel by its bottom-right corner: 5 mm wider, 3 mm taller.
    page.locator('#layers li[data-name="panel"] .n').click()
    drag(page, '.box[data-name="panel"] .handle[data-handle="se"]', 5, 3)
    wait_for_file(
        page,
        project,
        ['-x = "10mm"', '+x = "20mm"', '-w = "20mm"', '-h = "15mm"', '+w = "25mm"', '+h = "18mm"'],
    )

    # Type a colour in the panel's fill.
    fill = page.locator('#keys input[name="fill"]')
    assert fill.input_value() == "#A0A0A0"
    fill.fill("#00AA55")
    fill.press("Enter")
    done = [
        '-x = "10mm"',
        '+x = "20mm"',
        '-w = "20mm"',
        '-h = "15mm"',
        '-fill = "#A0A0A0"',
        '+w = "25mm"',
        '+h = "18mm"',
        '+fill = "#00AA55"',
    ]
    wait_for_file(page, project, done)

    # Add a box from the deck's `suit` column: on the page, selected, and in the file.
    page.select_option("#column", "suit")
    page.click("#add")
    page.wait_for_selector('.box.selected[data-name="suit"]')
    text = (project / "layouts/tiny/card_front.toml").read_text("utf-8")
    assert '[[box]]\nname = "suit"\ntype = "text"' in text and 'text = "{{ suit }}"' in text

    # Undo once: the added box goes, the rest stays.
    page.click("#undo")
    page.wait_for_selector('.box[data-name="suit"]', state="detached")
    wait_for_file(page, project, done)
    after = (project / "layouts/tiny/card_front.toml").read_text("utf-8")
    comments = [line for line in LAYOUT.splitlines() if "# " in line]
    assert len(comments) == 4 and all(line in after for line in comments)

    # The editor shows the boxes where the next build prints them.
    page.wait_for_function("() => !document.querySelector('#undo').disabled")
    shown = {name: shown_mm(page, name) for name in ("marker", "panel")}
    assert near(shown["marker"], (20, 20, 8, 6), 0.05)
    assert near(shown["panel"], (30, 40, 25, 18), 0.05)
    assert errors == []

    built = run("build", "--project", str(project), "--format", "printshop")
    assert built.exit_code == 0, built.output
    pdf = project / "output/tiny/printshop/generic/card.pdf"
    assert near(painted(pdf, "#204080"), shown["marker"])
    assert near(painted(pdf, "#00AA55"), shown["panel"])


def post(url, body, headers):
    request = urllib.request.Request(
        url + "edit/api",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_writes_the_page_did_not_send_are_refused(served, browser):
    project, url = served
    page, _errors = open_editor(browser, url)
    state = page.evaluate("fetch(location.pathname + '/state.json').then(r => r.json())")
    token = page.get_attribute('meta[name="pnp-token"]', "content")
    digests = {f["file"]: f["digest"] for f in state["files"]}
    body = {
        "op": "set",
        "game": "tiny",
        "component": "card",
        "side": "front",
        "box": "marker",
        "values": {"x": 40},
        "digests": digests,
    }
    assert post(url, body, {})[0] == 403  # no token
    assert post(url, body, {"X-PNP-Token": token[::-1]})[0] == 403  # not this server's
    other = {"X-PNP-Token": token, "Origin": "http://evil.example"}
    assert post(url, body, other)[0] == 403  # from another site's page
    assert (project / "layouts/tiny/card_front.toml").read_text("utf-8") == LAYOUT
    # Only the layout's own files: not the manifest, not a file outside the project.
    manifest = (project / "cards/tiny/game.toml").read_text("utf-8")
    for file in ("cards/tiny/game.toml", "../outside.toml", "layouts/tiny/card_back.toml"):
        restore = {**body, "op": "restore", "file": file, "text": "x = 1\n"}
        assert post(url, restore, {"X-PNP-Token": token})[0] == 403, file
    assert (project / "cards/tiny/game.toml").read_text("utf-8") == manifest
    assert not (project.parent / "outside.toml").exists()

    # A box inherited from pnp's own base layout is overridden in the designer's file.
    code, answer = post(
        url, body | {"box": "background", "values": {"fill": "#F0E8D0"}}, {"X-PNP-Token": token}
    )
    assert code == 200, answer
    text = (project / "layouts/tiny/card_front.toml").read_text("utf-8")
    assert text.startswith(LAYOUT) and text.endswith('name = "background"\nfill = "#F0E8D0"\n')
    assert "overridden in layouts/tiny/card_front.toml" in answer["notes"][0]

    # A second tab that read the file before that write is refused, and says so.
    code, answer = post(url, body, {"X-PNP-Token": token})
    assert code == 409 and "changed since the editor read it" in answer["message"]
    # A value the build would refuse is refused before anything is written.
    fresh = {
        f["file"]: f["digest"]
        for f in page.evaluate("fetch(location.pathname + '/state.json').then(r => r.json())")[
            "files"
        ]
    }
    bad = body | {"values": {"fill": "blau"}, "digests": fresh}
    code, answer = post(url, bad, {"X-PNP-Token": token})
    assert code == 400 and "'fill' must be a colour" in answer["message"]
    assert (project / "layouts/tiny/card_front.toml").read_text("utf-8") == text


def test_stepping_through_the_deck_shows_each_cards_problems(tmp_path, browser):
    root = make_fixture_project("tiny", tmp_path)
    data = root / "cards/tiny/cards.csv"
    data.write_text(
        data.read_text("utf-8").replace("三の赤。", "三の赤。" + "とても長い文章が続きます。" * 30),
        encoding="utf-8",
    )
    proc, url = start_serving(root)
    try:
        page, errors = open_editor(browser, url)
        assert page.locator("#card option").count() == 10  # a row a card, copies once
        assert "none" in page.locator("#problems").inner_text()
        page.click("#next")
        page.wait_for_function("document.querySelector('#card').value === '1'")
        assert "none" in page.locator("#problems").inner_text()
        page.click("#next")
        page.wait_for_function(
            "document.querySelector('#problems').innerText.includes('does not fit')"
        )
        problem = page.locator("#problems").inner_text()
        assert "cards/tiny/cards.csv:4" in problem and "box 'text'" in problem
        assert "赤 3" in page.locator("#card option:checked").inner_text()
        page.select_option("#card", "5")  # picked by its key
        page.wait_for_function("!document.querySelector('#problems').innerText.includes('fit')")
        assert "青 1" in page.locator("#card option:checked").inner_text()
        assert errors == []
    finally:
        assert stop_serving(proc) == 0


def test_pnps_own_layout_is_copied_into_the_game_before_it_is_changed(served, browser):
    project, url = served
    page, errors = open_editor(browser, url, side="tuckbox-front")
    assert "pnp:" in page.locator("#layoutname").inner_text()
    page.locator('#layers li[data-name="title"] .n').click()
    size = page.locator('#keys input[name="size"]')
    size.fill("big")  # refused: nothing is copied, nothing written
    size.press("Enter")
    page.wait_for_function("document.querySelector('#message').className === 'bad'")
    assert "'size'" in page.locator("#message").inner_text()
    assert not (project / "layouts/tiny/tuckbox_front.toml").exists()
    page.locator('#layers li[data-name="title"] .n').click()
    size = page.locator('#keys input[name="size"]')
    size.fill("18pt")
    size.press("Enter")
    page.wait_for_function("document.querySelector('#message').innerText.includes('copied')")
    copy = project / "layouts/tiny/tuckbox_front.toml"
    assert copy.is_file() and 'size = "18pt"' in copy.read_text("utf-8")
    page.wait_for_function(  # the page now edits the copy
        "document.querySelector('#layoutname').innerText.endsWith('layouts/tiny/tuckbox_front.toml')"
    )
    assert errors == []


def test_two_tabs_keep_each_others_changes(served, browser):
    project, url = served
    first, _e1 = open_editor(browser, url)
    second, _e2 = open_editor(browser, url)
    drag(first, '.box[data-name="marker"]', 10, 0)
    wait_for_file(first, project, ['-x = "10mm"', '+x = "20mm"'])
    # The second tab follows the save it did not make, then writes over the file as it is now.
    moved = first.evaluate("document.querySelector('.box[data-name=\"marker\"]').style.left")
    second.wait_for_function(
        "left => document.querySelector('.box[data-name=\"marker\"]').style.left === left",
        arg=moved,
    )
    second.locator('#layers li[data-name="panel"] .n').click()
    fill = second.locator('#keys input[name="fill"]')
    fill.fill("#112233")
    fill.press("Enter")
    wait_for_file(
        second,
        project,
        ['-x = "10mm"', '+x = "20mm"', '-fill = "#A0A0A0"', '+fill = "#112233"'],
    )


def test_a_phone_shows_the_card_and_selects_a_box(served, browser):
    project, url = served
    page, errors = open_editor(browser, url, width=390)
    stage = page.locator("#stage").bounding_box()
    assert stage["x"] >= 0 and stage["x"] + stage["width"] <= 390
    x, y = page.evaluate(
        """() => { const r = document.querySelector('.box[data-name="panel"]')
            .getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }"""
    )
    page.mouse.click(x, y)
    page.wait_for_selector('.box.selected[data-name="panel"]')
    assert "panel" in page.locator("#boxname").inner_text()
    # Its top-left corner pulled 2 mm up and left: the far edges stay where they were.
    drag(page, '.box[data-name="panel"] .handle[data-handle="nw"]', -2, -2)
    wait_for_file(
        page,
        project,
        ['-x = "30mm"', '-y = "40mm"', '-w = "20mm"', '-h = "15mm"']
        + ['+x = "28mm"', '+y = "38mm"', '+w = "22mm"', '+h = "17mm"'],
    )
    assert errors == []


BASE = """\
# the game's own base: a frame every front of it draws
[[box]]
name = "frame"
type = "rect"
x = "1.5mm"
y = "1.5mm"
w = "W - 3mm"
h = "H - 3mm"
stroke = "#333333"
"""


def test_a_box_of_a_layout_extended_is_changed_where_defined_or_here(project, browser):
    (project / "layouts/tiny/tiny_base.toml").write_text(BASE, encoding="utf-8")
    front = project / "layouts/tiny/card_front.toml"
    front.write_text(LAYOUT.replace('extends = "card_base"', 'extends = "tiny_base"'), "utf-8")
    proc, url = start_serving(project)
    try:
        page, errors = open_editor(browser, url)
        page.locator('#layers li[data-name="frame"] .n').click()
        assert "layouts/tiny/tiny_base.toml:2" in page.locator("#defined").inner_text()
        assert not page.locator("#override").is_checked()  # the project's own: changed there
        stroke = page.locator('#keys input[name="stroke"]')
        stroke.fill("#AA0000")
        stroke.press("Enter")
        page.wait_for_function("document.querySelector('#message').innerText.includes('extends')")
        assert 'stroke = "#AA0000"' in (project / "layouts/tiny/tiny_base.toml").read_text("utf-8")
        assert front.read_text("utf-8") == LAYOUT.replace("card_base", "tiny_base")

        # Ticked "change it only here": the box is overridden in this layout alone.
        page.locator('#layers li[data-name="frame"] .n').click()
        page.locator("#override").check()
        page.locator('#keys input[name="stroke"]').fill("#0000AA")
        page.locator('#keys input[name="stroke"]').press("Enter")
        page.wait_for_function(
            "document.querySelector('#message').innerText.includes('overridden')"
        )
        assert front.read_text("utf-8").endswith('name = "frame"\nstroke = "#0000AA"\n')
        assert 'stroke = "#AA0000"' in (project / "layouts/tiny/tiny_base.toml").read_text("utf-8")
        assert errors == []
    finally:
        assert stop_serving(proc) == 0


def test_layers_move_copy_and_go_and_come_back_with_undo_and_redo(served, browser):
    project, url = served
    page, errors = open_editor(browser, url)
    path = project / "layouts/tiny/card_front.toml"

    def order():
        return [
            line.split('"')[1]
            for line in path.read_text("utf-8").splitlines()
            if line.startswith("name = ")
        ]

    def listed():
        return page.evaluate(
            "[...document.querySelectorAll('#layers li')].map(l => l.dataset.name)"
        )

    def until(names):
        page.wait_for_function(
            "names => JSON.stringify([...document.querySelectorAll('#layers li')]"
            ".map(l => l.dataset.name)) === JSON.stringify(names)",
            arg=names,
        )

    assert order() == ["marker", "panel", "number"]
    page.click('#layers li[data-name="marker"] button[data-op="order 1"]')  # one layer up
    until(["number", "marker", "panel", "background"])
    assert order() == ["panel", "marker", "number"]
    page.click('#layers li[data-name="panel"] button[data-op="duplicate"]')
    until(["number", "marker", "panel-2", "panel", "background"])
    assert order() == ["panel", "panel-2", "marker", "number"]
    page.click('#layers li[data-name="number"] button[data-op="delete"]')
    until(["marker", "panel-2", "panel", "background"])
    assert order() == ["panel", "panel-2", "marker"]
    for _ in range(3):
        page.click("#undo")
        page.wait_for_timeout(300)
    until(["number", "panel", "marker", "background"])
    assert path.read_text("utf-8") == LAYOUT  # byte for byte, comments and all
    page.click("#redo")
    until(["number", "marker", "panel", "background"])
    assert order() == ["panel", "marker", "number"] and listed()[0] == "number"
    assert errors == []
