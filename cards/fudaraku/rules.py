"""補陀落渡海しよう！ as a machine-playable game: state, legal actions, readings of the rules as
options.

Fed by `prepare()` from the model (the 煩悩カード that are printed); driven by pnp's rules engine.
Actions are small ints: card id (0-63) to sail (渡海) with that card, 64 + id to chant (読経),
128 + id to lay a card face down at setup, ELIMINATE when a forced sailor has nothing legal.

It has no static checks of its own (`CHECKS` is empty): what its text leaves open is found by
pnp's text checks, which need no module.
"""

from __future__ import annotations

from generator.rules.kit import InvariantError, Option, stream

GAME_ID = "fudaraku"
INF = float("inf")
STEP_CAP = 2000


def codes(cards: int) -> dict[str, int]:
    """Action numbers for a deck of `cards`: sail with card c is c, chant is CHANT + c, lay face
    down FACEDOWN + c, each in a block of its own however large the deck."""
    block = max(64, cards)
    return {"CHANT": block, "FACEDOWN": 2 * block, "ELIMINATE": 4 * block - 1}


OPTIONS = {
    "field_scope": Option(
        "round",
        {
            "round": "the field and 無の境地 start afresh each round",
            "game": "the field keeps every card played in the game",
        },
        "最初に渡海を行うプレイヤーは、手札から好きな１枚をプレイし、それを「無の境地」としてください。",
        "the rules never say when the 【場】 is cleared",
    ),
    "round_minimum": Option(
        "off_suit",
        {
            "off_suit": "only cards of another suit must be at least the round number",
            "all": "every card after 無の境地 must be at least the round number",
        },
        "かつ、”現在のラウンド数”以上の数字でなければならない。",
        "「かつ」 may bind to the off-suit bullet only, or to both",
    ),
    "end": Option(
        "all_hands",
        {
            "all_hands": "the game ends when every hand is empty, eliminated players' included",
            "active_hands": "the game ends when the hands of players still in are empty",
        },
        "これを繰り返し、全ての手札が尽きたらゲームが終了します。",
        "eliminated players pass every turn, so their cards never leave their hands",
    ),
    "facedown": Option(
        "unused",
        {
            "unused": "the card laid face down at setup is never used again",
            "virtue": "it counts as 【徳】 at the end",
        },
        "その後、全プレイヤーは手札から好きな１枚を選んで、それを伏せて手元に置いてください。",
        "no rule uses the face-down card",
    ),
    "lead_tie": Option(
        "first",
        {
            "first": "of equal smallest numbers, the earlier player in turn order leads",
            "last": "the later one leads",
        },
        "このラウンドに渡海したプレイヤーの中で、「スートに関わらず」最も小さい数字を出したプレイヤーが新しい親となります。",
        "two sailors can play the same smallest number",
    ),
}

COUNTERS = ("special_win", "elimination", "all_chanted_round", "no_winner", "stalled")
# Which option's rule sentence explains an outcome of the statistics.
# Branches worth a line in `pnp check` (a gap or a surprise in the rules); simulate reports all.
NOTABLE = {"stalled", "no_winner", "special_win"}
EXPLAIN = {"dead_end": "end", "capped": "end", "no_winner": "end"}
BRANCHES = {
    "special_win": "someone wins without ever chanting (「脱落せず、"
    "１回も読経しなかったプレイヤー」)",
    "elimination": "someone is eliminated (「出せる手札がない時は、ゲームから脱落します」)",
    "all_chanted_round": "a round in which everyone chants (「全プレイヤーが読経していたら」)",
    "no_winner": "every player is eliminated: no winner",
    "stalled": "nobody can act but cards are left in hands (「全ての手札が尽きたら」 never comes)",
}


def prepare(game) -> dict:
    """The deck as the engine needs it: suits and numbers by card id, from the printed data."""
    deck = game.deck("klesha")
    suits = deck.values("suit")
    return {
        "suits": suits,
        "suit": [suits.index(c.fields["suit"]) for c in deck.cards],
        "number": [int(c.fields["number"]) for c in deck.cards],
        "names": [f"{c.fields['suit']}{c.fields['number']}" for c in deck.cards],
    }


def new_state(data: dict, players: int, seed: int, options: dict) -> State:
    return State(data, players, seed, options)


class State:
    def __init__(self, data: dict, players: int, seed: int, options: dict):
        self.data, self.n, self.opt = data, players, options
        self.suit, self.number = data["suit"], data["number"]
        self.__dict__.update(codes(len(self.suit)))
        rng = stream(seed, "chance")
        deck = list(range(len(self.suit)))
        rng.shuffle(deck)
        each = len(deck) // players
        self.hands = [sorted(deck[i * each : (i + 1) * each]) for i in range(players)]
        self.leftover = deck[each * players :]
        self.facedown: list[int | None] = [None] * players
        self.virtue: list[list[int]] = [[] for _ in range(players)]
        self.chanted_points = [0] * players  # kept as chants happen, to check scores() against
        self.field: list[int] = []
        self.discard: list[int] = []  # earlier rounds' fields
        self.mu: int | None = None  # the 無の境地 card
        self.sailed = [False] * players
        self.chanted = [False] * players
        self.out = [False] * players  # eliminated
        self.round = 1
        self.lead = 0
        self.order = [(self.lead + i) % players for i in range(players)]
        self.pos = 0
        self.plays: list[tuple[int, int]] = []  # (seat, number) sailed this round
        self.setup = True  # the face-down step comes first
        self.terminal = False
        self.stalled = False
        self.last_order = list(self.order)
        self.counters = dict.fromkeys(COUNTERS, 0)
        self.current_player = 0

    # --- the rules -------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.terminal or self.stalled:
            return []
        p = self.current_player
        hand = self.hands[p]
        if self.setup:
            return [self.FACEDOWN + c for c in hand]
        sails = self._sails(hand)
        forced = self.sailed[p] or len(hand) == 1
        if forced:
            return sails or [self.ELIMINATE]
        return sails + [self.CHANT + c for c in hand]

    def _sails(self, hand: list[int]) -> list[int]:
        """The cards of `hand` that may sail: any while the field has no 無; of 無's suit, at
        least the round's number (unless round_minimum=off_suit); of another suit, above every
        card of another suit on the field and at least the round's number."""
        mu = self.mu
        if mu is None:
            return list(hand)
        suit, number, least = self.suit, self.number, self.round
        mu_suit = suit[mu]
        top = 0
        for c in self.field:
            if suit[c] != mu_suit and number[c] > top:
                top = number[c]
        same = -INF if self.opt["round_minimum"] == "off_suit" else least
        off = max(top + 1, least)
        return [c for c in hand if number[c] >= (same if suit[c] == mu_suit else off)]

    def apply(self, action: int) -> None:
        p = self.current_player
        if self.setup:
            self.hands[p].remove(action - self.FACEDOWN)
            self.facedown[p] = action - self.FACEDOWN
            if p == self.n - 1:
                self.setup = False
                self.pos = -1
                self._advance()
            else:
                self.current_player = p + 1
            return
        if action == self.ELIMINATE:
            self.out[p] = True
            self.counters["elimination"] += 1
        elif action >= self.CHANT:
            card = action - self.CHANT
            self.hands[p].remove(card)
            self.virtue[p].append(card)
            self.chanted[p] = True
            self.chanted_points[p] += self.number[card]
        else:
            self.hands[p].remove(action)
            self.field.append(action)
            if self.mu is None:
                self.mu = action
            self.sailed[p] = True
            self.plays.append((p, self.number[action]))
        self._advance()

    def _can_act(self, seat: int) -> bool:
        return not self.out[seat] and bool(self.hands[seat])

    def _advance(self) -> None:
        """To the next player who can act; across round ends; to the end of the game."""
        for _ in range(4 * self.n + 4):
            self.pos += 1
            if self.pos >= self.n:
                self._end_round()
                if self.terminal:
                    return
                if not any(self._can_act(s) for s in range(self.n)):
                    self.stalled = True  # nobody can act, and the game has not ended
                    self.counters["stalled"] += 1
                    return
                self.pos = 0
            seat = self.order[self.pos]
            if self._can_act(seat):
                self.current_player = seat
                return
        raise InvariantError("no player found to act")

    def _end_round(self) -> None:
        self.last_order = list(self.order)
        plays = self.plays
        if plays:
            low = min([n for _, n in plays])
            seats = [s for s, n in plays if n == low]
            self.lead = seats[0] if self.opt["lead_tie"] == "first" else seats[-1]
        else:
            self.counters["all_chanted_round"] += 1
            self.lead = (self.lead + 1) % self.n
        self.plays = []
        if self.opt["field_scope"] == "round":
            self.discard.extend(self.field)
            self.field, self.mu = [], None
        if self._game_over():
            self.terminal = True
            self.current_player = -1
            self._final_counters()
            return
        self.round += 1
        n, lead = self.n, self.lead
        self.order = [(lead + i) % n for i in range(n)]

    def _game_over(self) -> bool:
        if self.opt["end"] == "all_hands":
            return not any(self.hands)
        return all(not self.hands[s] for s in range(self.n) if not self.out[s])

    def is_terminal(self) -> bool:
        return self.terminal

    # --- the end -----------------------------------------------------------------------------
    def scores(self) -> list[int]:
        num = self.number
        out = []
        for s in range(self.n):
            total = sum(num[c] for c in self.virtue[s])
            if self.opt["facedown"] == "virtue" and self.facedown[s] is not None:
                total += num[self.facedown[s]]
            out.append(total)
        return out

    def winners(self) -> tuple[list[int], bool]:
        """(winners after the tie-breaker, whether there was a tie before it)."""
        order = self.last_order
        special = [s for s in order if not self.out[s] and not self.chanted[s]]
        if special:
            return [special[0]], len(special) > 1
        alive = [s for s in order if not self.out[s]]
        if not alive:
            return [], False
        scores = self.scores()
        best = max(scores[s] for s in alive)
        top = [s for s in alive if scores[s] == best]
        return [top[0]], len(top) > 1

    def _final_counters(self) -> None:
        winners, _ = self.winners()
        if not winners:
            self.counters["no_winner"] += 1
        elif not self.out[winners[0]] and not self.chanted[winners[0]]:
            self.counters["special_win"] += 1

    # --- what players may see, and checks ----------------------------------------------------
    def observation(self, player: int) -> dict:
        return {
            "hand": sorted(self.hands[player]),
            "facedown": self.facedown[player],
            "hand_sizes": [len(h) for h in self.hands],
            "field": list(self.field),
            "mu": self.mu,
            "virtue": [list(v) for v in self.virtue],
            "out": list(self.out),
            "round": self.round,
            "lead": self.lead,
        }

    def determinize(self, player: int, rng) -> None:
        """Deal anew what `player` cannot see (others' hands and face-down cards, the cards set
        aside), each place keeping its size: one world the player cannot tell from the real
        one, for a searching player."""
        others = [s for s in range(self.n) if s != player]
        pool = list(self.leftover)
        for s in others:
            pool += self.hands[s]
            if self.facedown[s] is not None:
                pool.append(self.facedown[s])
        rng.shuffle(pool)
        for s in others:
            k = len(self.hands[s])
            self.hands[s], pool = sorted(pool[:k]), pool[k:]
            if self.facedown[s] is not None:
                self.facedown[s] = pool.pop()
        self.leftover = pool

    def hidden_from(self, player: int) -> set[int]:
        """Cards `player` must not see: others' hands and face-down cards, the cards set aside."""
        hidden = set(self.leftover)
        for s in range(self.n):
            if s != player:
                hidden.update(self.hands[s])
                if self.facedown[s] is not None:
                    hidden.add(self.facedown[s])
        return hidden

    def check_invariants(self) -> None:
        zones = [
            *self.hands,
            self.leftover,
            [c for c in self.facedown if c is not None],
            *self.virtue,
            self.field,
            self.discard,
        ]
        placed = [c for z in zones for c in z]
        if len(placed) != len(self.suit) or len(set(placed)) != len(placed):
            raise InvariantError(
                f"cards not conserved: {len(placed)} in play zones, {len(set(placed))} distinct, "
                f"of {len(self.suit)}"
            )
        for p in range(self.n):
            seen = _cards_in(self.observation(p))
            leak = seen & self.hidden_from(p)
            if leak:
                raise InvariantError(f"player {p} can see hidden cards {sorted(leak)}")

    def check_end(self) -> None:
        """Scores against a tally kept while playing: each chant's number, and the face-down
        card under the 'virtue' reading; and every card is somewhere at the end."""
        num = self.number
        for s, score in enumerate(self.scores()):
            expect = self.chanted_points[s]
            if self.opt["facedown"] == "virtue" and self.facedown[s] is not None:
                expect += num[self.facedown[s]]
            if score != expect:
                raise InvariantError(f"player {s}: score {score}, but their chants make {expect}")
        if self.opt["end"] == "all_hands" and any(self.hands):
            raise InvariantError("the game ended with cards in hand under the all_hands reading")

    # --- words -------------------------------------------------------------------------------
    def describe(self, action: int) -> str:
        p = self.current_player
        who = f"P{p + 1}"
        names = self.data["names"]
        if self.setup:
            return f"準備　{who}：{names[action - self.FACEDOWN]}を伏せる"
        head = f"R{self.round}　{who}"
        if action == self.ELIMINATE:
            return f"{head}：渡海するが出せる手札がない → 脱落"
        if action >= self.CHANT:
            return f"{head}：読経　{names[action - self.CHANT]}を【徳】に"
        note = "（無の境地）" if self.mu is None else ""
        return f"{head}：渡海　{names[action]}{note}"

    def describe_end(self) -> str:
        if self.stalled:
            return (
                "行き詰まり：誰も手番を行えないが、手札が残っている"
                f"（脱落者の手札 {sum(len(self.hands[s]) for s in range(self.n) if self.out[s])}"
                "枚）"
            )
        if not self.terminal:
            return "打ち切り（手数の上限）"
        scores = self.scores()
        winners, _ = self.winners()
        parts = "、".join(
            f"P{s + 1} {scores[s]}点{'（脱落）' if self.out[s] else ''}" for s in range(self.n)
        )
        won = f"P{winners[0] + 1} の勝ち" if winners else "勝者なし"
        return f"終了（ラウンド{self.round}）：{parts} → {won}"


def _cards_in(obs: dict) -> set[int]:
    """Every card id an observation shows."""
    out = set(obs["hand"]) | set(obs["field"]) | {c for v in obs["virtue"] for c in v}
    if obs["facedown"] is not None:
        out.add(obs["facedown"])
    if obs["mu"] is not None:
        out.add(obs["mu"])
    return out


# The kinds of action, for the report of how often each is taken (what a player does, in words
# that follow "never" and "can").
ACTION_TYPES = {
    "facedown": "lay a card face down at setup",
    "sail": "sail (渡海) with a card",
    "chant": "chant (読経)",
    "eliminate": "drop out (脱落) with no card to sail",
}


def action_type(state: State, action: int) -> str:
    if action == state.ELIMINATE:
        return "eliminate"
    if action >= state.FACEDOWN:
        return "facedown"
    return "chant" if action >= state.CHANT else "sail"


def greedy_value(state: State, action: int) -> float:
    """One step ahead: keep low cards for sailing, chant high ones while the hand is long."""
    num = state.number
    if action == state.ELIMINATE:
        return -100.0
    if action >= state.FACEDOWN:
        return -num[action - state.FACEDOWN]  # lay the least useful (lowest) card aside
    if action >= state.CHANT:
        hand = len(state.hands[state.current_player])
        return num[action - state.CHANT] - (20 if hand <= 2 else 0)
    return 12 - num[action]  # sail with the lowest legal card


# Simple policies to probe (`pnp simulate --probes`): does one of them beat skilled players?
# Each scores an action like greedy_value; the highest is played.
def _always_chant(state: State, action: int) -> float:
    return 1.0 if state.CHANT <= action < state.FACEDOWN else greedy_value(state, action) / 100


def _never_chant(state: State, action: int) -> float:
    return -1.0 if state.CHANT <= action < state.FACEDOWN else greedy_value(state, action) / 100


STRATEGIES = {
    "always_chant": ("always chant (読経) when allowed", _always_chant),
    "never_chant": ("sail whenever a card can", _never_chant),
}


# -- static checks: none of its own. The face-down card no rule uses, the deal's leftover and
# the round floor no card meets are found by pnp's text checks, for any game.

CHECKS = ()
