"""The green area: flowers and butterflies, one test per marking rule."""

from __future__ import annotations

import pytest

from apps.games.dschungel.rules import IllegalAction
from tests.games.dschungel import (
    BANANA,
    CONFIRM,
    ELEPHANT,
    JOKER,
    STRIPES,
    bunch,
    butterfly,
    choose,
    coconut,
    flower,
    green,
    marks_offered,
    play,
    rules,
    sheet_with,
    stars_of,
    table,
)


def test_a_flower_needs_a_butterfly_of_its_row():
    """ "Butterflies are not marked. A butterfly only indicates in which row you may mark the
    flower." """
    state = play(
        table([butterfly("blue"), flower("red"), BANANA, BANANA, ELEPHANT]), 0, choose("green")
    )
    assert marks_offered(state, 0) == ["green-blue-red"]
    with pytest.raises(IllegalAction, match="needs a multicoloured butterfly"):
        play(state, 0, green("multi", "red"))


def test_green_needs_at_least_one_butterfly_and_one_flower():
    """ "You must always have at least 1 butterfly and 1 flower selected in order to be allowed
    to mark a cross." """
    flowers_only = table([flower("red"), flower("blue"), BANANA, ELEPHANT, STRIPES])
    assert choose("green") not in rules.legal_actions(flowers_only, 0)
    with pytest.raises(IllegalAction, match="no cross to make"):
        play(flowers_only, 0, choose("green"))
    butterflies_only = table([butterfly("multi"), butterfly("blue"), BANANA, ELEPHANT, STRIPES])
    assert choose("green") not in rules.legal_actions(butterflies_only, 0)


def test_two_butterflies_and_one_flower_mark_the_flower_in_one_row_only():
    """ "If you have 2 butterflies and only 1 flower, you must decide in which row you mark
    the flower. You may not use it twice." """
    state = table([butterfly("multi"), butterfly("blue"), flower("yellow"), BANANA, ELEPHANT])
    state = play(state, 0, choose("green"))
    assert marks_offered(state, 0) == ["green-multi-yellow", "green-blue-yellow"]
    state = play(state, 0, green("blue", "yellow"))
    assert marks_offered(state, 0) == []


def test_several_flowers_may_all_go_in_one_butterfly_row():
    """ "If you have 2 butterflies and several flowers, you can ... mark them all in one
    row." One butterfly serves every flower of its row."""
    state = table([butterfly("multi"), flower("yellow"), flower("red"), flower("white"), BANANA])
    state = play(state, 0, choose("green"))
    for bloom in ("red", "yellow", "white"):  # "You may mark the flowers in any order."
        state = play(state, 0, green("multi", bloom))
    assert rules.view(state, 0)["sheets"][0]["new"] == [
        "green-multi-red",
        "green-multi-yellow",
        "green-multi-white",
    ]


def test_several_flowers_may_be_split_across_butterfly_rows():
    """ "... you can split the flowers across different butterfly rows"."""
    state = table([butterfly("multi"), butterfly("yellow"), flower("red"), flower("white"), BANANA])
    state = play(state, 0, choose("green"))
    state = play(state, 0, green("multi", "red"))
    state = play(state, 0, green("yellow", "white"))
    assert state.plays[0].sheet.green == [
        [False, False, True, False],
        [False] * 4,
        [False, False, False, True],
    ]


def test_a_marked_flower_cannot_be_marked_again():
    state = table(
        [butterfly("multi"), flower("red"), BANANA, BANANA, ELEPHANT],
        sheets={0: sheet_with(green=[("multi", "red")])},
    )
    assert choose("green") not in rules.legal_actions(state, 0)


def test_a_joker_can_stand_for_the_butterfly_or_the_flower():
    """ "A joker may be used freely. That means you can choose both the background colour and
    the symbol." The cross names the field; the joker becomes what is missing."""
    state = play(table([JOKER, flower("red"), BANANA, BANANA, ELEPHANT]), 0, choose("green"))
    assert marks_offered(state, 0) == ["green-multi-red", "green-blue-red", "green-yellow-red"]
    state = play(state, 0, green("blue", "red"))
    die = rules.view(state, 0)["dice"][0]
    assert (die["status"], die["as"]) == ("used", "green-butterfly-blue")
    state = play(table([butterfly("yellow"), JOKER, BANANA, BANANA, ELEPHANT]), 0, choose("green"))
    assert marks_offered(state, 0) == [
        f"green-yellow-{f}" for f in ("yellow", "blue", "red", "white")
    ]
    state = play(state, 0, green("yellow", "white"))
    assert rules.view(state, 0)["dice"][1]["as"] == "green-flower-white"


def test_two_jokers_alone_make_a_butterfly_and_a_flower():
    """ "You can always add a joker to your chosen dice, or use it alone or in combination
    with other jokers." """
    state = play(table([JOKER, JOKER, BANANA, BANANA, ELEPHANT]), 0, choose("green"))
    assert len(marks_offered(state, 0)) == 12
    state = play(state, 0, green("multi", "blue"))
    assert marks_offered(state, 0) == []


def test_a_real_die_is_used_before_a_joker():
    """A joker is spent only where no die shows the symbol, so it stays free for another
    cross."""
    state = table([butterfly("multi"), flower("red"), JOKER, BANANA, ELEPHANT])
    state = play(state, 0, choose("green"))
    state = play(state, 0, green("multi", "red"))
    assert marks_offered(state, 0) == [
        "green-multi-yellow",
        "green-multi-blue",
        "green-multi-white",
    ]


def test_lisas_example_blue_flower_in_the_blue_row_wins_a_pink_bonus():
    """The rules' example: Lisa has marked the yellow and blue flowers of the bottom row and
    the yellow flower of the second row; with both butterflies, a yellow and a blue flower she
    can only mark the blue flower in the second row. "This earns her a pink bonus circle", and
    the multicoloured butterfly, the yellow flower and the elephant go to the others."""
    lisa = sheet_with(green=[("multi", "yellow"), ("multi", "blue"), ("blue", "yellow")])
    state = table(
        [butterfly("multi"), butterfly("blue"), flower("yellow"), flower("blue"), ELEPHANT],
        sheets={0: lisa},
    )
    state = play(state, 0, choose("green"))
    assert marks_offered(state, 0) == ["green-blue-blue"]
    state = play(state, 0, green("blue", "blue"))
    assert [b["area"] for b in state.plays[0].bonuses] == ["pink"]
    state = play(state, 0, coconut(0, kind="bonus"))
    state = play(state, 0, CONFIRM)
    assert state.left == [0, 2, 4]
    assert [d["status"] for d in rules.view(state, 1)["dice"]] == [
        "left",
        "used",
        "left",
        "used",
        "left",
    ]


def test_rewards_sit_between_neighbouring_flowers_and_need_both():
    """ "Bonus rings and rainbow stars are received when you have marked both flowers adjacent
    to them." Ruling: multicoloured row yellow|blue star, blue|red purple bonus, red|white
    star."""
    state = table([butterfly("multi"), flower("yellow"), flower("red"), BANANA, ELEPHANT])
    state = play(state, 0, choose("green"))
    state = play(state, 0, green("multi", "yellow"))
    state = play(state, 0, green("multi", "red"))
    assert stars_of(state, 0) == 0 and state.plays[0].bonuses == []
    state = play(
        table(
            [butterfly("multi"), flower("blue"), BANANA, BANANA, ELEPHANT],
            sheets={0: state.plays[0].sheet},
        ),
        0,
        choose("green"),
    )
    state = play(state, 0, green("multi", "blue"))
    assert stars_of(state, 0) == 1
    assert state.plays[0].bonuses == [
        {"area": "purple", "bananas": 1, "reward": "green-multi-blue-red"}
    ]
    assert rules.view(state, 0)["sheets"][0]["rewards"] == [
        "green-multi-yellow-blue",
        "green-multi-blue-red",
    ]


def test_all_twelve_flowers_circle_the_extra_star_and_end_the_game():
    """ "You end the game and additionally receive the larger Extra Star if you have marked
    all 12 flowers." """
    almost = [
        (r, f) for r in ("multi", "blue", "yellow") for f in ("yellow", "blue", "red", "white")
    ]
    almost.remove(("yellow", "white"))
    state = table(
        [butterfly("yellow"), flower("white"), BANANA, BANANA, ELEPHANT],
        players=1,
        sheets={0: sheet_with(green=almost)},
    )
    before = stars_of(state, 0)
    state = play(state, 0, choose("green"))
    state = play(state, 0, green("yellow", "white"))
    assert "extra-green" in rules.view(state, 0)["sheets"][0]["rewards"]
    assert stars_of(state, 0) == before + 2  # red|white star and the Extra Star
    state = play(state, 0, CONFIRM)
    assert rules.outcome(state)["extra_stars"] == {0: ["green"]}


def test_a_green_bonus_marks_any_unmarked_flower_without_a_butterfly():
    """Ruling: a bonus mark is "free of dice but under that area's rules (green: any unmarked
    flower ...)". Here a full crate 5 gives the green bonus."""
    sheet = sheet_with(purple=[(4, 0)], green=[("blue", "red")])
    state = table([BANANA, BANANA, BANANA, ELEPHANT, STRIPES], sheets={0: sheet})
    state = play(state, 0, choose("purple"))
    state = play(state, 0, bunch(4, 1))
    offered = marks_offered(state, 0)
    assert len(offered) == 11 and "green-blue-red" not in offered
    state = play(state, 0, green("yellow", "white", kind="bonus"))
    assert state.plays[0].sheet.green[2][3]
