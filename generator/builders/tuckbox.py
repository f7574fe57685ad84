"""tuckbox.pdf (on request: --format tuckbox): a tuck box for every deck of cards, one a page,
with the words that say how to make it."""

from __future__ import annotations

from pathlib import Path

from .. import printed
from ..layout.plan import Plan
from ..layout.units import MM
from . import Builder, Job

HOW = "実線で切り、破線で折ります。斜線ののりしろは、裏面の内側に貼ります。"


def label_lines(plan: Plan, box) -> list[str]:
    """The words printed beside a tuck box's net, in the edition's language."""
    w, h, d = (v / MM for v in box.inside)
    language = plan.game.manifest.language
    return [
        printed.say(
            language, "{title}　{name}のタックボックス", title=plan.game.title, name=box.name
        ),
        printed.say(
            language,
            "内寸 {w}×{h}×{d} mm（{count}枚 × {thick} mm ＋ ゆとり）",
            w=f"{w:.0f}",
            h=f"{h:.0f}",
            d=f"{d:.1f}",
            count=box.count,
            thick=f"{box.thickness / MM:g}",
        ),
        printed.say(language, HOW),
    ]


class TuckBoxBuilder(Builder):
    name = "tuckbox"
    what = "tuckbox.pdf: a tuck box for each deck of cards (its net, faces, cut and fold lines)"
    default = False
    needs = "card decks"
    file = "tuckbox.pdf"

    def applies(self, plan: Plan) -> bool:
        return bool(plan.tuckboxes)

    def glyphs(self, plan: Plan) -> None:
        for box in plan.tuckboxes:
            title, *rest = label_lines(plan, box)
            plan.fonts.use("bold", title)
            for line in rest:
                plan.fonts.use("body", line)

    def build(self, job: Job) -> dict[Path, bytes]:
        from ..render.tuckbox import tuckbox_pdf

        plan = job.plan
        labels = [label_lines(plan, box) for box in plan.tuckboxes]
        data = tuckbox_pdf(
            f"{plan.game.title} {printed.say(plan.game.manifest.language, 'タックボックス')}",
            plan.tuckboxes,
            labels,
            job.font_names,
        )
        return {job.out / self.file: data}
