"""日の出横丁にゃんばーわん！: what its rules say about the deck, the deal and the supply, against its data.

Each finding quotes the rule sentence it tests; the model comes from the same spreadsheets that
are printed.
"""

from __future__ import annotations

from itertools import combinations

from ...model import Game
from ...problems import Problems
from ...rulesource import rule_at

REMOVE = "３人プレイ時は４△と３△を抜き、ゲームから取り除いておいてください。"
DEAL = "ナワバリカードをよくシャッフルし、各プレイヤーに８枚ずつ配って手札とします。"
TRICKS = "１ラウンドは６トリックで構成され、３ラウンドが終わるとゲームが終了します。"
MAPS = "エリアマップをよくシャッフルし、”プレイヤー人数”枚引いて、それを２×２（３人プレイ時は２×１）に表向きで並べます。"
REFILL = "最後に、リソースが残っている（＝まだプレイヤーに占拠されていない）エリアがあれば、そこに同色のリソースを１個ずつ配置してください。"
MARKERS = "各プレイヤーはトライブを１つ選び、選んだトライブに応じたヒーローカードとトライブマーカー８個を受け取ります。"
HAND, TRICKS_PER_ROUND, ROUNDS = 8, 6, 3


SUITS = "各スートに"  # the sentence is bound to the data, so find it by its words


def check_cards_per_suit(game: Game, problems: Problems) -> None:
    """1-7 in each suit and a △ copy of 1-4: 11 cards per suit."""
    per: dict[str, int] = {}
    for card in game.deck("turf").cards:
        per[card.fields["suit"]] = per.get(card.fields["suit"], 0) + 1
    want = 7 + 4
    for suit, n in per.items():
        if n != want:
            problems.error(
                f"{suit}: {n} ナワバリカード, the rules give each suit {want} (1–7 and △ copies of 1–4)",
                game.deck("turf").where,
            )
    if all(n == want for n in per.values()):
        problems.notice(
            f"{want} ナワバリカード in each of {'、'.join(per)} (1–7, and △ copies of 1–4)",
            rule_at(game, SUITS),
        )


def check_three_player_removal(game: Game, problems: Problems) -> None:
    """「４△と３△を抜き」: one card each, or every suit's? The deck has one per suit."""
    turf = game.deck("turf")
    removed = [c for c in turf.cards if c.fields["mark"] == "△" and c.fields["number"] in (3, 4)]
    suits = sorted({c.fields["suit"] for c in removed})
    if len(removed) != 2:
        problems.warning(
            f"「{REMOVE}」 names two cards, but the deck has {len(removed)} (4△ and 3△ in each of "
            f"{'、'.join(suits)}): the rules do not say whether 2 or {len(removed)} cards leave a 3-player game",
            rule_at(game, REMOVE),
        )
    for label, gone in (("2 cards", 2), (f"all {len(removed)}", len(removed))):
        left = len(turf.cards) - gone
        need = 3 * HAND
        if need > left:
            problems.error(
                f"3 players, removing {label}: {left} ナワバリカード left, but dealing needs {need}",
                rule_at(game, DEAL),
            )
        else:
            problems.notice(
                f"3 players, removing {label}: {left} ナワバリカード, {need} dealt each round, "
                f"{left - need} stay face down",
                rule_at(game, DEAL),
            )


def check_hand_against_tricks(game: Game, problems: Problems) -> None:
    """8 cards in hand, 6 tricks a round: 2 left, 1 may be carried."""
    spare = HAND - TRICKS_PER_ROUND
    if spare < 0:
        problems.error(
            f"a hand of {HAND} cannot play {TRICKS_PER_ROUND} tricks", rule_at(game, TRICKS)
        )
    else:
        problems.notice(
            f"{HAND} cards for {TRICKS_PER_ROUND} tricks: {spare} left at round end, of which one "
            "may be carried over",
            rule_at(game, TRICKS),
        )


def check_map_layout(game: Game, problems: Problems) -> None:
    """「”プレイヤー人数”枚引いて…２×２（３人プレイ時は２×１）」: 3 maps drawn, 2 places."""
    drawn, places = 3, 2 * 1
    if drawn != places:
        problems.warning(
            f"「{MAPS}」: with 3 players {drawn} maps are drawn but a 2×1 layout has {places} places; "
            "the rules do not say where the third goes, or whether only 2 are drawn",
            rule_at(game, MAPS),
        )


def check_cubes_against_areas(game: Game, problems: Problems) -> None:
    """Setup puts a cube on every area; each round end adds one to every untouched area."""
    maps = game.deck("area_map").cards
    cubes: dict[str, int] = {}
    for cube in game.deck("cube").cards:
        cubes[cube.fields["color"]] = cubes.get(cube.fields["color"], 0) + 1
    areas = ("area1", "area2", "area3", "area4")
    for players in range(game.manifest.players[0], game.manifest.players[1] + 1):
        worst = {
            colour: max(
                sum(1 for m in draw for a in areas if m.fields[a] == colour)
                for draw in combinations(maps, players)
            )
            for colour in sorted(cubes)
        }
        short = {c: n for c, n in worst.items() if n > cubes[c]}
        if short:
            problems.error(
                f"{players} players: the worst draw of maps has more areas than cubes for setup: "
                + "、".join(f"{c} {n} areas, {cubes[c]} cubes" for c, n in short.items()),
                rule_at(game, MAPS),
            )
            continue
        tight = {c: n for c, n in worst.items() if n * 2 > cubes[c]}
        if tight:
            shown = "、".join(f"{c} {n}/{cubes[c]}" for c, n in tight.items())
            problems.warning(
                f"{players} players: the worst draw of {players} maps uses most of a colour's cubes at setup "
                f"({shown}), and 「{REFILL}」 needs as many again at each round end: the rules do not say "
                "what happens when a colour runs out",
                rule_at(game, REFILL),
            )


def check_markers(game: Game, problems: Problems) -> None:
    per_tribe: dict[str, int] = {}
    for marker in game.deck("marker").cards:
        per_tribe[marker.fields["tribe"]] = per_tribe.get(marker.fields["tribe"], 0) + 1
    tribes = [c.fields["name"] for c in game.deck("tribe").cards]
    for tribe in tribes:
        have = per_tribe.get(tribe, 0)
        if have != 8:
            problems.error(
                f"{tribe}: {have} トライブマーカー, the rules give each player 8 (「{MARKERS}」)",
                game.deck("marker").where,
            )
    heroes = {c.fields["tribe"] for c in game.deck("hero").cards}
    for tribe in tribes:
        if tribe not in heroes:
            problems.error(f"{tribe} has no ヒーローカード", game.deck("hero").where)


CHECKS = (
    check_cards_per_suit,
    check_three_player_removal,
    check_hand_against_tricks,
    check_map_layout,
    check_cubes_against_areas,
    check_markers,
)
