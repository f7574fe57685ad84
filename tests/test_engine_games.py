"""ランブリングシード and にゃんばーわん！ played by machine: transcripts, invariants, readings,
tricky rules by hand."""

from __future__ import annotations

import pytest

from generator import pipeline
from generator.problems import Problems
from generator.project import find_project
from generator.rules import engine

from conftest import ENGINE, engine_rules, golden, rule_check

N = engine_rules("nyanbaa")
R = engine_rules("rumbling_seed")


@pytest.fixture(scope="module")
def rdata():
    return R.prepare(pipeline.load(find_project(ENGINE), "rumbling_seed", Problems()))


@pytest.fixture(scope="module")
def ndata():
    return N.prepare(pipeline.load(find_project(ENGINE), "nyanbaa", Problems()))


@pytest.mark.parametrize(
    "module,fixture,players", [(R, "rdata", 3), (N, "ndata", 4)], ids=["rumbling_seed", "nyanbaa"]
)
def test_golden_transcripts(request, module, fixture, players):
    data = request.getfixturevalue(fixture)
    opts = engine.resolve_options(module.OPTIONS, {})
    result = engine.play(
        module, data, players, engine.derive_seed(1, 0), opts, check=True, log=True
    )
    golden(f"{module.GAME_ID}_replay_{players}p.txt", "\n".join(result.log) + "\n")


READINGS = {
    R: [
        {},
        {
            "match": "pile",
            "bonus_number": "lowest",
            "hole_end": "immediately",
            "face_down_elders": "5",
        },
    ],
    N: [
        {},
        {
            "removal": "two",
            "maps_three": "two",
            "leader_card": "hero",
            "tie_lead": "next",
            "majority": "all",
            "spent": "supply",
        },
    ],
}


@pytest.mark.parametrize(
    "module,fixture", [(R, "rdata"), (N, "ndata")], ids=["rumbling_seed", "nyanbaa"]
)
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("reading", [0, 1])
def test_invariants_hold_over_many_playouts(request, module, fixture, players, reading):
    data = request.getfixturevalue(fixture)
    opts = engine.resolve_options(module.OPTIONS, READINGS[module][reading])
    for i in range(120):
        kinds = ("greedy",) + ("random",) * (players - 1) if i % 3 == 0 else None
        r = engine.play(module, data, players, engine.derive_seed(6, i), opts, kinds, check=True)
        assert r.finished and not r.dead_end and not r.capped, r.seed
        assert len(r.scores) == players and r.winners


@pytest.mark.parametrize("game_id", ["fudaraku", "rumbling_seed", "nyanbaa"])
def test_random_players_play_the_same_games_in_the_fast_loop(game_id):
    """A simulation's playouts take the loop with each random choice written out; counting
    action types takes the loop that asks each player. The same seeds, the same games."""
    module = engine_rules(game_id)
    data = module.prepare(pipeline.load(find_project(ENGINE), game_id, Problems()))
    opts = engine.resolve_options(module.OPTIONS, {})
    for players in (3, 4):
        for i in range(40):
            seed = engine.derive_seed(8, i)
            fast = engine.play(module, data, players, seed, opts)
            asked = engine.play(module, data, players, seed, opts, types=True)
            assert asked.actions  # the other loop was taken
            assert (fast.steps, fast.scores, fast.winners, fast.counters) == (
                asked.steps,
                asked.scores,
                asked.winners,
                asked.counters,
            ), (players, seed)


def test_elder_effect_keys_are_known(rdata):
    assert rdata["unknown_effects"] == []
    assert len(rdata["elder_cards"]) == 16 and len(rdata["elder_names"]) == 8


def test_unknown_effect_key_is_reported(engine_project):
    path = engine_project / "cards/rumbling_seed/elders.csv"
    path.write_text(
        path.read_text(encoding="utf-8").replace("move.twice", "move.thrice"), encoding="utf-8"
    )
    assert (
        "cards/rumbling_seed/elders.csv:7:effect: error: 懼留孫's effect key 'move.thrice' is not "
        "one the rules engine knows" in rule_check(engine_project, "rumbling_seed", play=False)
    )


# --- ランブリングシード by hand ---------------------------------------------------------------


def vein(data, kind, number, element=None):
    for c in range(len(data["kind"])):
        if (
            data["kind"][c] == kind
            and data["number"][c] == number
            and (element is None or data["element"][c] == element)
        ):
            yield c


def rpos(data, **opts):
    s = R.new_state(data, 3, 1, engine.resolve_options(R.OPTIONS, opts))
    for e in range(3):  # setup: the players pick disciples of the first three elements
        assert s.phase == "disciple" and s.DISCIPLE + e in s.legal_actions()
        s.apply(s.DISCIPLE + e)
    s.holes = [[] for _ in range(s.H)]
    s.elders = [[], [], []]
    s.taken = [[], [], []]
    return s


def test_take_matches_each_other_hole_and_the_bonus_counts_the_turn(rdata):
    m2 = list(vein(rdata, R.MINION, 2))
    m3 = list(vein(rdata, R.MINION, 3))
    s = rpos(rdata)
    s.holes[0] = [m3[0], m2[0]]
    s.holes[1] = [m2[1]]
    s.holes[2] = [m3[1], m2[2]]
    s.holes[3] = [m3[2]]
    s.phase, s.god_used = "take", [True, True, True]
    s.elders_up = [0, 1, 2]
    s.apply(s.TAKE + 0)
    assert sorted(s.taken[0]) == sorted([m2[0], m2[1], m2[2]])  # one 2 from each other hole
    assert s.phase == "bonus" and s.bonus_left == 1  # 3 cards with a 2-minion: one elder


def test_a_single_card_take_forces_a_second_from_the_same_hole(rdata):
    m2, m4 = list(vein(rdata, R.MINION, 2)), list(vein(rdata, R.MINION, 4))
    s = rpos(rdata)
    s.holes[0] = [m4[0], m2[0]]
    s.holes[1] = [m4[1]]
    s.phase, s.god_used = "take", [True, True, True]
    s.apply(s.TAKE + 0)
    assert s.taken[0] == [m2[0], m4[0]] and s.counters["forced_extra"] == 1


@pytest.mark.parametrize("reading,bonus", [("first", 0), ("lowest", 1), ("highest", 0)])
def test_take_bonus_with_mixed_minions(rdata, reading, bonus):
    """Took a 4 and then, forced, a 2: 2 cards. N = 4 gives nothing; N = 2 gives one elder."""
    m2, m4 = list(vein(rdata, R.MINION, 2)), list(vein(rdata, R.MINION, 4))
    s = rpos(rdata, bonus_number=reading)
    s.holes[0] = [m2[0], m4[0]]
    s.holes[1] = [m4[1], m2[1]]  # top 2: no match for 4
    s.phase, s.god_used = "take", [True, True, True]
    s.elders_up = [0, 1]
    s.apply(s.TAKE + 0)
    assert s.counters["mixed_bonus"] == 1
    assert s.bonus_left == bonus


def test_seed_payment_tie_goes_to_the_latest_player_and_own_element_costs_one(rdata):
    s = rpos(rdata)
    assert s.element == [0, 1, 2]
    m5 = list(vein(rdata, R.MINION, 5))
    own = next(vein(rdata, R.SEED, 2, element=2))
    other = next(vein(rdata, R.SEED, 3, element=0))
    s.taken = [[m5[0], m5[1]], [m5[2]], [m5[3], m5[4], own, other]]
    s.taken[0].append(m5[5])
    s.taken[2].append(m5[6])  # P1 and P3 both have 3 fives: P3 (later) pays
    s._finish("ended_by_rounds")
    # P3 holds one seed of their own element and one other: one own seed is the only way
    assert s.terminal
    vp, keep = s._final
    assert own not in keep[2] and other in keep[2]
    assert vp == [15, 5, 15]


def test_which_seeds_pay_is_the_payers_choice(rdata):
    """Own element: one seed; or two of other elements: a decision, not made for the player."""
    s = rpos(rdata)
    m5 = list(vein(rdata, R.MINION, 5))
    own = next(vein(rdata, R.SEED, 2, element=2))
    earth = list(vein(rdata, R.SEED, 3, element=0))
    water = next(vein(rdata, R.SEED, 4, element=1))
    s.taken = [[m5[0]], [], [m5[1], m5[2], own, earth[0], water]]
    s._finish("ended_by_rounds")
    assert s.phase == "settle" and s.current_player == 2
    acts = s.legal_actions()
    assert sorted(acts) == sorted([s.SETTLE + 2 * 5 + 4, s.SETTLE + 0 * 5 + 1])
    s.apply(s.SETTLE + 0 * 5 + 1)  # gives up earth and water, keeps the own seed
    vp, keep = s._final
    assert own in keep[2] and earth[0] not in keep[2] and water not in keep[2]
    s.check_end()


def test_hole_end_readings(rdata):
    m2 = list(vein(rdata, R.MINION, 2))
    for reading, ends in (("immediately", True), ("round_end", False)):
        s = rpos(rdata, hole_end=reading)
        s.holes[0], s.holes[1], s.holes[2] = [m2[0]], [m2[1]], [m2[2], m2[3]]
        s.phase, s.moves_left = "move", 1
        s.apply(0 * s.H + 1)  # move hole 1's card onto hole 2: 2 holes remain
        assert s.terminal is ends


def test_hole_end_immediately_ends_on_a_take_too(rdata):
    """A take that leaves 2 or fewer holes ends the game at once under hole_end=immediately, as
    a move does (once, 35 of 2,000 4-player games went on after such a take). The invariant
    checked after every step: the game never goes on with 2 or fewer holes."""
    opts = engine.resolve_options(R.OPTIONS, {"hole_end": "immediately"})
    on_a_take = 0
    for i in range(400):
        r = engine.play(R, rdata, 4, engine.derive_seed(35, i), opts, check=True, log=True)
        assert r.finished, r.seed
        last = [line for line in r.log[:-1] if not line.startswith("決算")][-1]
        on_a_take += bool(r.counters["ended_by_holes"] and "取得" in last)
    assert on_a_take > 0  # the case is played, not only the moves


def test_hole_end_immediately_ends_after_a_take_by_hand(rdata):
    m2 = list(vein(rdata, R.MINION, 2))
    s = rpos(rdata, hole_end="immediately")
    s.holes = [[] for _ in range(s.H)]
    s.holes[0], s.holes[1], s.holes[2] = [m2[0]], [m2[1]], [m2[2], m2[3]]
    s.phase = "take"
    s.apply(s.TAKE + 0)  # takes hole 0's 2, and hole 1's and 2's tops: hole 2 alone remains
    assert s.terminal and s.counters["ended_by_holes"] == 1


def test_a_game_over_at_its_last_round_is_not_counted_as_ended_by_the_holes(rdata):
    """Two holes left when round 5 ends: the rounds ended it, and the holes' count is of games
    they ended early (before, it counted these too)."""
    m2 = list(vein(rdata, R.MINION, 2))
    for last_round, why in ((True, "ended_by_rounds"), (False, "ended_by_holes")):
        s = rpos(rdata, hole_end="round_end")
        s.holes = [[] for _ in range(s.H)]
        s.holes[0], s.holes[1] = [m2[0]], [m2[1]]
        s.round = s.data["rounds"] if last_round else 1
        s.current_player = s.n - 1
        s._end_turn()
        assert (
            s.terminal
            and s.counters[why] == 1
            and sum(s.counters[k] for k in ("ended_by_rounds", "ended_by_holes")) == 1
        )


# --- にゃんばーわん！ by hand -----------------------------------------------------------------


def turf(data, suit, number, tri=False):
    for c in range(len(data["suit"])):
        if data["suit"][c] == suit and data["number"][c] == number and data["triangle"][c] == tri:
            return c


def npos(data, players=4, **opts):
    s = N.new_state(data, players, 1, engine.resolve_options(N.OPTIONS, opts))
    for t in range(players):  # setup: the players pick the tribes in data order
        assert s.phase == "tribe" and s.TRIBE + t in s.legal_actions()
        s.apply(s.TRIBE + t)
    s.hands = [[] for _ in range(players)]
    s.store = [[0, 0, 0] for _ in range(players)]
    return s


def test_must_follow_and_blue_changes_suit_only_when_you_cannot(ndata):
    s = npos(ndata)
    s.plays = [(0, turf(ndata, N.RED, 5), 0, 0, 0)]
    s.lead_suit = N.RED  # as the lead's play notes it
    s.current_player, s.turn = 1, 1
    s.hands[1] = [turf(ndata, N.RED, 2), turf(ndata, N.BLUE, 7)]
    s.store[1] = [0, 1, 0]
    cards = {a // s.PLAY for a in s.legal_actions()}
    assert cards == {turf(ndata, N.RED, 2)}  # must follow; blue is not offered
    assert all((a % 4) // 2 == 0 for a in s.legal_actions())
    s.hands[1] = [turf(ndata, N.YELLOW, 3), turf(ndata, N.BLUE, 7)]
    acts = s.legal_actions()
    assert s.HERO in {a // s.PLAY for a in acts}  # cannot follow: any card, or the hero
    changed = [a for a in acts if (a % 4) // 2 == 1]
    assert {a // s.PLAY for a in changed} == {turf(ndata, N.YELLOW, 3), turf(ndata, N.BLUE, 7)}
    s.apply(turf(ndata, N.BLUE, 7) * s.PLAY + 2)  # 霊薬: the blue 7 now follows red
    assert s.store[1][N.BLUE] == 0


def play_trick(s, cards):
    for seat, card in cards:
        s.current_player = seat
        s.apply(card * s.PLAY)


def test_showdown_ties_rank_the_triangle_then_the_start_player(ndata):
    s = npos(ndata)
    s.leader = 0
    s._start_trick()
    s.hands = [
        [turf(ndata, N.RED, 3)],
        [turf(ndata, N.RED, 3, True)],
        [turf(ndata, N.RED, 3, False)],
        [turf(ndata, N.BLUE, 6)],
    ]
    s.hands[2] = [turf(ndata, N.RED, 2, True)]
    play_trick(
        s,
        [
            (0, turf(ndata, N.RED, 3)),
            (1, turf(ndata, N.RED, 3, True)),
            (2, turf(ndata, N.RED, 2, True)),
            (3, turf(ndata, N.BLUE, 6)),
        ],
    )
    assert s.showdown == [1, 0]  # 3△ above 3, both above 2△


def test_hero_always_in_showdown_and_no_assists(ndata):
    s = npos(ndata)
    s.leader = 0
    s._start_trick()
    s.hands = [
        [turf(ndata, N.RED, 7)],
        [turf(ndata, N.RED, 6)],
        [turf(ndata, N.BLUE, 1)],
        [turf(ndata, N.RED, 1)],
    ]
    play_trick(s, [(0, turf(ndata, N.RED, 7)), (1, turf(ndata, N.RED, 6))])
    s.current_player = 2
    s.apply(s.HERO * s.PLAY)
    s.current_player = 3
    s.apply(turf(ndata, N.RED, 1) * s.PLAY)
    assert s.showdown == [2, 0]
    assert s.current_player in (1, 3) and all(a >= s.OCCUPY for a in s.legal_actions())


def test_drawn_showdown_scores_nothing_and_tie_lead_reading(ndata):
    for reading, leader in (("same", 0), ("next", 1)):
        s = npos(ndata, tie_lead=reading)
        s.leader = 0
        s._start_trick()
        s.marker_supply = [0, 0, 0, 0]  # nobody can occupy: a bare showdown
        s.hands = [
            [turf(ndata, N.RED, 4)],
            [turf(ndata, N.RED, 4, True)],
            [turf(ndata, N.BLUE, 1)],
            [turf(ndata, N.BLUE, 2)],
        ]
        s.store[0] = [1, 0, 0]
        s.current_player = 0
        s.apply(turf(ndata, N.RED, 4) * s.PLAY + 4)  # 4 + one 酒肴 = 5
        s.current_player = 1
        s.apply(turf(ndata, N.RED, 4, True) * s.PLAY)
        s.store[2] = [1, 0, 0]
        play_trick(s, [(2, turf(ndata, N.BLUE, 1)), (3, turf(ndata, N.BLUE, 2))])
        assert s.counters["drawn_showdown"] == 0  # 5 beats 4△
        t = npos(ndata, tie_lead=reading)
        t.leader = 0
        t._start_trick()
        t.marker_supply = [0, 0, 0, 0]
        t.hands = [
            [turf(ndata, N.RED, 5)],
            [turf(ndata, N.RED, 4, True)],
            [turf(ndata, N.BLUE, 1)],
            [turf(ndata, N.BLUE, 2)],
        ]
        t.store[1] = [1, 0, 0]
        t.current_player = 0
        t.apply(turf(ndata, N.RED, 5) * t.PLAY)
        t.current_player = 1
        t.apply(turf(ndata, N.RED, 4, True) * t.PLAY + 4)  # 4 + 1 = 5: a draw
        play_trick(t, [(2, turf(ndata, N.BLUE, 1)), (3, turf(ndata, N.BLUE, 2))])
        assert t.counters["drawn_showdown"] == 1 and t.vp == [0, 0, 0, 0]
        assert t.leader == leader


def test_occupy_returns_one_marker_and_places_only_on_an_empty_area(ndata):
    s = npos(ndata)
    area = next(a for a, c in enumerate(s.area_colour) if c == N.RED)
    other = next(a for a, c in enumerate(s.area_colour) if c == N.RED and a != area)
    for p in (1, 1, 2):  # P2 twice on one red area, P3 on another
        s._occupy(p, area if p == 1 else other, None)
    s.cubes[area] = 2
    assert s.markers[area] == [0, 2, 0, 0] and s.marker_supply == [8, 6, 7, 8]
    s.info = {0: (turf(ndata, N.RED, 1), N.RED, 1)}
    s.showdown, s.hero_this_trick, s.protected = [1, 2], False, set()
    s.plays = [(1, turf(ndata, N.BLUE, 5), 0, 0, 0)]
    s.lead_suit = N.BLUE  # the suit led, as its play notes it
    # Occupying an area sends back one marker of its holder's; an empty area takes one.
    occupy = {a for a in s._judge_actions(0) if a >= s.OCCUPY}
    assert s.OCCUPY + area * 5 + 2 in occupy and s.OCCUPY + other * 5 + 3 in occupy
    assert all(
        a - s.OCCUPY in (area * 5 + 2, other * 5 + 3) or (a - s.OCCUPY) % 5 == 0 for a in occupy
    )
    s._occupy(0, area, 1)
    assert s.markers[area] == [0, 1, 0, 0] and s.store[0][N.RED] == 2 and s.counters["blocked"] == 1
    s._occupy(0, area, 1)
    assert s.markers[area] == [1, 0, 0, 0] and s.marker_supply == [7, 8, 7, 8]
    assert s.owner[area] == 0 and s.owner[other] == 2


def test_removal_and_map_readings(ndata):
    three = npos(ndata, players=3)
    assert len(three.deck) == 27 and len(three.area_colour) == 12
    two = npos(ndata, players=3, removal="two", maps_three="two")
    assert len(two.deck) == 31 and len(two.area_colour) == 8


def test_majority_readings(ndata):
    for reading, bonus in (("largest", 6), ("all", 10)):
        s = npos(ndata, majority=reading)
        # A 4×4 grid of areas: a group of three and a separate pair.
        at = {pos: a for a, pos in enumerate(s.area_pos)}
        for pos in ((0, 0), (0, 1), (0, 2), (3, 0), (3, 1)):
            s.markers[at[pos]][0] = 1
        assert s._majority(0) == bonus


def test_face_down_elder_readings(rdata):
    for reading, _left in (("4", 0), ("5", 1)):
        opts = engine.resolve_options(
            R.OPTIONS, {"face_down_elders": reading, "hole_end": "round_end"}
        )
        results = [engine.play(R, rdata, 3, engine.derive_seed(8, i), opts) for i in range(20)]
        ended_by_rounds = [r for r in results if r.counters["ended_by_rounds"]]
        assert ended_by_rounds
        s = R.new_state(rdata, 3, ended_by_rounds[0].seed, opts)
        assert len(s.elders_down) == int(reading) and len(s.elders_up) == 3


def test_match_reading_looks_into_the_piles(rdata):
    m2, m5 = list(vein(rdata, R.MINION, 2)), list(vein(rdata, R.MINION, 5))
    for reading, got in (("top", 2), ("pile", 3)):
        s = rpos(rdata, match=reading)
        s.holes[0] = [m2[0]]
        s.holes[1] = [m2[1], m5[0]]  # a 2 under a 5: only "pile" finds it
        s.holes[2] = [m2[2]]
        s.phase, s.god_used = "take", [True, True, True]
        s.apply(s.TAKE + 0)
        assert len(s.taken[0]) == got


def test_leader_card_reading(ndata):
    for reading, usable in (("nothing", False), ("hero", True)):
        s = npos(ndata, leader_card=reading)
        kansai = s.skill.index("reuse_leader")
        s.hero_ready[kansai] = False
        s.store[kansai] = [1, 0, 0]
        assert s._skill_usable(kansai) is usable


def test_spent_reading(ndata):
    for reading, supply_back in (("out", 0), ("supply", 1)):
        s = npos(ndata, spent=reading)
        before = s.supply[N.RED]
        s.store[0] = [1, 0, 0]
        s._spend(0, N.RED, 1)
        assert s.supply[N.RED] - before == supply_back
        assert s.spent[N.RED] == 1 - supply_back


def test_yozakura_skill_lets_its_player_choose_the_showdown(ndata):
    s = npos(ndata)
    user = s.skill.index("choose_showdown")
    s.leader = user
    s._start_trick()
    s.marker_supply = [0, 0, 0, 0]
    seats = [(user + i) % 4 for i in range(4)]
    cards = [
        turf(ndata, N.RED, 2),
        turf(ndata, N.RED, 7),
        turf(ndata, N.RED, 5),
        turf(ndata, N.RED, 1),
    ]
    for seat, card in zip(seats, cards):
        s.hands[seat] = [card]
    s.store[user] = [0, 0, 2]  # 夜桜会's skill costs 2
    s.current_player = user
    s.apply(cards[0] * s.PLAY + 1)  # leads red 2 and uses the skill
    play_trick(s, list(zip(seats[1:], cards[1:])))
    assert s.phase == "choose" and s.current_player == user
    assert len(s.legal_actions()) == 6  # any two of the four followers
    i, j = s.followers.index(user), s.followers.index(seats[3])
    s.apply(s.CHOOSE + min(i, j) * 8 + max(i, j))  # the 2 against the 1, not the 7
    assert sorted(s.showdown) == sorted([user, seats[3]])


def test_sake_raises_the_heros_number_as_it_raises_any_played_card(ndata):
    """「赤：１個ごとに数字＋１」 of the played card: the hero too. Before, 酒肴 could be spent on
    the hero and added nothing (136 times in 2,000 games)."""
    s = npos(ndata)
    s.leader = 0
    s._start_trick()
    s.hands = [
        [turf(ndata, N.RED, 7)],
        [turf(ndata, N.BLUE, 1)],
        [turf(ndata, N.RED, 6)],
        [turf(ndata, N.RED, 1)],
    ]
    play_trick(s, [(0, turf(ndata, N.RED, 7))])
    s.store[1] = [2, 0, 0]
    s.current_player = 1
    with_sake = s.HERO * s.PLAY + 2 * 4
    assert with_sake in s.legal_actions()
    s.apply(with_sake)
    play_trick(s, [(2, turf(ndata, N.RED, 6)), (3, turf(ndata, N.RED, 1))])
    assert s.info[1][2] == s.hero_value[1] + 2 and s.store[1][N.RED] == 0


def test_yozakura_beside_a_hero_chooses_the_one_who_faces_it(ndata):
    """ヒーローカードは必ず優先: with a hero played, 夜桜会 picks the follower beside it. Before,
    the skill picked two followers and the hero silently left the showdown."""
    s = npos(ndata)
    user = s.skill.index("choose_showdown")
    s.leader = user
    s._start_trick()
    s.marker_supply = [0, 0, 0, 0]
    seats = [(user + i) % 4 for i in range(4)]
    s.hands[seats[0]] = [turf(ndata, N.RED, 2)]
    s.hands[seats[1]] = [turf(ndata, N.RED, 7)]
    s.hands[seats[2]] = [turf(ndata, N.BLUE, 3)]  # cannot follow: plays the hero
    s.hands[seats[3]] = [turf(ndata, N.RED, 1)]
    s.store[user] = [0, 0, 2]
    s.current_player = user
    s.apply(turf(ndata, N.RED, 2) * s.PLAY + 1)  # leads red 2 and uses the skill
    play_trick(s, [(seats[1], turf(ndata, N.RED, 7))])
    s.current_player = seats[2]
    s.apply(s.HERO * s.PLAY)
    play_trick(s, [(seats[3], turf(ndata, N.RED, 1))])
    assert s.phase == "choose" and s.current_player == user
    assert len(s.legal_actions()) == 3  # one of the three followers, beside the hero
    i = s.followers.index(seats[3])
    s.apply(s.CHOOSE + i * 8 + i)
    assert sorted(s.showdown) == sorted([seats[2], seats[3]])


def test_any_number_of_sake_and_the_colours_that_pay_a_skill_are_choices(ndata):
    """「支払えるリソースがある限りどれだけでも」: no cap on 酒肴; which colours pay a skill's cost
    is the player's decision, offered as one action per way to pay."""
    s = npos(ndata)
    s.leader = 0
    s._start_trick()
    user = 0
    s.hands[user] = [turf(ndata, N.RED, 2)]
    s.store[user] = [5, 0, 2]
    reds = {(a % s.PLAY) // 4 for a in s.legal_actions()}
    assert reds == {0, 1, 2, 3, 4, 5}
    s.current_player = user
    cost = s.cost[user]
    s.apply(turf(ndata, N.RED, 2) * s.PLAY + 3 * 4 + 1)  # three 酒肴, and the skill
    assert s.phase == "pay" and s.current_player == user
    ways = s._splits
    assert all(sum(w) == cost for w in ways) and len(ways) == min(cost, 2) + 1
    s.apply(s.PAY + ways.index((0, 0, cost)))  # pays in 宝石 and keeps the 酒肴
    assert s.store[user] == [2, 0, 2 - cost] and s.phase == "play"


def test_hero_lead_reading(ndata):
    for reading, may in (("never", False), ("any", True)):
        s = npos(ndata, hero_lead=reading)
        s.leader = 0
        s._start_trick()
        s.hands[0] = [turf(ndata, N.RED, 2)]
        assert (s.HERO in {a // s.PLAY for a in s.legal_actions()}) is may
        if may:
            s.apply(s.HERO * s.PLAY)  # a hero lead: nobody can follow it
            s.hands[1] = [turf(ndata, N.RED, 3), turf(ndata, N.BLUE, 4)]
            cards = {a // s.PLAY for a in s.legal_actions()}
            assert cards == {turf(ndata, N.RED, 3), turf(ndata, N.BLUE, 4)}
