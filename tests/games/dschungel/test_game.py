"""The table: setting up, the others' simultaneous choice and its countdown, the next player,
the end of the game and who wins."""

from __future__ import annotations

import json

import pytest

from apps.core.protocol import IllegalAction as ProtocolIllegalAction
from apps.core.protocol import without_delay
from apps.games.dschungel.rules import OPTIONS, IllegalAction, State
from tests.games.dschungel import (
    BANANA,
    CONFIRM,
    DOTS,
    ELEPHANT,
    NAMES,
    PASS,
    STRIPES,
    bunch,
    butterfly,
    choose,
    coconut,
    flower,
    green,
    play,
    rng,
    rules,
    sheet_with,
    table,
)


def others_turn(players: int = 3, **kwargs) -> State:
    """Ann has crossed one flower with a multi butterfly and a red flower; bananas, a stripes
    half and a dots half are left."""
    state = table(
        [butterfly("multi"), flower("red"), BANANA, STRIPES, BANANA], players=players, **kwargs
    )
    state = play(state, 0, choose("green"))
    state = play(state, 0, green("multi", "red"))
    return play(state, 0, CONFIRM)


# --- setting up ----------------------------------------------------------------------------


def test_illegal_action_is_the_protocols_exception():
    assert IllegalAction is ProtocolIllegalAction


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_one_to_four_players_each_get_a_blank_sheet(players):
    """ "Take one sheet from the pad and a pencil each" (4 pencils); one alone plays for a
    high score."""
    state = rules.setup(NAMES[:players], {}, rng())
    assert len(state.sheets) == players
    assert all(rules.view(state, None)["sheets"][s]["stars"] == 0 for s in range(players))
    assert (state.active, state.phase, state.turn) == (0, "roll", 1)


@pytest.mark.parametrize("players", [0, 5])
def test_dschungelparty_is_for_one_to_four_players(players):
    with pytest.raises(IllegalAction, match="1 to 4 players"):
        rules.setup(["X"] * players, {}, rng())


def test_the_countdown_option_defaults_and_is_checked():
    (countdown,) = OPTIONS
    assert (countdown.name, countdown.default, countdown.minimum, countdown.maximum) == (
        "countdown",
        60,
        15,
        300,
    )
    assert rules.setup(NAMES[:2], {}, rng()).countdown == 60
    assert rules.setup(NAMES[:2], None, rng()).countdown == 60
    assert rules.setup(NAMES[:2], {"countdown": "90", "unknown": 1}, rng()).countdown == 90
    with pytest.raises(IllegalAction, match="at most 300"):
        rules.setup(NAMES[:2], {"countdown": 301}, rng())


# --- the others ----------------------------------------------------------------------------


def test_all_others_choose_at_once_and_may_choose_the_same_dice():
    """ "all other players may choose a background colour from the dice you did not use and
    mark the symbols on their own sheets ... Several players may choose the same dice." """
    state = others_turn()
    assert state.phase == "others"
    assert rules.to_act(state) == [1, 2]
    assert rules.legal_actions(state, 0) == []
    assert rules.legal_actions(state, 1) == [choose("purple"), PASS]
    bea = play(state, 1, choose("purple"))
    cal = play(bea, 2, choose("purple"))
    cal = play(cal, 2, bunch(2, 0))
    cal = play(cal, 1, bunch(1, 1))
    assert cal.plays[1].dice == cal.plays[2].dice == [2, 4]


def test_the_others_cannot_take_the_dice_the_active_player_used():
    state = others_turn()
    with pytest.raises(IllegalAction, match="no cross to make"):
        play(state, 1, choose("green"))


def test_someone_who_cannot_use_any_die_left_marks_nothing_this_round():
    """ "If someone cannot use any of the remaining dice, that person may mark nothing in this
    round." They are passed at once."""
    full = sheet_with(purple=[(c, b) for c in range(6) for b in range(2) if (c, b) != (5, 1)])
    state = others_turn(sheets={1: full})
    assert state.done == [None, "nothing", None]
    assert rules.to_act(state) == [2]


def test_the_next_player_clockwise_rolls_once_all_others_have_finished():
    """ "When everyone has made their marks, the next player clockwise is up and rolls all
    five dice." """
    state = others_turn()
    state = play(state, 1, PASS)
    assert state.phase == "others" and rules.view(state, None)["confirmed"] == []
    state = play(state, 2, choose("purple"))
    state = play(state, 2, bunch(0, 0))
    state = play(state, 2, CONFIRM)
    assert (state.phase, state.active, state.turn) == ("roll", 1, 2)
    assert rules.legal_actions(state, 1) == [{"type": "roll"}]
    assert state.sheets[2].purple[0] == [True, False]


def test_after_the_last_seat_the_first_rolls_again():
    state = table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS], players=2, active=1)
    state = play(play(state, 1, PASS), 0, PASS)
    assert (state.active, state.phase) == (0, "roll")


def test_the_countdown_is_the_systems_one_move_while_the_others_choose():
    """The others' countdown: one timed system move, the same for the whole others' phase so
    the others' crosses do not restart it."""
    state = table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS], players=3, countdown=45)
    assert rules.legal_actions(state, None) == []
    state = play(state, 0, PASS)
    offer = rules.legal_actions(state, None)
    assert offer == [{"type": "timeout", "turn": 1, "delay_ms": 45_000}]
    state = play(state, 1, choose("purple"))
    state = play(state, 1, bunch(0, 0))
    state = play(state, 2, PASS)
    assert rules.legal_actions(state, None) == offer
    assert rules.view(state, None)["countdown"] == {"seconds": 45, "turn": 1}


def test_when_the_countdown_ends_whoever_has_not_confirmed_passes():
    """Crosses not yet confirmed are not made."""
    state = table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS], players=3)
    state = play(state, 0, PASS)
    state = play(state, 1, choose("purple"))
    state = play(state, 1, bunch(0, 0))
    state = play(state, 2, choose("purple"))
    state = play(state, 2, bunch(0, 0))
    state = play(state, 2, CONFIRM)
    (timeout,) = rules.legal_actions(state, None)
    state = play(state, None, without_delay(timeout))
    assert (state.phase, state.active) == ("roll", 1)
    assert state.sheets[1].purple[0] == [False, False]
    assert state.sheets[2].purple[0] == [True, False]
    assert [e["how"] for e in state.log[-2:]] == ["confirmed", "timed_out"]
    with pytest.raises(IllegalAction):
        play(state, None, without_delay(timeout))


def test_an_old_countdown_is_refused():
    state = play(table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS], players=2), 0, PASS)
    with pytest.raises(IllegalAction, match="already ended"):
        play(state, None, {"type": "timeout", "turn": 0})
    with pytest.raises(IllegalAction, match="Only the countdown"):
        play(state, None, PASS)


def test_a_solo_game_has_no_others_phase():
    state = table([BANANA, BANANA, ELEPHANT, STRIPES, DOTS], players=1)
    state = play(play(state, 0, choose("purple")), 0, bunch(0, 0))
    state = play(state, 0, CONFIRM)
    assert (state.phase, state.active, state.turn) == ("roll", 0, 2)
    assert rules.legal_actions(state, None) == []


# --- the end -------------------------------------------------------------------------------


def test_an_extra_star_of_the_active_player_ends_the_game_after_the_others_used_the_dice():
    """ "The game ends as soon as someone circles the larger, blue-outlined Extra Star ... If
    that person is the one who began the round, the other players may still use the remaining
    dice." """
    sheet = sheet_with(pink=12)
    state = table([STRIPES, STRIPES, BANANA, BANANA, ELEPHANT], players=2, sheets={0: sheet})
    state = play(play(state, 0, choose("pink")), 0, coconut(12))
    state = play(state, 0, CONFIRM)
    assert state.phase == "others" and state.ending and rules.outcome(state) is None
    state = play(play(state, 1, choose("purple")), 1, bunch(2, 0))
    state = play(state, 1, CONFIRM)
    assert state.phase == "over"
    result = rules.outcome(state)
    assert result["marks"][1]["purple"] == 1
    assert rules.legal_actions(state, 0) == rules.legal_actions(state, None) == []
    with pytest.raises(IllegalAction, match="The game is over."):
        play(state, 0, {"type": "roll"})


def test_an_extra_star_in_the_others_phase_ends_the_game_when_that_phase_ends():
    """The others choose at once, so all of them finish the turn in which one of them
    circles an Extra Star."""
    state = table(
        [BANANA, STRIPES, STRIPES, ELEPHANT, DOTS], players=3, sheets={1: sheet_with(pink=12)}
    )
    state = play(state, 0, PASS)
    state = play(play(state, 1, choose("pink")), 1, coconut(12))
    state = play(state, 1, CONFIRM)
    assert state.phase == "others" and state.ending
    state = play(play(state, 2, choose("pink")), 2, coconut(0))
    state = play(state, 2, CONFIRM)
    assert state.phase == "over"
    assert rules.outcome(state)["marks"][2]["pink"] == 1


def test_unconfirmed_crosses_do_not_end_the_game():
    state = table(
        [STRIPES, STRIPES, BANANA, BANANA, ELEPHANT], players=1, sheets={0: sheet_with(pink=12)}
    )
    state = play(play(state, 0, choose("pink")), 0, coconut(12))
    assert not state.ending
    assert not play(state, 0, {"type": "undo"}).ending


def test_most_rainbow_stars_win_and_a_tie_shares_the_win():
    """ "Whoever collected the most rainbow stars wins. In case of a tie, you share the
    victory." """
    five = sheet_with(pink=5)  # coconut 5: a star
    state = table(
        [STRIPES, STRIPES, BANANA, BANANA, ELEPHANT],
        players=3,
        sheets={0: sheet_with(pink=12), 1: five, 2: sheet_with(purple=[(1, 0), (1, 1)])},
    )
    state = play(play(state, 0, choose("pink")), 0, coconut(12))
    state = play(state, 0, CONFIRM)
    state = play(play(state, 1, PASS), 2, PASS)
    result = rules.outcome(state)
    assert result["stars"] == {0: 3, 1: 1, 2: 1}
    assert result["scores"] == result["stars"]
    assert result["ranking"] == [[0], [1, 2]]
    assert result["winners"] == [0]
    tie = rules.State.from_json(state.to_json())
    tie.sheets[0] = five
    tie_result = rules.outcome(tie)
    assert tie_result["winners"] == [0, 1, 2] and tie_result["ranking"] == [[0, 1, 2]]
    assert json.loads(json.dumps(result))["marks"]["0"] == {
        "green": 0,
        "purple": 0,
        "blue": 0,
        "pink": 13,
    }
