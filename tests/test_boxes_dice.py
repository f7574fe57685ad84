"""The rest of a prototype kit: a tuck box for each deck (its net sized from the card size and the
deck's thickness) and cube nets for dice (faces from a data table), measured from the plan the
renderer draws and from the rendered pages."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from conftest import edit, run
from pdfread import MM, all_text, page_text, render

PX = 10  # px per mm in rendered pages


def plan_of(root, game: str):
    from generator import pipeline
    from generator.project import find_project

    result = pipeline.check(find_project(root), [game], pipeline.Options(), play=False)
    assert not result.problems.has_errors, "\n".join(result.problems.folded())
    return result.plans[0], result


def mm(*values) -> tuple[float, ...]:
    return tuple(round(v / MM, 2) for v in values)


# -- tuck boxes ---------------------------------------------------------------------------------


def test_a_tuck_box_is_sized_from_the_cards_and_their_count(tiny):
    plan, _ = plan_of(tiny, "tiny")
    (box,) = plan.tuckboxes
    assert box.count == 10
    # 63 × 88 mm poker cards + 1 mm; 10 cards × 0.3 mm + 1 mm
    assert mm(*box.inside) == (64.0, 89.0, 4.0)
    panels = {p.name: mm(p.w, p.h) for p in box.panels}
    assert panels == {"front": (64.0, 89.0), "back": (64.0, 89.0), "side": (4.0, 89.0)}
    # glue flap, side, front, side, back across; tuck flap, lid, body, lid, tuck flap down
    assert mm(*box.size) == pytest.approx((10 + 4 + 64 + 4 + 64, 12 + 4 + 89 + 4 + 12))


def test_thickness_and_clearance_come_from_the_manifest(tiny):
    edit(
        tiny,
        "cards/tiny/game.toml",
        "[deal]",
        '  [component.tuckbox]\n  thickness = "0.5mm"\n  clearance = "2mm"\n'
        '  color = "#1F2A44"\n\n[deal]',
    )
    plan, _ = plan_of(tiny, "tiny")
    (box,) = plan.tuckboxes
    assert mm(*box.inside) == (65.0, 90.0, 7.0)
    assert box.color == "#1F2A44"


def test_a_tarot_deck_gets_a_tarot_box(kit):
    plan, _ = plan_of(kit, "kit")
    hero = next(b for b in plan.tuckboxes if b.id == "hero")
    assert mm(*hero.inside)[:2] == (71.0, 121.0)


def test_the_tuck_box_page_shows_its_net_where_the_plan_says(tiny):
    r = run("build", "--project", str(tiny), "--format", "tuckbox")
    assert r.exit_code == 0, r.output
    pdf = tiny / "output/tiny/tuckbox.pdf"
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 1
    text = page_text(pdf, 0)
    assert "数字カードのタックボックス" in text and "内寸 64×89×4.0 mm（10枚 × 0.3 mm" in text
    assert "ちいさな試験" in text and "10枚" in text  # the front panel's layout
    plan, _ = plan_of(tiny, "tiny")
    (box,) = plan.tuckboxes
    image = render(pdf, 0, scale=PX * 25.4 / 72)
    pw, ph = box.page
    ox, oy = (pw - box.size[0]) / 2, (ph - box.size[1]) / 2
    px = image.load()

    def grey_share(x_pt: float) -> float:
        """How much of the body's height is drawn in grey at x (a dashed fold: about half)."""
        col = round((ox + x_pt) / MM * PX)
        top = round((ph - oy - box.panels[0].y - box.panels[0].h) / MM * PX)
        bottom = round((ph - oy - box.panels[0].y) / MM * PX)
        greys = sum(1 for y in range(top + 5, bottom - 5) if 80 < px[col, y][0] < 200)
        return greys / (bottom - top - 10)

    for panel in box.panels[1:]:  # each fold between the body's panels
        assert grey_share(panel.x) > 0.3, panel
        assert grey_share(panel.x + 1.5 * MM) < 0.05


def test_a_tuck_box_it_cannot_print_stops_only_the_tuckbox_format(tiny):
    """An old tuck-box layout of the project's that prints a character its font lacks: the
    cards, the rulebook and the rest are built, with a warning at the layout's line; asking for
    the tuck box is an error there, and nothing is written."""
    import generator
    from generator.layout.tuckbox import LAYOUTS

    shared = tiny / "layouts/_shared"
    shared.mkdir(parents=True, exist_ok=True)
    base = Path(generator.__file__).parent / "data/layouts"
    text = (base / f"{LAYOUTS['back']}.toml").read_text("utf-8")
    assert "{{ gap }}" in text
    (shared / f"{LAYOUTS['back']}.toml").write_text(text.replace("{{ gap }}", "\U0001f600"))
    lines = text.splitlines()
    line = lines.index('name = "deck"')  # its [[box]], counted from 1
    where = f"layouts/_shared/{LAYOUTS['back']}.toml:{line}"

    built = run("build", "--project", str(tiny))
    assert built.exit_code == 0, built.output
    assert (tiny / "output/tiny/cards.pdf").is_file()
    assert f"{where}: warning:" in built.output and "U+1F600" in built.output, built.output
    assert "--format tuckbox" in built.output
    checked = run("check", "--project", str(tiny), "--no-play")
    assert checked.exit_code == 0 and f"{where}: warning:" in checked.output, checked.output

    asked = run("build", "--project", str(tiny), "--format", "tuckbox")
    assert asked.exit_code == 1, asked.output
    assert f"{where}: error:" in asked.output and "U+1F600" in asked.output
    assert not (tiny / "output/tiny/tuckbox.pdf").exists()


def test_a_thick_deck_goes_to_a3_and_says_so(tiny):
    edit(
        tiny,
        "cards/tiny/game.toml",
        "[deal]",
        '  [component.tuckbox]\n  thickness = "5mm"\n\n[deal]',
    )
    plan, result = plan_of(tiny, "tiny")
    (box,) = plan.tuckboxes
    assert sorted(mm(*box.page)) == [297.0, 420.0]
    assert any("printed on A3" in line for line in result.problems.folded())


@pytest.mark.parametrize(
    "line, says",
    [
        ('  thicknes = "0.3mm"', "tuckbox: unknown key 'thicknes' (did you mean 'thickness'?)"),
        ('  color = "gold"', "tuckbox: color must be a colour like #1F2A44"),
        ('  thickness = "9mm"', "thickness must be above 0 and at most 5 mm"),
    ],
)
def test_a_bad_tuckbox_setting_is_named(tiny, line, says):
    edit(tiny, "cards/tiny/game.toml", "[deal]", f"  [component.tuckbox]\n{line}\n\n[deal]")
    r = run("check", "--project", str(tiny), "--no-play")
    assert r.exit_code == 1
    assert "cards/tiny/game.toml:" in r.output and says in r.output


# -- dice ---------------------------------------------------------------------------------------


def test_dice_fold_from_six_rows_each_opposite_faces_adding_to_seven(kit):
    plan, _ = plan_of(kit, "kit")
    (sheet,) = plan.dice
    assert [n.label for n in sheet.dice] == ["赤", "青"]
    assert round(sheet.side / MM, 2) == 18.0
    red = sheet.dice[0]
    at = {
        face.boxes[-1].props["lines"][0]: (round(x / MM, 2), round(y / MM, 2))
        for x, y, face, _bleed in red.faces
    }
    one = at["1"]
    # the strip 2, 1, 5, 6 down one column; 3 and 4 either side of 1
    assert at["2"] == (one[0], one[1] + 18) and at["5"] == (one[0], one[1] - 18)
    assert at["6"] == (one[0], one[1] - 36)
    assert at["3"] == (one[0] - 18, one[1]) and at["4"] == (one[0] + 18, one[1])
    assert len(red.tabs) == 7  # a cube's 12 edges less the net's 5 folds
    assert len(red.folds) == 5 + 7  # between faces, and where each tab folds in
    nw, nh = (round(v / MM, 2) for v in sheet.net)
    assert (nw, nh) == (3 * 18 + 2 * 5.0, 4 * 18 + 5.0)  # tabs 5 mm (0.28 × 18, at most 5)


def test_dice_pdf_prints_every_face(kit_built):
    pdf = kit_built / "dice.pdf"
    assert len(pypdf.PdfReader(pdf).pages) == 1
    text = all_text(pdf)
    for label in ("1", "6", "剣", "盾", "星", "行動ダイス 赤", "行動ダイス 青"):
        assert label in text


def test_a_die_short_of_faces_is_an_error_naming_its_rows(kit):
    edit(kit, "cards/kit/dice.csv", "青,－,#1F5FBF\n", "")
    r = run("check", "--project", str(kit), "--no-play")
    assert r.exit_code == 1
    assert (
        "cards/kit/dice.csv:8: error: die '青' has 5 faces; a die has 6 (rows 8, 9, 10, 11, 12)"
        in (r.output)
    )


def test_rows_in_sixes_without_a_die_column(kit):
    text = (kit / "cards/kit/dice.csv").read_text(encoding="utf-8")
    lines = [line.split(",", 1)[1] for line in text.splitlines()]
    (kit / "cards/kit/dice.csv").write_text("\n".join(lines[:1] + lines[1:8]) + "\n", "utf-8")
    edit(kit, "cards/kit/game.toml", '  die = "text"\n', "")
    r = run("check", "--project", str(kit), "--no-play")
    assert r.exit_code == 1
    assert "7 rows make no whole number of dice" in r.output


def test_a_die_is_square(kit):
    edit(
        kit,
        "cards/kit/game.toml",
        'size = { w = "18mm", h = "18mm" }',
        'size = { w = "18mm", h = "20mm" }',
    )
    r = run("check", "--project", str(kit), "--no-play")
    assert r.exit_code == 1
    assert "行動ダイス: a die's faces are square; its size is 18×20 mm" in r.output
