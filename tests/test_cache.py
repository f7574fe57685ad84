"""The per-user font cache: a new project's first build uses the fonts another project already
converted; check writes no cache; `pnp cache clear` empties the caches; what is kept by its
content (font subsets, compiled templates) keeps to its bounds."""

from __future__ import annotations

import os

from conftest import edit, make_fixture_project, run


def test_a_new_project_starts_with_the_fonts_another_converted(tmp_path, monkeypatch):
    from generator import fonts

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "user-cache"))
    first = make_fixture_project("tiny", tmp_path / "a")
    assert run("build", "--project", str(first)).exit_code == 0
    kept = sorted(p.name for p in (tmp_path / "user-cache/fonts").iterdir())
    assert any(n.endswith(".ttf.sealed") for n in kept)
    assert any(n.endswith(".widths.sealed") for n in kept)
    assert not (tmp_path / "user-cache/fontindex.json").exists()  # per project, not shared

    built: list[str] = []
    real = fonts._build_truetype
    monkeypatch.setattr(
        fonts, "_build_truetype", lambda face, text: built.append(text) or real(face, text)
    )
    second = make_fixture_project("tiny", tmp_path / "b")
    r = run("build", "--project", str(second))
    assert r.exit_code == 0, r.output
    assert built == []  # nothing converted: every subset came from the user's cache
    for name in ("cards.pdf", "rulebook.pdf"):
        assert (first / "output/tiny" / name).read_bytes() == (
            second / "output/tiny" / name
        ).read_bytes()


def test_check_writes_no_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "user-cache"))
    root = make_fixture_project("tiny", tmp_path)
    assert run("check", "--project", str(root), "--no-play").exit_code == 0
    assert not (tmp_path / "user-cache").exists()
    assert not (root / "output").exists()


def test_cache_clear_empties_both_caches(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "user-cache"))
    root = make_fixture_project("tiny", tmp_path)
    assert run("build", "--project", str(root)).exit_code == 0
    r = run("cache", "clear", "--project", str(root))
    assert r.exit_code == 0, r.output
    assert "emptied" in r.output and "user-cache" in r.output and "output/.cache" in r.output
    assert not (tmp_path / "user-cache").exists() and not (root / "output/.cache").exists()
    assert (root / "output/tiny/cards.pdf").exists()  # the outputs stay
    assert "nothing to clear" in run("cache", "clear", "--project", str(root)).output


def test_fonts_a_package_installed_are_found_from_its_record_alone(tmp_path, monkeypatch):
    """A distribution named like a font lists its files in RECORD; other packages are not read."""
    import sys

    from generator import fonts

    site = tmp_path / "site"
    for dist, files in {
        "kawaii_font-1.0.dist-info": ["kawaii_font/Kawaii-Regular.otf", "kawaii_font/__init__.py"],
        "requests-2.0.dist-info": ["requests/sample.ttf"],  # not a font package: never read
    }.items():
        (site / dist).mkdir(parents=True)
        record = "".join(f"{f},sha256=x,1\n" for f in files) + f"{dist}/RECORD,,\n"
        (site / dist / "RECORD").write_text(record, "utf-8")
    monkeypatch.setattr(sys, "path", [str(site)])
    assert fonts.package_font_files() == [site / "kawaii_font/Kawaii-Regular.otf"]


def test_the_font_cache_keeps_to_its_bounds_and_keeps_what_builds_use(tmp_path, monkeypatch):
    """Every edit that brings a new character makes a subset: the fonts folder is trimmed, least
    recently used first, and a build's own subsets (read again) are the last to go."""
    from generator import cache

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "user-cache"))
    folder = tmp_path / "user-cache/fonts"
    folder.mkdir(parents=True)
    for i in range(12):  # subsets of earlier edits, oldest first
        (folder / f"old{i:02}.ttf").write_bytes(b"x" * 100)
        os.utime(folder / f"old{i:02}.ttf", (1_000_000 + i, 1_000_000 + i))
    monkeypatch.setitem(cache.BOUNDS, "fonts", (10, cache.FONTS_MOST_BYTES))
    root = make_fixture_project("tiny", tmp_path / "a")
    assert run("build", "--project", str(root)).exit_code == 0
    kept = sorted(p.name for p in folder.iterdir())
    assert len(kept) == 10
    made = [n for n in kept if not n.startswith("old")]
    assert made and all(n.endswith((".ttf.sealed", ".widths.sealed")) for n in made)  # kept
    left = [n for n in kept if n.startswith("old")]  # the newest of the earlier ones
    assert left == [f"old{i:02}.ttf" for i in range(12 - len(left), 12)] and len(made) < 10
    edit(root, "cards/tiny/cards.csv", "二の赤。", "二の赤、新しい字。")  # new characters
    assert run("build", "--project", str(root)).exit_code == 0
    assert len(list(folder.iterdir())) == 10
    assert set(made) <= {p.name for p in folder.iterdir()}  # used again: not the ones to go
    assert run("build", "--project", str(root)).exit_code == 0


class _Opens:
    """A pickle that, loaded, creates a file: what a hostile project could ship as a cache."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (str(self.path), "w"))


def test_a_cache_shipped_with_a_project_is_never_unpickled(tmp_path):
    import pickle

    root = make_fixture_project("tiny", tmp_path)
    marker = tmp_path / "ran"
    shipped = root / "output/.cache/snapshots/tiny.sealed"  # where pnp keeps it
    shipped.parent.mkdir(parents=True)
    shipped.write_bytes(b"\0" * 32 + pickle.dumps(_Opens(marker)))  # a seal that is not ours
    r = run("diff", "tiny", "--project", str(root))
    assert r.exit_code == 1 and "no earlier build of tiny" in r.output
    assert not marker.exists()
    shipped.write_bytes(pickle.dumps(_Opens(marker)))  # no seal at all
    assert "no earlier build of tiny" in run("diff", "tiny", "--project", str(root)).output
    assert not marker.exists()
    assert run("build", "--project", str(root)).exit_code == 0  # the build's own: it reads
    assert "tiny: no change" in run("diff", "tiny", "--project", str(root)).output


def test_a_cache_entry_tampered_with_or_renamed_is_no_entry(tmp_path):
    from generator.cache import Cache

    cache = Cache(tmp_path / "c")
    cache.write("a/b", b"some work")
    assert cache.read("a/b") == b"some work"
    path = tmp_path / "c/a/b.sealed"
    blob = path.read_bytes()
    path.write_bytes(blob[:-1] + b"X")
    assert cache.read("a/b") is None
    (tmp_path / "c/a/c.sealed").write_bytes(blob)  # a good entry under another name
    assert cache.read("a/c") is None


def test_an_entry_this_process_wrote_is_read_back_only_while_its_file_is_the_one_written(
    tmp_path,
):
    """A process reads back what it wrote without unsealing it again, but a file put in its
    place since (the same size, its time of change set back) is read and unsealed: someone
    else's blob is no entry."""
    import time

    from generator.cache import Cache

    cache = Cache(tmp_path / "c")
    cache.write("snapshots/x", b"what I wrote")
    path = tmp_path / "c/snapshots/x.sealed"
    assert cache.read("snapshots/x") == b"what I wrote"
    st = path.stat()
    forged = b"\0" * 32 + b"what I wrote"  # the same size, not sealed by this user
    time.sleep(0.01)
    path.write_bytes(forged)  # in place: the same file, its time set back below
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cache.read("snapshots/x") is None
    cache.write("snapshots/x", b"again")
    other = tmp_path / "other.sealed"
    other.write_bytes(forged[: len(path.read_bytes())].ljust(len(path.read_bytes()), b"\0"))
    os.utime(other, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns))
    os.replace(other, path)  # another file renamed into its place
    assert cache.read("snapshots/x") is None
