"""dice.pdf: every component of dice as cube nets to cut, fold and glue."""

from __future__ import annotations

from pathlib import Path

from ..layout.plan import Plan
from . import Builder, Job


class DiceBuilder(Builder):
    name = "dice"
    what = "dice.pdf: each die's six faces on a cube net (cut, fold, glue tabs)"
    default = True
    needs = "components of kind die"
    file = "dice.pdf"

    def applies(self, plan: Plan) -> bool:
        return bool(plan.dice)

    def glyphs(self, plan: Plan) -> None:
        for sheet in plan.dice:
            for net in sheet.dice:
                plan.fonts.use("body", f"{sheet.name} {net.label}")

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render.dice import dice_pdf

        plan = job.plan
        return {
            job.out / self.file: dice_pdf(f"{plan.game.title} ダイス", plan.dice, job.font_names)
        }
