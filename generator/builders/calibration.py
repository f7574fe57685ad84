"""`pnp calibrate`: the duplex calibration sheet for one paper, with its words in the language of
the messages. Not a game's output: it belongs to a printer, so it is written where
the designer asks (default: the current folder), not under output/<game>/."""

from __future__ import annotations

from .. import i18n, printed
from ..cache import NO_CACHE
from ..fonts import FontIndex, metrics
from ..layout.faces import Fonts
from ..render import calibration
from ..render import fonts as render_fonts

FAMILY = "Noto Sans CJK JP"


def words(paper: str, language: str = "ja") -> tuple[list[str], list[str]]:
    """The sheet's instructions: in Japanese as the code writes them, else in `language`
    (data/words/)."""
    per_mm = calibration.degrees_per_mm()

    def say(text: str, **fields) -> str:
        return printed.say(language, text, **fields)

    front = [
        say("両面印刷の位置合わせ（{paper}）", paper=paper.upper()),
        say(
            "1. このPDFを「実際のサイズ」（100%）で、"
            "カードと同じ設定の両面印刷（長辺とじ）で印刷します。"
        ),
        say(
            "2. 裏面（赤い目盛りの面）を手前にして光にかざし、"
            "表の十字が目盛りのどこに透けるかを読みます。"
        ),
        say("3. 中央の十字: 横の目盛りの読みが X、縦の目盛りの読みが Y（mm、右と上が＋）。"),
        say(
            "4. 左右の十字の Y の差から回転 R = （右の Y − 左の Y）× {per_mm}°。",
            per_mm=f"{per_mm:.3f}",
        ),
        say(
            "5. pnp printer save 名前 --back-offset X,Y,R で保存し、"
            "pnp build --printer 名前 で使います。"
        ),
        say("（ずれがなければ、十字はどれも目盛りの 0 に重なります。）"),
    ]
    back = [
        say("裏面：この面から光にかざして読みます"),
        say("目盛りは 0.5 mm ごと、数字は 2 mm ごと。読みがそのまま補正値です。"),
    ]
    return front, back


def calibration_pdf(page: tuple[float, float], paper: str) -> bytes:
    index = FontIndex([], NO_CACHE)
    fonts = Fonts(
        {
            "body": metrics(index.find(FAMILY, "Regular")),
            "bold": metrics(index.find(FAMILY, "Bold")),
        }
    )
    front, back = words(paper, i18n.language())  # a printer's sheet: the messages' language
    fonts.use("bold", front[0] + back[0])
    for line in front[1:] + back[1:] + ["XY+-0123456789"]:
        fonts.use("body", line)
    names = render_fonts.register(fonts, NO_CACHE)
    return calibration.calibration_pdf(page, front, back, names)
