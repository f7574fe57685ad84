"""Incremental builds: after an edit only the faces it touches are laid out again, and the
outputs are byte-identical to a clean build's, whatever the edits (random ones, seeded)."""

from __future__ import annotations

import random

from conftest import edit, make_fixture_project, run


def outputs(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def tiny_times(tmp_path, n: int):
    """The tiny fixture with its ten rows written `n` times (each card `n` copies)."""
    root = make_fixture_project("tiny", tmp_path / "work")
    total = f"copies = {n}\n  total = {10 * n}"
    edit(root, "cards/tiny/game.toml", "copies = 1\n  total = 10", total)
    csv = root / "cards/tiny/cards.csv"
    head, *rows = csv.read_text("utf-8").splitlines()
    csv.write_text("\n".join([head, *rows * n]) + "\n", "utf-8")
    return root


def spy(monkeypatch, owner, name: str, note) -> list:
    """The calls of `owner.name`, each noted as `note(*its arguments)`; the real one runs."""
    seen: list = []
    real = getattr(owner, name)

    def noted(*args, **kwargs):
        seen.append(note(*args, **kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, noted)
    return seen


def counting(monkeypatch) -> list:
    from generator.layout import faces

    return spy(monkeypatch, faces, "_lay_out_face", lambda layout, card, *a: card.label())


def built(root, session, out=None):
    """A build of the project as `pnp watch` makes it, in a Session it keeps across saves."""
    from generator import pipeline
    from generator.project import find_project

    options = pipeline.Options(out=out, reuse=False)
    return pipeline.build(find_project(root), [], options, session)


def test_a_build_with_no_change_lays_out_nothing(tiny, monkeypatch):
    assert run("build", "--project", str(tiny)).exit_code == 0
    calls = counting(monkeypatch)
    assert run("build", "--project", str(tiny)).exit_code == 0
    assert calls == []


def test_a_session_lays_out_again_only_the_card_an_edit_changed(tiny, monkeypatch):
    """As `pnp watch` and `pnp serve` rebuild: a row's edit lays out that card's front, a
    layout's edit that layout's faces; a build in a new session lays out everything."""
    from generator.session import Session

    session = Session()
    assert not built(tiny, session).failed(False)
    calls = counting(monkeypatch)
    edit(tiny, "cards/tiny/cards.csv", "二の赤。", "赤の二。")
    result = built(tiny, session)
    assert calls == ["赤 2"]  # its front: the back reads no field, one face for the deck
    assert result.plans[0].faces_laid == (1, 22, 23)  # laid out, from the last build, all
    edit(tiny, "layouts/tiny/card_back.toml", "\n", "\n\n", count=1)  # every line moves down
    built(tiny, session)
    assert len(calls) == 1 + 1  # the back again, once for all ten cards
    calls.clear()
    built(tiny, Session())
    assert len(set(calls) - {"数字カード's tuck box"}) == 10  # every card


def drawing(monkeypatch) -> list:
    """The rulebook and summary PDFs each time they are drawn."""
    from generator.render import rulebook

    calls: list = []
    for name in ("rulebook_pdf", "summary_pdf"):
        real = getattr(rulebook, name)
        monkeypatch.setattr(
            rulebook, name, lambda *a, _n=name, _real=real: calls.append(_n) or _real(*a)
        )
    return calls


def test_a_file_whose_inputs_did_not_change_is_kept_not_drawn(tiny, monkeypatch):
    """A card's colour is not in the rulebook: after that edit the rulebook and summary are
    kept as they were; a sentence of the rules or a removed file draws them again."""
    assert run("build", "--project", str(tiny)).exit_code == 0
    out = tiny / "output/tiny"
    before = outputs(out)
    calls = drawing(monkeypatch)
    edit(tiny, "cards/tiny/cards.csv", "赤,4,#C8323C", "赤,4,#D04040")
    result = run("build", "--project", str(tiny), "--verbose")
    assert result.exit_code == 0, result.output
    assert calls == []
    said = "tiny: kept as the last build wrote them (nothing they show changed): "
    assert said + "rulebook.pdf, summary.pdf" in result.output
    after = outputs(out)
    assert after["rulebook.pdf"] == before["rulebook.pdf"]
    assert after["cards.pdf"] != before["cards.pdf"]  # the card itself is drawn again
    edit(tiny, "cards/tiny/rules.md", "数字カードをよく混ぜ", "数字カードをよく切り")
    assert run("build", "--project", str(tiny)).exit_code == 0
    assert calls == ["rulebook_pdf", "summary_pdf"]  # the sentence is in both
    assert outputs(out)["rulebook.pdf"] != after["rulebook.pdf"]
    (out / "summary.pdf").unlink()
    edit(tiny, "cards/tiny/cards.csv", "赤,4,#D04040", "赤,4,#C8323C")
    assert run("build", "--project", str(tiny)).exit_code == 0
    assert calls == ["rulebook_pdf", "summary_pdf", "summary_pdf"]  # the removed one only
    assert (out / "summary.pdf").is_file()


def test_a_kept_file_says_its_problems_again(tiny):
    """summary.pdf's warning (the marked parts do not fit a page) comes again when it is kept."""
    text = (tiny / "cards/tiny/rules.md").read_text("utf-8")
    long = "\n\n".join(["手番には、次のどちらかを**必ず１つ**行います。" * 8] * 60)
    (tiny / "cards/tiny/rules.md").write_text(
        text.replace("手番には、次のどちらかを**必ず１つ**行います。", long, 1), "utf-8"
    )
    first = run("build", "--project", str(tiny))
    assert "does not fit one page" in first.output, first.output
    edit(tiny, "cards/tiny/cards.csv", "赤,4,#C8323C", "赤,4,#D04040")
    again = run("build", "--project", str(tiny))
    assert "does not fit one page" in again.output, again.output


def test_check_in_another_language_says_its_messages_in_that_language(tiny):
    edit(tiny, "cards/tiny/cards.csv", "一番小さい赤。", "一番小さい赤。" * 30)  # does not fit
    assert "does not fit" in run("build", "--project", str(tiny)).output
    assert "収まりません" in run("build", "--project", str(tiny), "--lang", "ja").output


EDITS = [
    ("cards/tiny/cards.csv", "一番小さい赤。", ["小さな赤。", "最小の赤。", "一番小さい赤。"]),
    ("cards/tiny/cards.csv", "三の青。", ["青の三。", "三番目の青だよ。", "三の青。"]),
    ("cards/tiny/cards.csv", "赤,4,#C8323C", ["赤,4,#D04040", "赤,4,#C8323C"]),
    ("layouts/tiny/card_front.toml", 'size = "10pt"', ['size = "9pt"', 'size = "10pt"']),
    ("layouts/tiny/card_front.toml", 'h = "14mm"', ['h = "16mm"', 'h = "14mm"']),
    ("layouts/tiny/card_back.toml", "#", ["#", "#"]),
    (
        "cards/tiny/rules.md",
        "数字カードをよく混ぜ",
        ["数字カードをよく切り", "数字カードをよく混ぜ"],
    ),
    ("cards/tiny/cards.csv", "赤,1,", ["黄,1,", "赤,1,"]),  # a suit: samples and counts change
]


def test_random_edits_build_the_same_bytes_as_a_clean_build(tmp_path, monkeypatch):
    """After each random edit: the project's build, a build in a session kept across the edits
    (as `pnp watch` builds), a build into a new output folder (from what the user's cache
    keeps) and a clean build (its own empty user cache) write the same bytes and say the same
    problems."""
    from generator.session import Session

    users = tmp_path / "user-cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(users))
    root = make_fixture_project("tiny", tmp_path / "work")
    assert run("build", "--project", str(root)).exit_code == 0
    session, watched = Session(), tmp_path / "watched"
    built(root, session, watched)
    rng = random.Random(14)
    current = {i: old for i, (_f, old, _n) in enumerate(EDITS)}
    for step in range(8):
        i = rng.randrange(len(EDITS))
        file, _old, choices = EDITS[i]
        new = rng.choice(choices)
        text = (root / file).read_text("utf-8")
        if current[i] in text:
            (root / file).write_text(text.replace(current[i], new, 1), "utf-8")
            current[i] = new
        r = run("build", "--project", str(root))
        assert r.exit_code == 0, r.output
        kept = built(root, session, watched)
        elsewhere = tmp_path / f"new{step}"
        assert run("build", "--project", str(root), "--out", str(elsewhere)).exit_code == 0
        clean = tmp_path / f"clean{step}"
        monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / f"user-cache{step}"))
        r2 = run("build", "--project", str(root), "--out", str(clean))
        monkeypatch.setenv("PNP_CACHE_DIR", str(users))
        assert r2.exit_code == 0, r2.output
        assert outputs(root / "output/tiny") == outputs(clean / "tiny"), f"step {step}: {file}"
        assert outputs(elsewhere / "tiny") == outputs(clean / "tiny"), f"step {step}: {file}"
        assert outputs(watched / "tiny") == outputs(clean / "tiny"), f"step {step}: {file}"
        said = [line for line in r.output.splitlines() if not line.startswith("wrote ")]
        clean_said = [line for line in r2.output.splitlines() if not line.startswith("wrote ")]
        assert said == clean_said
        # The same problems as a clean build reports, replayed from the session's memo.
        fresh = built(root, Session(), tmp_path / f"fresh{step}")
        assert [p.format() for p in kept.problems.items] == [
            p.format() for p in fresh.problems.items
        ]


def test_quiet_prints_only_warnings_and_errors_and_verbose_what_was_reused(tiny):
    r = run("build", "--project", str(tiny), "--quiet")
    assert r.exit_code == 0
    assert "warning" in r.output and "notice" not in r.output and "wrote" not in r.output
    r = run("build", "--project", str(tiny), "--verbose")
    assert "tiny: nothing changed since the last build; its files are kept" in r.output
    assert "warning" in r.output  # its problems are said again
    edit(tiny, "cards/tiny/cards.csv", "二の赤。", "赤の二。")
    r = run("build", "--project", str(tiny), "--verbose")
    assert "tiny: 23 faces laid out" in r.output
    assert "check and layout" in r.output and "drawing" in r.output


def test_progress_is_drawn_on_a_terminal_only_after_a_second(monkeypatch):
    import io

    from generator import progress

    screen = io.StringIO()
    progress.show(screen, delay=0.0)
    try:
        with progress.step("数字カード", 4) as shown:
            for _ in range(4):
                shown.advance()
        assert "数字カード" in screen.getvalue() and "4/4" in screen.getvalue()
        progress.show(screen, delay=60.0)
        screen.truncate(0)
        screen.seek(0)
        with progress.step("quick", 3) as shown:
            shown.advance(3)
        assert screen.getvalue() == ""  # done within the delay: nothing drawn
    finally:
        progress.show(None)


def test_an_unchanged_game_is_not_built_again_unless_its_files_are_not_as_written(tiny):
    assert run("build", "--project", str(tiny)).exit_code == 0
    cards = tiny / "output/tiny/cards.pdf"
    good = cards.read_bytes()
    r = run("build", "--project", str(tiny))
    assert "tiny: nothing changed since the last build; its files are kept" in r.output
    assert "wrote" not in r.output
    cards.unlink()
    r = run("build", "--project", str(tiny), "-v")
    assert "nothing changed" not in r.output and cards.read_bytes() == good
    cards.write_bytes(good[:-10])  # damaged since
    run("build", "--project", str(tiny))
    assert cards.read_bytes() == good
    r = run("build", "--project", str(tiny), "-v", "--paper", "letter")  # another option
    assert "nothing changed" not in r.output


def test_a_changed_picture_is_a_change(tmp_path):
    from PIL import Image

    from test_images import RED, paint

    root = paint(make_fixture_project("art", tmp_path))
    assert run("build", "--project", str(root)).exit_code == 0
    before = (root / "output/art/cards.pdf").read_bytes()
    Image.new("RGB", (400, 300), RED).save(root / "cards/art/art/fox.png")
    r = run("build", "--project", str(root), "-v")
    assert "nothing changed" not in r.output
    assert (root / "output/art/cards.pdf").read_bytes() != before


def test_a_deck_with_more_faces_than_the_memo_keeps_holds_none_and_builds_alike(tiny, monkeypatch):
    """Beyond FaceMemo.MOST faces the session keeps no memo of the game; the build is the same."""
    from generator.layout import faces
    from generator.session import Session

    session = Session()
    built(tiny, session, tiny / "kept")
    assert "tiny" in session.faces
    monkeypatch.setattr(faces.FaceMemo, "MOST", 5)
    held: list[int] = []
    real = faces.FaceMemo.get

    def get(self, key, images):
        held.append(len(self.live))
        return real(self, key, images)

    monkeypatch.setattr(faces.FaceMemo, "get", get)
    built(tiny, session, tiny / "big")
    assert "tiny" not in session.faces
    assert max(held) <= 5 + 1  # the faces of the deck's first five cards at most, then none
    assert outputs(tiny / "big/tiny") == outputs(tiny / "kept/tiny")


def test_a_picture_an_edit_took_off_the_page_that_first_placed_it_still_shows(tmp_path):
    """A picture is embedded where it is first placed: when an edit takes it off the page that
    placed it first, a later page that shows it still does; the file matches a clean build's."""
    from test_images import paint

    root = make_fixture_project("art", tmp_path / "work")
    paint(root)
    rows = ["狐,fox.png,contain"] + [f"梟{i},owl.jpg,cover" for i in range(8)]
    rows.append("梟狐,fox.png,contain")  # the tenth card, on the second sheet: no new character
    (root / "cards/art/cards.csv").write_text("name,art,fit\n" + "\n".join(rows) + "\n", "utf-8")
    assert run("build", "--project", str(root)).exit_code == 0
    edit(root, "cards/art/cards.csv", "狐,fox.png", "狐,owl.jpg")
    assert run("build", "--project", str(root)).exit_code == 0
    clean = tmp_path / "clean"
    assert run("build", "--project", str(root), "--out", str(clean)).exit_code == 0
    assert outputs(root / "output/art") == outputs(clean / "art")
    from pypdf import PdfReader

    reader = PdfReader(root / "output/art/cards.pdf")
    second = [p for p in reader.pages if "梟狐" in p.extract_text()]
    assert len(second) == 1 and second[0]["/Resources"]["/XObject"]  # its picture is there


def test_pnp_as_a_process_ends_with_its_exit_code_its_output_and_its_exit_functions(tiny):
    """The `pnp` script ends as Python ends a program: what a build printed is all there, the
    code is the command's (0 built, 1 broken), and functions registered to run at exit ran."""
    import subprocess
    import sys

    script = (
        "import atexit, pathlib, sys\n"
        "atexit.register(pathlib.Path(sys.argv.pop(1)).write_text, 'ran')\n"
        "from generator.cli import main\n"
        "sys.argv[0] = 'pnp'\n"
        "main()\n"
    )

    def pnp(flag, *args):
        return subprocess.run(
            [sys.executable, "-c", script, str(flag), *args],
            capture_output=True,
            text=True,
        )

    built = pnp(tiny / "built.flag", "build", "--project", str(tiny))
    assert built.returncode == 0, built.stderr
    assert "0 errors" in built.stderr and "cards.pdf" in built.stdout
    assert (tiny / "built.flag").read_text() == "ran"
    assert (tiny / "output/tiny/cards.pdf").read_bytes().rstrip().endswith(b"%%EOF")
    edit(tiny, "cards/tiny/cards.csv", "赤,2,", "赤,二,")
    broken = pnp(tiny / "broken.flag", "build", "--project", str(tiny))
    assert broken.returncode == 1
    assert "cards/tiny/cards.csv:3:number" in broken.stderr, broken.stderr
    assert "nothing was written" in broken.stderr
    assert (tiny / "broken.flag").read_text() == "ran"


def test_help_and_a_build_with_nothing_to_do_import_no_stage(tiny):
    """`pnp --help`, `pnp build --help` aside, and a build with nothing changed import neither
    the stages nor ReportLab nor Jinja: start-up is Python's own work and a little of pnp's."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from generator.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('reportlab', 'jinja2', 'generator.builders', 'generator.layout',\n"
        "         'generator.render', 'generator.rules')\n"
        "print(sorted({m.split('.')[0] if m.startswith(('r', 'j')) else m for m in sys.modules\n"
        "              if m.startswith(heavy)}), file=sys.stderr)\n"
    )

    def imported(*args):
        done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True)
        return done.stderr.strip().splitlines()[-1]

    assert imported("--help") == "[]"
    assert "generator.builders" in imported("build", "--project", str(tiny))  # built
    assert imported("build", "--project", str(tiny)) == "[]"  # as it was: nothing to do
    edit(tiny, "cards/tiny/cards.csv", "二の赤。", "赤の二。")
    assert "generator.builders" in imported("build", "--project", str(tiny))
