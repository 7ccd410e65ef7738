"""Property tests of the live night's seating, the one engine the simulator shares: random
nights of 8 to 400 players where players arrive late and leave early between rounds, under
every attendance rule."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.parties.rules.attendance import GHOSTS, SITOUTS, SUBSTITUTES, is_ghost, missing
from apps.parties.rules.night import play_tables, start_tables, table_result
from apps.parties.rules.rotation import partners
from apps.parties.rules.seating import SeatingProblem, plan_first_round, plan_next_round


def play(tables, round_number, rng):
    """The round played by the rules: the head table to 21, STOP, ties played out."""
    states, _stop = play_tables(start_tables(tables, round_number, False, rng), rng)
    return [table_result(state) for state in states]


def check_round(seating, present, rule):
    seated = [p for t in seating.tables for p in t]
    people = [p for p in seated if not is_ghost(p)]
    assert all(len(t) == 4 for t in seating.tables)
    assert len(people) == len(set(people)), "nobody sits twice"
    assert set(people) | set(seating.sitouts) == set(present), "everyone present is placed"
    assert not set(people) & set(seating.sitouts)
    ghosts = [p for p in seated if is_ghost(p)]
    if rule == GHOSTS:
        assert len(ghosts) == missing(len(present))
        for table in seating.tables:
            for pair in partners(table):
                assert not all(is_ghost(p) for p in pair), "two ghosts are never partners"
    else:
        assert not ghosts
    if rule == SITOUTS:
        assert len(seating.sitouts) == len(present) % 4
    else:
        assert not seating.sitouts


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(8, 400),
    rounds=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    rule=st.sampled_from([GHOSTS, SITOUTS, SUBSTITUTES]),
)
def test_a_live_night_with_arrivals_and_leavers_seats_everyone_present_every_round(
    players, rounds, seed, rule
):
    rng = random.Random(seed)
    if rule == SUBSTITUTES:
        players -= players % 4
    present = [f"P{i}" for i in range(players)]
    seating = plan_first_round(present, rule, rng)
    check_round(seating, present, rule)
    counts: dict[str, int] = {}
    next_id = players
    for number in range(2, rounds + 2):
        results = play(seating.tables, number - 1, rng)
        for p in seating.sitouts:
            counts[p] = counts.get(p, 0) + 1
        # Between rounds: a few leave, a few arrive (substitutes keep a multiple of 4).
        change = rng.randint(0, 3)
        leavers = rng.sample(present, change) if len(present) - change >= 4 else []
        arrivals = [f"P{next_id + i}" for i in range(change)]
        next_id += change
        present = [p for p in present if p not in leavers] + arrivals
        try:
            seating = plan_next_round(
                seating.tables,
                results,
                present,
                rule,
                rng,
                sitout_counts=counts,
                last_sitouts=seating.sitouts,
            )
        except SeatingProblem:
            assert len(present) < 4
            return
        check_round(seating, present, rule)
