"""Component kinds as objects: what a card, a token or a board needs from the manifest, how it is
counted and named, and which layout strategy lays it out.

The one registry of kinds. The manifest reader asks a kind which keys it requires; validate,
the rulebook and layout ask it how to count and name its pieces; layout/plan.py picks the
strategy (`sheets`: many faces imposed on pages; `single`: one piece, tiled over pages when
large). A new kind (tile, standee…) that is laid out by an existing strategy is one entry here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """A kind of component (card, token, die, board): what it needs and how it is laid out."""

    name: str
    rows: bool  # one data row per piece (a spreadsheet is required)
    back: str  # "required", "optional" or "none"
    sheet: str | None  # the sheet from sheets.toml it is imposed on unless named; None: no sheet
    layout: str  # layout strategy: "sheets" or "single"
    counter: str  # the Japanese counter word printed after a count: 枚, 個
    plural: str  # how messages count pieces: "(40 cards)", "25 tokens, the manifest expects 24"
    output: str  # the output (and --format) name of its printed file
    shares_sheets: bool = False  # consecutive components of one size fill the same pages
    heading: str = ""  # the proof page's heading in its PDF
    per_piece: int = 1  # data rows that make one piece (a die: its six faces)

    def required(self) -> set[str]:
        """Manifest keys a component of this kind must have (besides id and name)."""
        keys = {"front"}
        if self.rows:
            keys |= {"data", "columns"}
        if self.back == "required":
            keys.add("back")
        return keys


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind(
            "card",
            rows=True,
            back="required",
            sheet="auto",  # as many as fit the paper
            layout="sheets",
            counter="枚",
            plural="cards",
            output="cards",
            heading="印刷用カードシート",
        ),
        Kind(
            "token",
            rows=True,
            back="optional",
            sheet="tokens",
            layout="sheets",
            counter="個",
            plural="tokens",
            output="tokens",
            shares_sheets=True,
            heading="印刷用トークンシート",
        ),
        Kind(
            "die",
            rows=True,
            back="none",
            sheet=None,
            layout="dice",  # each six rows (or each value of a `die` column) fold into a cube
            counter="個",
            plural="dice",
            output="dice",
            per_piece=6,
        ),
        Kind(
            "board",
            rows=False,
            back="none",
            sheet=None,
            layout="single",
            counter="枚",
            plural="boards",
            output="board",
        ),
    )
}


def kind(name: str) -> Kind:
    return KINDS[name]
