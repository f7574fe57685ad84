"""What many cards share is worked out once a build: a back that reads no field of the row is
laid out once for the deck, a text box printed alike on many cards is fitted once, a template
is rendered once per value of the names it reads. Whatever names a card (a problem, missing
art) is still said for every card it concerns."""

from __future__ import annotations

from generator.layout import boxes, templates

from conftest import edit, make_fixture_project, run


def count_faces(monkeypatch) -> dict[str, int]:
    """How many faces each layout lays out (by its file name)."""
    from generator.layout import faces

    calls: dict[str, int] = {}
    real = faces._lay_out_face

    def counted(layout, *a):
        calls[layout.name] = calls.get(layout.name, 0) + 1
        return real(layout, *a)

    monkeypatch.setattr(faces, "_lay_out_face", counted)
    return calls


def count_fits(monkeypatch) -> list[str]:
    """The text of every box fitted."""
    from generator.layout import faces

    fitted: list[str] = []
    real = faces.textfit.fit
    monkeypatch.setattr(
        faces.textfit,
        "fit",
        lambda content, *a, **k: fitted.append(content) or real(content, *a, **k),
    )
    return fitted


def test_a_back_that_reads_no_field_is_laid_out_once_one_that_does_for_every_card(
    tiny, monkeypatch
):
    calls = count_faces(monkeypatch)
    assert run("build", "--project", str(tiny), "--out", str(tiny / "a")).exit_code == 0
    assert (calls["card_front"], calls["card_back"]) == (10, 1)
    # The back now prints the card's suit: ten backs (two distinct, but each names its card).
    edit(tiny, "layouts/tiny/card_back.toml", 'text = "{{ game.title }}"', 'text = "{{ suit }}"')
    calls.clear()
    assert run("build", "--project", str(tiny), "--out", str(tiny / "b")).exit_code == 0
    assert (calls["card_front"], calls["card_back"]) == (10, 10)


def test_a_back_with_a_problem_says_it_for_every_card(tiny, monkeypatch):
    edit(tiny, "layouts/tiny/card_back.toml", 'min_size = "9pt"', 'min_size = "16pt"')
    edit(
        tiny,
        "layouts/tiny/card_back.toml",
        'text = "{{ game.title }}"',
        'text = "{{ game.title * 12 }}"',
    )
    calls = count_faces(monkeypatch)
    result = run("build", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "box 'title' does not fit" in line]
    # said for each card (more than three: one line, the first card named, with the count)
    assert len(said) == 1 and said[0].endswith(" (10 cards)"), result.output
    assert ": warning: card 赤 1: text in box 'title'" in said[0]
    assert calls["card_back"] == 10  # a face with a problem is not shared


def test_a_text_printed_alike_is_fitted_once_unless_it_does_not_fit(tiny, monkeypatch):
    csv = tiny / "cards/tiny/cards.csv"
    rows = csv.read_text("utf-8").splitlines()
    same = [rows[0]] + [",".join(r.split(",")[:3] + ["同じ文。"]) for r in rows[1:]]
    csv.write_text("\n".join(same) + "\n", "utf-8")
    fitted = count_fits(monkeypatch)
    assert run("build", "--project", str(tiny), "--out", str(tiny / "a")).exit_code == 0
    assert fitted.count("同じ文。") == 1
    assert fitted.count("赤") == 1 and fitted.count("青") == 1  # the suit, in white on each
    # Too long for its box: every card says so (one line with the count), each fitted again.
    long = "同じ文。" * 40
    csv.write_text("\n".join(s.replace("同じ文。", long) for s in same) + "\n", "utf-8")
    fitted.clear()
    result = run("build", "--project", str(tiny), "--out", str(tiny / "b"))
    assert fitted.count(long) == 10
    said = [line for line in result.output.splitlines() if "box 'text' does not fit" in line]
    assert len(said) == 1 and said[0].endswith(" (10 cards)"), result.output


def test_a_template_renders_once_per_value_of_what_it_reads_and_types_stay_apart(monkeypatch):
    env = templates.environment()
    tmpl = env.from_string("{{ n }}")
    reads = boxes._reads("{{ n }}")
    assert reads == ("n",)
    rendered: list = []
    real = templates.render
    monkeypatch.setattr(templates, "render", lambda t, c: rendered.append(c) or real(t, c))
    seen: dict = {}
    texts = [
        boxes._rendered(tmpl, reads, seen, {"n": n, "other": i}, {"n": n, "other": i})
        for i, n in enumerate([1, 1, 1.0, True, "1", 1])
    ]
    assert texts == ["1", "1", "1.0", "True", "1", "1"]
    assert len(rendered) == 4  # 1, 1.0, True and "1": equal keys of other types render apart
    # A template reading the whole row, or drawing at random, renders for every card.
    assert boxes._reads('{{ row["No."] }}') is None
    assert boxes._reads("{{ lipsum(1) }}") is None


STATIC = """
[[box]]
name = "frame"
type = "rect"
x = "2mm"
y = "2mm"
w = "W - 4mm"
h = "H - 4mm"
radius = "2mm"
stroke = "#333333"
stroke_width = "0.8pt"

[[box]]
name = "label"
type = "text"
x = "4mm"
y = "H - 9mm"
w = "W - 8mm"
h = "6mm"
text = "ちいさな試験・数字カード"
size = "7pt"
align = "center"
"""


def deck_of(root, n: int):
    """The tiny game with n cards, each its own text, fronts framed and labelled alike."""
    front = root / "layouts/tiny/card_front.toml"
    front.write_text(front.read_text("utf-8") + STATIC, "utf-8")
    manifest = root / "cards/tiny/game.toml"
    text = manifest.read_text("utf-8")
    text = text[: text.index("  [component.composition]")] + text[text.index("[deal]") :]
    manifest.write_text(text.replace('rules = "rules.md"\n', ""), "utf-8")
    rows = ["suit,number,color,text"] + [
        f"{'赤青'[i % 2]},{i % 5 + 1},#C8323C,カード{i}番の文。" for i in range(n)
    ]
    (root / "cards/tiny/cards.csv").write_text("\n".join(rows) + "\n", "utf-8")
    return root


def layer_forms(pdf, index: int) -> int:
    """How many times page `index` places a layer form."""
    import pypdf

    data = pypdf.PdfReader(pdf).pages[index].get_contents().get_data()
    return sum(1 for token in data.split() if token.startswith(b"/FormXob.layer"))


def test_a_layer_many_cards_share_is_one_form_that_prints_as_drawn_inline(tmp_path, monkeypatch):
    from generator.render import draw

    from pdfread import page_text, placements, render

    root = deck_of(make_fixture_project("tiny", tmp_path), draw.FORM_FROM + 6)
    assert run("build", "--project", str(root), "--format", "cards").exit_code == 0
    pdf = root / "output/tiny/cards.pdf"
    fronts = [1, 3, 5, 7]  # each front sheet, its back after it
    assert [layer_forms(pdf, i) for i in fronts] == [9, 9, 9, 9]
    assert [len(placements(pdf, i)) for i in fronts] == [9, 9, 9, 9]  # nine faces, not 18
    assert page_text(pdf, 1).count("ちいさな試験・数字カード") == 9  # the label on every card
    # The same cards with every layer inline print the same pixels.
    monkeypatch.setattr(draw, "FORM_FROM", 10**9)
    inline = tmp_path / "inline"
    assert (
        run("build", "--project", str(root), "--format", "cards", "--out", str(inline)).exit_code
        == 0
    )
    flat = inline / "tiny/cards.pdf"
    assert layer_forms(flat, 1) == 0
    for i in fronts:
        a, b = render(pdf, i, 2.0), render(flat, i, 2.0)
        assert a.size == b.size
        assert a.tobytes() == b.tobytes(), f"page {i + 1} differs"


def test_a_layer_few_cards_share_is_drawn_inline(tmp_path):
    from generator.render import draw

    root = deck_of(make_fixture_project("tiny", tmp_path), draw.FORM_FROM - 1)
    assert run("build", "--project", str(root), "--format", "cards").exit_code == 0
    assert layer_forms(root / "output/tiny/cards.pdf", 1) == 0


def test_rows_with_the_same_fields_are_laid_out_once_and_each_named_where_it_concerns(
    tiny, monkeypatch
):
    """A card written on rows of its own (not with a copies column) is laid out once; its
    missing art is noted under each row, and a problem is said for each row."""
    csv = tiny / "cards/tiny/cards.csv"
    rows = csv.read_text("utf-8").splitlines()
    csv.write_text("\n".join([rows[0], rows[1], rows[1], rows[1], *rows[2:]]) + "\n", "utf-8")
    manifest = tiny / "cards/tiny/game.toml"  # no composition: it would refuse the repeats
    text = manifest.read_text("utf-8")
    manifest.write_text(
        text[: text.index("  [component.composition]")] + text[text.index("[deal]") :], "utf-8"
    )
    front = tiny / "layouts/tiny/card_front.toml"
    art = '\n[[box]]\nname = "art"\ntype = "image"\nx = "4mm"\ny = "14mm"\nw = "8mm"\nh = "8mm"\n'
    front.write_text(
        front.read_text("utf-8") + art + 'src = "art/{{ suit }}.png"\nplaceholder = true\n', "utf-8"
    )
    calls = count_faces(monkeypatch)
    result = run("build", "--project", str(tiny), "--out", str(tiny / "a"))
    assert calls["card_front"] == 10  # twelve rows, ten distinct
    lacking = next(line for line in result.output.splitlines() if "lack their art" in line)
    for row in (2, 3, 4):
        assert f"1 (cards/tiny/cards.csv:{row})" in lacking, lacking
    # Too long to fit: said for each of the three rows.
    text = csv.read_text("utf-8").replace("一番小さい赤。", "一番小さい赤。" * 40)
    csv.write_text(text, "utf-8")
    calls.clear()
    result = run("build", "--project", str(tiny), "--out", str(tiny / "b"))
    said = [line for line in result.output.splitlines() if "box 'text' does not fit" in line]
    assert len(said) == 3 and {line.split(":")[1] for line in said} == {"2", "3", "4"}, said


def test_a_stand_in_for_missing_art_is_drawn_once_and_placed_on_each_card(tiny):
    import pypdf

    front = tiny / "layouts/tiny/card_front.toml"
    art = '\n[[box]]\nname = "art"\ntype = "image"\nx = "4mm"\ny = "14mm"\nw = "8mm"\nh = "8mm"\n'
    front.write_text(
        front.read_text("utf-8") + art + 'src = "art/{{ suit }}.png"\nplaceholder = true\n', "utf-8"
    )
    assert run("build", "--project", str(tiny), "--format", "cards").exit_code == 0
    reader = pypdf.PdfReader(tiny / "output/tiny/cards.pdf")
    placed: dict[bytes, int] = {}
    for i in (1, 3):  # the two front sheets: nine cards, then one
        for token in reader.pages[i].get_contents().get_data().split():
            if token.startswith(b"/FormXob.stand"):
                placed[token] = placed.get(token, 0) + 1
    assert sorted(placed.values()) == [5, 5]  # 赤.png and 青.png, each on its five cards
