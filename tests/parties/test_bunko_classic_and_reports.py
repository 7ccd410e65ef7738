"""Classic Bunco (a house option) and physical dice tapped in as reports."""

from __future__ import annotations

import random

import pytest

from apps.parties.rules import IllegalAction, apply
from apps.parties.rules.dice import classic_target, equivalent_dice
from apps.parties.rules.table import PLAYING, TableState, recount

from .test_bunko_rolls import roll, table_starting_with

RNG = random.Random(2)


def report(state: TableState, kind: str, count: int | None = None) -> TableState:
    action = {"type": "report", "kind": kind}
    if count is not None:
        action["count"] = count
    return apply(state, state.roller, action, RNG)


@pytest.mark.parametrize(("round_number", "target"), [(1, 1), (2, 2), (6, 6), (7, 1), (8, 2)])
def test_classic_target_number_is_the_round_number_cycling_after_six(round_number, target):
    """Ruling: 'classic Bunco (target number = round number, Bunko = 21 points)'."""
    assert classic_target(round_number) == target


def test_classic_each_die_showing_the_target_scores_and_the_roller_keeps_rolling() -> None:
    state = roll(table_starting_with(0, classic=True, round=3), 3, 3, 6)
    assert state.scores == [2, 0] and state.roller == 0
    state = roll(state, 6, 6, 1)  # sixes score nothing in round 3
    assert state.scores == [2, 0] and state.roller == 1


def test_classic_three_of_the_target_is_a_bunko_worth_21_without_a_scramble() -> None:
    state = roll(table_starting_with(1, classic=True, round=2), 2, 2, 2)
    assert state.scores == [0, 21]
    assert state.phase == PLAYING and state.roller == 1
    assert state.rolls[-1]["kind"] == "bunko" and state.tallies[1]["bunkos"] == 1


def test_classic_three_of_another_number_is_a_mini_bunko_worth_5() -> None:
    """Classic Bunco's 'mini Bunko': three of a kind that is not the target."""
    state = roll(table_starting_with(0, classic=True, round=4), 5, 5, 5)
    assert state.scores == [5, 0] and state.roller == 0
    assert state.rolls[-1]["mini"] is True


def test_classic_has_no_wipeout() -> None:
    state = roll(table_starting_with(0, classic=True, round=2), 2, 6, 3)
    state = roll(state, 1, 1, 1)
    assert state.scores == [6, 0]
    assert state.rolls[-1]["kind"] == "score"
    with pytest.raises(IllegalAction, match="no wipeout"):
        report(state, "wipeout")


def test_the_classic_head_table_stops_on_a_bunko_of_21() -> None:
    state = roll(table_starting_with(0, classic=True, round=5, head=True), 5, 5, 5)
    assert state.stopped and state.winner == 0


REPORTS = [("miss", None), ("sixes", 1), ("sixes", 2), ("bunko", None), ("wipeout", None)]
CLASSIC_REPORTS = [("miss", None), ("sixes", 1), ("sixes", 2), ("bunko", None), ("mini", None)]


def _both_ways(options: dict, kind: str, count: int | None, target: int):
    start = roll(table_starting_with(0, **options), 6 if target == 6 else target, 2, 3)
    tapped = report(start, kind, count)
    dice = equivalent_dice(kind, count or 0, options.get("classic", False), target)
    rolled = roll(start, *dice)
    return tapped, rolled


@pytest.mark.parametrize(("kind", "count"), REPORTS)
def test_a_physical_report_scores_exactly_like_the_equivalent_dice(kind, count) -> None:
    """Physical dice: 'the table taps what the roller rolled', scored like that roll."""
    tapped, rolled = _both_ways({}, kind, count, 6)
    assert tapped.scores == rolled.scores and tapped.roller == rolled.roller
    assert tapped.phase == rolled.phase and tapped.tallies == rolled.tallies
    assert tapped.rolls[-1]["dice"] is None and tapped.rolls[-1]["kind"] == rolled.rolls[-1]["kind"]
    assert recount(tapped) == tapped.scores


@pytest.mark.parametrize(("kind", "count"), CLASSIC_REPORTS)
def test_a_classic_physical_report_scores_like_the_equivalent_dice(kind, count) -> None:
    tapped, rolled = _both_ways({"classic": True, "round": 4}, kind, count, 4)
    assert tapped.scores == rolled.scores and tapped.roller == rolled.roller


@pytest.mark.parametrize(
    ("kind", "count", "message"),
    [
        ("sixes", 3, "three is a Bunko"),
        ("jackpot", None, "Report a miss"),
        ("mini", None, "classic"),
    ],
)
def test_impossible_reports_are_refused_and_change_nothing(kind, count, message) -> None:
    state = table_starting_with(0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message):
        report(state, kind, count)
    assert state.to_json() == before


def test_a_report_out_of_turn_is_refused() -> None:
    state = table_starting_with(0)
    with pytest.raises(IllegalAction, match="Ann's turn"):
        apply(state, 1, {"type": "report", "kind": "miss"}, RNG)
