"""日の出横丁にゃんばーわん！: what its rules say about the deck, the deal and the supply,
against its data.

Each finding quotes the rule sentence it tests and takes every number from the rules source, the
manifest or the data (the rules module's sentence patterns): fix the sentence or the data and the
finding goes away.
"""

from __future__ import annotations

from itertools import combinations

from ...model import Game
from ...problems import Problems
from ...rulesource import find_rule, rule_at, rule_numbers
from ..games import nyanbaa as rules

DEAL = "各プレイヤーに{}枚ずつ配って手札とします"
MAPS = "”プレイヤー人数”枚引いて"
REFILL = "そこに同色のリソースを{}個ずつ配置してください"
SUITS = "各スートに"  # the sentence is bound to the data, so find it by its words


def check_cards_per_suit(game: Game, problems: Problems) -> None:
    """Every suit holds the same cards (the manifest's composition names which)."""
    per: dict[str, int] = {}
    for card in game.deck("turf").cards:
        per[card.fields["suit"]] = per.get(card.fields["suit"], 0) + 1
    counts = set(per.values())
    shown = "、".join(f"{suit} {n}" for suit, n in per.items())
    if len(counts) > 1:
        problems.warning(
            f"the suits hold different numbers of ナワバリカード: {shown}", game.deck("turf").where
        )
    elif counts:
        problems.notice(
            f"{counts.pop()} ナワバリカード in each of {'、'.join(per)}", rule_at(game, SUITS)
        )


def check_three_player_removal(game: Game, problems: Problems) -> None:
    """「４△と３△を抜き」: one card each, or every suit's?"""
    rule = find_rule(game, rules.REMOVAL)
    deal = find_rule(game, DEAL)
    if rule is None:
        return
    players, numbers = rule.numbers[0], rule.numbers[1:]
    turf = game.deck("turf")
    removed = [c for c in turf.cards if c.fields["mark"] == "△" and c.fields["number"] in numbers]
    suits = sorted({c.fields["suit"] for c in removed})
    named = " and ".join(f"{n}△" for n in numbers)
    stated = rule_numbers(rule.text, "{}枚")  # 「（計６枚）」: the designer says how many
    if len(removed) != len(numbers) and not (stated and stated[0] == len(removed)):
        problems.warning(
            f"「{rule.text}」 names {len(numbers)} cards, but the deck has {len(removed)} "
            f"({named} in each of {'、'.join(suits)}): the rules do not say whether "
            f"{len(numbers)} or {len(removed)} cards leave a {players}-player game",
            rule.where,
        )
    hand = int(game.manifest.deal["each"]) if game.manifest.deal else 0
    at = deal.where if deal else rule.where
    for label, gone in (
        (f"{len(numbers)} cards", len(numbers)),
        (f"all {len(removed)}", len(removed)),
    ):
        left = len(turf.cards) - gone
        need = players * hand
        if need > left:
            problems.error(
                f"{players} players, removing {label}: {left} ナワバリカード left, but dealing "
                f"needs {need}",
                at,
            )
        else:
            problems.notice(
                f"{players} players, removing {label}: {left} ナワバリカード, {need} dealt each "
                f"round, {left - need} stay face down",
                at,
            )


def check_hand_against_tricks(game: Game, problems: Problems) -> None:
    """Cards in hand against tricks in a round: what is left at the round's end."""
    tricks = find_rule(game, rules.TRICKS)
    if tricks is None or not game.manifest.deal or "each" not in game.manifest.deal:
        return
    hand, per_round = int(game.manifest.deal["each"]), tricks.numbers[0]
    spare = hand - per_round
    if spare < 0:
        problems.error(f"a hand of {hand} cannot play {per_round} tricks", tricks.where)
    else:
        problems.notice(
            f"{hand} cards for {per_round} tricks: {spare} left at round end", tricks.where
        )


def check_map_layout(game: Game, problems: Problems) -> None:
    """「”プレイヤー人数”枚引いて…２×２（３人プレイ時は２×１）」: maps drawn against places."""
    layout = find_rule(game, rules.LAYOUT)
    if layout is None or find_rule(game, MAPS) is None:
        return
    players, places = layout.numbers[2], layout.numbers[3] * layout.numbers[4]
    drawn = players  # one map per player
    if drawn != places:
        problems.warning(
            f"「{layout.text}」: with {players} players {drawn} maps are drawn but a "
            f"{layout.numbers[3]}×{layout.numbers[4]} layout has {places} places; the rules do not "
            f"say where the other {'goes' if drawn - places == 1 else 'go'}, or whether only "
            f"{places} are drawn",
            layout.where,
        )


def check_cubes_against_areas(game: Game, problems: Problems) -> None:
    """Setup puts a cube on every area; each round end adds one to every untouched area."""
    maps = game.deck("area_map").cards
    cubes: dict[str, int] = {}
    for cube in game.deck("cube").cards:
        cubes[cube.fields["color"]] = cubes.get(cube.fields["color"], 0) + 1
    areas = [c for c in game.deck("area_map").columns if c.startswith("area")]
    refill = find_rule(game, REFILL)
    at = find_rule(game, MAPS)
    at = at.where if at else game.rules_where or game.manifest.where
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
                at,
            )
            continue
        tight = {c: n for c, n in worst.items() if n * 2 > cubes[c]}
        if tight and refill is not None:
            shown = "、".join(f"{c} {n}/{cubes[c]}" for c, n in tight.items())
            problems.warning(
                f"{players} players: the worst draw of {players} maps uses most of a colour's "
                f"cubes at setup ({shown}), and 「{refill.text}」 needs as many again at each "
                "round end: the rules do not say what happens when a colour runs out",
                refill.where,
            )


def check_markers(game: Game, problems: Problems) -> None:
    """Each tribe's markers in the data against the number the rules hand each player."""
    rule = find_rule(game, rules.MARKERS)
    per_tribe: dict[str, int] = {}
    for marker in game.deck("marker").cards:
        per_tribe[marker.fields["tribe"]] = per_tribe.get(marker.fields["tribe"], 0) + 1
    tribes = [c.fields["name"] for c in game.deck("tribe").cards]
    if rule is not None:
        want = rule.numbers[0]
        for tribe in tribes:
            have = per_tribe.get(tribe, 0)
            if have != want:
                problems.error(
                    f"{tribe}: {have} トライブマーカー, the rules give each player {want} "
                    f"(「{rule.text}」)",
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
