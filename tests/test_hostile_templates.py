"""A template is a project's code: in someone else's project it may ask for a value of
gigabytes or a loop of hours. Each such template is an error at its file and line, found in
well under a second and a few MB, and the previous outputs stay as they were."""

from __future__ import annotations

import time

import pytest

from conftest import run

HUGE = [
    ("{{ 'x' * 10**9 }}", "a repeated text or list would be 1,000,000,000"),
    ("{{ [1] * 10**9 }}", "a repeated text or list would be 1,000,000,000"),
    ("{{ 10 ** (10 ** 10) }}", "is a number too large to print"),
    ("{{ 'a'.center(10**9) }}", "would be 1,000,000,000"),
    ("{{ 'a' | center(10**9) }}", "a centred text would be 1,000,000,000"),
    ("{{ '{:>1000000000}'.format(1) }}", "a formatted text would be"),
    ("{{ '%1000000000d' % 1 }}", "a formatted text would be"),
    ("{{ lipsum(n=10**7) }}", "lorem ipsum would be"),
    ("{{ 'ab' | replace('', 'x' * 900000) }}", "a replaced text would be"),
    (
        "{% set s = namespace(v='x') %}{% for i in range(60) %}{% set s.v = s.v ~ s.v %}"
        "{% endfor %}{{ s.v }}",
        "a joined text would be",
    ),
    (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        "more than 1,000,000 steps",
    ),
]


def _layout_text(tiny, template: str) -> int:
    """Put `template` into the tiny game's front layout; returns its line."""
    path = tiny / "layouts/tiny/card_front.toml"
    text = path.read_text(encoding="utf-8")
    assert 'text = "{{ suit }}"' in text
    escaped = template.replace("\\", "\\\\").replace('"', '\\"')
    path.write_text(text.replace('text = "{{ suit }}"', f'text = "{escaped}"'), encoding="utf-8")
    return next(
        n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if escaped in line
    )


@pytest.mark.parametrize("template, says", HUGE, ids=[c[1][:20] for c in HUGE])
def test_a_layout_template_asking_for_too_much_is_an_error_at_its_line(tiny, template, says):
    assert run("build", "--project", str(tiny)).exit_code == 0
    before = (tiny / "output/tiny/cards.pdf").read_bytes()
    line = _layout_text(tiny, template)
    start = time.monotonic()
    r = run("build", "--project", str(tiny))
    assert time.monotonic() - start < 20
    assert r.exit_code == 1, r.output
    assert f"layouts/tiny/card_front.toml:{line}:" in r.output and says in r.output, r.output
    assert "internal error" not in r.output
    assert (tiny / "output/tiny/cards.pdf").read_bytes() == before


@pytest.mark.parametrize(
    "template, says", HUGE[:4] + HUGE[-2:], ids=[c[1][:20] for c in HUGE[:4] + HUGE[-2:]]
)
def test_a_rules_template_asking_for_too_much_is_an_error_at_its_line(tiny, template, says):
    rules = tiny / "cards/tiny/rules.md"
    lines = rules.read_text(encoding="utf-8").splitlines()
    rules.write_text("\n".join([*lines, "", template, ""]), encoding="utf-8")
    r = run("check", "--project", str(tiny), "--no-play")
    assert r.exit_code == 1, r.output
    assert f"cards/tiny/rules.md:{len(lines) + 2}:" in r.output and says in r.output, r.output


def test_a_limit_raised_lets_a_large_template_through(tiny):
    """A value over the limit is an error; --limit template_chars=N lets it through (the card
    prints only its length, so the text stays small)."""
    _layout_text(tiny, "{{ suit }}{{ ('x' * 1200000) | length }}")
    args = ["check", "--project", str(tiny), "--no-play"]
    r = run(*args)
    assert r.exit_code == 1 and "--limit template_chars=N" in r.output, r.output
    r = run(*args, "--limit", "template_chars=2000000")
    assert r.exit_code == 0 and "template_chars" not in r.output, r.output
