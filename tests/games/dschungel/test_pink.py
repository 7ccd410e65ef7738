"""The pink area: coconuts along the path, one test per marking rule."""

from __future__ import annotations

import pytest

from apps.games.dschungel.rules import IllegalAction
from tests.games.dschungel import (
    BANANA,
    CONFIRM,
    DOTS,
    ELEPHANT,
    JOKER,
    STRIPES,
    ZIGZAG,
    choose,
    coconut,
    dice_crosses,
    play,
    rules,
    sheet_with,
    stars_of,
    table,
)


def crossed(state, seat: int = 0) -> int:
    return sum(state.plays[seat].sheet.pink)


def cross_all(state, seat: int = 0):
    """Cross coconuts while the dice allow; the state after."""
    while dice_crosses(state, seat):
        k = crossed(state, seat)
        state = play(state, seat, coconut(k))
    return state


def test_two_halves_of_the_same_pattern_make_a_coconut():
    """ "To be allowed to mark a coconut, you must be able to place two matching coconut
    halves together with the chosen dice." """
    state = play(table([STRIPES, BANANA, ELEPHANT, STRIPES, BANANA]), 0, choose("pink"))
    assert dice_crosses(state, 0) == ["pink-0"]
    assert crossed(cross_all(state)) == 1


def test_halves_of_different_patterns_make_no_coconut():
    state = table([STRIPES, DOTS, ZIGZAG, ELEPHANT, BANANA])
    assert choose("pink") not in rules.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="no cross to make"):
        play(state, 0, choose("pink"))


def test_several_coconuts_at_once_mark_as_many_coconuts():
    """ "If you can place several coconuts together at once, you may mark the corresponding
    number of coconuts on your sheet." """
    state = play(table([STRIPES, DOTS, ZIGZAG, STRIPES, DOTS]), 0, choose("pink"))
    assert crossed(cross_all(state)) == 2


def test_a_joker_alone_is_a_whole_coconut():
    """ "A joker always counts as 2 arbitrary coconut halves." """
    state = play(table([JOKER, BANANA, ELEPHANT, BANANA, ELEPHANT]), 0, choose("pink"))
    done = cross_all(state)
    assert crossed(done) == 1
    assert rules.view(done, 0)["dice"][0]["as"] == "pink-half-any"


def test_a_jokers_two_halves_can_complete_two_different_halves():
    """Ruling: "a joker is two halves of any pattern (a whole coconut, or completes a half)":
    each half completes one, so stripes + dots + joker make two coconuts."""
    state = play(table([JOKER, DOTS, ZIGZAG, BANANA, ELEPHANT]), 0, choose("pink"))
    done = cross_all(state)
    assert crossed(done) == 2
    assert [m["dice"] for m in done.plays[0].marks] == [[1, 0], [2, 0]]


def test_coconuts_are_marked_in_path_order_without_skipping():
    """ "Starting at the arrow at the bottom left, you must always mark the coconuts in row
    order. You may not skip a coconut." """
    state = table([STRIPES, STRIPES, DOTS, DOTS, BANANA], sheets={0: sheet_with(pink=4)})
    state = play(state, 0, choose("pink"))
    assert dice_crosses(state, 0) == ["pink-4"]
    with pytest.raises(IllegalAction, match="the next one is coconut 5"):
        play(state, 0, coconut(6))
    state = play(state, 0, coconut(4))
    assert dice_crosses(state, 0) == ["pink-5"]


def test_coconuts_give_the_reward_standing_on_them():
    """ "Bonus circles and rainbow stars are received as soon as you mark the coconut on which
    they stand." Ruling: 3 green bonus, 5 star, 7 blue bonus, 9 star, 11 purple bonus."""
    state = table([STRIPES, STRIPES, DOTS, DOTS, JOKER], sheets={0: sheet_with(pink=2)})
    state = cross_all(play(state, 0, choose("pink")))
    assert crossed(state) == 5
    assert stars_of(state, 0) == 1
    assert [b["area"] for b in state.plays[0].bonuses] == ["green"]
    assert rules.view(state, 0)["sheets"][0]["rewards"] == ["pink-coconut-2", "pink-coconut-4"]


def test_all_thirteen_coconuts_circle_the_extra_star():
    """ "You end the game and additionally receive the larger Extra Star if you have marked
    all 13 coconuts." """
    state = table(
        [STRIPES, STRIPES, BANANA, BANANA, BANANA], players=1, sheets={0: sheet_with(pink=12)}
    )
    state = play(state, 0, choose("pink"))
    state = play(state, 0, coconut(12))
    assert dice_crosses(state, 0) == []
    state = play(state, 0, CONFIRM)
    assert rules.outcome(state)["extra_stars"] == {0: ["pink"]}
    assert rules.outcome(state)["stars_by_area"][0]["pink"] == 3


def test_a_pink_bonus_marks_the_next_coconut():
    """Ruling: a pink bonus mark is "the next coconut". Crate 1 gives a pink bonus."""
    state = table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS], sheets={0: sheet_with(pink=3)})
    state = play(state, 0, choose("purple"))
    state = play(
        state, 0, {"type": "mark", "area": "purple", "crate": 0, "bunch": 0, "field": "purple-0-0"}
    )
    state = play(
        state, 0, {"type": "mark", "area": "purple", "crate": 0, "bunch": 1, "field": "purple-0-1"}
    )
    assert [a["field"] for a in rules.legal_actions(state, 0) if a["type"] == "bonus"] == ["pink-3"]
    state = play(state, 0, coconut(3, kind="bonus"))
    assert crossed(state) == 4
