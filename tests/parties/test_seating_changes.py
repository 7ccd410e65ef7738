"""Seating a live night's round when players arrive late or leave early."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from apps.parties.rules.seating import SeatingProblem, plan_first_round, plan_next_round


def names(count: int) -> list[str]:
    return [f"P{i}" for i in range(1, count + 1)]


def first_team_wins(tables):
    return [{"winners": [t[0], t[2]], "losers": [t[1], t[3]]} for t in tables]


def everyone_sits_once(seating, players):
    seated = [p for t in seating.tables for p in t if not p.startswith("Ghost")]
    assert Counter(seated + seating.sitouts) == Counter(players)
    assert all(len(t) == 4 for t in seating.tables)


def test_substitutes_rule_asks_the_host_for_the_missing_substitutes():
    with pytest.raises(SeatingProblem, match="add 2 substitutes"):
        plan_first_round(names(10), "substitutes", random.Random(1))


def test_fewer_than_four_players_cannot_start():
    with pytest.raises(SeatingProblem, match="at least 4"):
        plan_first_round(names(3), "ghosts", random.Random(1))


def test_ghosts_fill_the_short_seats_of_round_one():
    seating = plan_first_round(names(10), "ghosts", random.Random(2))
    everyone_sits_once(seating, names(10))
    assert len(seating.ghosts) == 2


def test_a_late_arrival_takes_a_ghosts_seat():
    players = names(11)
    first = plan_first_round(players, "ghosts", random.Random(3))
    second = plan_next_round(
        first.tables, first_team_wins(first.tables), [*players, "Late"], "ghosts", random.Random(4)
    )
    everyone_sits_once(second, [*players, "Late"])
    assert second.ghosts == []


def test_an_early_leaver_is_replaced_by_a_ghost_and_the_rest_rotate_as_usual():
    players = names(12)
    first = plan_first_round(players, "ghosts", random.Random(5))
    leaver = first.tables[1][1]
    staying = [p for p in players if p != leaver]
    second = plan_next_round(
        first.tables, first_team_wins(first.tables), staying, "ghosts", random.Random(6)
    )
    everyone_sits_once(second, staying)
    assert len(second.ghosts) == 1
    head = first.tables[0]
    assert {head[0], head[2]} <= set(second.tables[0])  # head winners stay


def test_four_late_arrivals_open_a_new_bottom_table():
    players = names(8)
    first = plan_first_round(players, "ghosts", random.Random(7))
    arrivals = ["L1", "L2", "L3", "L4"]
    second = plan_next_round(
        first.tables, first_team_wins(first.tables), players + arrivals, "ghosts", random.Random(8)
    )
    assert len(second.tables) == 3
    everyone_sits_once(second, players + arrivals)


def test_four_leavers_close_a_table():
    players = names(16)
    first = plan_first_round(players, "substitutes", random.Random(9))
    staying = players[4:]
    second = plan_next_round(
        first.tables, first_team_wins(first.tables), staying, "substitutes", random.Random(10)
    )
    assert len(second.tables) == 3
    everyone_sits_once(second, staying)


def test_sit_outs_rotate_so_nobody_rests_twice_before_everyone_has_rested():
    players = names(13)
    rng = random.Random(11)
    seating = plan_first_round(players, "sitouts", rng)
    counts = Counter(seating.sitouts)
    for _ in range(12):
        everyone_sits_once(seating, players)
        seating = plan_next_round(
            seating.tables,
            first_team_wins(seating.tables),
            players,
            "sitouts",
            rng,
            sitout_counts=counts,
            last_sitouts=seating.sitouts,
        )
        counts.update(seating.sitouts)
    assert max(counts.values()) - min(counts.values()) <= 1
