"""Benchmark: time and peak memory of `pnp` on hostile inputs (issue 8's "bombs").

Not a test: prints figures. Each case is a small project (the `tiny` fixture) whose data is
replaced by a bomb, built or simulated in a fresh process; a case that would run on is stopped
after --timeout seconds and its peak memory so far is reported. Compare with the figures
recorded in the issue (minutes and GBs before the limits existed).
Usage: python benchmarks/bench_bombs.py [--timeout S] [--only NAME]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from hostile import XLSX_PARTS  # noqa: E402  (the workbook's parts but its sheet)

HEADER = ("suit", "number", "color", "text")


def _cell(ref: str, value: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'


def write_xlsx(path: Path, rows, big_cell: int = 0) -> None:
    """A workbook written part by part (streamed, so a bomb costs this script no memory)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in XLSX_PARTS.items():
            z.writestr(name, text)
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            f.write(
                b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns='
                b'"http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
            )
            for n, row in enumerate(rows, start=1):
                cells = "".join(_cell(f"{'ABCD'[i]}{n}", v) for i, v in enumerate(row))
                f.write(f'<row r="{n}">{cells}</row>'.encode())
            if big_cell:
                f.write(b'<row r="3"><c r="D3" t="inlineStr"><is><t>')
                chunk = b"a" * (1 << 20)
                for _ in range(big_cell >> 20):
                    f.write(chunk)
                f.write(b"</t></is></c></row>")
            f.write(b"</sheetData></worksheet>")


def short_rows(n: int):
    yield HEADER
    for i in range(n):
        yield ("赤", str(i % 5 + 1), "#C8323C", "x")


def project(tmp: Path, name: str, data: str) -> Path:
    root = tmp / name
    shutil.copytree(ROOT / "tests/fixtures/tiny", root)
    manifest = root / "cards/tiny/game.toml"
    text = manifest.read_text(encoding="utf-8").replace('data = "cards.csv"', f'data = "{data}"')
    manifest.write_text(text, encoding="utf-8")
    return root


def measure(cmd: list[str], timeout: float) -> tuple[float, float, str]:
    """Wall time, peak RSS (MiB) and the last line printed, of one command in a fresh process
    (stopped after `timeout` seconds)."""
    probe = (
        "import resource, subprocess, sys\n"
        "try:\n"
        "    r = subprocess.run(sys.argv[2:], capture_output=True, text=True,"
        " timeout=float(sys.argv[1]))\n"
        "    out = (r.stdout + r.stderr).strip().splitlines() or ['']\n"
        "    last = f'exit {r.returncode}: ' + out[-1]\n"
        "except subprocess.TimeoutExpired:\n"
        "    last = 'still running: stopped'\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(last)\n"
    )
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", probe, str(timeout), *cmd],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout.splitlines()
    return time.perf_counter() - start, int(out[0]) / 1024, out[1][:110]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--only", help="run one case (its name as printed)")
    args = ap.parse_args()
    pnp = [sys.executable, "-m", "generator"]
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        rows_xlsx = project(tmp, "rows-xlsx", "cards.xlsx")
        write_xlsx(rows_xlsx / "cards/tiny/cards.xlsx", short_rows(2_000_000))
        cell_xlsx = project(tmp, "cell-xlsx", "cards.xlsx")
        write_xlsx(cell_xlsx / "cards/tiny/cards.xlsx", short_rows(1), big_cell=1 << 30)
        rows_csv = project(tmp, "rows-csv", "cards.csv")
        with (rows_csv / "cards/tiny/cards.csv").open("w", encoding="utf-8") as f:
            for row in short_rows(2_000_000):
                f.write(",".join(row) + "\n")
        sim = project(tmp, "simulate", "cards.csv")
        shutil.rmtree(sim / "cards/tiny")
        shutil.copytree(ROOT / "tests/fixtures/engine", sim, dirs_exist_ok=True)
        cases = {
            "xlsx 2,000,000 rows": (rows_xlsx, ["build"]),
            "xlsx 2,000,000 rows, workbook_mb=1000": (
                rows_xlsx,
                ["build", "--limit", "workbook_mb=1000"],
            ),
            "xlsx one 1 GiB cell": (cell_xlsx, ["build"]),
            "csv 2,000,000 rows": (rows_csv, ["build"]),
            "simulate --games 10^12": (
                sim,
                ["simulate", "fudaraku", "--players", "4", "--games", str(10**12)],
            ),
            "simulate --games 10^9, games limit raised": (
                sim,
                [
                    "simulate",
                    "fudaraku",
                    "--players",
                    "4",
                    "--games",
                    str(10**9),
                    "--limit",
                    f"games={10**12}",
                ],
            ),
        }
        for name, (root, argv) in cases.items():
            if args.only and args.only != name:
                continue
            size = sum(p.stat().st_size for p in (root / "cards").rglob("*") if p.is_file())
            seconds, rss, last = measure(
                [*pnp, *argv[:1], "--project", str(root), *argv[1:]], args.timeout
            )
            print(f"{name:<42} {size / 2**20:7.1f} MB  {seconds:6.1f} s  {rss:6.0f} MiB  {last}")


if __name__ == "__main__":
    main()
