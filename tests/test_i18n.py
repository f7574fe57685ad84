"""Messages in Japanese: every message the code marks has a translation in the shipped catalog,
each keeps its fields, and `--lang ja`, `PNP_LANG` or a Japanese locale give the same places,
levels and exit codes in other words."""

from __future__ import annotations

import ast
import gettext
import re
import string
from pathlib import Path

import catalog
import pytest

from generator import i18n

from conftest import REPO, edit, run

pytest.importorskip("babel")


def _key(message):
    return message.id if isinstance(message.id, str) else tuple(message.id)


def test_every_marked_message_is_in_the_catalog_and_nothing_else():
    code = {_key(m) for m in catalog.extracted() if m.id}
    shipped = {_key(m) for m in catalog.read() if m.id}
    hint = "run `python3 tasks.py i18n` and translate the new messages in pnp.po"
    assert sorted(map(str, code - shipped)) == [], hint
    assert sorted(map(str, shipped - code)) == [], hint


def test_every_message_is_translated_and_not_fuzzy():
    for m in catalog.read():
        if m.id:
            assert catalog.translated(m), m.id
            assert not m.fuzzy, m.id


def _fields(text: str) -> set[tuple]:
    return {
        (name, conversion, spec)
        for _lit, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


def test_each_translation_keeps_the_fields_of_its_message():
    for m in catalog.read():
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        forms = [m.string] if isinstance(m.string, str) else list(m.string)
        wanted = set().union(*map(_fields, ids))
        for form in forms:
            # Japanese has one plural form: it may leave out the count ({n}) a word depended on.
            assert _fields(form) <= wanted and wanted - _fields(form) <= {("n", None, "")}, m.id
            filled = {name: 1 for name, _c, _s in _fields(form)}
            form.format(**filled)  # braces balanced, every field fillable


def test_the_compiled_catalog_says_what_the_po_says():
    mo = catalog.po_path().with_suffix(".mo")
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for m in catalog.read():
        if not m.id:
            continue
        if isinstance(m.id, str):
            assert compiled.gettext(m.id) == m.string, "run `python3 tasks.py i18n`"
        else:
            assert compiled.ngettext(m.id[0], m.id[1], 2) == m.string[0], m.id


def test_no_message_is_put_together_before_it_is_translated():
    """`_(f"…")` or `_("a" + b)` would look up a string no catalog has: the message must be a
    literal (or a value marked with N_ where it is defined)."""
    bad = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("_", "ngettext", "N_") or not node.args:
                continue
            literal = node.args[: 2 if node.func.id == "ngettext" else 1]
            for arg in literal:
                if isinstance(arg, (ast.JoinedStr, ast.BinOp)) or (
                    node.func.id != "_" and not isinstance(arg, ast.Constant)
                ):
                    bad.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert bad == []


LEVEL = re.compile(r": (error|warning|notice|エラー|警告|お知らせ): ")


def _lines(output: str) -> list[tuple[str, str, str]]:
    out = []
    for line in output.splitlines():
        found = LEVEL.search(line)
        if found:
            out.append((line[: found.start()], found.group(1), line[found.end() :]))
    return out


def test_check_speaks_japanese_with_the_same_places_levels_and_exit_code(tiny):
    edit(tiny, "cards/tiny/cards.csv", "赤,2,#C8323C", "赤,two,#C8323C")
    edit(tiny, "cards/tiny/game.toml", "copies = 1", "copeis = 1")
    english = run("check", "--no-play", "--project", str(tiny))
    japanese = run("check", "--no-play", "--lang", "ja", "--project", str(tiny))
    assert english.exit_code == japanese.exit_code == 1
    en, ja = _lines(english.output), _lines(japanese.output)
    assert en and [(w, lv) for w, lv, _m in en] == [
        (w, {"エラー": "error", "警告": "warning", "お知らせ": "notice"}[lv]) for w, lv, _m in ja
    ]
    said = " ".join(m for _w, _l, m in ja)
    assert "不明なキー 'copeis'" in said and "'copies' のことですか" in said
    assert not re.search(r"[a-z]{4,} [a-z]{4,} [a-z]{4,}", said), said  # no English sentences
    edit(tiny, "cards/tiny/game.toml", "copeis = 1", "copies = 1")
    typed = run("check", "--no-play", "--lang", "ja", "--project", str(tiny))
    assert "cards/tiny/cards.csv:3:number: エラー: 'number' は整数でなければなりません" in (
        typed.output
    )
    assert "エラー1件、警告0件" in typed.output


def test_a_missing_card_and_a_limit_in_japanese(tiny):
    lines = (tiny / "cards/tiny/cards.csv").read_text("utf-8").splitlines()
    (tiny / "cards/tiny/cards.csv").write_text("\n".join(lines[:-1]) + "\n", "utf-8")
    missing = run("check", "--no-play", "--lang", "ja", "--project", str(tiny))
    assert missing.exit_code == 1
    assert "がありません" in missing.output and "9枚ありますが、マニフェストでは 10 です" in (
        missing.output
    )
    limited = run("build", "--lang", "ja", "--limit", "cards=3", "--project", str(tiny))
    assert limited.exit_code == 1 and "上限 cards = 3 を超えています" in limited.output
    assert "ビルド失敗" in limited.output


def test_the_locale_and_pnp_lang_pick_the_language(tiny, monkeypatch):
    assert i18n.pick(None, {"LANG": "ja_JP.UTF-8"}) == "ja"
    assert i18n.pick(None, {"LANG": "C.UTF-8"}) == "en"
    assert i18n.pick(None, {"LANGUAGE": "ja:en", "LANG": "en_US.UTF-8"}) == "ja"
    assert i18n.pick(None, {"PNP_LANG": "en", "LANG": "ja_JP.UTF-8"}) == "en"
    assert i18n.pick("ja", {"PNP_LANG": "en"}) == "ja"
    assert i18n.pick(None, {"LANG": "fr_FR.UTF-8"}) == "en"  # no catalog: English
    for name in i18n.ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    spoken = run("build", "nosuchgame", "--project", str(tiny))
    assert spoken.exit_code == 1 and "ゲーム 'nosuchgame' はありません" in spoken.output
    told = run("--lang", "en", "build", "nosuchgame", "--project", str(tiny))
    assert "no game 'nosuchgame'" in told.output


def test_the_tutorial_s_first_commands_in_japanese(tmp_path):
    made = run("init", str(tmp_path / "p"), "--lang", "ja")
    assert made.exit_code == 0 and "作成: " in made.output and "次は: cd " in made.output
    again = run("init", str(tmp_path / "p"), "--lang", "ja")
    assert again.exit_code == 1 and "すでにプロジェクトです" in again.output


def test_the_catalog_ships_with_the_package():
    pyproject = (REPO / "pyproject.toml").read_text("utf-8")
    assert '"data/**/*"' in pyproject
    assert Path(i18n.LOCALE / "ja/LC_MESSAGES/pnp.mo").is_file()


def test_help_is_in_japanese_under_lang_ja():
    """`pnp --lang ja --help`: click's words, the commands' descriptions and the options'
    help in Japanese, lines of the screen's width; without it, English."""
    from conftest import run

    ja = run("--lang", "ja", "--help").output
    assert ja.startswith("使い方: ") and "オプション:" in ja and "コマンド:" in ja
    assert "ビルドして出力フォルダ" in ja and "このヘルプを表示して終わります。" in ja
    assert not any(line.startswith(("、", "。")) for line in (x.strip() for x in ja.splitlines()))
    build = run("--lang", "ja", "build", "--help").output
    assert "GAMES（指定がなければ全ゲーム）をビルドして" in build and "[default: a4]" in build
    assert "用紙: a4、letter" in build and "The paper" not in build  # the options' own help
    en = run("--lang", "en", "--help").output
    assert en.startswith("Usage: ") and "Build GAMES" in en and "使い方" not in en
    # English rows as click lays them out, one line each (a description cut with "…" is not
    # Japanese): the commands' descriptions at the width of the screen
    commands = en.split("Commands:\n", 1)[1].splitlines()
    assert commands and all(not line.startswith("   ") for line in commands), en
    assert any(len(line) > 60 for line in commands), en


def test_pnp_version_says_the_installed_release():
    """`pnp --version`, the first thing asked of a tool: the version pip installed, exit 0."""
    from importlib.metadata import version

    from conftest import run

    said = run("--version")
    assert said.exit_code == 0 and said.output == f"pnp {version('pnp-generator')}\n"
    assert "pnp のバージョン" in run("--lang", "ja", "--help").output


def test_a_command_line_click_cannot_take_is_said_in_japanese_and_exits_1():
    """click's own errors (its catalog is English only) in the language of messages, with the
    usage and where help is, exit 1 as for any user's mistake."""
    from conftest import run

    said = run("--lang", "ja", "build", "--paperr", "a4")
    assert said.exit_code == 1
    assert "使い方:" in said.output and "ヘルプは '" in said.output
    assert "エラー: --paperr というオプションはありません。--paper のことですか？" in said.output
    assert "エラー: 引数 GAME がありません。" in run("--lang", "ja", "diff").output
    english = run("--lang", "en", "build", "--paperr", "a4").output
    assert "Error: No such option '--paperr'. Did you mean '--paper'?" in english


ENGLISH = re.compile(r"[A-Za-z]{3,}(?: [A-Za-z']{2,}){2,}")  # three English words in a row


def test_a_simulation_report_under_lang_ja_is_japanese(project, tmp_path):
    """`pnp --lang ja simulate` of a game with a texts file: the report's Markdown and PDF say
    every sentence in Japanese (commands and reading names stay as typed)."""
    import pypdf

    out = tmp_path / "out"
    result = run(
        "--lang", "ja", "simulate", "nyanbaa", "--project", str(project), "--players", "4",
        "--games", "20", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    md = (out / "nyanbaa/simulation-4p.md").read_text("utf-8")
    md = re.sub(r"`[^`]*`", "", md)  # commands
    english = [line for line in md.splitlines() if ENGLISH.search(line)]
    assert not english, english
    assert "## 見つかったこと" in md and "## ルールの読み方" in md
    pdf = pypdf.PdfReader(out / "nyanbaa/simulation-4p.pdf")
    text = "\n".join(page.extract_text() for page in pdf.pages)
    text = re.sub(r"pnp simulate[^\n]*", "", text)
    english = [line for line in text.splitlines() if ENGLISH.search(line)]
    assert not english, english
    assert "各ルールが使われた頻度" in text
