"""The layout editor's writes (generator/layout/edit.py), read back as the designer sees them:
the TOML on disk differs from before by exactly the change, comments and key order kept, a
length in the unit it was written in, and a file changed meanwhile never overwritten."""

from __future__ import annotations

import difflib
import tomllib

import pytest

from generator.layout.edit import Stale, add, change, digest, duplicate, move, remove, restore
from generator.problems import BuildError

from conftest import run

MM = 72 / 25.4

LAYOUT = """\
# a hand-written front: comments and the order of keys are the designer's
extends = "card_base"

[[box]]
name = "title"   # the name, top left
type = "text"
x = "5mm"
y = "0.25in"
w = "W - 10mm"
h = "12mm"
text = "{{ name }}"
size = "14pt"

[[box]]
name = "cost"
type = "text"
x = "W - 15mm"
y = "5mm"
w = "10mm"
h = "10mm"
text = "{{ cost }}"
"""


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


@pytest.fixture
def layout(tmp_path):
    path = tmp_path / "card_front.toml"
    path.write_text(LAYOUT, encoding="utf-8")
    return path


def test_a_move_rewrites_only_the_moved_keys_in_their_units(layout):
    written = change(layout, digest(layout.read_bytes()), "title", {"x": 15 * MM, "y": 9 * MM})
    after = layout.read_text("utf-8")
    assert changed_lines(LAYOUT, after) == [
        '-x = "5mm"',
        '-y = "0.25in"',
        '+x = "15mm"',
        '+y = "0.354in"',
    ]
    assert written.notes == [] and written.digest == digest(after.encode())


def test_an_expression_moved_by_hand_becomes_a_number_and_says_so(layout):
    written = change(layout, digest(layout.read_bytes()), "cost", {"x": 40.5 * MM})
    assert changed_lines(LAYOUT, layout.read_text("utf-8")) == ['-x = "W - 15mm"', '+x = "40.5mm"']
    assert written.notes == ["box 'cost': x was W - 15mm, now 40.5mm (moved by hand)"]


def test_other_keys_are_set_or_removed_and_comments_stay(layout):
    change(layout, digest(layout.read_bytes()), "title", {"color": "#C8323C", "size": None})
    after = layout.read_text("utf-8")
    assert "# a hand-written front" in after and "# the name, top left" in after
    box = tomllib.loads(after)["box"][0]
    assert box["color"] == "#C8323C" and "size" not in box
    assert list(box)[:3] == ["name", "type", "x"]


def test_a_file_changed_since_it_was_read_is_not_overwritten(layout):
    seen = digest(layout.read_bytes())
    layout.write_text(LAYOUT.replace('"12mm"', '"13mm"'), encoding="utf-8")  # another tab
    with pytest.raises(Stale) as refused:
        change(layout, seen, "title", {"x": 20 * MM})
    assert "changed since the editor read it" in refused.value.problems[0].format()
    assert '"13mm"' in layout.read_text("utf-8") and '"5mm"' in layout.read_text("utf-8")


def test_a_box_not_in_the_file_is_named_with_the_one_meant(layout):
    with pytest.raises(BuildError) as wrong:
        change(layout, digest(layout.read_bytes()), "titel", {"x": 0})
    assert (
        "no box 'titel' in card_front.toml (did you mean 'title'?)"
        in wrong.value.problems[0].format()
    )


def test_a_box_moved_in_a_new_game_is_where_the_build_puts_it(tmp_path):
    """The written file is one pnp reads and checks without a problem."""
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    source = tmp_path / "deck.csv"
    source.write_text("name,cost\n火球,3\n氷壁,2\n", encoding="utf-8")
    assert run("new", "deck", "--project", str(project), "--from", str(source)).exit_code == 0
    front = project / "layouts/deck/card_front.toml"
    names = [b["name"] for b in tomllib.loads(front.read_text("utf-8"))["box"]]
    box = names[-1]
    change(front, digest(front.read_bytes()), box, {"x": 7 * MM})
    assert tomllib.loads(front.read_text("utf-8"))["box"][-1]["x"].endswith("mm")
    checked = run("check", "--no-play", "--project", str(project))
    assert checked.exit_code == 0, checked.output


COMMENTED = """\
# the file's own note
extends = "card_base"

# the title: keep it short
[[box]]
name = "title"
type = "text"
x = "5mm"
y = "5mm"
w = "20mm"
h = "8mm"
text = "{{ name }}"

# the cost, top right
[[box]]
name = "cost"  # a coin
type = "text"
x = "40mm"
y = "5mm"
w = "10mm"
h = "10mm"
text = "{{ cost }}"
"""


def boxes_of(path):
    return [b["name"] for b in tomllib.loads(path.read_text("utf-8"))["box"]]


def test_boxes_added_copied_reordered_and_removed_keep_their_comments(tmp_path):
    path = tmp_path / "front.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    seen = digest(path.read_bytes())
    values = {"name": "art", "type": "image", "x": 3 * MM, "y": "H / 2", "w": 10 * MM}
    added = add(path, seen, values | {"h": 12 * MM, "src": "{{ art }}"}, after="title")
    assert boxes_of(path) == ["title", "art", "cost"]
    text = path.read_text("utf-8")
    assert 'x = "3mm"' in text and 'y = "H / 2"' in text and "# the cost, top right" in text
    assert added.before == COMMENTED
    copied = duplicate(path, added.digest, "cost", "cost-2")
    assert boxes_of(path) == ["title", "art", "cost", "cost-2"]
    assert path.read_text("utf-8").count("# the cost, top right") == 1  # a note is not copied
    moved = move(path, copied.digest, "cost", -1)
    assert boxes_of(path) == ["title", "cost", "art", "cost-2"]
    text = path.read_text("utf-8")
    assert text.index("# the cost, top right") < text.index('name = "cost"  # a coin')
    assert text.index('name = "cost"') < text.index('name = "art"')
    gone = remove(path, moved.digest, "cost")
    assert boxes_of(path) == ["title", "art", "cost-2"]
    text = path.read_text("utf-8")
    assert "# the cost, top right" not in text and "# the title: keep it short" in text
    assert text.startswith("# the file's own note\nextends")
    back = restore(path, gone.digest, COMMENTED)
    assert path.read_text("utf-8") == COMMENTED and back.before == text


def test_an_inherited_box_is_overridden_with_the_keys_changed_only(tmp_path):
    path = tmp_path / "front.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    change(path, digest(path.read_bytes()), "background", {"fill": "#EEEEEE"}, create=True)
    after = path.read_text("utf-8")
    assert after.startswith(COMMENTED)
    assert tomllib.loads(after)["box"][-1] == {"name": "background", "fill": "#EEEEEE"}
    with pytest.raises(BuildError):  # without `create`, a box the file lacks is a mistake
        change(path, digest(path.read_bytes()), "frame", {"fill": "#EEEEEE"})


def test_an_undo_of_a_file_changed_meanwhile_is_refused(tmp_path):
    path = tmp_path / "front.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    written = change(path, digest(path.read_bytes()), "title", {"x": 7 * MM})
    path.write_text(COMMENTED.replace("20mm", "22mm"), encoding="utf-8")  # the designer's save
    with pytest.raises(Stale):
        restore(path, written.digest, written.before)
    assert "22mm" in path.read_text("utf-8")


def test_a_text_of_several_lines_is_written_as_lines(layout):
    change(layout, digest(layout.read_bytes()), "title", {"text": "{{ name }}\n{{ cost }}"})
    after = layout.read_text("utf-8")
    assert 'text = """{{ name }}\n{{ cost }}"""' in after
    assert tomllib.loads(after)["box"][0]["text"] == "{{ name }}\n{{ cost }}"
