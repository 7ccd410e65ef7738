"""Which die a cross uses: "You can decide which dice you want to take". Where a cross could
use a die showing its symbol or a joker, the active player chooses, since what a cross leaves
goes to the others; the choice is offered only where it changes what is left for them."""

from __future__ import annotations

import pytest

from apps.games.dschungel.rules import IllegalAction
from tests.games.dschungel import (
    BANANA,
    CONFIRM,
    DOTS,
    ELEPHANT,
    JOKER,
    SKIP_BONUS,
    STRIPES,
    bunch,
    butterfly,
    choose,
    coconut,
    flower,
    fountain,
    green,
    play,
    rolling,
    rules,
    table,
)


def with_dice(action: dict, dice: list[int]) -> dict:
    return {**action, "dice": dice}


def crosses_of(state: rules.State, seat: int, field: str) -> list[dict]:
    return [a for a in rules.legal_actions(state, seat) if a.get("field") == field]


def test_the_active_player_may_spend_the_joker_and_leave_the_banana_to_the_others():
    state = play(table([BANANA, JOKER, STRIPES, ELEPHANT, DOTS]), 0, choose("purple"))
    assert crosses_of(state, 0, "purple-0-0") == [bunch(0, 0), with_dice(bunch(0, 0), [1])]
    state = play(state, 0, with_dice(bunch(0, 0), [1]))
    assert state.plays[0].marks[0]["dice"] == [1]
    state = play(state, 0, CONFIRM)
    assert (state.used, state.left) == ([1], [0, 2, 3, 4])
    assert {"type": "choose", "colour": "purple"} in rules.legal_actions(state, 1)


def test_without_a_choice_a_cross_uses_the_die_showing_its_symbol_first():
    """So the joker stays free for the player's next cross, as before."""
    state = play(table([BANANA, JOKER, STRIPES, ELEPHANT, DOTS]), 0, choose("purple"))
    state = play(play(state, 0, bunch(0, 0)), 0, CONFIRM)
    assert (state.used, state.left) == ([0], [1, 2, 3, 4])


def test_a_joker_may_stand_for_the_butterfly_or_the_flower_when_both_are_rolled():
    dice = [butterfly("multi"), flower("red"), JOKER, BANANA, ELEPHANT]
    state = play(table(dice), 0, choose("green"))
    assert crosses_of(state, 0, "green-multi-red") == [
        green("multi", "red"),
        with_dice(green("multi", "red"), [0, 2]),  # the joker as the flower
        with_dice(green("multi", "red"), [2, 1]),  # the joker as the butterfly
    ]
    state = play(state, 0, with_dice(green("multi", "red"), [2, 1]))
    die = rules.view(state, 0)["dice"][2]
    assert (die["status"], die["as"]) == ("used", "green-butterfly-multi")
    state = play(state, 0, CONFIRM)
    assert state.left == [0, 3, 4]


def test_a_coconut_may_be_made_with_the_joker_instead_of_a_pair_of_halves():
    dice = [STRIPES, JOKER, BANANA, STRIPES, DOTS]
    state = play(table(dice), 0, choose("pink"))
    assert crosses_of(state, 0, "pink-0") == [
        coconut(0),  # the two stripes halves
        with_dice(coconut(0), [0, 1]),  # a stripes half and half the joker
        with_dice(coconut(0), [4, 1]),  # the dots half and half the joker
        with_dice(coconut(0), [1]),  # the whole joker
    ]
    state = play(play(state, 0, with_dice(coconut(0), [1])), 0, coconut(1))
    assert [m["dice"] for m in state.plays[0].marks] == [[1], [0, 3]]


def test_no_choice_is_offered_where_the_dice_left_would_be_the_same():
    """Two jokers are alike, and in the fountain a die rolled again is gone for the others
    whether or not it is used: choosing among such dice changes nothing for anyone."""
    state = play(table([JOKER, JOKER, STRIPES, BANANA, ELEPHANT]), 0, choose("purple"))
    assert crosses_of(state, 0, "purple-0-0") == [bunch(0, 0), with_dice(bunch(0, 0), [0])]
    source = rolling((0, BANANA), (1, JOKER), (3, ELEPHANT))
    state = play(table([ELEPHANT, ELEPHANT, BANANA, ELEPHANT, DOTS]), 0, choose("blue"), source)
    assert state.plays[0].faces == [BANANA, JOKER, ELEPHANT]
    assert all("dice" not in a for a in rules.legal_actions(state, 0))


def test_in_the_fountain_the_kept_joker_may_be_spent_instead_of_a_die_rolled_again():
    """A die rolled again and not used is gone; a joker taken with the elephants goes back to
    the others when unused. So the choice between them is the active player's."""
    source = rolling((1, BANANA))
    state = play(table([JOKER, ELEPHANT, BANANA, STRIPES, DOTS]), 0, choose("blue"), source)
    assert crosses_of(state, 0, "blue-purple-0") == [
        fountain("purple", 0),
        with_dice(fountain("purple", 0), [0]),
    ]
    spent = play(state, 0, with_dice(fountain("purple", 0), [0]))
    spent = play(play(spent, 0, SKIP_BONUS), 0, CONFIRM)
    assert (spent.used, spent.gone, spent.left) == ([0], [1], [2, 3, 4])
    kept = play(play(play(state, 0, fountain("purple", 0)), 0, SKIP_BONUS), 0, CONFIRM)
    assert (kept.used, kept.gone, kept.left) == ([1], [], [0, 2, 3, 4])


def test_the_others_are_offered_no_choice_of_die_as_they_leave_nothing_to_anyone():
    state = play(table([BANANA, JOKER, STRIPES, STRIPES, DOTS]), 0, choose("pink"))
    state = play(play(state, 0, coconut(0)), 0, CONFIRM)
    assert state.left == [0, 1, 4]
    bea = play(state, 1, choose("purple"))
    assert bea.plays[1].faces == [BANANA, JOKER]
    assert all("dice" not in a for a in rules.legal_actions(bea, 1))
    with pytest.raises(IllegalAction):
        play(bea, 1, with_dice(bunch(0, 0), [1]))


@pytest.mark.parametrize(
    "dice",
    [[0], [2], [1, 1], [9], "joker", [None], []],
)
def test_a_choice_of_die_not_offered_is_refused_with_a_sentence(dice):
    state = play(table([BANANA, JOKER, STRIPES, ELEPHANT, DOTS]), 0, choose("purple"))
    with pytest.raises(IllegalAction) as refused:
        play(state, 0, with_dice(bunch(0, 0), dice))
    assert str(refused.value)[:1].isupper() and str(refused.value).endswith(".")
