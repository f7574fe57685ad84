"""`pnp diff --reprint`: the cards that changed or were added, on print sheets of their own
(fronts and backs, crop marks, as cards.pdf prints them), to print and swap into a deck printed
before."""

from __future__ import annotations

from collections import Counter

from .. import diff, printed
from ..layout.faces import FaceStore
from ..layout.plan import DeckSheets, Plan, laid_cards
from ..render import fonts as render_fonts
from . import use_common_glyphs
from .sheets import proof_text, sides, use_sheet_glyphs

HEADING = "差し替え用シート（変更・追加されたカードだけ）"
SINCE = "　{since}からの変更"


def decks_to_reprint(plan: Plan, keys: set[tuple]) -> list[DeckSheets]:
    """Each deck's (and token sheet's) cards whose key is in `keys`, in deck order, on the
    deck's own sheet geometry."""
    stores: dict[str, FaceStore] = {}
    sheets: dict[str, DeckSheets] = {}
    seen: Counter = Counter()
    idents = {d.id: diff.identity(d) for d in plan.game.decks}
    for card, name, front, back, laid in laid_cards(plan):
        key = diff.named(name, card.label(), diff.ident_of(card, idents[card.component]))
        seen[key] += 1
        if (*key, seen[key]) in keys:
            stores.setdefault(laid.id, FaceStore()).append((front, back))
            sheets[laid.id] = laid
    return [
        DeckSheets(d.id, d.name, d.geometry, stores[d.id], d.unit, d.output)
        for d in sheets.values()
    ]


def pdf(plan: Plan, decks: list[DeckSheets], cache, since: str) -> bytes:
    """The reprint sheets, with a proof page that says what they are, changed since when
    (`since`: 前回のビルド, a git revision, a kept build's time), and how to print them."""
    from ..render import pdf as render_pdf

    title, language = plan.game.title, plan.game.manifest.language
    heading = printed.say(language, HEADING) + printed.say(language, SINCE, since=since)
    version = plan.game.manifest.version
    lines = proof_text(title, heading, decks, plan.paper_name, plan.back_offset, language, version)
    use_common_glyphs(plan.fonts)  # the ruler's digits, 「50 mm × 50 mm」
    use_sheet_glyphs(plan.fonts, lines, decks, language)  # the faces' are this layout's own
    names = render_fonts.register(plan.fonts, cache)
    return render_pdf.sheets_pdf(
        f"{title} {printed.say(language, HEADING)}",
        lines,
        decks,
        names,
        sides(language),
        back_offset=plan.back_offset,
    )
