"""Benchmark: `pnp build fudaraku` cold against a plain ReportLab script, for 40 and 720 cards.

Not a test: prints figures. Each run is a fresh process; "cold" has an empty output folder (no
font subsets or metrics cached), "warm" is the same build again. Runs repeat and the best is
taken, because these machines are shared and noisy; compare the ratios, which come from one run.
Note that pnp also writes the rulebook and summary, and converts the font, which the plain
script does not. Two baselines: the plain script handed ready-made TrueType subsets (the most
favourable), and handed the whole face converted to TrueType once (what a designer writing plain
ReportLab would use, since ReportLab cannot read the CFF .otf).
Usage: python benchmarks/bench_build.py [--repeat N] [--big N [--big-only]]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator import output  # noqa: E402
from generator.fonts import BMP, FontIndex, _build_truetype, metrics, subset_truetype  # noqa: E402

FULL_FONT_CACHE = ROOT / "output" / ".cache" / "bench"


def full_truetype(weight: str) -> Path:
    """Noto Sans CJK JP converted whole (every BMP character) to TrueType, made once and kept:
    what a designer writing plain ReportLab would point it at (ReportLab cannot read the .otf)."""
    path = FULL_FONT_CACHE / f"NotoSansCJKjp-{weight}-full.ttf"
    if not path.exists():
        face = FontIndex([]).find("Noto Sans CJK JP", weight)
        covered = metrics(face).covered
        print(
            f"(converting the whole {weight} face once for the realistic baseline; ~20 s)",
            flush=True,
        )
        output.atomic_write(
            path, _build_truetype(face, "".join(chr(c) for c in range(BMP) if covered[c]))
        )
    return path


def plain_cmd(out, fonts: dict, copies, *decks: str) -> list[str]:
    """The plain ReportLab script's command: output PDF, the two font files, copies, decks."""
    script = str(ROOT / "benchmarks/plain_reportlab.py")
    return [
        sys.executable,
        script,
        str(out),
        str(fonts["Regular"]),
        str(fonts["Bold"]),
        str(copies),
        *decks,
    ]


def timed(cmd: list[str], repeat: int) -> tuple[float, int]:
    """Best wall time of `repeat` runs, and the peak RSS (KiB) of the children."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
    return best, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def peak_rss(cmd: list[str]) -> float:
    """Peak resident memory (MiB) of one command, measured in a child of its own."""
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *cmd], check=True, capture_output=True, text=True, cwd=ROOT
    )
    return int(out.stdout.strip()) / 1024


def scaled_project(tmp: Path, copies: int) -> Path:
    """The real project with every card `copies` times (composition adjusted): 40 x 18 = 720."""
    root = tmp / f"proj{copies}"
    for name in ("cards", "layouts"):
        shutil.copytree(ROOT / name, root / name)
    game = root / "cards/fudaraku"
    lines = (game / "kleshas.csv").read_text(encoding="utf-8").splitlines()
    (game / "kleshas.csv").write_text(
        "\n".join([lines[0]] + lines[1:] * copies) + "\n", encoding="utf-8"
    )
    manifest = game / "game.toml"
    text = manifest.read_text(encoding="utf-8").replace("copies = 1", f"copies = {copies}")
    manifest.write_text(text.replace("total = 40", f"total = {40 * copies}"), encoding="utf-8")
    return root


# Every printed deck of the three games as the plain script sees it: CSV, trim size, grid.
ALL_DECKS = [
    "fudaraku/kleshas.csv:63:88:3:3",
    "rumbling_seed/dragon_veins.csv:63:88:3:3",
    "rumbling_seed/elders.csv:63:88:3:3",
    "rumbling_seed/disciples.csv:70:120:2:2",
    "rumbling_seed/four_gods.csv:63:88:3:3",
    "nyanbaa/turf.csv:63:88:3:3",
    "nyanbaa/heroes.csv:63:88:3:3",
    "nyanbaa/tribes.csv:70:120:2:2",
    "nyanbaa/area_maps.csv:80:80:2:3",
    "nyanbaa/cubes.csv:16:16:10:14",
    "nyanbaa/markers.csv:16:16:10:14",
]


def remove(folder: Path) -> None:
    """A game's output: a link to the build's folder (output switches sets atomically) or a
    folder."""
    if folder.is_symlink():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)


def all_games(
    py: str, tmp: Path, ttf: dict, full: dict, repeat: int
) -> tuple[float, float, float, float]:
    """`pnp build` of all three games (cold, then warm) against the plain script for the same
    cards."""
    cold, warm = [], []
    for i in range(repeat):
        out = tmp / f"all-{i}"
        cmd = [py, "-m", "generator", "build", "--out", str(out)]
        for runs in (cold, warm):
            if runs is warm:  # the caches kept, the files gone: everything drawn again
                for game in out.iterdir():
                    if not game.name.startswith("."):  # pnp's own: .cache, .sets, the marker
                        remove(game)
            t0 = time.perf_counter()
            subprocess.run(
                cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT
            )
            runs.append(time.perf_counter() - t0)
    decks = [str(ROOT / "cards" / d) for d in ALL_DECKS]
    plain, _ = timed(
        plain_cmd(str(tmp / "plain-all.pdf"), ttf, "1", *decks),
        repeat,
    )
    real, _ = timed(
        plain_cmd(str(tmp / "real-all.pdf"), full, "1", *decks),
        repeat,
    )
    return min(cold), min(warm), plain, real


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--big",
        type=int,
        default=0,
        metavar="N",
        help="also build and check a deck of N cards (issue 8's target: 100000 under 400 MB)",
    )
    ap.add_argument("--big-only", action="store_true", help="only the big deck (with --big)")
    args = ap.parse_args()
    if args.big_only:
        with tempfile.TemporaryDirectory() as t:
            big_deck(Path(t), args.big or 100_000)
        return
    py = sys.executable
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        # The plain script gets TrueType subsets made beforehand (not timed): ReportLab cannot
        # read the CFF .otf at all, so this is the most favourable baseline.
        chars = set(
            "".join(p.read_text(encoding="utf-8") for p in (ROOT / "cards").glob("*/*.csv"))
        ) | set("0123456789補陀落渡海しよう！100%で印刷してください")
        full = {w: full_truetype(w) for w in ("Regular", "Bold")}
        ttf = {}
        for weight in ("Regular", "Bold"):
            face = FontIndex([]).find("Noto Sans CJK JP", weight)
            ttf[weight] = tmp / f"{weight}.ttf"
            output.atomic_write(ttf[weight], subset_truetype(face, chars))
        print(f"{'case':<34}{'seconds':>9}")
        results = {}
        for copies in (1, 18):
            n = 40 * copies
            proj = ROOT if copies == 1 else scaled_project(tmp, copies)
            ours, warm, fresh = [], [], []
            for i in range(args.repeat):
                out = tmp / f"out{copies}-{i}"
                # Cold: no font converted anywhere (an empty user cache of its own).
                env = dict(os.environ, PNP_CACHE_DIR=str(tmp / f"user-cache{copies}-{i}"))
                cmd = [
                    py,
                    "-m",
                    "generator",
                    "build",
                    "fudaraku",
                    "--project",
                    str(proj),
                    "--out",
                    str(out),
                ]
                quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
                t0 = time.perf_counter()
                subprocess.run(cmd, check=True, cwd=ROOT, env=env, **quiet)
                ours.append(time.perf_counter() - t0)
                # Warm: the same build again, font subsets, metrics and laid-out faces now in
                # output/.cache, its files removed (with them there, nothing would be built).
                remove(out / "fudaraku")
                t0 = time.perf_counter()
                subprocess.run(cmd, check=True, cwd=ROOT, env=env, **quiet)
                warm.append(time.perf_counter() - t0)
                # A new project's first build: its own output/ empty, the user's cache warm.
                new = [*cmd[:-1], str(tmp / f"new{copies}-{i}")]
                t0 = time.perf_counter()
                subprocess.run(new, check=True, cwd=ROOT, env=env, **quiet)
                fresh.append(time.perf_counter() - t0)
            deck = f"{ROOT / 'cards/fudaraku/kleshas.csv'}:63:88:3:3"
            plain, _ = timed(
                plain_cmd(str(tmp / f"plain{n}.pdf"), ttf, str(copies), deck),
                args.repeat,
            )
            real, _ = timed(
                plain_cmd(str(tmp / f"real{n}.pdf"), full, str(copies), deck),
                args.repeat,
            )
            results[n] = (min(ours), plain, min(warm), real)
            print(f"{f'pnp build fudaraku, {n} cards (cold)':<34}{min(ours):>9.3f}")
            print(f"{f'pnp build fudaraku, {n} cards (warm)':<34}{min(warm):>9.3f}")
            print(
                f"{'  … a new project, user cache warm':<34}{min(fresh):>9.3f}"
                f"   ({min(fresh) / min(warm):.2f}× warm; target ≤ 1.3×)"
            )
            print(f"{f'plain ReportLab, {n} cards, subsets':<34}{plain:>9.3f}")
            print(f"{f'plain ReportLab, {n} cards, full TTF':<34}{real:>9.3f}")
        (o40, p40, w40, r40), (o720, p720, w720, r720) = results[40], results[720]
        print()
        print("plain ReportLab with ready-made subsets (the most favourable baseline):")
        print(
            f"ratio pnp / plain, 40 cards:   {o40 / p40:5.2f}x cold, {w40 / p40:5.2f}x warm   "
            "(target: within 2x)"
        )
        print(f"ratio pnp / plain, 720 cards:  {o720 / p720:5.2f}x cold, {w720 / p720:5.2f}x warm")
        print("plain ReportLab with the whole font as TrueType (what a designer would write):")
        print(
            f"ratio pnp / plain, 40 cards:   {o40 / r40:5.2f}x cold, {w40 / r40:5.2f}x warm   "
            "(target: within 2x)"
        )
        print(f"ratio pnp / plain, 720 cards:  {o720 / r720:5.2f}x cold, {w720 / r720:5.2f}x warm")
        print(
            f"pnp per additional card:       {(o720 - o40) / 680 * 1000:6.2f} ms   (target: "
            "about 0.5 ms or less)"
        )
        print(f"plain per additional card:     {(p720 - p40) / 680 * 1000:6.2f} ms")
        all_cold, all_warm, all_plain, all_real = all_games(py, tmp, ttf, full, args.repeat)
        print(f"pnp build (all three games), cold: {all_cold:6.3f} s, warm: {all_warm:6.3f} s")
        print(
            f"plain ReportLab, the same cards:   {all_plain:6.3f} s with subsets, "
            f"{all_real:6.3f} s with full TTF"
        )
        print(
            f"ratio pnp / plain, all games:  {all_cold / all_plain:5.2f}x cold, "
            f"{all_warm / all_plain:5.2f}x warm "
            f"(subsets); {all_cold / all_real:5.2f}x cold, {all_warm / all_real:5.2f}x warm "
            "(full TTF)"
        )
        print(
            "peak RSS, pnp build (all games, cold): "
            f"{peak_rss([py, '-m', 'generator', 'build', '--out', str(tmp / 'rss')]):6.0f} MiB"
        )
        plain = plain_cmd(
            str(tmp / "rss.pdf"), full, "1", str(ROOT / "cards/fudaraku/kleshas.csv") + ":63:88:3:3"
        )
        print(f"peak RSS, plain ReportLab, full TTF:    {peak_rss(plain):6.0f} MiB")
        if args.big:
            big_deck(tmp, args.big)


def big_deck(tmp: Path, cards: int) -> None:
    """A deck of `cards` distinct cards (the tiny fixture's layouts, no composition): time and
    peak memory of check (layout only) and of build."""
    root = tmp / "big"
    shutil.copytree(ROOT / "tests/fixtures/tiny", root)
    manifest = root / "cards/tiny/game.toml"
    text = manifest.read_text(encoding="utf-8")
    text = text[: text.index("  [component.composition]")] + text[text.index("[deal]") :]
    manifest.write_text(text.replace('rules = "rules.md"\n', ""), encoding="utf-8")
    rows = ["suit,number,color,text"] + [
        f"{'赤青'[i % 2]},{i % 5 + 1},{'#C8323C' if i % 2 == 0 else '#2F5DA8'},カード{i}番の文。"
        for i in range(cards)
    ]
    (root / "cards/tiny/cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    py = sys.executable
    for command in ("check", "build"):
        cmd = [py, "-m", "generator", command, "--project", str(root)]
        if command == "check":
            cmd.append("--no-play")
        start = time.perf_counter()
        rss = peak_rss(cmd)
        print(
            f"{cards:,} cards, pnp {command:<5}: {time.perf_counter() - start:7.1f} s, "
            f"peak RSS {rss:6.0f} MiB"
        )


if __name__ == "__main__":
    main()
