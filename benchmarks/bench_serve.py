"""Benchmark: `pnp serve` after a save. 補陀落渡海しよう！'s 煩悩カード scaled to --copies times
40 distinct cards (benchmarks/bench_edit.py's project); the gallery built once, then one row
edited and rebuilt as serve rebuilds on a save: how long until the page shows the changed card,
and until the PDFs are written (issue 35's targets at 7,200 cards: the card within 0.5 s of the
save, the PDF within 2 s). The watcher's wait for a save to settle (watchfiles' step, 50 ms) is
not in these figures. Best of --edits. The yardstick for this machine: the plain ReportLab script
(benchmarks/plain_reportlab.py) drawing the same cards from scratch, one process. Not a test:
prints figures.
Usage: python benchmarks/bench_serve.py [--copies 180] [--edits 4]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_build import full_truetype, plain_cmd  # noqa: E402
from bench_edit import project  # noqa: E402

from generator import pipeline  # noqa: E402
from generator.project import find_project  # noqa: E402
from generator.serve import Gallery  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=180)
    ap.add_argument("--edits", type=int, default=4)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as t:
        os.environ["PNP_CACHE_DIR"] = str(Path(t) / "user-cache")
        root = project(Path(t), args.copies, distinct=True)
        options = pipeline.Options(reuse=False, snapshot=False)  # as `pnp serve` builds
        gallery = Gallery(find_project(root), ["fudaraku"], options)
        gallery.rebuild()
        csv = root / "cards/fudaraku/kleshas.csv"
        shown, written = [], []
        for i in range(args.edits):
            text = csv.read_text("utf-8")
            old, new = ("#C8323C", "#C8323E") if i % 2 == 0 else ("#C8323E", "#C8323C")
            csv.write_text(text.replace(old, new, 1), "utf-8")  # the same row each time
            seen: list[float] = []
            version = gallery.version

            def watch(version=version, seen=seen) -> None:
                with gallery.changed:
                    while gallery.version == version:
                        gallery.changed.wait()
                    seen.append(time.perf_counter())

            waiter = threading.Thread(target=watch)
            waiter.start()
            start = time.perf_counter()
            gallery.rebuild()
            done = time.perf_counter()
            waiter.join()
            shown.append(seen[0] - start)
            written.append(done - start)
        fonts = {w: full_truetype(w) for w in ("Regular", "Bold")}
        plain, deck = [], f"{csv}:63:88:3:3"
        for _ in range(args.edits):
            start = time.perf_counter()
            subprocess.run(plain_cmd(Path(t) / "plain.pdf", fonts, 1, deck), check=True)
            plain.append(time.perf_counter() - start)
        cards = 40 * args.copies
        print(f"{cards:,} cards: the changed card shown {min(shown):.2f} s after the save, ")
        print(f"               the PDFs written {min(written):.2f} s after it")
        print(
            f"               the plain script draws them in {min(plain):.2f} s "
            f"(PDFs / plain {min(written) / min(plain):.2f}×)"
        )


if __name__ == "__main__":
    main()
