"""Progress of the steps that can take more than a second (laying out many cards, drawing their
sheets, PNG images): a line on the terminal that counts up, shown only after a second and only
when the command's error stream is a terminal. Stages call `step(name, total)` and `advance()`;
the command line installs a display (`show(stream)`), else nothing is drawn.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

DELAY = 1.0  # seconds before a step shows its progress
_stream = None


def show(stream, delay: float = DELAY) -> None:
    """Draw progress on `stream` (a terminal); `None` draws nothing."""
    global _stream, DELAY
    _stream, DELAY = stream, delay


class Step:
    def __init__(self, name: str, total: int):
        self.name, self.total, self.done = name, max(total, 1), 0
        self.start = time.monotonic()
        self.drawn = False
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        if _stream is None:
            return
        now = time.monotonic()
        if now - self.start < DELAY or (now - self._last < 0.1 and self.done < self.total):
            return
        self._last = now
        width = 24
        filled = round(width * self.done / self.total)
        bar = "█" * filled + "·" * (width - filled)
        _stream.write(f"\r{self.name} {bar} {self.done}/{self.total}")
        _stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn and _stream is not None:
            _stream.write("\r" + " " * (len(self.name) + 40) + "\r")
            _stream.flush()


@contextmanager
def step(name: str, total: int):
    s = Step(name, total)
    try:
        yield s
    finally:
        s.close()
