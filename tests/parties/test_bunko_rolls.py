"""Rolling and points: the rules' own variant (the default)."""

from __future__ import annotations

import random

import pytest

from apps.parties.rules import apply, setup
from apps.parties.rules.dice import classify
from apps.parties.rules.table import PLAYING, SCRAMBLE, TableState, recount

RNG = random.Random(0)


def table_starting_with(first: int = 0, **options: object) -> TableState:
    """A table whose roll-off seat ``first`` won."""
    state = setup(["Ann", "Bea", "Cal", "Dee"], dict(options), RNG)
    dice = {seat: (6 if seat == first else 2) for seat in range(4)}
    return apply(state, None, {"type": "rolloff", "dice": dice}, RNG)


def roll(state: TableState, *dice: int) -> TableState:
    return apply(state, state.roller, {"type": "roll", "dice": list(dice)}, RNG)


def test_each_six_rolled_scores_one_point_for_the_rollers_team() -> None:
    """'Each 6 rolled is worth a single point.'"""
    state = roll(table_starting_with(0), 6, 3, 6)
    assert state.scores == [2, 0]
    state = roll(roll(state, 1, 2, 3), 6, 2, 2)
    assert state.scores == [2, 1]


def test_a_roll_with_a_six_lets_the_same_player_roll_again() -> None:
    """'The player rolls as long as he/she keeps getting 6s.'"""
    state = roll(table_starting_with(2), 6, 1, 1)
    assert state.roller == 2


def test_a_roll_without_a_six_passes_the_dice_clockwise() -> None:
    """Ruling: 'a roll without a 6 passes the dice clockwise' (seat 1, 2, 3, 4)."""
    state = table_starting_with(2)
    state = roll(state, 2, 3, 4)
    assert state.roller == 3
    state = roll(state, 5, 5, 5)
    assert state.roller == 0


def test_a_roll_of_three_ones_wipes_out_the_rollers_team_score() -> None:
    """'A team loses all its points if they roll a wipeout.' Ruling: 'The dice pass.'"""
    state = table_starting_with(0)
    state = roll(state, 6, 6, 2)  # team 0: 2
    state = roll(state, 2, 2, 2)  # pass to seat 1
    state = roll(state, 6, 3, 3)  # team 1: 1
    state = roll(state, 1, 2, 2)  # pass to seat 2, Ann's partner
    state = roll(state, 1, 1, 1)
    assert state.scores == [0, 1]
    assert state.roller == 3
    assert state.rolls[-1]["kind"] == "wipeout"
    assert state.tallies[2]["wipeouts"] == 1


def test_a_roll_of_three_sixes_is_a_bunko_worth_three_points_then_a_scramble() -> None:
    """'If you roll all 6s, it is called a "Bunko". You get the 3 points for the three 6s.
    However, all players scramble to pick up a die after a Bunko.'"""
    state = roll(table_starting_with(1), 6, 6, 6)
    assert state.scores == [0, 3]
    assert state.phase == SCRAMBLE
    assert state.tallies[1]["bunkos"] == 1
    assert state.rolls[-1]["kind"] == "bunko"


@pytest.mark.parametrize(
    ("grabbers", "scores"),
    [
        ([0, 2, 0], [6, 0]),
        ([0, 2, 1], [5, 1]),
        ([3, 0, 1], [4, 2]),
        ([1, 3, 1], [3, 3]),
    ],
)
def test_the_scramble_gives_each_team_a_point_per_die_grabbed(grabbers, scores) -> None:
    """'The point possibility for each team is therefore 6/0, 5/1, 4/2, 3/3.'"""
    state = roll(table_starting_with(0), 6, 6, 6)
    for seat in grabbers:
        state = apply(state, seat, {"type": "grab"}, RNG)
    assert state.scores == scores
    assert state.rolls[-1]["scramble"] == grabbers
    assert recount(state) == scores


def test_a_player_may_grab_more_than_one_die_in_the_order_received() -> None:
    """Ruling: 'the first three taps, in the order the server receives them, take one die
    each' and 'a player may grab more than one'."""
    state = roll(table_starting_with(0), 6, 6, 6)
    state = apply(state, 3, {"type": "grab"}, RNG)
    state = apply(state, 3, {"type": "grab"}, RNG)
    assert state.phase == SCRAMBLE and state.grabs == [3, 3]
    state = apply(state, 3, {"type": "grab"}, RNG)
    assert state.scores == [3, 3]


def test_the_roller_rolls_again_after_a_bunko_and_its_scramble() -> None:
    """Ruling: 'The roller then rolls again (they rolled 6s).'"""
    state = roll(table_starting_with(3), 6, 6, 6)
    for seat in (0, 1, 2):
        state = apply(state, seat, {"type": "grab"}, RNG)
    assert state.phase == PLAYING
    assert state.roller == 3


def test_a_physical_scramble_entry_by_split_scores_like_grabs() -> None:
    """Ruling: 'With physical dice, the table enters the split.'"""
    state = roll(table_starting_with(0), 6, 6, 6)
    state = apply(state, None, {"type": "scramble", "split": [1, 2]}, RNG)
    assert state.scores == [4, 2]
    by_name = roll(table_starting_with(0), 6, 6, 6)
    by_name = apply(by_name, 2, {"type": "scramble", "grabbers": [1, 3, 0]}, RNG)
    assert by_name.scores == [4, 2]


@pytest.mark.parametrize(
    ("dice", "kind", "points"),
    [
        ([2, 3, 4], "miss", 0),
        ([6, 2, 4], "score", 1),
        ([6, 6, 1], "score", 2),
        ([6, 6, 6], "bunko", 3),
        ([1, 1, 1], "wipeout", 0),
        ([5, 5, 5], "miss", 0),
    ],
)
def test_a_roll_is_classified_by_its_sixes_ones_and_bunko(dice, kind, points) -> None:
    """'Points are accumulated by rolling 6s.' Three of a kind other than 6s or 1s is nothing
    special in the rules' variant."""
    result = classify(dice)
    assert (result.kind, result.points) == (kind, points)
    assert result.rolls_again == (6 in dice)


def test_rolls_of_the_same_throw_share_one_list_of_dice() -> None:
    """A night keeps every roll of a round in memory twice (the log and the moves): the
    dice of a throw are one list, whoever rolled them and however they came in."""
    first = roll(table_starting_with(0), 2, 3, 4)
    again = roll(first, 2, 3, 4)
    assert again.rolls[-1]["dice"] == [2, 3, 4]
    assert again.rolls[-1]["dice"] is first.rolls[-1]["dice"]
    rolled = apply(first, first.roller, {"type": "roll"}, random.Random(5))
    throw = rolled.rolls[-1]["dice"]
    assert rolled.entries[-1]["action"]["dice"] is throw


def test_a_rolls_entry_holds_the_scores_of_the_state_it_made() -> None:
    state = roll(table_starting_with(0), 6, 6, 1)
    assert state.rolls[-1]["scores"] == [2, 0]
    assert state.rolls[-1]["scores"] is state.scores
    after = roll(state, 6, 1, 1)
    assert state.scores == [2, 0], "the next roll makes a list of its own"
    assert after.scores == [3, 0]
