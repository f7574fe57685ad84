"""Benchmark: card art. 360 poker cards whose fronts carry a 1200×900 px picture: one picture
shared by every card, 12 shared by 30 cards each, and 360 distinct. Prints the cards.pdf build
time and file size of each; a shared picture is embedded once, so the file with one picture
should be close to the file with no pictures at all, and the 360-picture file about 360 times
one picture's share. Not a test: prints figures (best of --repeat runs; compare ratios).
Usage: python benchmarks/bench_art.py [--repeat N] [--cards N]
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

from click.testing import CliRunner  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from generator.cli import main  # noqa: E402


def project(tmp: Path, cards: int, pictures: int) -> Path:
    root = tmp / f"art{pictures}"
    shutil.copytree(ROOT / "tests/fixtures/art", root)
    folder = root / "cards/art/art"
    folder.mkdir()
    for i in range(max(pictures, 1)):
        im = Image.new("RGB", (1200, 900), (40 + i % 200, 90, 160))
        ImageDraw.Draw(im).ellipse((100 + i % 300, 100, 900, 800), fill=(230, 180, 40))
        im.save(folder / f"p{i}.png")
    Image.new("RGB", (40, 40), (85, 51, 119)).save(folder / "back.png")
    rows = ["name,art,fit"]
    for n in range(cards):
        art = f"p{n % pictures}.png" if pictures else "none.png"
        rows.append(f"札{n},{art},cover")
    (root / "cards/art/cards.csv").write_text("\n".join(rows) + "\n", "utf-8")
    back = root / "layouts/art/art_back.toml"
    back.write_text(back.read_text("utf-8").replace("back.svg", "back.png"), "utf-8")
    if not pictures:  # the same cards with a stand-in instead of art
        front = root / "layouts/art/art_front.toml"
        text = front.read_text("utf-8")
        front.write_text(text.replace('fit = "{{ fit }}"', 'fit = "{{ fit }}"\nplaceholder = "絵"'))
    return root


def build(root: Path) -> float:
    shutil.rmtree(root / "output", ignore_errors=True)
    start = time.perf_counter()
    r = CliRunner().invoke(main, ["build", "--project", str(root), "--format", "cards"])
    took = time.perf_counter() - start
    assert r.exit_code == 0, r.output
    return took


def main_() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cards", type=int, default=360)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for pictures in (0, 1, 12, args.cards):
            root = project(Path(tmp), args.cards, pictures)
            best = min(build(root) for _ in range(args.repeat))
            size = (root / "output/art/cards.pdf").stat().st_size
            rows.append((pictures, best, size))
        base = rows[0]
        print(
            f"{args.cards} cards, 1200×900 px PNG art (cover), cards.pdf only; "
            f"best of {args.repeat}"
        )
        print(
            f"{'pictures':>9} {'build s':>8} {'MB':>7} "
            f"{'× no art (time)':>16} {'× no art (size)':>16}"
        )
        for pictures, best, size in rows:
            print(
                f"{pictures or 'stand-in':>9} {best:8.2f} {size / 1e6:7.2f} "
                f"{best / base[1]:16.2f} {size / base[2]:16.2f}"
            )
        one, many = rows[1][2] - base[2], rows[-1][2] - base[2]
        print(f"distinct pictures cost {many / max(one, 1):.0f}× one shared picture's bytes")


if __name__ == "__main__":
    main_()
