"""What many cards share is worked out once a build: a back that reads no field of the row is
laid out once for the deck, a text box printed alike on many cards is fitted once, a template
is rendered once per value of the names it reads. Whatever names a card (a problem, missing
art) is still said for every card it concerns."""

from __future__ import annotations

from generator.layout import boxes, templates

from conftest import edit, run


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
    assert len(said) == 10, result.output  # one per card, each naming its card
    assert {line.split("card ")[1].split(":")[0] for line in said} == {
        f"{suit} {n}" for suit in "赤青" for n in range(1, 6)
    }
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
    # Too long for its box: every card says so, each fitted again.
    long = "同じ文。" * 40
    csv.write_text("\n".join(s.replace("同じ文。", long) for s in same) + "\n", "utf-8")
    fitted.clear()
    result = run("build", "--project", str(tiny), "--out", str(tiny / "b"))
    assert fitted.count(long) == 10
    assert sum("box 'text' does not fit" in line for line in result.output.splitlines()) == 10


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
