"""A turn, tap by tap: the roll, the colour, jokers, the one reroll, undo, bonus marks,
confirming, and the dice left for the others."""

from __future__ import annotations

import pytest

from apps.games.dschungel.rules import IllegalAction
from tests.games.dschungel import (
    BANANA,
    CONFIRM,
    DOTS,
    ELEPHANT,
    JOKER,
    PASS,
    SKIP_BONUS,
    STRIPES,
    UNDO,
    ZIGZAG,
    bunch,
    butterfly,
    choose,
    coconut,
    flower,
    green,
    marks_offered,
    play,
    rng,
    rolling,
    rules,
    sheet_with,
    table,
)


def test_the_active_player_rolls_all_five_dice():
    """ "When it is your turn, roll all five dice." Each die shows a face of its own."""
    state = table(players=2)
    assert rules.legal_actions(state, 0) == [{"type": "roll"}]
    assert rules.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="It is Ann's turn to roll."):
        play(state, 1, {"type": "roll"})
    rolled = play(state, 0, {"type": "roll"}, rng(7))
    assert rolled.phase == "active" and len(rolled.dice) == 5
    assert all(face in rules.DICE[d] for d, face in enumerate(rolled.dice))
    with pytest.raises(IllegalAction, match="have been rolled"):
        play(rolled, 0, {"type": "roll"})


def test_a_colour_takes_all_its_dice_plus_all_jokers():
    """ "You can take all dice of one background colour plus all rolled jokers." """
    state = play(table([BANANA, JOKER, STRIPES, BANANA, JOKER]), 0, choose("purple"))
    assert state.plays[0].dice == [0, 1, 3, 4]
    assert [d["status"] for d in rules.view(state, 0)["dice"]] == ["chosen"] * 2 + ["rolled"] + [
        "chosen"
    ] * 2


def test_only_colours_that_allow_a_cross_are_offered():
    state = table([BANANA, STRIPES, DOTS, flower("red"), ELEPHANT])
    assert rules.legal_actions(state, 0) == [choose("purple"), choose("blue"), PASS]


def test_every_cross_of_a_turn_goes_in_the_chosen_area_jokers_included():
    """ "However, you may still only mark in one colour area per turn." Ruling: "jokers always
    join the chosen colour, but all marks of one turn go in one colour area"."""
    state = play(table([BANANA, JOKER, STRIPES, STRIPES, ELEPHANT]), 0, choose("purple"))
    assert {a["area"] for a in rules.legal_actions(state, 0) if "area" in a} == {"purple"}
    with pytest.raises(IllegalAction, match="This turn you mark in the purple area."):
        play(state, 0, coconut(0))


def test_with_nothing_usable_the_active_player_may_roll_all_dice_once_more():
    """ "If you cannot use any of the dice at all, you may roll all the dice once more." """
    sheet = sheet_with(purple=[(c, b) for c in range(6) for b in range(2) if (c, b) != (5, 1)])
    stuck = table([BANANA, STRIPES, DOTS, flower("red"), ZIGZAG], sheets={0: sheet})
    assert rules.legal_actions(stuck, 0) == [{"type": "reroll"}, PASS]
    again = play(stuck, 0, {"type": "reroll"}, rng(3))
    assert again.rerolled and again.log[-1]["again"] is True
    assert {"type": "reroll"} not in rules.legal_actions(again, 0)
    with pytest.raises(IllegalAction, match="already"):
        play(again, 0, {"type": "reroll"})


def test_the_reroll_is_refused_while_some_die_can_be_used():
    state = table([BANANA, STRIPES, DOTS, flower("red"), ZIGZAG])
    with pytest.raises(IllegalAction, match="You can use some of these dice"):
        play(state, 0, {"type": "reroll"})


def test_a_player_who_still_cannot_use_anything_passes_and_all_dice_go_to_the_others():
    """ "If someone cannot use any of the remaining dice, that person may mark nothing in
    this round." """
    sheet = sheet_with(purple=[(c, b) for c in range(6) for b in range(2) if (c, b) != (5, 1)])
    state = table([BANANA, STRIPES, DOTS, flower("red"), ZIGZAG], sheets={0: sheet})
    state = play(
        state,
        0,
        {"type": "reroll"},
        rolling(
            *[(d, f) for d, f in enumerate([BANANA, DOTS, ZIGZAG, flower("white"), flower("blue")])]
        ),
    )
    assert rules.legal_actions(state, 0) == [PASS]
    state = play(state, 0, PASS)
    assert state.phase == "others" and state.left == [0, 1, 2, 3, 4]


def test_undo_takes_back_crosses_one_by_one_and_then_the_colour():
    """A player may take crosses back until they confirm."""
    rolled = table([BANANA, BANANA, BANANA, ELEPHANT, STRIPES])
    chosen = play(rolled, 0, choose("purple"))
    one = play(chosen, 0, bunch(0, 0))
    two = play(one, 0, bunch(2, 0))
    assert play(two, 0, UNDO).to_json() == one.to_json()
    assert play(play(two, 0, UNDO), 0, UNDO).to_json() == chosen.to_json()
    back = play(chosen, 0, UNDO)
    assert back.plays[0] is None and choose("blue") in rules.legal_actions(back, 0)


def test_the_view_says_what_undo_would_take_back():
    """A phone labels its undo button: the last cross, a skipped bonus mark, or the colour."""
    sheet = sheet_with(purple=[(0, 0)])
    chosen = play(
        table([BANANA, ELEPHANT, ELEPHANT, STRIPES, DOTS], sheets={0: sheet}), 0, choose("purple")
    )

    def last_step(state):
        return rules.view(state, 0)["sheets"][0]["play"]["last_step"]

    assert last_step(chosen) is None
    crossed = play(chosen, 0, bunch(0, 1))  # crate 1 full: a pink bonus waits
    assert last_step(crossed) == bunch(0, 1)
    assert last_step(play(crossed, 0, SKIP_BONUS)) == SKIP_BONUS


def test_undo_takes_back_a_bonus_mark_and_the_bonuses_it_won():
    sheet = sheet_with(purple=[(0, 0)], green=[("blue", "yellow")])
    state = play(
        table([BANANA, ELEPHANT, ELEPHANT, STRIPES, DOTS], sheets={0: sheet}), 0, choose("purple")
    )
    state = play(state, 0, bunch(0, 1))  # crate 1: a pink bonus
    after_bonus = play(state, 0, coconut(0, kind="bonus"))
    assert play(after_bonus, 0, UNDO).to_json() == state.to_json()


def test_bonus_marks_come_after_the_dice_crosses_one_after_another():
    """ "... you may place one more bonus mark in the corresponding colour area at the end of
    your turn ... Sometimes you may also be allowed to place several bonus marks one after
    another." Once a bonus mark is made, the dice make no more crosses."""
    state = table(
        [BANANA, BANANA, BANANA, JOKER, STRIPES], sheets={0: sheet_with(purple=[(0, 0), (2, 0)])}
    )
    state = play(state, 0, choose("purple"))
    state = play(state, 0, bunch(0, 1))  # crate 1 full: pink bonus
    state = play(state, 0, bunch(2, 1))  # crate 3 full: blue bonus
    assert [b["area"] for b in state.plays[0].bonuses] == ["pink", "blue"]
    assert CONFIRM not in rules.legal_actions(state, 0)
    assert marks_offered(state, 0) == ["purple-1-0", "purple-3-0", "pink-0"]
    state = play(state, 0, coconut(0, kind="bonus"))
    assert marks_offered(state, 0) == [
        "blue-green-0",
        "blue-blue-0",
        "blue-pink-0",
        "blue-purple-0",
    ]
    with pytest.raises(IllegalAction, match="before the bonus marks"):
        play(state, 0, bunch(1, 0))


def test_a_bonus_mark_can_win_further_bonus_marks():
    """ "A bonus may win another; they are taken one after another." Coconut 3 gives a green
    bonus; the blue row's blue flower then wins a pink bonus; that marks coconut 4."""
    sheet = sheet_with(pink=2, green=[("blue", "yellow")])
    state = table([STRIPES, STRIPES, BANANA, ELEPHANT, BANANA], sheets={0: sheet})
    state = play(state, 0, choose("pink"))
    state = play(state, 0, coconut(2))
    state = play(state, 0, green("blue", "blue", kind="bonus"))
    assert [b["area"] for b in state.plays[0].bonuses] == ["pink"]
    state = play(state, 0, coconut(3, kind="bonus"))
    state = play(state, 0, CONFIRM)
    assert state.sheets[0].pink[:5] == [True, True, True, True, False]
    assert [m["bonus"] for m in state.log[-1]["marks"]] == [False, True, True]


def test_a_bonus_mark_may_be_let_go():
    """ "you may place one more bonus mark" """
    state = table(
        [BANANA, BANANA, ELEPHANT, STRIPES, DOTS], sheets={0: sheet_with(purple=[(0, 0)])}
    )
    state = play(play(state, 0, choose("purple")), 0, bunch(0, 1))
    state = play(state, 0, SKIP_BONUS)
    assert state.plays[0].bonuses == [] and CONFIRM in rules.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="No bonus mark is waiting."):
        play(state, 0, SKIP_BONUS)


def test_confirm_waits_for_the_bonus_marks():
    state = table(
        [BANANA, BANANA, ELEPHANT, STRIPES, DOTS], sheets={0: sheet_with(purple=[(0, 0)])}
    )
    state = play(play(state, 0, choose("purple")), 0, bunch(0, 1))
    with pytest.raises(IllegalAction, match="Place or skip your bonus marks"):
        play(state, 0, CONFIRM)


def test_dice_not_used_go_back_for_the_others():
    """ "It may happen that you cannot use one or more of the dice you chose. Put these back
    with the other unused dice. They are then available to the other players" """
    state = table([butterfly("multi"), butterfly("blue"), flower("red"), JOKER, BANANA])
    state = play(state, 0, choose("green"))
    state = play(state, 0, green("multi", "red"))
    state = play(state, 0, CONFIRM)
    assert (state.used, state.left) == ([0, 2], [1, 3, 4])


def test_a_turn_passed_leaves_all_five_dice_to_the_others():
    state = play(table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS]), 0, PASS)
    assert state.left == [0, 1, 2, 3, 4] and state.log[-1]["how"] == "passed"


def test_a_seat_must_choose_before_crossing():
    state = table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS])
    with pytest.raises(IllegalAction, match="Choose a colour first."):
        play(state, 0, bunch(0, 0))
    with pytest.raises(IllegalAction, match="Choose green, purple, blue or pink."):
        play(state, 0, choose("orange"))


def test_moves_that_are_not_moves_are_refused_with_a_sentence():
    state = table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS])
    for bad in ({}, {"type": 3}, {"type": "fly"}, {"type": "confirm", "now": True}):
        with pytest.raises(IllegalAction):
            play(state, 0, bad)
    chosen = play(state, 0, choose("purple"))
    for bad in (
        {"type": "mark", "area": "purple", "crate": 9, "bunch": 0, "field": "purple-9-0"},
        {"type": "mark", "area": "purple", "crate": 0, "bunch": 0, "field": "purple-1-1"},
        {"type": "mark", "area": "purple", "crate": 0},
    ):
        with pytest.raises(IllegalAction, match="There is no such"):
            play(chosen, 0, bad)
    with pytest.raises(IllegalAction, match="There is no such seat"):
        play(state, 7, PASS)
