"""Seating and rotation between rounds."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from apps.parties.rules.rotation import (
    next_table,
    partners,
    rotate,
    seat_first_round,
    swap_pairs_ghosts,
    swap_partners,
)


def rotation_problems(
    old: Sequence[Sequence[str]], results: Sequence[dict], new: Sequence[Sequence[str]]
) -> list[str]:
    """Every way ``new`` breaks the rotation ruling, in words (empty when it holds).

    Players who sit out the new round, and those who come back to take their seats, are
    outside the rotation and skipped."""
    problems = []
    count = len(old)
    where = {name: t for t, table in enumerate(new) for name in table}
    returners = set(where) - {name for table in old for name in table}
    head_winners = set(results[0]["winners"])
    if head_winners <= set(where) and head_winners not in partners(new[0]):
        problems.append("head winners are not partners at the head table")
    for t in range(count):
        winners, losers = results[t]["winners"], results[t]["losers"]
        up = max(t - 1, 0)
        down = t if t else count - 1
        problems += [
            f"{w} (won at {t + 1}) not at {up + 1}" for w in winners if where.get(w, up) != up
        ]
        problems += [
            f"{n} (lost at {t + 1}) not at {down + 1}" for n in losers if where.get(n, down) != down
        ]
    for t in range(1, count):
        stayers = set(results[t]["losers"])
        for team in partners(new[t]):
            if not team & returners and len(team & stayers) != 1:
                problems.append(f"table {t + 1}: {sorted(team)} are not one stayer + one arriver")
    return problems


def play_results(tables: Sequence[Sequence[str]], rng: random.Random) -> list[dict]:
    """A random winning team at each table."""
    results = []
    for table in tables:
        team = rng.randrange(2)
        results.append(
            {
                "winners": [table[team], table[team + 2]],
                "losers": [table[1 - team], table[3 - team]],
            }
        )
    return results


@pytest.mark.parametrize("count", [2, 3, 4, 10, 100])
def test_rotation_moves_winners_up_keeps_losers_and_sends_head_losers_to_the_bottom(count):
    """Ruling: 'head = head winners + table-2 winners (each pair keeps its partner); middle
    table k = table-k losers + table-(k+1) winners; bottom = bottom losers + head losers.'"""
    rng = random.Random(count)
    players = [f"P{i}" for i in range(4 * count)]
    tables = seat_first_round(players, rng)
    for _ in range(3):
        results = play_results(tables, rng)
        new = rotate(tables, results)
        assert rotation_problems(tables, results, new) == []
        assert sorted(n for t in new for n in t) == sorted(players)
        tables = new


def test_with_two_tables_the_bottom_gets_the_head_losers_and_its_losers_stay() -> None:
    """Ruling: 'With 2 tables, the bottom table receives the head losers and the bottom
    losers stay.'"""
    tables = [["A", "B", "C", "D"], ["E", "F", "G", "H"]]
    results = [
        {"winners": ["A", "C"], "losers": ["B", "D"]},
        {"winners": ["F", "H"], "losers": ["E", "G"]},
    ]
    assert rotate(tables, results) == [["A", "F", "C", "H"], ["E", "G", "B", "D"]]


def test_head_winners_stay_partners_and_table_two_winners_keep_their_partner() -> None:
    """'You change partners after each round, except at the head table.'"""
    tables = [["A", "B", "C", "D"], ["E", "F", "G", "H"], ["I", "J", "K", "L"]]
    results = [
        {"winners": ["B", "D"], "losers": ["A", "C"]},
        {"winners": ["E", "G"], "losers": ["F", "H"]},
        {"winners": ["J", "L"], "losers": ["I", "K"]},
    ]
    new = rotate(tables, results)
    assert partners(new[0]) == [frozenset("BD"), frozenset("EG")]
    assert new[1] == ["F", "H", "J", "L"]
    assert partners(new[1]) == [frozenset("FJ"), frozenset("HL")]
    assert new[2] == ["I", "K", "A", "C"]


def test_partners_are_split_at_every_table_but_the_head() -> None:
    """'When the advancing team sit down, they are then no longer partnered (except at the
    head table).'"""
    rng = random.Random(3)
    tables = seat_first_round([f"P{i}" for i in range(40)], rng)
    results = play_results(tables, rng)
    new = rotate(tables, results)
    old_teams = {team for table in tables for team in partners(table)}
    for table in new[1:]:
        assert not set(partners(table)) & old_teams


def test_the_stayers_may_swap_which_arriver_they_partner() -> None:
    """Ruling: 'Which stayer partners which arriver is the stayers' choice (the app proposes
    one, the table may swap before the first roll).'"""
    assert swap_partners(["F", "H", "J", "L"]) == ["F", "H", "L", "J"]
    assert partners(swap_partners(["F", "H", "J", "L"])) == [frozenset("FL"), frozenset("HJ")]
    tables = [["A", "B", "C", "D"], ["E", "F", "G", "H"], ["I", "J", "K", "L"]]
    results = play_results(tables, random.Random(4))
    proposed = rotate(tables, results)
    chosen = rotate(tables, results, choose=lambda number, table: number == 3)
    assert chosen[:2] == proposed[:2] and chosen[2] == swap_partners(proposed[2])
    assert rotation_problems(tables, results, chosen) == []


def test_the_app_proposal_avoids_two_ghosts_as_partners() -> None:
    tables = [["A", "B", "C", "D"], ["E", "F", "G", "Ghost 1"], ["I", "J", "Ghost 2", "L"]]
    results = [
        {"winners": ["A", "C"], "losers": ["B", "D"]},
        {"winners": ["E", "G"], "losers": ["F", "Ghost 1"]},
        {"winners": ["I", "Ghost 2"], "losers": ["J", "L"]},
    ]
    new = rotate(tables, results, ghosts={"Ghost 1", "Ghost 2"})
    assert frozenset({"Ghost 1", "Ghost 2"}) not in partners(new[1])


def test_a_swap_that_would_make_two_ghosts_partners_is_not_offered() -> None:
    """Ben and Ghost 2 stayed, Ghost 1 arrived: the app partners each stayer with one
    arriver so the ghosts are apart, and the swap that would pair them is not offered."""
    ghosts = {"Ghost 1", "Ghost 2"}
    proposed = ["Ben", "Ghost 2", "Ghost 1", "Lotte"]
    assert swap_pairs_ghosts(proposed, ghosts)
    assert not swap_pairs_ghosts(["Ben", "Ghost 2", "Lotte", "Ghost 1"], ghosts)
    assert not swap_pairs_ghosts(["Ben", "Anna", "Ghost 1", "Lotte"], ghosts)
    tables = [["A", "Ghost 1", "C", "Lotte"], ["Ben", "F", "Ghost 2", "H"]]
    results = [
        {"winners": ["A", "C"], "losers": ["Ghost 1", "Lotte"]},
        {"winners": ["F", "H"], "losers": ["Ben", "Ghost 2"]},
    ]
    asked = []
    new = rotate(tables, results, choose=lambda n, t: asked.append(n) or True, ghosts=ghosts)
    assert asked == [] and frozenset(ghosts) not in partners(new[1])


def test_one_table_keeps_everyone_and_both_pairs() -> None:
    new = rotate([["A", "B", "C", "D"]], [{"winners": ["B", "D"], "losers": ["A", "C"]}])
    assert partners(new[0]) == [frozenset("BD"), frozenset("AC")]


def test_first_round_seats_four_to_a_table_randomly_or_by_dice() -> None:
    players = [f"P{i}" for i in range(12)]
    for mode in ("random", "roll"):
        tables = seat_first_round(players, random.Random(1), mode)
        assert len(tables) == 3 and sorted(sum(tables, [])) == sorted(players)
    with pytest.raises(ValueError):
        seat_first_round(players[:10], random.Random(1))


@pytest.mark.parametrize("count", [1, 2, 3, 5, 12])
def test_where_a_pair_goes_next_is_where_the_rotation_seats_it(count):
    rng = random.Random(count)
    tables = [[f"p{t}-{s}" for s in range(4)] for t in range(count)]
    results = []
    for table in tables:
        won = rng.randrange(2)
        results.append(
            {"winners": [table[won], table[won + 2]], "losers": [table[1 - won], table[3 - won]]}
        )
    where = {name: t + 1 for t, table in enumerate(rotate(tables, results)) for name in table}
    for number, result in enumerate(results, start=1):
        for won, pair in ((True, result["winners"]), (False, result["losers"])):
            assert {where[name] for name in pair} == {next_table(number, count, won)}
