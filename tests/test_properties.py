"""Property tests: whatever a designer's files hold, the readers end in a value or a clean
BuildError (a message for the user), never in another exception (an "internal error")."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import tomlfile, validate
from generator.layout import boxes
from generator.layout.units import UnitError, to_pt
from generator.load import read_csv
from generator.problems import BuildError, Problems, SourceRef
from generator.project import Project, read_manifest

from conftest import FIXTURES

# Derandomized, so CI sees the same examples every run; PNP_EXPLORE=N looks further (N random
# examples each) when hunting for new failures.
SETTINGS = settings(
    derandomize=not os.environ.get("PNP_EXPLORE"),
    max_examples=int(os.environ.get("PNP_EXPLORE", 0)) or 150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)


@SETTINGS
@given(st.binary(max_size=400))
def test_csv_reader_never_crashes(tmp_path, data):
    path = tmp_path / "cards.csv"
    path.write_bytes(data)
    try:
        table = read_csv(path, SourceRef("cards.csv"))
    except BuildError:
        return
    assert table.rows and all(r.where.row for r in table.rows)


CELL = st.text(alphabet=st.sampled_from(list('ab 貪,"\t')), max_size=4)


@SETTINGS
@given(
    st.one_of(TEXT, st.integers(), st.floats(allow_nan=True), st.none(), st.lists(st.integers()))
)
def test_lengths_are_points_or_a_unit_error(value):
    try:
        result = to_pt(value, {"W": 100.0, "H": 200.0})
    except UnitError:
        return
    assert isinstance(result, float)


@SETTINGS
@given(TEXT)
def test_toml_text_is_a_document_or_a_message(text):
    try:
        doc = tomlfile.parse(text, SourceRef("x.toml"))
    except BuildError as exc:
        assert exc.problems[0].where.file == "x.toml"
        return
    for key in doc.data:
        assert doc.at(key).file == "x.toml"


SCALARS = st.one_of(
    st.integers(-10, 10**12).map(str),
    st.sampled_from(['"poker"', '"x"', "true", "[]", "{}", '{ w = "1mm" }', '["a", 3]', "1.5"]),
    TEXT.map(lambda t: '"' + t.replace("\\", "").replace('"', "").replace("\n", "") + '"'),
)


@SETTINGS
@given(
    st.sampled_from(
        [
            "min = 2",
            "max = 4",
            'id = "card"',
            'size = "poker"',
            'suit = "text"',
            'key = ["suit", "number"]',
            "copies = 1",
            'component = "card"',
            'front = "card_front"',
            "total = 10",
            'title = "ちいさな試験"',
        ]
    ),
    SCALARS,
)
def test_a_manifest_value_of_any_type_is_a_value_or_a_message(tmp_path, line, value):
    text = (FIXTURES / "tiny/cards/tiny/game.toml").read_text(encoding="utf-8")
    key = line.split(" = ")[0]
    path = tmp_path / "game.toml"
    path.write_text(text.replace(line, f"{key} = {value}", 1), encoding="utf-8")
    try:
        read_manifest(Project(tmp_path), "tiny", path)
    except BuildError:
        pass


@SETTINGS
@given(TEXT, TEXT)
def test_layout_values_and_conditions_never_crash(tmp_path, text, when):
    folder = tmp_path / "layouts" / "g"
    folder.mkdir(parents=True, exist_ok=True)
    (tmp_path / "layouts" / "_shared").mkdir(exist_ok=True)
    quote = lambda s: '"' + s.replace("\\", "").replace('"', "").replace("\n", " ") + '"'  # noqa: E731
    (folder / "l.toml").write_text(
        f'[[box]]\nname = "t"\ntype = "text"\nx = "0mm"\ny = "0mm"\nw = "W"\nh = "H"\n'
        f"text = {quote(text)}\nwhen = {quote(when)}\n",
        encoding="utf-8",
    )
    names = {"W": 100.0, "H": 100.0, "bleed": 0.0}
    try:
        layout = boxes.load_layout(tmp_path / "layouts", "g", "l", str, names)
    except BuildError:
        return
    problems = Problems()
    boxes.resolve(layout, {"suit": "赤", "number": 3}, names, "c", SourceRef("c.csv", 2), problems)


ROWS = st.lists(
    st.fixed_dictionaries(
        {
            "suit": st.sampled_from(["赤", "青", "", "x"]),
            "number": st.sampled_from(["1", "2", "x", "", "３"]),
        }
    ),
    min_size=1,
    max_size=12,
)
COMPOSITIONS = st.one_of(
    st.just({}),
    st.fixed_dictionaries(
        {
            "key": st.just(["suit", "number"]),
            "suit": st.just(["赤", "青"]),
            "number": st.sampled_from([{"min": 1, "max": 2}, [1, 2], "x"]),
            "copies": st.integers(0, 3),
            "total": st.integers(0, 20),
        }
    ),
    st.fixed_dictionaries(
        {
            "group": st.lists(
                st.fixed_dictionaries(
                    {
                        "when": st.sampled_from([{"suit": "赤"}, {"suit": "青"}, {}]),
                        "key": st.sampled_from([["number"], []]),
                        "copies": st.integers(1, 2),
                    }
                ),
                max_size=3,
            )
        }
    ),
)


@SETTINGS
@given(ROWS, COMPOSITIONS)
def test_composition_reports_and_never_crashes(rows, composition):
    from generator.load import Row, Table
    from generator.project import Component

    comp = Component(
        id="c",
        name="カード",
        kind="card",
        data="c.csv",
        sheet_name=None,
        size="poker",
        front="f",
        back="b",
        sheet="s",
        columns={"suit": "text", "number": "int"},
        composition=composition,
        bleed=None,
        printed=True,
        where=SourceRef("g.toml"),
    )
    table = Table(
        SourceRef("c.csv"),
        ["suit", "number"],
        [Row(SourceRef("c.csv", i + 2), r) for i, r in enumerate(rows)],
    )
    problems = Problems()
    try:
        validate.build_deck(comp, table, problems)
    except BuildError:
        pass
    assert all(p.level in ("error", "warning", "notice") for p in problems.items)
