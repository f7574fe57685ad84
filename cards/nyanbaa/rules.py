"""日の出横丁にゃんばーわん！ as a machine-playable game: tricks, showdowns, assists, occupation,
resources.

Fed by `prepare()` from the model (turf cards, tribes, area maps and cubes that are printed);
driven by pnp's rules engine. Actions are small ints:
  tribe     TRIBE + t (at setup, each player in turn picks a tribe)
  play      card * PLAY + red * 4 + blue * 2 + skill   (card 0-32 a turf card, HERO for the
            hero; PLAY = 4 × (the red cubes + 1), so any number of 酒肴 can be spent)
  pay       PAY + i: the i-th way to pay a skill's cost from the colours held
  judgement CHOOSE + i * 8 + j (夜桜会 picks followers i and j for the showdown),
            ASSIST + side (0, 1), OCCUPY + area * 5 + (owner + 1 of the marker to return, or 0),
            NOTHING when neither is possible
  round end CARRY + card, CARRY_NONE

The static checks at the end (`CHECKS`) compare what the rules say with the data; each
quotes the sentence it tests.
"""

from __future__ import annotations

import re
from itertools import combinations

from generator.rules.kit import (
    Game,
    InvariantError,
    Messages,
    Option,
    Problems,
    find_rule,
    known,
    rule_at,
    rule_number,
    rule_numbers,
    stated,
    stream,
)

GAME_ID = "nyanbaa"
STEP_CAP = 1200
# The search's playouts look this many moves ahead, then judge by estimate() (about a round).
ROLLOUT_MOVES = 16


def codes(hero: int, play: int = 32) -> dict[str, int]:
    """Action numbers past every play (card * play + extras, the hero's id the largest card):
    each kind of action in a block of its own however large the deck."""
    base = 1000 * -(-((hero + 1) * play) // 1000)
    carry = base + 1000
    return {
        "PLAY": play,
        "ASSIST": base,
        "OCCUPY": base + 100,
        "NOTHING": base + 200,
        "CHOOSE": base + 300,
        "TRIBE": base + 400,
        "PAY": base + 500,
        "CARRY": carry,
        "CARRY_NONE": carry + max(100, hero + 1),
    }


COLOURS = ("赤", "青", "黄")
RED, BLUE, YELLOW = 0, 1, 2
SKILLS = {
    "関西豪学連": "reuse_leader",
    "ブルーSAMURAI": "double_red",
    "夜桜会": "choose_showdown",
    "シャルモント": "protect",
}

OPTIONS = {
    "removal": Option(
        "all",
        {
            "all": "3 players: every 4△ and 3△ leaves the deck (6 cards)",
            "two": "3 players: one 4△ and one 3△ leave, of suits drawn at random",
        },
        "３人プレイ時は４△と３△を抜き、ゲームから取り除いておいてください。",
        "there is a 4△ and a 3△ in each of the three suits",
    ),
    "maps_three": Option(
        "three",
        {
            "three": "3 players draw 3 maps and lay them in a row",
            "two": "3 players draw 2 maps, as the 2×1 layout has room for",
        },
        "エリアマップをよくシャッフルし、”プレイヤー人数”枚引いて、それを２×２（３人プレイ時は２×１）に表向きで並べます。",
        "3 maps drawn, 2 places in a 2×1 layout",
    ),
    "leader_card": Option(
        "nothing",
        {
            "nothing": "関西豪学連's skill names a リーダーカード there is none of: it does "
            "nothing",
            "hero": "リーダーカード means the hero card: the skill makes it playable again",
        },
        "使用済みになっている自分のリーダーカードを、再利用可能にする",
        "no component is called リーダーカード",
    ),
    "tie_lead": Option(
        "same",
        {
            "same": "after a drawn showdown the same player leads again",
            "next": "the next player clockwise leads",
        },
        "ガチンコ状態になり、さらに勝者となったプレイヤーが新しいスタートプレイヤーとなり、次のトリックを行ってください。",
        "a drawn showdown has no winner to lead",
    ),
    "spent": Option(
        "out",
        {
            "out": "spent resources leave the game",
            "supply": "spent resources go back to the supply",
        },
        "リソースがあれば、自分の手札をプレイする際にそれを使用したり、あるいは指定された数のリソースを消費してスキルを使用することができます。",
        "where a spent cube goes is not said; the round-end refill draws on the supply",
    ),
    "hero_lead": Option(
        "never",
        {
            "never": "the start player leads a card from their hand, never the hero",
            "any": "the start player may lead with their hero card (it has no suit to follow)",
        },
        "スタートプレイヤーは手札から好きな１枚を出し、時計回りで順番に他のプレイヤーも手札を１枚ずつ出していきます。",
        "the hero card may be played when a player cannot follow; the rules do not say whether "
        "it may lead",
    ),
    "majority": Option(
        "largest",
        {
            "largest": "your largest group of connected areas scores its size × 2 (0 if no two "
            "touch)",
            "all": "every area of yours that touches another of yours scores 2",
        },
        "”繋がっているエリア数×２”分のＶＰを得てください（ただし、１つも繋がっていない場合は０ＶＰとなります）。",
        "several separate groups may be connected",
    ),
    "map_edges": Option(
        "connect",
        {
            "connect": "areas that touch across the edge between two maps are connected",
            "within": "only areas of the same map are connected",
        },
        "自分が占拠しているエリアを見て、それが繋がっているとボーナスが発生します。",
        "the rules do not say whether areas of two maps that touch are connected",
    ),
    "tribe_pick": Option(
        "in_turn",
        {
            "in_turn": "each player in turn, from the first seat, picks a tribe",
            "random": "the tribes are dealt at random (a tribe's results without the advantage "
            "of picking first)",
        },
        "各プレイヤーはトライブを１つ選び、選んだトライブに応じたヒーローカードとトライブマーカー８個を受け取ります。",
        "the rules do not say in what order the tribes are picked",
    ),
}
# Branches worth a line in `pnp check` (a gap or a surprise in the rules); simulate reports all.
NOTABLE = {"cube_shortage", "blocked", "drawn_showdown"}
EXPLAIN = {}
BRANCHES = {
    "hero": "a hero card is played",
    "assist": "a player assists (助太刀)",
    "occupy": "a player occupies an area (占拠)",
    "evict": "an occupation returns another player's marker",
    "blocked": "an occupier cannot place a marker: other markers remain",
    "no_marker": "a player has no marker left to occupy with",
    "no_area": "an occupier has no area of their card's colour",
    "lone_lead": "nobody follows: the lead alone is in showdown",
    "drawn_showdown": "a showdown is a draw",
    "blue_change": "a blue resource changes a card's suit to the lead",
    "red_spent": "red resources raise a card's number",
    "skill": "a tribe skill is used",
    "cube_shortage": "a colour's cubes run out when areas are refilled",
    "carry": "a card is carried into the next round",
    "deck_short": "the deck cannot deal every hand up to 8",
}


def prepare(game) -> dict:
    turf = game.deck("turf").cards
    tribes = [c.fields["name"] for c in game.deck("tribe").cards]
    costs = {c.fields["name"]: int(c.fields["cost"]) for c in game.deck("tribe").cards}
    maps = [
        [known(COLOURS, c, f"area{i}") for i in range(1, 5)] for c in game.deck("area_map").cards
    ]
    heroes = {c.fields["tribe"]: int(c.fields["number"]) for c in game.deck("hero").cards}
    cubes = [0, 0, 0]
    for c in game.deck("cube").cards:
        cubes[known(COLOURS, c, "color")] += 1
    data = {
        "suit": [known(COLOURS, c, "suit") for c in turf],
        "number": [int(c.fields["number"]) for c in turf],
        "triangle": [c.fields["mark"] == "△" for c in turf],
        "tribes": tribes,
        "skill": [SKILLS.get(t, "") for t in tribes],
        "cost": [costs[t] for t in tribes],
        "maps": maps,
        "cubes": cubes,
        "names": [f"{c.fields['suit']}{c.fields['number']}{c.fields['mark']}" for c in turf],
        # Rule numbers, from the manifest, the data and the rules source (never constants here):
        "hero": len(turf),  # the hero's card id: after every turf card
        "hero_number": [heroes.get(t, 0) for t in tribes],
        "hand": int(game.manifest.deal["each"]),
        "tricks": rule_number(game, TRICKS, "the tricks in a round", "１ラウンドはNトリック"),
        "rounds": rule_number(
            game, ROUNDS, "the number of rounds", "Nラウンドが終わるとゲームが終了"
        ),
        "markers": rule_number(
            game, MARKERS, "the markers each player takes", "トライブマーカーN個"
        ),
        "removal": _removal(game),
        "small_layout": _small_layout(game),
    }
    # The cards the 3-player removal names (each number's △ copies), the deck without them.
    data["deck"] = list(range(len(turf)))
    numbers = data["removal"]["numbers"] if data["removal"] else []
    data["named"] = [
        [c for c in data["deck"] if data["triangle"][c] and data["number"][c] == n] for n in numbers
    ]
    data["named_all"] = sorted(c for of in data["named"] for c in of)
    data["deck_without_named"] = [c for c in data["deck"] if c not in data["named_all"]]
    return data


# The sentences the rule numbers are read from: `{}` stands for a number.
TRICKS = "ラウンドは…{}トリック"  # 「１ラウンドは６トリックで構成され」
# 「３ラウンドが終わるとゲームが終了します」 (not 「１ラウンドは…」)
ROUNDS = re.compile(
    r"([0-9０-９]+)\s*ラウンド(?:が終わ|を終え|終了|で|後|目の終)[^。、]*?ゲーム[^。]*?終"
)
MARKERS = "トライブマーカー…{}個"  # 「…ヒーローカードとトライブマーカー８個を受け取ります」
# 「３人プレイ時は４△と３△を抜き」, or in other words (「３人で遊ぶ時は各スートの４△と３△を
# ゲームから除きます」): the player count, then the numbers whose △ cards leave the game.
_N = "([0-9０-９]+)"
REMOVAL = re.compile(
    rf"{_N}\s*人[^。]*?{_N}\s*△\s*(?:と|、|・|及び|および)\s*{_N}\s*△[^。]*?"
    r"(?:抜|取り除|除外|除い|除き|使いません|使用しません|使わない)"
)
REMOVAL_LIKE = "３人プレイ時は４△と３△を抜き"
# 「２×２（３人プレイ時は２×１）」: the layout, then the player count that lays it out smaller
LAYOUT = re.compile(rf"{_N}\s*[×xX]\s*{_N}[^。]*?[（(]\s*{_N}\s*人[^。）)]*?{_N}\s*[×xX]\s*{_N}")
LAYOUT_LIKE = "２×２（３人プレイ時は２×１）"


def _removal(game) -> dict | None:
    """「３人プレイ時は４△と３△を抜き」: for which player count, which numbers' △ copies."""
    found = rule_numbers(game.rules_source or "", REMOVAL)
    return {"players": found[0], "numbers": list(found[1:])} if found else None


def _small_layout(game) -> dict | None:
    """「２×２（３人プレイ時は２×１）」: the player count that lays maps out smaller, and how
    many places that layout has."""
    found = rule_numbers(game.rules_source or "", LAYOUT)
    return {"players": found[2], "places": found[3] * found[4]} if found else None


def _grid(maps: int, areas: int, within: bool = False) -> tuple[tuple, tuple]:
    """Where each area lies, (row, column), with maps in a grid (2×2, or a row of 2-3) and each
    map 2×2 areas; and each area's neighbours (up, down, left, right; `within`: on its own map
    only). The same for every game of that many maps: worked out once."""
    key = (maps, areas, within)
    if key not in _GRIDS:
        cols = 2 if maps in (2, 4) else maps
        pos = []
        for k in range(maps):
            my, mx = divmod(k, cols)
            for i in range(areas):
                ay, ax = divmod(i, 2)
                pos.append((my * 2 + ay, mx * 2 + ax))
        at = {p: i for i, p in enumerate(pos)}
        neighbours = tuple(
            tuple(
                at[(y + dy, x + dx)]
                for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if (y + dy, x + dx) in at
                and not (within and at[(y + dy, x + dx)] // areas != i // areas)
            )
            for i, (y, x) in enumerate(pos)
        )
        _GRIDS[key] = (tuple(pos), neighbours)
    return _GRIDS[key]


_GRIDS: dict[tuple[int, int, bool], tuple[tuple, tuple]] = {}


def split_play(action: int, play: int) -> tuple[int, int, int, int]:
    """A play's code read back: (card, red, blue, skill)."""
    card, rest = divmod(action, play)
    red, rest = divmod(rest, 4)
    blue, skill = divmod(rest, 2)
    return card, red, blue, skill


# Play codes read back, per value of PLAY, as they are first played: applying a play looks
# its parts up instead of dividing them out (only codes played are kept, however large the
# supply of 酒肴).
_PLAYS: dict[int, dict[int, tuple[int, int, int, int]]] = {}


def _extras(red_have: int, spare: int) -> tuple[list[int], list[int]]:
    """What may go with a card, as offsets from its code (red * 4 + blue * 2 + skill), for a
    card that keeps its suit and for one that 霊薬 may change: any number of the 酒肴 held
    (「支払えるリソースがある限りどれだけでも」), the skill while the resources left pay its
    cost (`spare`: what is held beyond the cost; -1 when the skill cannot be used), 霊薬 on
    top. The same few hands of resources again and again: each worked out once."""
    key = (red_have, spare)
    if key not in _EXTRAS:
        plain, changed = [], []
        for red in range(red_have + 1):
            code = red * 4
            plain.append(code)
            changed.append(code)
            if spare - red >= 0:
                plain.append(code + 1)
                changed.append(code + 1)
            changed.append(code + 2)
            if spare - red - 1 >= 0:
                changed.append(code + 3)
        _EXTRAS[key] = (plain, changed)
    return _EXTRAS[key]


_EXTRAS: dict[tuple[int, int], tuple[list[int], list[int]]] = {}


def new_state(data: dict, players: int, seed: int, options: dict) -> State:
    return State(data, players, seed, options)


class State:
    def __init__(self, data: dict, players: int, seed: int, options: dict):
        self.data, self.n, self.opt = data, players, options
        self.suit, self.number, self.tri = data["suit"], data["number"], data["triangle"]
        self.HERO = data["hero"]
        self.rng = stream(seed, "chance")
        rng = self.rng
        self.removed: list[int] = []
        self.deck = data["deck"]  # never changed: hands are dealt from a copy
        removal = data["removal"]
        if removal and players == removal["players"]:
            named = data["named"]  # the △ cards of the numbers the removal names
            if options["removal"] == "two":  # one of each named card, of a suit drawn at random
                named = [of[rng.randrange(len(of))] for of in named]
                self.deck = [c for c in self.deck if c not in named]
            else:
                named = list(data["named_all"])
                self.deck = data["deck_without_named"]
            self.removed = named
        self.__dict__.update(codes(self.HERO, 4 * (data["cubes"][RED] + 1)))
        self.decode = _PLAYS.setdefault(self.PLAY, {})
        # The readings asked at every play, read once.
        self.hero_leads = options["hero_lead"] == "any"
        self.reuse_hero = options["leader_card"] == "hero"
        self.to_supply = options["spent"] == "supply"
        # Each player picks a tribe at setup (「各プレイヤーはトライブを１つ選び」): decisions.
        self.tribe: list[int] = []
        self.skill: list[str] = []
        self.cost: list[int] = []
        self.hero_value: list[int] = []  # the number of each seat's hero (its tribe's)
        # Maps: drawn at random, laid in a grid of maps (2×2, or a row for 2-3), each map 2×2 areas.
        small = data["small_layout"]
        n_maps = players
        if small and players == small["players"] and options["maps_three"] == "two":
            n_maps = small["places"]
        order = list(range(len(data["maps"])))
        rng.shuffle(order)
        # The board never changes once laid: tuples, shared by the search's copies.
        self.area_colour = tuple(c for m in order[:n_maps] for c in data["maps"][m])
        self.areas_of = tuple(
            tuple(a for a, c in enumerate(self.area_colour) if c == colour) for colour in range(3)
        )
        within = options["map_edges"] == "within"
        self.area_pos, self.neighbours = _grid(n_maps, len(data["maps"][0]), within)
        self.supply = list(data["cubes"])
        self.spent = [0, 0, 0]
        self.cubes = [0] * len(self.area_colour)
        self.counters = dict.fromkeys(BRANCHES, 0)
        for a in range(len(self.area_colour)):
            self._add_cube(a)
        self.markers = [[0] * players for _ in self.area_colour]  # markers[area][player]
        self.owner = [-1] * len(self.area_colour)  # whose markers an area holds, -1 for none
        self.marker_supply = [data["markers"]] * players
        self.store = [[0, 0, 0] for _ in range(players)]
        self.hero_ready = [True] * players
        self.vp = [0] * players
        self.vp_parts = {
            "trick": [0] * players,
            "markers": [0] * players,
            "gems": [0] * players,
            "majority": [0] * players,
        }
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.discard: list[int] = []
        self.round, self.trick = 1, 1
        self.leader = 0
        self.terminal = False
        self.notes: tuple = ()
        self._deal()
        self._start_trick()
        self.phase = "tribe"  # first, each player in turn picks a tribe
        self.current_player = 0
        if options["tribe_pick"] == "random":  # dealt, not picked: no decisions at setup
            for t in rng.sample(range(len(data["tribes"])), players):
                self._apply_tribe(self.TRIBE + t)

    # --- setup and dealing -----------------------------------------------------------------
    def _add_cube(self, area: int) -> None:
        colour = self.area_colour[area]
        if self.supply[colour]:
            self.supply[colour] -= 1
            self.cubes[area] += 1
        else:
            self.counters["cube_shortage"] += 1

    def _deal(self) -> None:
        held = {c for h in self.hands for c in h}
        pool = [c for c in self.deck if c not in held]
        self.rng.shuffle(pool)
        self.discard = []
        for p in range(self.n):
            need = self.data["hand"] - len(self.hands[p])
            if need > len(pool):
                self.counters["deck_short"] += 1
                need = len(pool)
            self.hands[p].extend(pool[:need])
            pool = pool[need:]
        self.undealt = pool

    def _start_trick(self) -> None:
        self.plays: list[tuple[int, int, int, int, int]] = []  # (seat, card, red, blue, skill)
        self.lead_suit: int | None = None  # the suit led, once a card is; -1 for the hero
        self.turn = 0
        self.phase = "play"
        self.current_player = self.leader
        self.hero_this_trick = False
        self.beside: int | None = None  # 夜桜会's choice: the hero's seat it goes beside
        self.skills_this_trick: set[int] = set()

    # --- the rules -------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.terminal:
            return []
        p = self.current_player
        if self.phase == "play":
            return self._play_actions(p)
        if self.phase == "pay":
            return [self.PAY + i for i in range(len(self._splits))]
        if self.phase == "tribe":
            return [self.TRIBE + t for t in range(len(self.data["tribes"])) if t not in self.tribe]
        if self.phase == "judge":
            return self._pending
        if self.phase == "choose":
            n = len(self.followers)
            if self.beside is not None:  # beside the hero: one follower (i == j)
                return [self.CHOOSE + i * 8 + i for i in range(n)]
            return [self.CHOOSE + i * 8 + j for i in range(n) for j in range(i + 1, n)]
        if self.phase == "carry":
            return [self.CARRY + c for c in self.hands[p]] + [self.CARRY_NONE]
        raise InvariantError(f"unknown phase {self.phase}")

    def _play_actions(self, p: int) -> list[int]:
        hand = self.hands[p]
        lead_suit = self.lead_suit
        follows = None
        if lead_suit is not None:
            suit = self.suit
            follows = [c for c in hand if suit[c] == lead_suit]
        if follows:
            cards = follows
        else:
            cards = list(hand)
            hero_may = lead_suit is not None or self.hero_leads
            if hero_may and self.hero_ready[p] and not self.hero_this_trick:
                cards.append(self.HERO)
        store = self.store[p]
        red_have, blue_have = store[RED], store[BLUE]
        # 霊薬 changes the suit of a card that cannot follow a suit led
        can_change = bool(blue_have) and not follows and lead_suit is not None and lead_suit >= 0
        usable = self._skill_usable(p)
        play = self.PLAY
        if not (red_have or usable or can_change):  # nothing to add to a card: the cards alone
            return [c * play for c in cards]
        spare = store[0] + store[1] + store[2] - self.cost[p]  # resources beyond the skill's cost
        plain, changed = _extras(red_have, spare if usable else -1)
        if not can_change:
            return [c * play + o for c in cards for o in plain]
        hero, suit = self.HERO, self.suit
        return [
            c * play + o
            for c in cards
            for o in (changed if c != hero and suit[c] != lead_suit else plain)
        ]

    def _chosen(self, action: int) -> tuple[int, int]:
        """The two seats a 夜桜会 choice puts in the showdown: two followers, or the hero's
        seat and one follower."""
        i, j = divmod(action - self.CHOOSE, 8)
        if self.beside is not None:
            return self.beside, self.followers[i]
        return self.followers[i], self.followers[j]

    def _skill_usable(self, p: int) -> bool:
        skill = self.skill[p]
        if skill == "reuse_leader":
            return self.reuse_hero and not self.hero_ready[p]
        return bool(skill)

    @property
    def note(self) -> str:
        """What the last action brought about, for the log: its parts formatted when read."""
        return "　".join(text.format(*args) for text, args in self.notes)

    def apply(self, action: int) -> None:
        self.notes = ()
        if self.phase == "play":
            self._apply_play(action)
        elif self.phase == "pay":
            self._apply_pay(action)
        elif self.phase == "tribe":
            self._apply_tribe(action)
        elif self.phase == "judge":
            self._apply_judge(action)
        elif self.phase == "choose":
            self._start_judging(list(self._chosen(action)))
        elif self.phase == "carry":
            self._apply_carry(action)

    def _apply_tribe(self, action: int) -> None:
        t = action - self.TRIBE
        self.tribe.append(t)
        self.skill.append(self.data["skill"][t])
        self.cost.append(self.data["cost"][t])
        self.hero_value.append(self.data["hero_number"][t])
        if len(self.tribe) < self.n:
            self.current_player += 1
            return
        self._start_trick()

    def _apply_play(self, action: int) -> None:
        p = self.current_player
        parts = self.decode.get(action)
        if parts is None:
            parts = self.decode[action] = split_play(action, self.PLAY)
        card, red, blue, skill = parts
        if card == self.HERO:
            self.hero_ready[p] = False
            self.hero_this_trick = True
            self.counters["hero"] += 1
            if self.lead_suit is None:  # a hero lead (hero_lead=any): no card follows it
                self.lead_suit = -1
        else:
            self.hands[p].remove(card)
            if self.lead_suit is None:
                self.lead_suit = self.suit[card]
        if red:
            self._spend(p, RED, red)
            self.counters["red_spent"] += 1
        if blue:
            self._spend(p, BLUE, blue)
            self.counters["blue_change"] += 1
        self.plays.append((p, card, red, blue, skill))
        if skill:
            self.skills_this_trick.add(p)
            self.counters["skill"] += 1
            if self.skill[p] == "reuse_leader":
                self.hero_ready[p] = True
            # Which colours pay the cost is the player's choice (「指定された数のリソース」).
            self._splits = self._payments(p, self.cost[p])
            if len(self._splits) > 1:
                self.phase = "pay"
                return
            self._spend_split(p, self._splits[0])
        self._next_play()

    def _payments(self, p: int, cost: int) -> list[tuple[int, int, int]]:
        """Every way to pay `cost` from the colours player p holds: (red, blue, yellow)."""
        r, b, y = self.store[p]
        return [
            (i, j, cost - i - j)
            for i in range(min(r, cost) + 1)
            for j in range(min(b, cost - i) + 1)
            if cost - i - j <= y
        ]

    def _spend_split(self, p: int, split: tuple[int, int, int]) -> None:
        for colour, count in enumerate(split):
            self._spend(p, colour, count)

    def _apply_pay(self, action: int) -> None:
        self._spend_split(self.current_player, self._splits[action - self.PAY])
        self.phase = "play"
        self._next_play()

    def _next_play(self) -> None:
        self.turn += 1
        if self.turn < self.n:
            self.current_player = (self.leader + self.turn) % self.n
        else:
            self._judge()

    def _spend(self, p: int, colour: int, count: int) -> None:
        if not count:
            return
        self.store[p][colour] -= count
        if self.to_supply:
            self.supply[colour] += count
        else:
            self.spent[colour] += count

    # --- judgement ---------------------------------------------------------------------------
    def _judge(self) -> None:
        """Who is in the showdown. The plays are in seat order from the start player, so a
        play's index is how near the start it was."""
        hero, plays, suit, tri, number = self.HERO, self.plays, self.suit, self.tri, self.number
        lead = self.lead_suit
        skills = self.skills_this_trick
        info = {}
        followers = []  # (strength, seat): higher number, then the △ copy, then nearer the start
        heroes = []
        i = 0
        for seat, card, red, blue, _skill in plays:
            if card == hero:  # the hero's number is its tribe's, and 酒肴 raise it too
                if red and seat in skills and self.skill[seat] == "double_red":
                    red *= 2
                info[seat] = (card, -1, self.hero_value[seat] + red)
                heroes.append(seat)
            else:  # each 酒肴 adds 1, or 2 with ブルーSAMURAI's skill used
                if red and seat in skills and self.skill[seat] == "double_red":
                    red *= 2
                value = number[card] + red
                played = lead if blue else suit[card]
                info[seat] = (card, played, value)
                if played == lead:
                    followers.append(((value, 1 if tri[card] else 0, -i), seat))
            i += 1
        self.info = info
        if skills and len(followers) >= 2:
            skill = self.skill
            for seat, *_ in plays:
                if seat in skills and skill[seat] == "choose_showdown":
                    # 夜桜会: the skill user picks the two showdown players among the followers;
                    # a hero played keeps its place (ヒーローカードは必ず優先), and the user
                    # picks the one beside it.
                    self.followers = [s for _, s in followers]
                    self.beside = heroes[0] if heroes else None
                    self.phase = "choose"
                    self.current_player = seat
                    return
        followers.sort(reverse=True)
        showdown = heroes[:1] + [s for _, s in followers]
        if len(showdown) == 1 and not heroes:
            self.counters["lone_lead"] += 1
        self._start_judging(showdown[:2])

    def _start_judging(self, showdown: list[int]) -> None:
        info = self.info
        self.showdown = showdown
        self.assists = {s: [] for s in showdown}
        # the others judge lowest number first, then nearer the start
        rest = []
        i = 0
        for play in self.plays:
            s = play[0]
            if s not in showdown:
                rest.append((info[s][2], i, s))
            i += 1
        rest.sort()
        self.to_judge = [r[2] for r in rest]
        self.phase = "judge"
        self.protected: set[int] = set()
        for s in self.skills_this_trick:
            if self.skill[s] == "protect":  # シャルモント: the areas of its markers
                self.protected |= {a for a, owner in enumerate(self.owner) if owner == s}
        self._next_judge()

    def _next_judge(self) -> None:
        to_judge = self.to_judge
        while to_judge:
            seat = to_judge[0]
            actions = self._judge_actions(seat)
            if not actions:  # no choice to make: passed over, the reason counted
                to_judge.pop(0)
                self.counters["no_marker" if self.marker_supply[seat] == 0 else "no_area"] += 1
                continue
            self.current_player = seat
            self._pending = actions  # legal_actions() hands these out without recomputing
            return
        self._resolve_showdown()

    def _judge_actions(self, p: int) -> list[int]:
        """What player p may do in the judgement: assist, occupy; none when neither is possible."""
        suit = self.info[p][1]
        acts = []
        if len(self.showdown) == 2 and not self.hero_this_trick and suit == self.lead_suit:
            acts += [self.ASSIST, self.ASSIST + 1]
        if self.marker_supply[p] > 0 and suit >= 0:
            occupy, protected, owners = self.OCCUPY, self.protected, self.owner
            for a in self.areas_of[suit]:
                owner = owners[a]
                if owner == p or a not in protected:
                    code = occupy + a * 5
                    # another's marker there: it goes back (one at a time; an area holds the
                    # markers of one player at most, as placing needs the others gone)
                    acts.append(code if owner < 0 or owner == p else code + owner + 1)
        return acts

    def _apply_judge(self, action: int) -> None:
        p = self.to_judge.pop(0)
        if action == self.NOTHING:
            if self.marker_supply[p] == 0:
                self.counters["no_marker"] += 1
            else:
                self.counters["no_area"] += 1
        elif action < self.OCCUPY:
            self.assists[self.showdown[action - self.ASSIST]].append(p)
            self.counters["assist"] += 1
        else:
            area, owner = divmod(action - self.OCCUPY, 5)
            self._occupy(p, area, owner - 1 if owner else None)
        self._next_judge()

    def _occupy(self, p: int, area: int, victim: int | None) -> None:
        self.counters["occupy"] += 1
        colour = self.area_colour[area]
        self.store[p][colour] += self.cubes[area]
        self.cubes[area] = 0
        here = self.markers[area]
        if victim is not None:
            here[victim] -= 1
            self.marker_supply[victim] += 1
            self.counters["evict"] += 1
            if not here[victim]:
                self.owner[area] = -1
        if self.owner[area] not in (-1, p):  # another player's marker is still there
            self.counters["blocked"] += 1
            self.notes += (("他のマーカーが残り、置けない", ()),)
            return
        here[p] += 1
        self.owner[area] = p
        self.marker_supply[p] -= 1

    def _resolve_showdown(self) -> None:
        sd, info = self.showdown, self.info
        if len(sd) == 1:
            seat = sd[0]
            self._score(seat, info[seat][2], "trick")
            winner = seat
            result = ("ガチンコ：P{}のみ → {}VP", (seat + 1, info[seat][2]))
        else:
            a, b = sd
            sa, sb = info[a][2], info[b][2]
            for s in self.assists[a]:
                sa += info[s][2]
            for s in self.assists[b]:
                sb += info[s][2]
            if sa == sb:
                self.counters["drawn_showdown"] += 1
                winner = None
                result = ("ガチンコ：P{} {} 対 P{} {} → 引き分け", (a + 1, sa, b + 1, sb))
            else:
                win, lose = (a, b) if sa > sb else (b, a)
                gain = abs(sa - sb)
                self._score(win, gain, "trick")
                self._score(lose, gain // 2, "trick")
                for s in self.assists[win]:
                    self._score(s, info[s][2], "trick")
                winner = win
                result = (
                    "ガチンコ：P{} {} 対 P{} {} → P{} {}VP、P{} {}VP",
                    (a + 1, sa, b + 1, sb, win + 1, gain, lose + 1, gain // 2),
                )
        hero = self.HERO
        self.discard += [play[1] for play in self.plays if play[1] != hero]
        self.plays = []
        self.notes += (result,)
        if winner is not None:
            self.leader = winner
        elif self.opt["tie_lead"] == "next":
            self.leader = (self.leader + 1) % self.n
        self._after_trick()

    def _score(self, seat: int, points: int, part: str) -> None:
        self.vp[seat] += points
        self.vp_parts[part][seat] += points

    def _after_trick(self) -> None:
        if self.trick < self.data["tricks"]:
            self.trick += 1
            self._start_trick()
            return
        self.phase = "carry"
        self.carry_turn = 0
        self.current_player = self.leader
        self.carried: dict[int, int | None] = {}

    def _apply_carry(self, action: int) -> None:
        p = self.current_player
        keep = None if action == self.CARRY_NONE else action - self.CARRY
        hand = self.hands[p]
        if keep is not None:
            self.counters["carry"] += 1
            hand.remove(keep)
        self.discard += hand
        self.hands[p] = [keep] if keep is not None else []
        self.carry_turn += 1
        if self.carry_turn < self.n:
            self.current_player = (self.leader + self.carry_turn) % self.n
            return
        self._end_round()

    def _end_round(self) -> None:
        for here, owner in zip(self.markers, self.owner):
            if owner >= 0:  # an area holds one player's markers at most
                self._score(owner, here[owner], "markers")
        for a, cubes in enumerate(self.cubes):
            if cubes:
                self._add_cube(a)
        if self.round == self.data["rounds"]:
            self._final_bonuses()  # wins per tribe: the report's factions (factions())
            self.terminal = True
            self.phase = "over"
            self.current_player = -1
            return
        self.round += 1
        self.trick = 1
        self._deal()
        self._start_trick()

    def _final_bonuses(self) -> None:
        for p, (gems, majority) in enumerate(self._bonuses()):
            self._score(p, gems, "gems")
            self._score(p, majority, "majority")

    def _bonuses(self) -> list[tuple[int, int]]:
        """Each player's end bonuses as the board stands: the most 宝石 (shared on a tie) and
        the connected areas."""
        gems = [self.store[p][YELLOW] for p in range(self.n)]
        best = max(gems)
        tied = gems.count(best)
        return [
            (6 // tied if best > 0 and gems[p] == best else 0, self._majority(p))
            for p in range(self.n)
        ]

    def estimate(self) -> list[int]:
        """Each player's points if this round ended the game now: the markers' points of a
        round's end and the end bonuses added (for the search's cut-off playouts)."""
        if self.terminal:
            return list(self.vp)
        points = list(self.vp)
        for here in self.markers:
            for p, count in enumerate(here):
                points[p] += count
        for p, (gems, majority) in enumerate(self._bonuses()):
            points[p] += gems + majority
        return points

    def _majority(self, p: int) -> int:
        mine = {a for a in range(len(self.area_colour)) if self.markers[a][p]}
        if self.opt["majority"] == "all":
            return 2 * sum(1 for a in mine if any(b in mine for b in self.neighbours[a]))
        best, seen = 0, set()
        for a in mine:
            if a in seen:
                continue
            group, todo = 0, [a]
            seen.add(a)
            while todo:
                x = todo.pop()
                group += 1
                for y in self.neighbours[x]:
                    if y in mine and y not in seen:
                        seen.add(y)
                        todo.append(y)
            best = max(best, group)
        return 2 * best if best >= 2 else 0

    def is_terminal(self) -> bool:
        return self.terminal

    def scores(self) -> list[int]:
        return list(self.vp)

    def winners(self) -> tuple[list[int], bool]:
        best = max(self.vp)
        top = [p for p in range(self.n) if self.vp[p] == best]
        if len(top) == 1:
            return top, False
        areas = [
            sum(1 for a in range(len(self.area_colour)) if self.markers[a][p])
            for p in range(self.n)
        ]
        most = max(areas[p] for p in top)
        return [p for p in top if areas[p] == most], True

    # --- what players may see, and checks ----------------------------------------------------
    def observation(self, player: int) -> dict:
        return {
            "hand": sorted(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "plays": [(s, c) for s, c, *_ in self.plays],
            "discard": list(self.discard),
            "cubes": list(self.cubes),
            "markers": [list(m) for m in self.markers],
            "store": [list(s) for s in self.store],
            "vp": list(self.vp),
            "round": self.round,
            "trick": self.trick,
            "hero_ready": list(self.hero_ready),
        }

    def factions(self) -> list[str]:
        """Each seat's tribe, for wins per tribe in the report."""
        return [self.data["tribes"][t] for t in self.tribe]

    def determinize(self, player: int, rng) -> None:
        """Deal anew what `player` cannot see (others' hands, the cards not dealt, and which
        cards were removed when that was drawn at random), each place keeping its size."""
        others = [q for q in range(self.n) if q != player]
        drawn = self.opt["removal"] == "two"
        pool = list(self.undealt) + (list(self.removed) if drawn else [])
        for q in others:
            pool += self.hands[q]
        rng.shuffle(pool)
        for q in others:
            k = len(self.hands[q])
            self.hands[q], pool = pool[:k], pool[k:]
        if drawn:
            k = len(self.removed)
            self.removed, pool = pool[:k], pool[k:]
        self.undealt = pool

    def hidden_from(self, player: int) -> set[int]:
        hidden = set(self.undealt) | set(self.removed)
        for q in range(self.n):
            if q != player:
                hidden |= set(self.hands[q])
        return hidden

    def check_invariants(self) -> None:
        held = [c for h in self.hands for c in h] + [c for _, c, *_ in self.plays if c != self.HERO]
        cards = held + self.discard + self.undealt + self.removed
        if sorted(cards) != list(range(len(self.suit))):
            raise InvariantError(f"turf cards not conserved: {len(cards)} of {len(self.suit)}")
        cubes = (
            sum(self.supply) + sum(self.cubes) + sum(sum(s) for s in self.store) + sum(self.spent)
        )
        if cubes != sum(self.data["cubes"]) or min(self.supply) < 0:
            raise InvariantError(f"cubes not conserved: {cubes} of {sum(self.data['cubes'])}")
        for a, here in enumerate(self.markers):
            held = [p for p in range(self.n) if here[p]]
            if held != ([self.owner[a]] if self.owner[a] >= 0 else []):
                raise InvariantError(f"area {a}: markers of {held}, owner {self.owner[a]}")
        for p in range(self.n):
            on_maps = sum(self.markers[a][p] for a in range(len(self.area_colour)))
            if on_maps + self.marker_supply[p] != self.data["markers"]:
                raise InvariantError(
                    f"player {p}: {on_maps} markers on maps + {self.marker_supply[p]} in hand"
                )
            obs = self.observation(p)
            seen = set(obs["hand"]) | {c for _, c in obs["plays"]} | set(obs["discard"])
            if seen & self.hidden_from(p):
                raise InvariantError(f"player {p} sees hidden cards")

    def check_end(self) -> None:
        """Scores against what the board shows, not against the code that awarded them: no part
        is negative; the majority bonus is 2 per area in a group of two or more, so it is even
        and at most twice the areas a player holds, and nothing for fewer than two areas; the
        game ends after its last round with every marker on the maps or in its supply."""
        if self.round != self.data["rounds"]:
            raise InvariantError(f"the game ended in round {self.round} of {self.data['rounds']}")
        for p in range(self.n):
            if any(part[p] < 0 for part in self.vp_parts.values()):
                raise InvariantError(f"player {p}: a negative score part")
            held = sum(1 for a in range(len(self.area_colour)) if self.markers[a][p])
            bonus = self.vp_parts["majority"][p]
            if bonus % 2 or bonus > 2 * held or (held < 2 and bonus):
                raise InvariantError(f"player {p}: majority bonus {bonus} with {held} areas held")
            on_maps = sum(self.markers[a][p] for a in range(len(self.area_colour)))
            if on_maps + self.marker_supply[p] != self.data["markers"]:
                raise InvariantError(f"player {p}: markers not conserved")

    # --- words -------------------------------------------------------------------------------
    def _card(self, c: int) -> str:
        return "ヒーロー(8)" if c == self.HERO else self.data["names"][c]

    def describe(self, action: int) -> str:
        p = self.current_player
        tribe = self.data["tribes"][self.tribe[p]] if p < len(self.tribe) else "?"
        head = f"R{self.round}-{self.trick}　P{p + 1}（{tribe}）"
        if self.phase == "tribe":
            return f"準備　P{p + 1}：トライブ {self.data['tribes'][action - self.TRIBE]} を選ぶ"
        if self.phase == "pay":
            paid = self._splits[action - self.PAY]
            what = "・".join(f"{COLOURS[c]}{n}" for c, n in enumerate(paid) if n)
            return f"{head}：スキルのコストを {what} で支払う"
        if self.phase == "play":
            card, red, blue, skill = split_play(action, self.PLAY)
            extra = []
            if red:
                extra.append(f"酒肴{red}")
            if blue:
                extra.append("霊薬でスート変更")
            if skill:
                extra.append("スキル")
            verb = "リード" if not self.plays else "出す"
            return f"{head}：{verb}　{self._card(card)}" + (
                f"（{'・'.join(extra)}）" if extra else ""
            )
        if self.phase == "choose":
            a, b = (seat + 1 for seat in self._chosen(action))
            return f"{head}：夜桜会のスキルでガチンコを P{a} と P{b} に決める"
        if self.phase == "judge":
            if action == self.NOTHING:
                return f"{head}：何もできない"
            if action < self.OCCUPY:
                return f"{head}：助太刀　P{self.showdown[action - self.ASSIST] + 1}に味方"
            a, owner = divmod(action - self.OCCUPY, 5)
            back = f"、P{owner}のマーカーを戻す" if owner else ""
            colour = COLOURS[self.area_colour[a]]
            return f"{head}：占拠　エリア{a + 1}（{colour}、キューブ{self.cubes[a]}{back}）"
        if action == self.CARRY_NONE:
            return f"{head}：持ち越さない"
        return f"{head}：{self._card(action - self.CARRY)}を持ち越す"

    def describe_end(self) -> str:
        if not self.terminal:
            return "打ち切り（手数の上限）"
        winners, _ = self.winners()
        parts = "、".join(f"P{p + 1} {self.vp[p]}VP" for p in range(self.n))
        won = "引き分け" if len(winners) > 1 else f"P{winners[0] + 1} の勝ち"
        return f"終了：{parts} → {won}"


# The kinds of action, for the report of how often each is taken (a play may be of several:
# a card, with 酒肴, with 霊薬, with the skill).
ACTION_TYPES = {
    "tribe": "pick a tribe at setup",
    "card": "play a turf card",
    "hero": "play the hero card",
    "red": "spend 酒肴 on a card",
    "blue": "change a card's suit with 霊薬",
    "skill": "use the tribe's skill",
    "pay": "choose the colours that pay a skill",
    "choose": "choose the showdown (夜桜会)",
    "assist": "assist (助太刀)",
    "occupy": "occupy an area (占拠)",
    "evict": "send back another player's marker",
    "carry": "carry a card into the next round",
    "carry_none": "carry nothing into the next round",
}


def action_type(state: State, action: int) -> tuple[str, ...] | str:
    phase = state.phase
    if phase == "play":
        card, red, blue, skill = split_play(action, state.PLAY)
        kinds = ("hero" if card == state.HERO else "card",)
        return kinds + ("red",) * bool(red) + ("blue",) * blue + ("skill",) * skill
    if phase in ("tribe", "pay", "choose"):
        return phase
    if phase == "judge":  # (a seat with nothing to do is passed over: no decision)
        if action < state.OCCUPY:
            return "assist"
        return ("occupy", "evict") if (action - state.OCCUPY) % 5 else "occupy"
    return "carry_none" if action == state.CARRY_NONE else "carry"


def greedy_value(state: State, action: int) -> float:
    """Play high when following, cheap otherwise; occupy where cubes lie; assist the stronger."""
    if state.phase == "tribe":
        return 0.0  # no tribe looks better at a glance: picked at random among equals
    if state.phase == "pay":
        red, blue, yellow = state._splits[action - state.PAY]
        return -(1.0 * red + 0.8 * blue + 0.5 * yellow)  # keep what raises numbers
    if state.phase == "play":
        card, red, blue, skill = split_play(action, state.PLAY)
        hero = card == state.HERO
        value = (
            state.data["hero_number"][state.tribe[state.current_player]]
            if hero
            else state.number[card]
        )
        following = (
            state.plays and card != state.HERO and (state.suit[card] == state.lead_suit or blue)
        )
        return (
            (value + red if following or not state.plays else -value)
            - 0.5 * (red + blue + skill)
            - (6 if hero and state.round < state.data["rounds"] else 0)
        )
    if state.phase == "choose":
        me = state.current_player
        pair = state._chosen(action)
        return (5 if me in pair else 0) - sum(state.info[s][2] for s in pair if s != me)
    if state.phase == "judge":
        if action == state.NOTHING:
            return 0.0
        if action < state.OCCUPY:
            side = state.showdown[action - state.ASSIST]
            return state.info[side][2] / 2
        a, owner = divmod(action - state.OCCUPY, 5)
        return (
            2
            + state.cubes[a]
            + sum(1 for b in state.neighbours[a] if state.markers[b][state.current_player])
            + (state.vp[owner - 1] / 100 if owner else 0)
        )  # send back the leader's marker
    if action == state.CARRY_NONE:
        return 0.0
    return state.number[action - state.CARRY]


# Simple policies to probe (`pnp simulate --probes`): does one of them beat skilled players?
# Each scores an action like greedy_value; the highest is played.
def _never_assist(state: State, action: int) -> float:
    if state.phase == "judge" and state.ASSIST <= action < state.OCCUPY:
        return -100.0
    return greedy_value(state, action)


def _hoard(state: State, action: int) -> float:
    """Spend no resource and use no skill: keep every cube for the gem and cube counts."""
    if state.phase == "play":
        rest = action % state.PLAY
        return greedy_value(state, action) - 100 * bool(rest)
    return greedy_value(state, action)


STRATEGIES = {
    "never_assist": ("never assist (助太刀): occupy whenever possible", _never_assist),
    "hoard": ("spend no resource, use no skill", _hoard),
}


# -- static checks: what its rules say about the deck, the deal and the supply, against the
# data. Each finds its sentence by its words (and says so at this module when it cannot).

DEAL = "各プレイヤーに{}枚ずつ配"
MAPS = re.compile(
    r"(?:”|\"|「)?プレイヤー(?:の)?(?:人数|数)(?:”|\"|」)?(?:と同じ)?(?:枚|分)|人数分"
)
# 「そこに同色のリソースを１個ずつ配置してください」, or 「同じ色のキューブを１個ずつ置きます」
REFILL = re.compile(r"(?:同色|同じ色)の(?:リソース|キューブ)[^。]*?([0-9０-９]+)\s*個ずつ")
# what becomes of a colour that runs out: 「リソースが足りない場合は…」
RUNS_OUT = re.compile(r"(?:リソース|キューブ)[^。]*?(?:尽き|足りな|不足|なくな|無くな|切れ)")
SUITS = "各スートに"  # the sentence is bound to the data, so find it by its words

MESSAGES = Messages(
    suits_differ="the suits hold different numbers of ナワバリカード: {counts}",
    per_suit="{count} ナワバリカード in each of {suits}",
    removal_short=(
        "{players} players, removing {removed}: {left} ナワバリカード left, but dealing needs "
        "{need}"
    ),
    removal_left=(
        "{players} players, removing {removed}: {left} ナワバリカード, {need} dealt each round, "
        "{spare} stay face down"
    ),
    named_cards="{count} cards",
    all_cards="all {count}",
    hand_short="a hand of {hand} cannot play {tricks} tricks",
    hand_left="{hand} cards for {tricks} tricks: {spare} left at round end",
    cubes_short=(
        "{players} players: the worst draw of maps has more areas than cubes for setup: {short}"
    ),
    cubes_tight=(
        "{players} players: the worst draw of {players} maps uses most of a colour's cubes at "
        "setup ({shown}), and 「{refill}」 needs as many again at each round end: the rules do "
        "not say what happens when a colour runs out"
    ),
    markers=("{tribe}: {have} トライブマーカー, the rules give each player {want} (「{rule}」)"),
    no_hero="{tribe} has no ヒーローカード",
)


def check_cards_per_suit(game: Game, problems: Problems) -> None:
    """Every suit holds the same cards (the manifest's composition names which)."""
    per: dict[str, int] = {}
    for card in game.deck("turf").cards:
        per[card.fields["suit"]] = per.get(card.fields["suit"], 0) + 1
    counts = set(per.values())
    shown = "、".join(f"{suit} {n}" for suit, n in per.items())
    if len(counts) > 1:
        problems.warning(MESSAGES.say(game, "suits_differ", counts=shown), game.deck("turf").where)
    elif counts:
        problems.notice(
            MESSAGES.say(game, "per_suit", count=counts.pop(), suits="、".join(per)),
            rule_at(game, SUITS),
        )


def check_three_player_removal(game: Game, problems: Problems) -> None:
    """What the 3-player removal leaves to deal, read one card a number or every suit's (the
    text checks say when the sentence leaves that open)."""
    rule = stated(game, REMOVAL, "the 3-player removal", REMOVAL_LIKE)
    deal = find_rule(game, DEAL)
    players, numbers = rule.numbers[0], rule.numbers[1:]
    turf = game.deck("turf")
    removed = [c for c in turf.cards if c.fields["mark"] == "△" and c.fields["number"] in numbers]
    hand = int(game.manifest.deal["each"]) if game.manifest.deal else 0
    at = deal.where if deal else rule.where
    for label, gone in (
        (MESSAGES.say(game, "named_cards", count=len(numbers)), len(numbers)),
        (MESSAGES.say(game, "all_cards", count=len(removed)), len(removed)),
    ):
        left = len(turf.cards) - gone
        need = players * hand
        fields = {"players": players, "removed": label, "left": left, "need": need}
        if need > left:
            problems.error(MESSAGES.say(game, "removal_short", **fields), at)
        else:
            problems.notice(MESSAGES.say(game, "removal_left", spare=left - need, **fields), at)


def check_hand_against_tricks(game: Game, problems: Problems) -> None:
    """Cards in hand against tricks in a round: what is left at the round's end."""
    tricks = stated(game, TRICKS, "the tricks in a round", "１ラウンドはNトリック")
    if not game.manifest.deal or "each" not in game.manifest.deal:
        return
    hand, per_round = int(game.manifest.deal["each"]), tricks.numbers[0]
    fields = {"hand": hand, "tricks": per_round}
    if hand < per_round:
        problems.error(MESSAGES.say(game, "hand_short", **fields), tricks.where)
    else:
        problems.notice(
            MESSAGES.say(game, "hand_left", spare=hand - per_round, **fields), tricks.where
        )


def check_cubes_against_areas(game: Game, problems: Problems) -> None:
    """Setup puts a cube on every area; each round end adds one to every untouched area."""
    maps = game.deck("area_map").cards
    cubes: dict[str, int] = {}
    for cube in game.deck("cube").cards:
        cubes[cube.fields["color"]] = cubes.get(cube.fields["color"], 0) + 1
    areas = [c for c in game.deck("area_map").columns if c.startswith("area")]
    refill = find_rule(game, REFILL)
    at = stated(game, MAPS, "how many area maps are drawn", "”プレイヤー人数”枚引いて").where
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
            shown = "、".join(f"{c} {n} / {cubes[c]}" for c, n in short.items())
            problems.error(MESSAGES.say(game, "cubes_short", players=players, short=shown), at)
            continue
        tight = {c: n for c, n in worst.items() if n * 2 > cubes[c]}
        if tight and refill is not None and find_rule(game, RUNS_OUT) is None:
            shown = "、".join(f"{c} {n}/{cubes[c]}" for c, n in tight.items())
            problems.warning(
                MESSAGES.say(game, "cubes_tight", players=players, shown=shown, refill=refill.text),
                refill.where,
            )


def check_markers(game: Game, problems: Problems) -> None:
    """Each tribe's markers in the data against the number the rules hand each player."""
    tribes = [c.fields["name"] for c in game.deck("tribe").cards]
    heroes = {c.fields["tribe"] for c in game.deck("hero").cards}
    for tribe in tribes:
        if tribe not in heroes:
            problems.error(MESSAGES.say(game, "no_hero", tribe=tribe), game.deck("hero").where)
    rule = stated(game, MARKERS, "the markers each player takes", "トライブマーカーN個")
    per_tribe: dict[str, int] = {}
    for marker in game.deck("marker").cards:
        per_tribe[marker.fields["tribe"]] = per_tribe.get(marker.fields["tribe"], 0) + 1
    want = rule.numbers[0]
    for tribe in tribes:
        have = per_tribe.get(tribe, 0)
        if have != want:
            problems.error(
                MESSAGES.say(game, "markers", tribe=tribe, have=have, want=want, rule=rule.text),
                game.deck("marker").where,
            )


CHECKS = (
    check_cards_per_suit,
    check_three_player_removal,
    check_hand_against_tricks,
    check_cubes_against_areas,
    check_markers,
)
