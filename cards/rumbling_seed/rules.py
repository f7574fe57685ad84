"""鎮守大祭 ランブリングシード as a machine-playable game: dragon holes, takes, elders, the seed
payments.

Fed by `prepare()` from the model (the 龍脈・老師 cards that are printed, elders' skills by their
effect keys); driven by pnp's rules engine. Actions are small ints, by phase:
  move      src * H + dst (H holes, from the manifest's piles), or NO_MOVE when no move is possible
  take      TAKE + hole, or TAKE_SECOND + hole (文殊広法天尊's once-per-game take)
  four god  GOD_HOLE + hole, GOD_ELDER + elder, or GOD_SKIP
  bonus     BONUS + elder (one of the face-up elders), or BONUS_SKIP

The static checks at the end (`CHECKS`) compare what the rules say with the data; each
quotes the sentence it tests.
"""

from __future__ import annotations

import re
from itertools import compress

from generator.rules.kit import (
    Game,
    InvariantError,
    Messages,
    Option,
    Problems,
    find_rule,
    known,
    rule_number,
    rule_numbers,
    stated,
    stream,
)

GAME_ID = "rumbling_seed"
STEP_CAP = 1500
# The search's playouts look this many moves ahead, then judge by estimate() (about a round).
ROLLOUT_MOVES = 16


def codes(holes: int, elders: int) -> dict[str, int]:
    """Action numbers for a board of `holes` dragon holes and `elders` elder cards: moves are
    src * holes + dst, then the other kinds of action each in a block of its own."""
    no_move = holes * holes
    take = no_move + 4
    god_hole = take + 2 * holes
    god_skip = god_hole + holes + elders
    bonus = god_skip + 6
    return {
        "NO_MOVE": no_move,
        "TAKE": take,
        "TAKE_SECOND": take + holes,
        "GOD_HOLE": god_hole,
        "GOD_ELDER": god_hole + holes,
        "GOD_SKIP": god_skip,
        "BONUS": bonus,
        "BONUS_SKIP": bonus + elders,
        # setup: a disciple (an element) each; the end: which seeds pay, as elements a * 5 + b
        # (b = 4: one seed)
        "DISCIPLE": bonus + elders + 1,
        "SETTLE": bonus + elders + 1 + 8,
    }


SEED, MINION = 0, 1
ELEMENTS = ("地", "水", "火", "風")
KNOWN_EFFECTS = {
    "scoring.seed_cost_minus_1",
    "take.adjacent_numbers",
    "take.same_parity",
    "scoring.majority_minus_1",
    "bonus.count_plus_1",
    "move.twice",
    "once.take_second",
    "scoring.seed_vp_1",
}

OPTIONS = {
    "face_down_elders": Option(
        "4",
        {
            "4": "4 face down: one turned up at the end of each of rounds 1-4",
            "5": "5 face down: one is still face down after round 5",
        },
        "次に、老師カードを六芒星の内側へ、今度は裏向きで並べてください。",
        "the rules give no number; the end condition implies 4",
    ),
    "match": Option(
        "top",
        {
            "top": "only the top card of each other hole is looked at",
            "pile": "every card of each other hole is looked at",
        },
        "他の龍穴を見て「選んだのと同じ数字のミニオン／シード（属性は違っていても可）」があれば、各龍穴から１枚ずつ取得し手元へ置きます。",
        "piles are face up but only their top card shows",
    ),
    "bonus_number": Option(
        "first",
        {
            "first": "N is the number of the first minion taken this turn",
            "lowest": "N is the lowest number among the minions taken",
            "highest": "N is the highest",
        },
        "取得フェイズでミニオンを得た際、”得たミニオンの数字”と同枚数得る毎に、好きな老師カードを１枚得ることができます。",
        "a turn can take minions of different numbers (the forced extra card, the four-god power)",
    ),
    "hole_end": Option(
        "round_end",
        {
            "round_end": "2 or fewer holes end the game only at the end of a round",
            "immediately": "the game ends as soon as 2 or fewer holes remain",
        },
        "この時、龍穴が残り２つ以下になっていた場合、ゲーム終了となります。",
        "holes can run out in the middle of a round",
    ),
    "disciples": Option(
        "in_turn",
        {
            "in_turn": "each player in turn, from the start player, picks a disciple",
            "random": "the disciples are dealt at random (an element's results without the "
            "advantage of picking first)",
        },
        "最後に、好きな方法でスタートプレイヤーを決定し、弟子とそれと同じ属性の四神を１枚ずつ、表向きにして手元へ置いてください。",
        "the rules do not say how the disciples are shared out",
    ),
}
# Branches worth a line in `pnp check` (a gap or a surprise in the rules); simulate reports all.
NOTABLE = {"bonus_but_no_elder", "mixed_bonus", "ended_by_holes"}
EXPLAIN = {"dead_end": "hole_end", "capped": "hole_end"}
BRANCHES = {
    "ended_by_holes": "the game ends because 2 or fewer dragon holes remain",
    "ended_by_rounds": "the game ends after round 5",
    "take_bonus": "a take bonus gives an elder (「取得ボーナス」)",
    "bonus_but_no_elder": "a take bonus is earned but no face-up elder is left "
    "(「老師カードが尽きた場合」)",
    "four_god": "a four-god power is used",
    "forced_extra": "only one card matched, so a second is taken from the same hole",
    "seed_payment": "a majority player pays seeds (「シードを支払う必要があります」)",
    "minions_discarded": "a majority player cannot pay and discards those minions",
    "no_move": "a player cannot move: fewer than two holes (「それは龍穴でありません」)",
    "mixed_bonus": "a turn's minions have different numbers, so the bonus reading matters",
}


def prepare(game) -> dict:
    """Dragon-vein cards and elders from the printed data; effect keys checked by the engine."""
    veins = game.deck("dragon").cards
    elders = game.deck("elder")
    names = elders.values("name")
    effects = {c.fields["name"]: c.fields["effect"] for c in elders.cards}
    unknown = sorted({e for e in effects.values() if e not in KNOWN_EFFECTS})
    return {
        "kind": [SEED if c.fields["kind"] == "シード" else MINION for c in veins],
        "element": [known(ELEMENTS, c, "element") if c.fields["element"] else -1 for c in veins],
        "number": [int(c.fields["number"]) for c in veins],
        "elder_names": names,
        "elder_effect": [effects[n] for n in names],
        "elder_cards": [names.index(c.fields["name"]) for c in elders.cards],
        "unknown_effects": unknown,
        # Rule numbers, from the manifest and the rules source (never constants here):
        "holes": int(game.manifest.setup["piles"]["count"]),
        "face_up": rule_number(
            game, FACE_UP, "the number of face-up elders at setup", "老師カードを…N枚引き…表向き"
        ),
        "rounds": rule_number(game, ROUNDS, "the number of rounds", "これがNラウンド目の終了時"),
        "end_holes": rule_number(
            game, END_HOLES, "how few holes end the game", "龍穴が残りNつ以下"
        ),
        "minion_numbers": sorted(
            {int(c.fields["number"]) for c in veins if c.fields["kind"] != "シード"}
        ),
    }


# The sentences the rule numbers are read from: `{}` stands for the number.
FACE_UP = "老師カード…{}枚…表向き"  # 「老師カードをよくシャッフルして３枚引き、…表向きに並べ」
ROUNDS = "{}ラウンド目の終了"  # 「これが５ラウンド目の終了時」
END_HOLES = "龍穴が…{}つ以下"  # 「龍穴が残り２つ以下になっていた場合、ゲーム終了」


# The moves between the holes left, listed once for each set of holes (not at every step): by
# the codes' sizes, the holes left and whether the move may be skipped. Never changed once made.
_MOVES: dict[tuple, list[int]] = {}


def _took(state: State, got: list[int]) -> str:
    return "得た：" + "、".join(state._card(c) for c in got)


def _bonus(state: State, cards: int, number: int, times: int) -> str:
    return f"この手番{cards}枚、ミニオン{number}で取得ボーナス{times}回"


def new_state(data: dict, players: int, seed: int, options: dict) -> State:
    return State(data, players, seed, options)


class State:
    def __init__(self, data: dict, players: int, seed: int, options: dict):
        self.data, self.n, self.opt = data, players, options
        self.kind, self.elem, self.num = data["kind"], data["element"], data["number"]
        rng = stream(seed, "chance")
        deck = list(range(len(self.kind)))
        rng.shuffle(deck)
        self.H = holes = data["holes"]
        self.hole_ids = range(holes)
        self.__dict__.update(codes(holes, len(data["elder_cards"])))
        size = len(deck) // holes
        self.holes = [deck[i * size : (i + 1) * size] for i in range(holes)]  # bottom ... top
        self.leftover = deck[size * holes :]
        elders = list(data["elder_cards"])
        rng.shuffle(elders)
        up = data["face_up"]
        self.elders_up = elders[:up]
        down = int(options["face_down_elders"])
        self.elders_down = elders[up : up + down]
        self.elders_out = elders[up + down :]
        # each player's disciple and four god: chosen at setup, in turn from the start player
        self.element: list[int] = []
        self.god_used = [False] * players
        self.taken: list[list[int]] = [[] for _ in range(players)]
        self.elders: list[list[int]] = [[] for _ in range(players)]
        self.once_used = [0] * players
        self.round = 1
        self.current_player = 0
        self.phase = "move"
        self.moves_left = 0
        self.turn_cards: list[int] = []
        self.bonus_left = 0
        self.terminal = False
        self.counters = dict.fromkeys(BRANCHES, 0)
        self.notes: tuple = ()  # what the last action brought, for transcripts (see note)
        # how many of each player's elders have each effect: asked at every step
        self.effects: list[dict[str, int]] = [{} for _ in range(players)]
        self.phase = "disciple"
        if options["disciples"] == "random":  # dealt, not picked: no decisions at setup
            self.element = rng.sample(range(len(ELEMENTS)), players)
            self._start_turn()

    # --- helpers -----------------------------------------------------------------------------
    def _live(self) -> list[int]:
        """The holes with cards left (asked at every step)."""
        return list(compress(self.hole_ids, self.holes))

    def _skill(self, p: int, effect: str) -> int:
        """How many of player p's elders have `effect`."""
        return self.effects[p].get(effect, 0)

    def _gain_elder(self, p: int, elder: int) -> None:
        self.elders[p].append(elder)
        effect = self.data["elder_effect"][elder]
        counts = self.effects[p]
        counts[effect] = counts.get(effect, 0) + 1

    @property
    def note(self) -> str:
        """What the last action brought about, for the log: its parts formatted when read."""
        return "　".join(say(self, *args) for say, args in self.notes)

    def _start_turn(self) -> None:
        p = self.current_player
        self.phase = "move"
        self.moves_left = 1 + self._skill(p, "move.twice")
        self.turn_cards = []
        self.bonus_left = 0
        if len(self._live()) < 2:
            self.counters["no_move"] += 1
            self.phase = "take"
            if not self._live():
                self._end_turn()

    # --- the rules -------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.terminal:
            return []
        live = self._live()
        p = self.current_player
        if self.phase == "move":
            first = self.moves_left == 1 + self._skill(p, "move.twice")
            key = (self.H, self.NO_MOVE, tuple(live), first)
            moves = _MOVES.get(key)
            if moves is None:  # the same few hole sets again and again: each listed once
                H = self.H
                moves = [s * H + d for s in live for d in live if s != d]
                _MOVES[key] = moves = moves if first else moves + [self.NO_MOVE]
            return moves
        if self.phase == "take":
            acts = [self.TAKE + h for h in live]
            if self._skill(p, "once.take_second") > self.once_used[p]:
                acts += [self.TAKE_SECOND + h for h in live if len(self.holes[h]) >= 2]
            return acts
        if self.phase == "god":
            return (
                [self.GOD_HOLE + h for h in live]
                + [self.GOD_ELDER + i for i in range(len(self.elders_up))]
                + [self.GOD_SKIP]
            )
        if self.phase == "bonus":
            return [self.BONUS + i for i in range(len(self.elders_up))] + [self.BONUS_SKIP]
        if self.phase == "disciple":
            return [self.DISCIPLE + e for e in range(len(ELEMENTS)) if e not in self.element]
        if self.phase == "settle":
            return [self._settle_code(option) for option in self._settle_options]
        raise InvariantError(f"unknown phase {self.phase}")

    def _settle_code(self, option: tuple[int, ...]) -> int:
        return self.SETTLE + option[0] * 5 + (option[1] if len(option) > 1 else 4)

    def apply(self, action: int) -> None:
        p = self.current_player
        self.notes = ()
        if self.phase == "disciple":
            self.element.append(action - self.DISCIPLE)
            if len(self.element) < self.n:
                self.current_player += 1
            else:
                self.current_player = 0
                self._start_turn()
            return
        if self.phase == "settle":
            a, b = divmod(action - self.SETTLE, 5)
            self._pay_seeds(p, (a,) if b == 4 else (a, b))
            self.settle_at += 1
            self._settle_next()
            return
        if self.phase == "move":
            if action == self.NO_MOVE:
                self.phase = "take"
                return
            src, dst = divmod(action, self.H)
            self.holes[dst].append(self.holes[src].pop())
            self.moves_left -= 1
            if self.moves_left == 0 or len(self._live()) < 2:
                self.phase = "take"
            self._end_if_holes_gone()
            return
        if self.phase == "take":
            self._take(p, action)
            if self._end_if_holes_gone():
                return
            self.phase = "god" if not self.god_used[p] else "bonus"
            if self.phase == "bonus":
                self._prepare_bonus(p)
            return
        if self.phase == "god":
            if action != self.GOD_SKIP:
                self.god_used[p] = True
                self.counters["four_god"] += 1
                if action >= self.GOD_ELDER:
                    self._gain_elder(p, self.elders_up.pop(action - self.GOD_ELDER))
                else:
                    card = self.holes[action - self.GOD_HOLE].pop()
                    self.taken[p].append(card)
                    self.turn_cards.append(card)
                    if self._end_if_holes_gone():
                        return
            self.phase = "bonus"
            self._prepare_bonus(p)
            return
        if self.phase == "bonus":
            if action == self.BONUS_SKIP:
                self.bonus_left = 0
            else:
                self._gain_elder(p, self.elders_up.pop(action - self.BONUS))
                self.bonus_left -= 1
                self.counters["take_bonus"] += 1
            if self.bonus_left <= 0 or not self.elders_up:
                self._end_turn()
            return
        raise InvariantError(f"unknown phase {self.phase}")

    def _end_if_holes_gone(self) -> bool:
        """hole_end=immediately: whatever emptied a hole (a move, a take, the four-god power)
        ends the game the moment 2 or fewer holes remain."""
        if self.opt["hole_end"] == "immediately" and len(self._live()) <= self.data["end_holes"]:
            self._finish("ended_by_holes")
            return True
        return False

    def _take(self, p: int, action: int) -> None:
        if action >= self.TAKE_SECOND:
            hole = action - self.TAKE_SECOND
            chosen = self.holes[hole].pop(-2)
            self.once_used[p] += 1
        else:
            hole = action - self.TAKE
            chosen = self.holes[hole].pop()
        got = [chosen]
        n = self.num[chosen]
        wanted = {n}
        if self._skill(p, "take.adjacent_numbers"):
            wanted |= {n - 1, n + 1}
        parity = self._skill(p, "take.same_parity")
        whole_pile = self.opt["match"] == "pile"
        num, kind = self.num, self.kind
        for h, pile in enumerate(self.holes):
            if h == hole or not pile:
                continue
            scope = range(len(pile) - 1, -1, -1) if whole_pile else (len(pile) - 1,)
            for i in scope:
                c = pile[i]
                m = num[c]
                extra = kind[c] == MINION and (
                    (parity and m % 2 == n % 2) or (m in wanted and m != n)
                )
                if m == n or extra:
                    got.append(pile.pop(i))
                    break  # one card from each hole
        if len(got) == 1 and self.holes[hole]:
            got.append(self.holes[hole].pop())
            self.counters["forced_extra"] += 1
        self.taken[p].extend(got)
        self.turn_cards.extend(got)
        self.notes += ((_took, (got,)),)

    def _prepare_bonus(self, p: int) -> None:
        minions = [self.num[c] for c in self.turn_cards if self.kind[c] == MINION]
        if not minions:
            self._end_turn()
            return
        if len(set(minions)) > 1:
            self.counters["mixed_bonus"] += 1
        how = self.opt["bonus_number"]
        n = minions[0] if how == "first" else min(minions) if how == "lowest" else max(minions)
        count = len(self.turn_cards) + self._skill(p, "bonus.count_plus_1")
        self.bonus_left = count // n
        if self.bonus_left:
            self.notes += ((_bonus, (len(self.turn_cards), n, self.bonus_left)),)
        if self.bonus_left and not self.elders_up:
            self.counters["bonus_but_no_elder"] += 1
        if self.bonus_left <= 0 or not self.elders_up:
            self._end_turn()

    def _end_turn(self) -> None:
        if self.terminal:
            return
        if self.current_player == self.n - 1:
            # the last round ends the game whatever the holes: counted as the rounds' end, so
            # the holes' count says how often they ended a game early
            if self.round >= self.data["rounds"] or not self.elders_down:
                self._finish("ended_by_rounds")
                return
            if len(self._live()) <= self.data["end_holes"]:
                self._finish("ended_by_holes")
                return
            self.elders_up.append(self.elders_down.pop())
            self.round += 1
            self.current_player = 0
        else:
            self.current_player += 1
        self._start_turn()

    def _finish(self, why: str) -> None:
        """The game is over: the settlement (決算) follows, number by number, each payer
        choosing which seeds to give up where there is more than one way."""
        self.counters[why] += 1
        self.ended_by = why
        self.keep = [list(t) for t in self.taken]
        # each player's minions by number: what the settlement weighs, number by number (paying
        # for one number takes seeds or that number's minions, never another number's)
        kind, num = self.kind, self.num
        self.minions = []
        for kept in self.keep:
            counts: dict[int, int] = {}
            for x in kept:
                if kind[x] == MINION:
                    counts[num[x]] = counts.get(num[x], 0) + 1
            self.minions.append(counts)
        self.settle_at = 0
        self.phase = "settle"
        self._settle_next()

    def _settle_next(self) -> None:
        numbers = self.data["minion_numbers"]
        while self.settle_at < len(numbers):
            number = numbers[self.settle_at]
            payer, options = self._settlement(number)
            if payer is not None and not options:  # no seed to pay with: the minions go
                self.keep[payer] = [
                    x
                    for x in self.keep[payer]
                    if not (self.kind[x] == MINION and self.num[x] == number)
                ]
                self.minions[payer].pop(number)
                self.counters["minions_discarded"] += 1
            elif payer is not None and len(options) == 1:
                self._pay_seeds(payer, options[0])
            elif payer is not None:
                self._settle_options = options
                self.current_player = payer
                return
            self.settle_at += 1
        self.terminal = True
        self.phase = "over"
        self.current_player = -1
        self._final = (self._vp(self.keep), self.keep)

    def _settlement(self, number: int) -> tuple[int | None, list[tuple[int, ...]]]:
        """Who pays for `number` (the most minions of it after skills, the latest in turn order
        on a tie), and every way they can: one seed of their own element, or two of others
        (each one fewer with the elder's discount, never none)."""
        keep = self.keep
        counts = []
        for p in range(self.n):
            c = self.minions[p].get(number, 0)
            if c:
                c -= self._skill(p, "scoring.majority_minus_1")
            counts.append(c)
        top = max(counts)
        if top <= 0:
            return None, []
        payer = max(p for p in range(self.n) if counts[p] == top)
        held = [0] * len(ELEMENTS)
        for x in keep[payer]:
            if self.kind[x] == SEED:
                held[self.elem[x]] += 1
        own = self.element[payer]
        discount = self._skill(payer, "scoring.seed_cost_minus_1")
        options: list[tuple[int, ...]] = []
        if held[own]:
            options.append((own,))
        others = [e for e in range(len(ELEMENTS)) if e != own]
        if max(1, 2 - discount) == 1:
            options += [(e,) for e in others if held[e]]
        else:
            options += [
                (a, b)
                for i, a in enumerate(others)
                for b in others[i:]
                if held[a] >= 1 + (a == b) and held[b] >= 1
            ]
        return payer, options

    def _pay_seeds(self, payer: int, elements: tuple[int, ...]) -> None:
        for e in elements:
            seed = next(x for x in self.keep[payer] if self.kind[x] == SEED and self.elem[x] == e)
            self.keep[payer].remove(seed)
        self.counters["seed_payment"] += 1

    def estimate(self) -> list[int]:
        """Each player's points from what they hold now, before the settlement (for the
        search's cut-off playouts)."""
        return self.scores() if self.terminal else self._vp(self.taken)

    def _vp(self, keep: list[list[int]]) -> list[int]:
        vp = []
        for p in range(self.n):
            total = sum(self.num[x] for x in keep[p] if self.kind[x] == MINION)
            total += self._skill(p, "scoring.seed_vp_1") * sum(
                1 for x in keep[p] if self.kind[x] == SEED
            )
            vp.append(total)
        return vp

    def is_terminal(self) -> bool:
        return self.terminal

    # --- scoring -----------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self._final[0])

    def winners(self) -> tuple[list[int], bool]:
        vp = self.scores()
        best = max(vp)
        top = [
            p for p in range(self.n) if vp[p] == best
        ]  # seat order = nearness to the start player
        return [top[0]], len(top) > 1

    # --- what players may see, and checks ----------------------------------------------------
    def observation(self, player: int) -> dict:
        return {
            "tops": [h[-1] if h else None for h in self.holes],
            "sizes": [len(h) for h in self.holes],
            "elders_up": list(self.elders_up),
            "elders_down": len(self.elders_down),
            "taken": [list(t) for t in self.taken],
            "elders": [list(e) for e in self.elders],
            "element": list(self.element),
            "god_used": list(self.god_used),
            "round": self.round,
        }

    def factions(self) -> list[str]:
        """Each seat's disciple (an element), for wins per element in the report."""
        return [f"{ELEMENTS[e]}の弟子" for e in self.element]

    def determinize(self, player: int, rng) -> None:
        """Deal anew what nobody can see: the cards under the top of each hole (each hole keeps
        its size and its top), and which elders lie face down (and which left the game)."""
        pool = [c for h in self.holes for c in h[:-1]]
        rng.shuffle(pool)
        for h in self.holes:
            k = len(h) - 1
            if k > 0:
                h[:k], pool = pool[:k], pool[k:]
        elders = self.elders_down + self.elders_out
        rng.shuffle(elders)
        k = len(self.elders_down)
        self.elders_down, self.elders_out = elders[:k], elders[k:]

    def hidden_cards(self) -> set[int]:
        """Dragon-vein cards nobody may see: everything under the top of each hole."""
        return {c for h in self.holes for c in h[:-1]}

    def check_invariants(self) -> None:
        if (
            self.opt["hole_end"] == "immediately"
            and self.phase not in ("settle", "over")
            and len(self._live()) <= self.data["end_holes"]
        ):
            raise InvariantError(
                f"hole_end=immediately: the game goes on with {len(self._live())} holes left"
            )
        cards = (
            [c for h in self.holes for c in h] + [c for t in self.taken for c in t] + self.leftover
        )
        if len(cards) != len(self.kind) or len(set(cards)) != len(cards):
            raise InvariantError(
                f"dragon-vein cards not conserved: {len(cards)} of {len(self.kind)}"
            )
        elders = (
            self.elders_up
            + self.elders_down
            + self.elders_out
            + [e for es in self.elders for e in es]
        )
        if sorted(elders) != sorted(self.data["elder_cards"]):
            raise InvariantError("elder cards not conserved")
        for p in range(self.n):
            obs = self.observation(p)
            shown = {c for c in obs["tops"] if c is not None} | {c for t in obs["taken"] for c in t}
            if shown & self.hidden_cards():
                raise InvariantError(f"player {p} sees cards under the top of a hole")
            if "elders_down" in obs and not isinstance(obs["elders_down"], int):
                raise InvariantError("face-down elders are shown")

    def check_end(self) -> None:
        """The seed payment, checked from what was taken and what is kept: for each number, the
        player with the most minions of it (the latest in turn order on a tie) gave up a seed or
        those minions; nobody else lost anything; and each score is at most the minions kept
        (and a point a seed for each elder held)."""
        _, keep = self._final
        for p in range(self.n):
            lost = list(self.taken[p])
            for x in keep[p]:
                if x not in lost:
                    raise InvariantError(f"player {p} keeps a card they never took")
                lost.remove(x)
            minions_kept = sum(self.num[x] for x in keep[p] if self.kind[x] == MINION)
            seeds_kept = sum(1 for x in keep[p] if self.kind[x] == SEED)
            # A seed scores only through an elder's skill: at most one point per elder held.
            if not 0 <= self.scores()[p] <= minions_kept + seeds_kept * len(self.elders[p]):
                raise InvariantError(f"player {p}: score {self.scores()[p]} exceeds what they keep")
            for x in lost:
                if self.kind[x] == MINION:
                    payer = self._payer(self.num[x])
                    if payer != p:
                        raise InvariantError(
                            f"player {p} lost a minion {self.num[x]} but did not pay"
                        )

    def _payer(self, number: int) -> int | None:
        """Who pays for `number` by the raw counts of minions taken (skills may lower a count)."""
        counts = [
            sum(1 for x in self.taken[p] if self.kind[x] == MINION and self.num[x] == number)
            - (
                self._skill(p, "scoring.majority_minus_1")
                if any(self.kind[x] == MINION and self.num[x] == number for x in self.taken[p])
                else 0
            )
            for p in range(self.n)
        ]
        top = max(counts)
        return max(p for p in range(self.n) if counts[p] == top) if top > 0 else None

    # --- words -------------------------------------------------------------------------------
    def _card(self, c: int) -> str:
        if self.kind[c] == SEED:
            return f"シード{ELEMENTS[self.elem[c]]}{self.num[c]}"
        return f"ミニオン{self.num[c]}"

    def describe(self, action: int) -> str:
        p = self.current_player
        if self.phase == "disciple":
            return f"準備　P{p + 1}：{ELEMENTS[action - self.DISCIPLE]}の弟子と四神を選ぶ"
        head = f"R{self.round}　P{p + 1}（{ELEMENTS[self.element[p]]}）"
        names = self.data["elder_names"]
        if self.phase == "settle":
            a, b = divmod(action - self.SETTLE, 5)
            paid = "・".join(ELEMENTS[e] for e in ((a,) if b == 4 else (a, b)))
            number = self.data["minion_numbers"][self.settle_at]
            return f"決算　P{p + 1}：数字{number}の支払いにシード（{paid}）を捨てる"
        if self.phase == "move":
            if action == self.NO_MOVE:
                return f"{head}：移動しない"
            s, d = divmod(action, self.H)
            return f"{head}：移動　龍穴{s + 1}の{self._card(self.holes[s][-1])}を龍穴{d + 1}へ"
        if self.phase == "take":
            if action >= self.TAKE_SECOND:
                h = action - self.TAKE_SECOND
                return f"{head}：取得（上から２枚目）　龍穴{h + 1}の{self._card(self.holes[h][-2])}"
            h = action - self.TAKE
            return f"{head}：取得　龍穴{h + 1}の{self._card(self.holes[h][-1])}"
        if self.phase == "god":
            if action == self.GOD_SKIP:
                return f"{head}：四神パワーを使わない"
            if action >= self.GOD_ELDER:
                elder = names[self.elders_up[action - self.GOD_ELDER]]
                return f"{head}：四神パワー　老師「{elder}」を得る"
            h = action - self.GOD_HOLE
            return f"{head}：四神パワー　龍穴{h + 1}の{self._card(self.holes[h][-1])}を得る"
        if action == self.BONUS_SKIP:
            return f"{head}：取得ボーナスを使わない"
        return f"{head}：取得ボーナス　老師「{names[self.elders_up[action - self.BONUS]]}」を得る"

    def describe_end(self) -> str:
        if not self.terminal:
            return "打ち切り（手数の上限）"
        vp = self.scores()
        winners, _ = self.winners()
        parts = "、".join(f"P{p + 1} {vp[p]}VP" for p in range(self.n))
        ended = f"終了（ラウンド{self.round}、残りの龍穴{len(self._live())}）"
        return f"{ended}：{parts} → P{winners[0] + 1} の勝ち"


# The kinds of action, for the report of how often each is taken.
ACTION_TYPES = {
    "disciple": "pick a disciple at setup",
    "move": "move a card between dragon holes",
    "no_move": "stop moving (a second move left)",
    "take": "take from a dragon hole",
    "take_second": "take the second card of a hole (an elder's skill)",
    "god_hole": "use the four-god power on a hole",
    "god_elder": "use the four-god power on an elder",
    "god_skip": "keep the four-god power",
    "bonus": "take an elder as a take bonus",
    "bonus_skip": "pass on a take bonus",
    "settle": "choose which seeds pay at the end",
}


def action_type(state: State, action: int) -> str:
    phase = state.phase
    if phase == "move":
        return "no_move" if action == state.NO_MOVE else "move"
    if phase == "take":
        return "take_second" if action >= state.TAKE_SECOND else "take"
    if phase == "god":
        if action == state.GOD_SKIP:
            return "god_skip"
        return "god_elder" if action >= state.GOD_ELDER else "god_hole"
    if phase == "bonus":
        return "bonus_skip" if action == state.BONUS_SKIP else "bonus"
    return phase  # disciple, settle


def greedy_value(state: State, action: int) -> float:
    """Take the hole whose top card brings the most matching cards; always take bonus elders."""
    if state.phase == "take":
        hole = action - (state.TAKE_SECOND if action >= state.TAKE_SECOND else state.TAKE)
        pile = state.holes[hole]
        card = pile[-2] if action >= state.TAKE_SECOND else pile[-1]
        n = state.num[card]
        matches = sum(
            1
            for h in range(state.H)
            if h != hole and state.holes[h] and state.num[state.holes[h][-1]] == n
        )
        return matches * 10 + n * (1 if state.kind[card] == MINION else 0)
    if state.phase == "bonus":
        return 0.0 if action == state.BONUS_SKIP else 1.0
    if state.phase == "god":
        return 0.5 if action == state.GOD_SKIP else 0.0  # keep the power for later, mostly
    if state.phase == "settle":
        b = (action - state.SETTLE) % 5
        return 1.0 if b == 4 else 0.0  # give up as few seeds as the rules allow
    return 0.0


# Simple policies to probe (`pnp simulate --probes`): does one of them beat skilled players?
# Each scores an action like greedy_value; the highest is played.
def _largest_pile(state: State, action: int) -> float:
    """Take from the fullest hole; otherwise as the greedy player."""
    if state.phase == "take":
        hole = action - (state.TAKE_SECOND if action >= state.TAKE_SECOND else state.TAKE)
        return len(state.holes[hole])
    return greedy_value(state, action)


def _never_god(state: State, action: int) -> float:
    if state.phase == "god":
        return 1.0 if action == state.GOD_SKIP else -1.0
    return greedy_value(state, action)


STRATEGIES = {
    "largest_pile": ("take from the fullest dragon hole", _largest_pile),
    "never_god": ("never use the four-god power", _never_god),
}


# -- static checks: what its rules say about setup and taking, against its data. Each finds
# its sentence by its words (and says so at this module when it cannot).

FACE_DOWN = "老師カード…裏向き"  # the setup sentence for face-down elders
FACE_DOWN_COUNT = "{}枚"  # a count in that sentence, if the designer writes one
# 「選んだのと同じ数字のミニオン／シード（属性は違っていても可）」, or 「数字が同じ…シード」
TAKE = re.compile(r"(?:同じ数字|数字が[^。、]{0,8}同じ|同数字)[^。]*?シード")
SEEDS = "シードは"

MESSAGES = Messages(
    face_down=(
        "「{rule}」 puts {stated} 老師カード face down, but 「{end}」 turns one up at the end of "
        "each of rounds 1–{last}: {needed} are needed"
    ),
    setup_short=(
        "setup needs {used} 老師カード ({up} face up + {down} face down) but the deck has {have}"
    ),
    setup_uses=(
        "setup uses {used} of the {have} 老師カード ({up} face up, {down} face down); the other "
        "{rest} leave the game, so take bonuses can only ever reach these {used}"
    ),
    seeds_numbered=(
        "the take rule compares 「{rule}」, but the components give seeds an element and no "
        "number; the data gives {numbered} of {seeds} seeds a number (marked provisional)"
    ),
    seeds_unnumbered=(
        "the take rule compares 「{rule}」, but no seed has a number: seeds can never match"
    ),
    disciples_short=(
        "{most} players need {most} 弟子カード of different elements; the data has {have}"
    ),
    no_god="the 弟子 of {element} has no 四神カード of the same element",
    effect_key="{card}'s effect key '{key}' is not one the rules engine knows (known: {known})",
)


def check_elders_at_setup(game: Game, problems: Problems) -> None:
    """How many elders go face up is stated; how many face down may not be (the text checks
    say so), but the end condition fixes it: one is turned up at the end of each round but the
    last."""
    up = stated(
        game, FACE_UP, "the number of face-up elders at setup", "老師カードを…N枚引き…表向き"
    )
    last = stated(game, ROUNDS, "the number of rounds", "これがNラウンド目の終了時")
    down_rule = find_rule(game, FACE_DOWN)
    elders = game.deck("elder")
    rounds, face_up = last.numbers[0], up.numbers[0]
    face_down = rounds - 1  # one turned up at the end of rounds 1 to rounds-1, none left after
    stated_count = rule_numbers(down_rule.text, FACE_DOWN_COUNT) if down_rule else None
    if stated_count is not None and stated_count[0] != face_down:
        problems.warning(
            MESSAGES.say(
                game,
                "face_down",
                rule=down_rule.text,
                stated=stated_count[0],
                end=last.text,
                last=rounds - 1,
                needed=face_down,
            ),
            down_rule.where,
        )
    used = face_up + (stated_count[0] if stated_count else face_down)
    fields = {"used": used, "up": face_up, "down": used - face_up, "have": len(elders.cards)}
    if used > len(elders.cards):
        problems.error(MESSAGES.say(game, "setup_short", **fields), up.where)
    else:
        rest = len(elders.cards) - used
        problems.notice(MESSAGES.say(game, "setup_uses", rest=rest, **fields), up.where)


def check_seed_numbers(game: Game, problems: Problems) -> None:
    """The take rule compares numbers of minions and seeds; the components' sentence about
    seeds gives them an element and (unless it says 数字) no number."""
    take = stated(game, TAKE, "the take rule that compares numbers", "同じ数字のミニオン／シード")
    seeds_said = find_rule(game, SEEDS)
    if seeds_said is None or "数字" in seeds_said.text:
        return  # the seeds have numbers in the text
    rule = _quoted(take.text, "数字")
    seeds = [c for c in game.deck("dragon").cards if c.fields.get("kind") == "シード"]
    numbered = [c for c in seeds if c.fields.get("number") not in (None, "")]
    if numbered:
        problems.warning(
            MESSAGES.say(
                game, "seeds_numbered", rule=rule, numbered=len(numbered), seeds=len(seeds)
            ),
            take.where,
        )
    else:
        problems.warning(MESSAGES.say(game, "seeds_unnumbered", rule=rule), take.where)


def _quoted(sentence: str, word: str) -> str:
    """The inner 「…」 of a sentence that holds `word`, else the sentence."""
    for part in sentence.split("「")[1:]:
        inner = part.split("」")[0]
        if word in inner:
            return inner
    return sentence


def check_one_per_player(game: Game, problems: Problems) -> None:
    """Every player takes a disciple and the four-god card of the same element."""
    most = game.manifest.players[1]
    disciples = {c.fields["element"] for c in game.deck("disciple").cards}
    gods = {c.fields["element"] for c in game.deck("four_god").cards}
    if len(disciples) < most:
        problems.error(
            MESSAGES.say(game, "disciples_short", most=most, have=len(disciples)),
            game.deck("disciple").where,
        )
    for element in sorted(disciples - gods):
        problems.error(MESSAGES.say(game, "no_god", element=element), game.deck("four_god").where)


def check_effect_keys(game: Game, problems: Problems) -> None:
    """Every elder's skill must name an effect the rules engine can run: unknown keys are not
    guessed."""

    seen = set()
    for card in game.deck("elder").cards:
        key = card.fields.get("effect", "")
        if key not in KNOWN_EFFECTS and card.where.row not in seen:
            seen.add(card.where.row)
            known_keys = ", ".join(sorted(KNOWN_EFFECTS))
            problems.error(
                MESSAGES.say(game, "effect_key", card=card.label(), key=key, known=known_keys),
                card.where.at(column="effect"),
            )


CHECKS = (check_elders_at_setup, check_seed_numbers, check_one_per_player, check_effect_keys)
