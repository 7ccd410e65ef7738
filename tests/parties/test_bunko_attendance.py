"""Attendance that is not a multiple of 4: ghosts, sit-outs and substitutes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from apps.parties.rules.attendance import (
    choose_sitouts,
    ghost_slots,
    is_ghost,
    missing,
    seat_returners,
    seat_with_ghosts,
    with_substitutes,
)
from apps.parties.rules.rotation import partners
from apps.parties.rules.simulator import player_names, simulate_night


@pytest.mark.parametrize("count", [5, 6, 7, 9, 10, 11, 30, 399])
def test_ghost_seats_fill_the_last_places_one_per_table_never_as_partners(count) -> None:
    """Ruling: 'ghost seats (the ghost's dice are rolled by the app, the ghost's points count
    for its team, its tallies are kept but it wins no prize)'."""
    players = player_names(count)
    tables, ghosts = seat_with_ghosts(players, random.Random(count))
    assert len(ghosts) == missing(count) and all(is_ghost(g) for g in ghosts)
    assert sorted(n for t in tables for n in t) == sorted(players + ghosts)
    per_table = [sum(1 for n in t if is_ghost(n)) for t in tables]
    assert max(per_table) == (1 if len(tables) >= len(ghosts) else 2)
    for table in tables:
        assert not any(team <= set(ghosts) for team in partners(table))


def test_ghosts_sit_at_the_bottom_tables_first() -> None:
    assert ghost_slots(5, 3) == [(4, 3), (3, 3), (2, 3)]
    assert ghost_slots(2, 3) == [(1, 3), (0, 3), (1, 2)]


def test_a_ghost_plays_and_scores_for_its_team_but_wins_no_prize() -> None:
    night = simulate_night(5, 6, seed=3)
    ghosts = night["ghosts"]
    assert len(ghosts) == 3
    assert sum(
        1 for r in night["rounds"] for t in r["tables"] for x in t["rolls"] if x["player"] in ghosts
    )
    assert all(night["tallies"][g]["played"] == 6 for g in ghosts)
    assert night["winner"] not in ghosts and night["loser"] not in ghosts


def test_the_fewest_needed_sit_out_those_who_rested_least_first() -> None:
    """Ruling: 'sit-outs (players who rest a round, rotating fairly, ...)'."""
    players = [f"P{i}" for i in range(11)]
    rng = random.Random(1)
    counts: Counter[str] = Counter()
    last: list[str] = []
    seen: list[str] = []
    for _ in range(8):
        out = choose_sitouts(players, counts, last, rng)
        assert len(out) == 3
        assert not set(out) & set(last)
        counts.update(out)
        assert max(counts[p] for p in players) - min(counts[p] for p in players) <= 1
        seen += out
        last = out
    # Nobody sits out twice before everyone has once.
    first_eleven = seen[:11]
    assert len(set(first_eleven)) == 11


def test_nobody_sits_out_when_the_players_are_a_multiple_of_four() -> None:
    assert choose_sitouts([f"P{i}" for i in range(12)], {}, [], random.Random(1)) == []


def test_a_player_back_from_a_rest_takes_the_seat_of_one_starting_a_rest() -> None:
    tables = [["A", "B", "C", "D"], ["E", "F", "G", "H"]]
    assert seat_returners(tables, ["F", "A"], ["X", "Y"]) == [
        ["Y", "B", "C", "D"],
        ["E", "X", "G", "H"],
    ]


def test_sitouts_rotate_fairly_over_a_whole_night() -> None:
    night = simulate_night(10, 10, seed=4, attendance="sitouts")
    rests = Counter(name for r in night["rounds"] for name in r["sitouts"])
    assert sum(rests.values()) == 20
    assert set(rests.values()) == {2}
    for rnd in night["rounds"]:
        seated = [n for t in rnd["tables"] for n in t["seats"]]
        assert sorted(seated + rnd["sitouts"]) == sorted(night["players"])


def test_substitutes_fill_up_to_a_multiple_of_four_in_list_order() -> None:
    """Ruling: the host asks substitutes 'when RSVPs are short of a multiple of 4'."""
    assert with_substitutes(["A", "B", "C", "D", "E", "F"], ["S1", "A", "S2", "S3"]) == [
        "A",
        "B",
        "C",
        "D",
        "E",
        "F",
        "S1",
        "S2",
    ]
    with pytest.raises(ValueError, match="2 substitutes are needed"):
        with_substitutes(["A", "B", "C", "D", "E", "F"], [])
    night = simulate_night(10, 2, seed=1, attendance="substitutes")
    assert len(night["players"]) == 12 and len(night["substitutes"]) == 2


@pytest.mark.parametrize(("count", "tables"), [(4, 1), (5, 2), (6, 2), (7, 2)])
def test_four_to_seven_players_still_play_with_ghosts(count, tables) -> None:
    """The rules want 8+; a night of 4-7 is still allowed (with ghost seats)."""
    night = simulate_night(count, 2, seed=count)
    assert all(len(r["tables"]) == tables for r in night["rounds"])


def test_fewer_than_four_players_cannot_play() -> None:
    with pytest.raises(ValueError, match="at least 4"):
        simulate_night(3, 1, seed=1)
