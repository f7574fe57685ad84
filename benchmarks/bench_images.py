"""Benchmark: PNG images of 40 cards (fronts and backs: 80 files, 41 distinct faces) at 300 dpi,
against the issue's target of 1 s on two cores. Not a test: prints figures.

The time is the png builder alone (check and layout done first), best of --repeat runs, with
one worker process and with two; the ratio to the target is printed.
Usage: python benchmarks/bench_images.py [--repeat N]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator import builders, pipeline  # noqa: E402
from generator.cache import Cache  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.render import images  # noqa: E402

SUITS = {"赤": "#C8323C", "青": "#2F5DA8", "黄": "#D9A400", "緑": "#3C8D4F"}


def forty_cards(tmp: Path) -> Path:
    root = tmp / "p"
    shutil.copytree(ROOT / "tests/fixtures/tiny", root)
    rows = ["suit,number,color,text"]
    for suit, colour in SUITS.items():
        rows += [f"{suit},{n},{colour},{suit}の{n}。山札から{n}枚引く。" for n in range(1, 11)]
    (root / "cards/tiny/cards.csv").write_text("\n".join(rows) + "\n", "utf-8")
    manifest = root / "cards/tiny/game.toml"
    text = manifest.read_text("utf-8")
    text = text.replace('suit = ["赤", "青"]', 'suit = ["赤", "青", "黄", "緑"]')
    text = text.replace("max = 5", "max = 10").replace("total = 10", "total = 40")
    manifest.write_text(text, "utf-8")
    return root


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = forty_cards(Path(tmp))
        options = pipeline.Options(formats=["png"])
        result = pipeline.check(Project(root), [], options, play=False)
        assert not result.problems.has_errors, result.problems.folded()
        plan = result.plans[0]
        cache = Cache.for_output(root / "output", writable=True)
        png = builders.REGISTRY["png"]
        figures = {}
        for workers in (1, 2):
            original = images.pages_to_png

            def pinned(*a, workers=workers, original=original, **k):
                k["workers"] = workers
                return original(*a, **k)

            images.pages_to_png = pinned
            best = float("inf")
            for _ in range(args.repeat):
                job = builders.Job(plan, root / "output/tiny", cache, result.problems)
                start = time.perf_counter()
                files = builders.build_game(job, [png])
                best = min(best, time.perf_counter() - start)
            images.pages_to_png = original
            figures[workers] = best
            print(f"png, 40 cards ({len(files)} files), {workers} worker(s): {best:.2f} s")
        print(
            f"two workers: {figures[2]:.2f} of the 1 s target; "
            f"speed-up over one worker {figures[1] / figures[2]:.2f}×"
        )


if __name__ == "__main__":
    main()
