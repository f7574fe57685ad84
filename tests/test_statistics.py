"""The statistics that back a claim in a report: a seat's share tested against the fair share,
and Holm's correction that keeps a sweep of many cells from naming seats unfair by chance."""

from __future__ import annotations

from generator.rules.findings import SEAT, Finding
from generator.rules.statistics import Stats, holm, share_p, smallest_difference
from generator.rules.sweep import Cell, correct_seats


def test_a_fair_share_is_no_evidence_and_a_lopsided_one_is():
    assert share_p(50, 100, 0.5) == 1.0
    assert 0.04 < share_p(60, 100, 0.5) < 0.06  # the textbook 60 of 100 coin flips
    assert share_p(90, 100, 0.25) < 1e-12


def test_holm_keeps_from_the_smallest_p_until_one_fails():
    assert holm([0.001, 0.04, 0.02, 0.5]) == [True, False, False, False]  # 0.02 > 0.05/3
    assert holm([0.001, 0.012, 0.02, 0.5]) == [True, True, True, False]  # 0.02 < 0.05/2
    assert holm([0.2, 0.3]) == [False, False] and holm([]) == []


def cell(wins: list[int], finished: int, flagged: list[int]) -> Cell:
    c = Cell({}, len(wins), ("random",), 0)
    c.stats = Stats("g", len(wins), finished, 0, ("random",), {}, finished=finished, wins=wins)
    c.found = [
        Finding("warning", "seat {seat}", len(wins), key=SEAT, fields={"seat": s}) for s in flagged
    ]
    return c


def test_a_sweep_keeps_only_the_seat_warnings_that_stand_the_correction():
    """Twelve cells of 4 seats, each with one seat a little ahead (64 of 200 games, p ≈ 0.03: a
    per-cell test at 5 % names it): over the 52 comparisons none stands. A seat that wins 60 %
    of 400 games still does."""
    cells = [cell([64, 46, 45, 45], 200, [1]) for _ in range(12)]
    assert 0.02 < share_p(64, 200, 0.25) < 0.05
    cells.append(cell([240, 60, 50, 50], 400, [1]))
    correct_seats(cells)
    assert [(i, f.fields["seat"]) for i, c in enumerate(cells) for f in c.found] == [(12, 1)]
    assert cells[0].seats == (52, 13, 1)


def test_the_smallest_difference_a_sample_can_show_shrinks_with_its_size():
    assert 0.060 < smallest_difference(400, 0.25) < 0.061  # 2.8 standard errors
    assert smallest_difference(1600, 0.25) == smallest_difference(400, 0.25) / 2
    assert smallest_difference(0, 0.5) == 1.0


def _games(factions_of_game, winner=0):
    """Playout summaries as simulate hands them to the statistics: seat `winner` wins each."""
    for seed, factions in enumerate(factions_of_game):
        scores = tuple(10 if s == winner else 0 for s in range(len(factions)))
        yield (seed, True, False, False, 50, 3, scores, (winner,), False, (), (), factions)


def test_factions_that_sat_unevenly_are_said_to_be_confounded_with_the_seats():
    """Picked in turn, the first seat takes the same faction every game: that faction's wins
    are the first seat's too, and the report says so; rotated over the seats, it does not."""
    from generator.rules.report import faction_rows
    from generator.rules.statistics import faction_confound, statistics

    picked = [("A", "B", "C")] * 60 + [("A", "C", "B")] * 60
    st = statistics("g", 3, 1, {}, ("random",) * 3, _games(picked))
    assert faction_confound(st) == ("A", 0, 1.0)
    said = "\n".join(faction_rows(st))
    assert "A was played from seat 1 in 100% of its games (an even spread is 33%)" in said
    rotated = [("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B")] * 40
    st = statistics("g", 3, 1, {}, ("random",) * 3, _games(rotated))
    assert faction_confound(st) is None
    assert "confounded" not in "\n".join(faction_rows(st))
