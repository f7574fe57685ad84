"""`pnp serve` in a real headless browser (Debian's chromium, driven by Playwright without a
browser download of its own): the page shows every card with its data row, follows a saved edit
within seconds, and puts a broken row's problem beside its card."""

from __future__ import annotations

import os

import pytest

from conftest import CHROMIUM, edit, make_fixture_project
from conftest import start_serving as start
from conftest import stop_serving as stop

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine"),
    pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process"),
]


@pytest.fixture
def served(tmp_path):
    root = make_fixture_project("tiny", tmp_path)
    proc, url = start(root)
    yield root, url
    assert stop(proc) == 0


def test_the_gallery_follows_edits_and_shows_problems_beside_their_cards(served, browser):
    root, url = served
    page = browser.new_page()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    cards = page.locator("figure.card")
    assert cards.count() == 10
    assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 100)")
    second = page.locator('figure[data-where="cards/tiny/cards.csv:3"]')
    assert "赤 2" in second.inner_text() and "cards/tiny/cards.csv:3" in second.inner_text()
    before = {
        f.get_attribute("data-where"): f.locator("img").get_attribute("src") for f in cards.all()
    }
    version = int(page.evaluate("document.body.dataset.version"))
    page.set_viewport_size({"width": 500, "height": 400})
    page.evaluate("window.scrollTo(0, 300); window.stayed = true")
    loads = []
    page.on("load", lambda: loads.append(1))

    edit(root, "cards/tiny/cards.csv", "二の赤。", "赤の二。")
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}", timeout=30000)
    page.wait_for_load_state("networkidle")
    # updated in place: no reload (what the page held is still there), the scroll kept
    assert page.evaluate("window.stayed === true && window.scrollY") == 300 and not loads
    after = {
        f.get_attribute("data-where"): f.locator("img").get_attribute("src")
        for f in page.locator("figure.card").all()
    }
    changed = [where for where in before if before[where] != after[where]]
    assert changed == ["cards/tiny/cards.csv:3"]
    assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 100)")

    version = int(page.evaluate("document.body.dataset.version"))
    edit(root, "cards/tiny/cards.csv", "赤,3,", "赤,three,")
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}", timeout=30000)
    bad = page.locator('figure[data-where="cards/tiny/cards.csv:4"]')
    assert "bad" in bad.get_attribute("class")
    assert "'number' must be a whole number, got 'three'" in bad.inner_text()
    assert page.locator("figure.bad").count() == 1
    assert "not built" in page.locator(".stale").inner_text()
    assert page.locator("figure.card").count() == 10  # the last good cards stay in view


def test_only_this_machine_and_only_built_files_are_served(served):
    import urllib.error
    import urllib.request

    root, url = served
    assert "127.0.0.1" in url
    with urllib.request.urlopen(url + "files/tiny/rulebook.pdf") as r:
        assert r.read(5) == b"%PDF-"
    for path in ("files/tiny/../../cards/tiny/cards.csv", "files/tiny/.cache", "face/nope.png"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(url + path)
        assert err.value.code == 404


def test_a_served_project_built_before_still_shows_every_card(tmp_path, browser):
    from conftest import run

    root = make_fixture_project("tiny", tmp_path / "again")
    assert run("build", "--project", str(root)).exit_code == 0  # nothing will have changed
    proc, url = start(root)
    try:
        page = browser.new_page()
        page.goto(url)
        assert page.locator("figure.card").count() == 10
    finally:
        stop(proc)


def test_copies_of_a_row_show_once_with_their_count(tmp_path, browser):
    """A row that makes four chips is one picture marked ×4, not four alike: the page stays
    as long as the data is."""
    root = make_fixture_project("kit", tmp_path)
    proc, url = start(root)
    try:
        page = browser.new_page()
        page.goto(url)
        chips = page.locator('figure.card[data-where^="cards/kit/chips.csv:"]')
        assert chips.count() == 3  # 木, 石, 金: 12 chips
        assert [c.locator(".copies").inner_text() for c in chips.all()] == ["×4"] * 3
        markers = page.locator('figure.card[data-where^="cards/kit/markers.csv:"]')
        assert markers.count() == 3 and markers.locator(".copies").count() == 0
    finally:
        stop(proc)


def test_a_game_named_to_inject_script_shows_as_text(tmp_path, browser):
    """A shared project's game folder named like markup: the page shows the name, runs none
    of it (every value goes through a template with autoescape)."""
    root = make_fixture_project("tiny", tmp_path)
    name = 'x" onmouseover="window.PWNED=1" data-x=\'<img src=x onerror=window.PWNED=2>'

    (root / "cards/tiny").rename(root / "cards" / name)
    (root / "layouts/tiny").rename(root / "layouts" / name)
    proc, url = start(root)
    try:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.locator("section.game").hover()
        assert page.evaluate("window.PWNED === undefined")
        assert page.locator("section.game").get_attribute("id") == name
        assert page.locator("figure.card").count() == 10
    finally:
        stop(proc)


def _get(url: str, path: str, host: str | None = None) -> int:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.putrequest("GET", path, skip_host=True)
    conn.putheader("Host", host if host is not None else parts.netloc)
    conn.endheaders()
    status = conn.getresponse().status
    conn.close()
    return status


def test_a_request_for_another_host_name_is_refused(served):
    """A page of another site whose name was pointed at 127.0.0.1 (DNS rebinding) sends its
    own name as the Host: refused, so it cannot read the gallery or the PDFs."""
    root, url = served
    port = url.rstrip("/").rsplit(":", 1)[1]
    assert _get(url, "/") == 200
    assert _get(url, "/", f"localhost:{port}") == 200
    for host in (f"evil.example:{port}", "evil.example", "", f"127.0.0.1.evil.example:{port}"):
        assert _get(url, "/files/tiny/rulebook.pdf", host) == 403, host


def test_event_streams_are_capped(served):
    import http.client
    from urllib.parse import urlsplit

    from generator.serve import MOST_STREAMS

    root, url = served
    parts = urlsplit(url)
    open_ = []
    try:
        for _ in range(MOST_STREAMS):
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
            conn.request("GET", "/events")
            assert conn.getresponse().status == 200
            open_.append(conn)
        assert _get(url, "/events") == 503
        assert _get(url, "/") == 200  # the page itself is still served
        open_.pop().close()
        import time

        deadline = time.monotonic() + 60  # noticed at a beat (15 s): the 1st or 2nd write
        while _get(url, "/events") == 503 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert time.monotonic() < deadline  # a stream again, once one closed
    finally:
        for conn in open_:
            conn.close()


def test_the_page_shows_an_edited_card_before_its_files_are_written(tmp_path, monkeypatch):
    """A rebuild shows the cards once they are laid out: when the PDFs are written the page
    already has the edited card's new face (its picture made), and once they are written it
    lists them."""
    from generator import output, pipeline
    from generator.project import find_project
    from generator.serve import Gallery

    root = make_fixture_project("tiny", tmp_path)
    gallery = Gallery(find_project(root), [], pipeline.Options(reuse=False))
    gallery.rebuild()

    def face_of(label):
        cards = [c for cs in gallery.games["tiny"].components.values() for c in cs]
        return next(c.face for c in cards if c.label == label)

    before = face_of("赤 2")
    edit(root, "cards/tiny/cards.csv", "二の赤。", "赤の二。")
    seen = []
    real = output.write_all

    def write_all(files, sets):
        seen.append((face_of("赤 2"), gallery.version))
        return real(files, sets)

    monkeypatch.setattr(output, "write_all", write_all)
    version = gallery.version
    gallery.rebuild()
    ((shown, at_write),) = seen
    assert shown != before and shown in gallery.images and at_write == version + 1
    assert gallery.version == version + 2 and "cards.pdf" in gallery.games["tiny"].files
