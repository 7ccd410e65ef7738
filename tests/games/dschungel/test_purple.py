"""The purple area: bananas in bunches and crates, one test per marking rule."""

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
    ZIGZAG,
    bunch,
    choose,
    coconut,
    fountain,
    full_crates,
    marks_offered,
    play,
    rolling,
    rules,
    sheet_with,
    stars_of,
    table,
)

SINGLES = ["purple-0-0", "purple-0-1", "purple-1-0", "purple-3-0"]
PAIRS = ["purple-1-1", "purple-2-0", "purple-2-1", "purple-4-0"]
TRIPLES = ["purple-3-1", "purple-4-1", "purple-5-0", "purple-5-1"]


def test_the_crates_hold_the_rulings_bunches():
    """Ruling: "6 crates. Bunches per crate: [1,1], [1,2], [2,2], [1,3], [2,3], [3,3]." """
    state = play(table([BANANA, BANANA, BANANA, ELEPHANT, STRIPES]), 0, choose("purple"))
    assert sorted(marks_offered(state, 0)) == sorted(SINGLES + PAIRS + TRIPLES)


def test_each_banana_die_marks_one_banana():
    """ "For each chosen die showing a banana, you may mark one banana." """
    state = play(table([BANANA, ELEPHANT, ELEPHANT, STRIPES, DOTS]), 0, choose("purple"))
    assert marks_offered(state, 0) == SINGLES
    state = play(state, 0, bunch(3, 0))
    assert marks_offered(state, 0) == []


def test_a_bunch_of_two_needs_two_bananas_from_one_turn():
    """ "For a 2-banana bunch you need at least 2 rolled bananas in one roll; for a 3-banana
    bunch at least 3 bananas, and so on." """
    state = play(table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS]), 0, choose("purple"))
    assert sorted(marks_offered(state, 0)) == sorted(SINGLES + PAIRS)
    with pytest.raises(IllegalAction, match="A bunch of 3 needs 3 bananas"):
        play(state, 0, bunch(5, 0))
    # two singles from two earlier turns never make a pair
    state = play(table([BANANA, ELEPHANT, ELEPHANT, STRIPES, DOTS]), 0, choose("purple"))
    state = play(state, 0, bunch(0, 0))
    with pytest.raises(IllegalAction, match="you have 0 left"):
        play(state, 0, bunch(1, 1))


def test_three_bananas_mark_a_three_bunch_or_a_single_and_a_two_bunch():
    """ "You may also split several bananas, for example using 3 bananas as one single banana
    and one 2-banana bunch." """
    rolled = table([BANANA, BANANA, BANANA, ELEPHANT, STRIPES])
    triple = play(play(rolled, 0, choose("purple")), 0, bunch(5, 0))
    assert marks_offered(triple, 0) == []
    split = play(play(rolled, 0, choose("purple")), 0, bunch(1, 0))
    assert sorted(marks_offered(split, 0)) == sorted(
        [s for s in SINGLES if s != "purple-1-0"] + PAIRS
    )
    split = play(split, 0, bunch(2, 1))
    assert marks_offered(split, 0) == []
    assert [m["dice"] for m in split.plays[0].marks] == [[0], [1, 2]]


def test_bananas_go_anywhere_with_several_crates_open_at_once():
    """ "You do not have to follow any order when marking, and you may have several partly
    marked crates open at the same time." """
    state = play(table([BANANA, BANANA, BANANA, ELEPHANT, STRIPES]), 0, choose("purple"))
    state = play(state, 0, bunch(0, 1))
    state = play(state, 0, bunch(3, 0))
    state = play(state, 0, bunch(1, 0))
    assert [sum(c) for c in state.plays[0].sheet.purple] == [1, 1, 0, 1, 0, 0]


def test_jokers_are_bananas_in_purple():
    """Ruling: "jokers always join the chosen colour"; in purple a joker is a banana."""
    state = play(table([BANANA, JOKER, JOKER, ELEPHANT, STRIPES]), 0, choose("purple"))
    state = play(state, 0, bunch(5, 0))
    view = rules.view(state, 0)
    assert [(d["status"], d["as"]) for d in view["dice"][:3]] == [
        ("used", None),
        ("used", "purple-banana"),
        ("used", "purple-banana"),
    ]
    alone = play(table([JOKER, ELEPHANT, ELEPHANT, STRIPES, DOTS]), 0, choose("purple"))
    assert marks_offered(alone, 0) == SINGLES


def test_a_full_crate_gives_what_is_printed_above_it():
    """ "The bonus circles and rainbow stars above a crate are received when you have marked
    all the bananas in that crate." Ruling: crate 1 pink bonus, 2 star, 3 blue bonus, 4 star,
    5 green bonus, 6 two stars."""
    state = table(
        [BANANA, BANANA, BANANA, ELEPHANT, STRIPES], sheets={0: sheet_with(purple=[(0, 0)])}
    )
    state = play(state, 0, choose("purple"))
    state = play(state, 0, bunch(0, 1))
    assert state.plays[0].bonuses == [{"area": "pink", "bananas": 0, "reward": "purple-crate-0"}]
    state = table(
        [BANANA, BANANA, BANANA, ELEPHANT, STRIPES], sheets={0: sheet_with(purple=[(5, 0)])}
    )
    state = play(state, 0, choose("purple"))
    state = play(state, 0, bunch(5, 1))
    assert stars_of(state, 0) == 2
    assert state.plays[0].bonuses == []


def test_five_full_crates_circle_the_extra_star():
    """ "You end the game and additionally receive the larger Extra Star if you have
    completed 5 banana crates." """
    sheet = sheet_with(purple=full_crates(1, 2, 3, 4) + [(0, 0)])
    state = table([BANANA, ELEPHANT, ELEPHANT, STRIPES, DOTS], players=1, sheets={0: sheet})
    state = play(state, 0, choose("purple"))
    state = play(state, 0, bunch(0, 1))
    assert rules.view(state, 0)["sheets"][0]["extra_stars"] == ["purple"]
    state = play(state, 0, SKIP_BONUS)  # the pink bonus of crate 1, let go
    state = play(state, 0, CONFIRM)
    assert rules.outcome(state)["stars_by_area"][0]["purple"] == 2 + 1  # crates 2 and 4, Extra


def test_a_purple_bonus_gives_its_bananas_counted_as_rolled_together():
    """ "If you receive a purple bonus circle in the other colour areas, it shows the number
    of bananas you may mark." Ruling: coconut 11 gives 2 bananas, "which count as rolled
    together": one 2-bunch, or two singles one after another."""
    sheet = sheet_with(pink=10)
    rolled = table([STRIPES, STRIPES, ELEPHANT, BANANA, ZIGZAG], sheets={0: sheet})
    state = play(play(rolled, 0, choose("pink")), 0, coconut(10))
    assert state.plays[0].bonuses == [{"area": "purple", "bananas": 2, "reward": "pink-coconut-10"}]
    offered = marks_offered(state, 0)
    assert sorted(offered) == sorted(SINGLES + PAIRS)
    pair = play(state, 0, bunch(2, 0, kind="bonus"))
    assert pair.plays[0].bonuses == []
    single = play(state, 0, bunch(0, 0, kind="bonus"))
    assert single.plays[0].bonuses == [
        {"area": "purple", "bananas": 1, "reward": "pink-coconut-10"}
    ]
    assert marks_offered(single, 0) == SINGLES[1:]
    single = play(single, 0, bunch(0, 1, kind="bonus"))
    # crate 1 full: its pink bonus follows
    assert [b["area"] for b in single.plays[0].bonuses] == ["pink"]


def test_a_bunch_needs_all_its_bananas_from_one_bonus():
    """A 1-banana purple bonus cannot mark a 2-bunch."""
    sheet = sheet_with(blue={"green": 1, "blue": 1, "pink": 1})
    rolled = table([ELEPHANT, BANANA, BANANA, STRIPES, DOTS], sheets={0: sheet})
    # the elephant rerolls onto a banana: purple, whose first fountain field gives 1 banana
    state = play(rolled, 0, choose("blue"), rolling((0, BANANA)))
    state = play(state, 0, fountain("purple", 0))
    assert state.plays[0].bonuses[0] == {
        "area": "purple",
        "bananas": 1,
        "reward": "blue-field-purple-0",
    }
    assert marks_offered(state, 0) == SINGLES
    with pytest.raises(IllegalAction, match="gives 1 banana"):
        play(state, 0, bunch(2, 0, kind="bonus"))
