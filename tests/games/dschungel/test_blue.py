"""The blue area: the elephant fountain, one test per marking rule."""

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
    UNDO,
    butterfly,
    choose,
    dice_crosses,
    flower,
    fountain,
    marks_offered,
    play,
    rng,
    rolling,
    rules,
    sheet_with,
    stars_of,
    table,
)


def test_choosing_the_elephants_rolls_every_elephant_again():
    """ "If you choose the dice showing the elephant, you must roll again all dice that show
    an elephant." Ruling: "reroll every elephant die chosen"."""
    state = table([ELEPHANT, BANANA, ELEPHANT, STRIPES, ELEPHANT])
    source = rolling((0, flower("yellow")), (2, BANANA), (4, ELEPHANT))
    state = play(state, 0, choose("blue"), source)
    assert state.plays[0].dice == [0, 2, 4]
    assert state.plays[0].faces == [flower("yellow"), BANANA, ELEPHANT]
    dice = rules.view(state, 0)["dice"]
    assert [(d["face"], d["status"], d["rerolled"]) for d in dice] == [
        (flower("yellow"), "chosen", True),
        (BANANA, "rolled", False),
        (BANANA, "chosen", True),
        (STRIPES, "rolled", False),
        (ELEPHANT, "chosen", True),
    ]


def test_a_joker_taken_with_the_elephants_is_no_elephant_die_and_is_not_rolled_again():
    """ "You must roll again all dice that show an elephant"; ruling: "a joker taken with them
    is no elephant die and is not rerolled". Whatever the elephants roll, the joker stays."""
    dice = [JOKER, ELEPHANT, butterfly("yellow"), ELEPHANT, ELEPHANT]
    for seed in range(200):
        state = play(table(dice), 0, choose("blue"), rng(seed))
        taken = state.plays[0]
        assert (taken.dice, taken.faces[0], taken.rolled) == ([0, 1, 3, 4], JOKER, [1, 3, 4])
    seen = {d["die"]: d for d in rules.view(state, 0)["dice"]}
    assert (seen[0]["face"], seen[0]["rerolled"]) == (JOKER, False)
    assert all(seen[d]["rerolled"] for d in (1, 3, 4))


def test_a_kept_joker_marks_in_whichever_column_the_elephants_mark():
    """Ruling: "then take all rerolled dice of one colour plus every joker (taken or
    rerolled)", "jokers always join the chosen colour"."""
    dice = [JOKER, ELEPHANT, butterfly("yellow"), ELEPHANT, ELEPHANT]
    source = rolling((1, BANANA), (3, BANANA), (4, flower("blue")))
    state = play(table(dice), 0, choose("blue"), source)
    assert state.plays[0].faces == [JOKER, BANANA, BANANA, flower("blue")]
    for row in range(3):
        state = play(state, 0, fountain("purple", row))  # two bananas and the joker
    assert state.plays[0].sheet.blue[3] == [True, True, True]
    assert [m["dice"] for m in state.plays[0].marks] == [[1], [3], [0]]
    source = rolling((1, BANANA), (3, BANANA), (4, flower("blue")))
    green = play(table(dice), 0, choose("blue"), source)
    green = play(play(green, 0, fountain("green", 0)), 0, fountain("green", 1))
    assert [m["dice"] for m in green.plays[0].marks] == [[4], [0]]


def test_a_kept_joker_the_fountain_did_not_use_goes_back_to_the_others():
    """ "The dice you do not use after the reroll are no longer available": that is the dice
    rolled again. A joker that was not rolled is put back "with the other unused dice"."""
    state = table([JOKER, ELEPHANT, BANANA, STRIPES, DOTS])
    state = play(state, 0, choose("blue"), rolling((1, flower("blue"))))
    state = play(state, 0, fountain("green", 0))
    state = play(state, 0, CONFIRM)
    assert (state.used, state.gone, state.left) == ([1], [], [0, 2, 3, 4])
    assert state.dice[0] == JOKER and state.elephants == [1]


def test_felixs_example_rerolled_dice_of_one_colour_plus_jokers_mark_that_column():
    """The rules' example: Felix rerolls four elephants and gets 1 blue, 2 purple and 1
    joker; "He decides to place 3 crosses in the purple column ... (2 purple + 1 joker).
    Alternatively, he could have placed 2 crosses in the blue column (1 blue + 1 joker)." """
    state = table([ELEPHANT, ELEPHANT, ELEPHANT, ELEPHANT, BANANA])
    source = rolling((0, ELEPHANT), (1, JOKER), (2, BANANA), (3, BANANA))
    state = play(state, 0, choose("blue"), source)
    # the joker alone could go in any column
    assert marks_offered(state, 0) == [
        "blue-green-0",
        "blue-blue-0",
        "blue-pink-0",
        "blue-purple-0",
    ]
    purple = state
    for row in range(3):
        purple = play(purple, 0, fountain("purple", row))
    assert dice_crosses(purple, 0) == []  # the purple column is full; the rest go unused
    blue = play(state, 0, fountain("blue", 0))
    assert marks_offered(blue, 0) == ["blue-blue-1"]
    blue = play(blue, 0, fountain("blue", 1))
    assert dice_crosses(blue, 0) == []


def test_the_symbol_of_a_rerolled_die_is_irrelevant_only_its_colour_counts():
    """ "When rerolling the elephant dice, only the background colour of the dice matters." """
    state = table([ELEPHANT, ELEPHANT, BANANA, BANANA, BANANA])
    state = play(state, 0, choose("blue"), rolling((0, butterfly("multi")), (1, flower("blue"))))
    state = play(state, 0, fountain("green", 0))
    state = play(state, 0, fountain("green", 1))
    assert state.plays[0].sheet.blue[0] == [True, True, False]


def test_crosses_go_up_each_column_from_the_bottom():
    """ "Crosses must be placed in each column from bottom to top." """
    state = table(
        [ELEPHANT, BANANA, BANANA, STRIPES, DOTS], sheets={0: sheet_with(blue={"pink": 1})}
    )
    state = play(state, 0, choose("blue"), rolling((0, STRIPES)))
    assert marks_offered(state, 0) == ["blue-pink-1"]
    with pytest.raises(IllegalAction, match="from bottom to top"):
        play(state, 0, fountain("pink", 2))


def test_a_full_column_takes_no_more_crosses():
    state = table(
        [ELEPHANT, BANANA, BANANA, STRIPES, DOTS], sheets={0: sheet_with(blue={"pink": 3})}
    )
    state = play(state, 0, choose("blue"), rolling((0, STRIPES)))
    assert marks_offered(state, 0) == []
    with pytest.raises(IllegalAction, match="full"):
        play(state, 0, fountain("pink", 0))


def test_the_rerolled_dice_not_used_are_gone_for_the_others():
    """ "The dice you do not use after the reroll are no longer available to the other
    players." """
    state = table([ELEPHANT, ELEPHANT, BANANA, STRIPES, DOTS])
    state = play(state, 0, choose("blue"), rolling((0, BANANA), (1, DOTS)))
    state = play(state, 0, fountain("purple", 0))
    state = play(state, 0, SKIP_BONUS)
    state = play(state, 0, CONFIRM)
    assert (state.used, state.gone, state.left) == ([0], [1], [2, 3, 4])
    dice = rules.view(state, 1)["dice"]
    assert [(d["face"], d["status"]) for d in dice] == [
        (BANANA, "used"),
        (DOTS, "gone"),
        (BANANA, "left"),
        (STRIPES, "left"),
        (DOTS, "left"),
    ]


def test_an_other_player_using_a_left_elephant_rolls_it_again_for_themselves():
    """ "If you want to use blue dice that someone else set aside unused in their turn, you
    must each roll them again individually, and you may then mark according to the background
    colours." """
    state = table([butterfly("multi"), flower("red"), ELEPHANT, BANANA, STRIPES], players=3)
    state = play(state, 0, choose("green"))
    state = play(
        state,
        0,
        {
            "type": "mark",
            "area": "green",
            "row": "multi",
            "flower": "red",
            "field": "green-multi-red",
        },
    )
    state = play(state, 0, CONFIRM)
    assert state.left == [2, 3, 4]
    bea = play(state, 1, choose("blue"), rolling((2, BANANA)))
    cal = play(bea, 2, choose("blue"), rolling((2, "green-flower-red")))
    assert cal.plays[1].faces == [BANANA] and cal.plays[2].faces == [flower("red")]
    assert marks_offered(cal, 1) == ["blue-purple-0"]
    assert marks_offered(cal, 2) == ["blue-green-0"]
    assert cal.dice[2] == ELEPHANT  # the shared die still shows the elephant


def test_the_elephant_reroll_cannot_be_undone_but_its_crosses_can():
    """Undo takes back crosses until the turn is confirmed; a roll of the dice stays."""
    state = play(
        table([ELEPHANT, BANANA, BANANA, STRIPES, DOTS]), 0, choose("blue"), rolling((0, BANANA))
    )
    assert UNDO not in rules.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="cannot be taken back"):
        play(state, 0, UNDO)
    marked = play(state, 0, fountain("purple", 0))
    assert play(marked, 0, UNDO).plays[0] == state.plays[0]


def test_fountain_fields_give_their_rewards_and_the_bottom_rows_a_star_each():
    """ "Bonus circles and rainbow stars are received when you mark the respective field.
    Further rainbow stars are received for completely marking the two bottom rows." Ruling:
    row 1 green star, row 1 purple purple bonus, row 2 blue pink bonus, row 2 pink star, row 3
    green green bonus."""
    sheet = sheet_with(blue={"blue": 1, "pink": 1, "purple": 1})
    state = table([ELEPHANT, ELEPHANT, BANANA, STRIPES, DOTS], sheets={0: sheet})
    state = play(state, 0, choose("blue"), rolling((0, butterfly("multi")), (1, JOKER)))
    state = play(state, 0, fountain("green", 0))
    assert stars_of(state, 0) == 2  # the green field's star and the bottom row's star
    state = play(state, 0, fountain("green", 1))
    assert rules.view(state, 0)["sheets"][0]["rewards"] == [
        "blue-field-green-0",
        "blue-field-purple-0",
        "blue-row-0",
    ]
    assert state.plays[0].bonuses == []  # the purple field's bonus came in an earlier turn


def test_the_third_row_complete_circles_the_blue_extra_star():
    """ "You end the game and additionally receive the blue Extra Star if you have completely
    marked the third row of the water fountain." """
    sheet = sheet_with(blue={"green": 3, "blue": 3, "pink": 3, "purple": 2})
    state = table([ELEPHANT, BANANA, BANANA, STRIPES, DOTS], players=1, sheets={0: sheet})
    state = play(state, 0, choose("blue"), rolling((0, BANANA)))
    state = play(state, 0, fountain("purple", 2))
    assert rules.view(state, 0)["sheets"][0]["extra_stars"] == ["blue"]
    state = play(state, 0, CONFIRM)
    assert rules.outcome(state) is not None


def test_a_blue_bonus_marks_the_next_field_of_any_column():
    """Ruling: a blue bonus mark is "the next field of any column"."""
    sheet = sheet_with(purple=[(2, 0)], blue={"green": 2, "pink": 3})
    state = table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS], sheets={0: sheet})
    state = play(state, 0, choose("purple"))
    state = play(
        state, 0, {"type": "mark", "area": "purple", "crate": 2, "bunch": 1, "field": "purple-2-1"}
    )
    assert marks_offered(state, 0) == ["blue-green-2", "blue-blue-0", "blue-purple-0"]
    state = play(state, 0, fountain("green", 2, kind="bonus"))
    # the green column's top field gives a green bonus in turn
    assert [b["area"] for b in state.plays[0].bonuses] == ["green"]
