"""One table's game: roll-off, teams, STOP, ties, views and illegal actions."""

from __future__ import annotations

import json
import random

import pytest

from apps.parties.rules import IllegalAction, apply, legal_actions, outcome, setup, view
from apps.parties.rules.table import (
    DONE,
    PLAYING,
    ROLLOFF,
    SCRAMBLE,
    SEAT_MOVES,
    TableState,
    stalled_move,
    team_of,
)

from .test_bunko_rolls import roll, table_starting_with

RNG = random.Random(1)
STOP = {"type": "stop"}


def with_scores(state: TableState, team0: int, team1: int) -> TableState:
    """Bring a table to a score by rolled sixes (seat 0 for team 0, seat 1 for team 1)."""
    assert state.roller == 0 and state.scores == [0, 0]
    while state.scores[0] < team0:
        state = roll(state, 6, 2, 2)
    state = roll(state, 2, 2, 2)
    while state.scores[1] < team1:
        state = roll(state, 6, 2, 2)
    state = roll(state, 2, 2, 2)
    state = roll(state, 2, 2, 2)
    return roll(state, 2, 2, 2)  # back to seat 0


def test_the_highest_roll_off_die_starts() -> None:
    """'Each player rolls a die to see whom goes first.' Ruling: 'highest starts'."""
    state = setup(["Ann", "Bea", "Cal", "Dee"], {}, RNG)
    assert state.phase == ROLLOFF
    state = apply(state, None, {"type": "rolloff", "dice": {0: 3, 1: 5, 2: 1, 3: 4}}, RNG)
    assert state.phase == PLAYING
    assert state.first_roller == 1 and state.roller == 1


def test_only_the_seats_tied_highest_roll_again_in_the_roll_off() -> None:
    """Ruling: 'tied highest roll again.' Every round of the roll-off is kept."""
    state = setup(["Ann", "Bea", "Cal", "Dee"], {}, RNG)
    state = apply(state, None, {"type": "rolloff", "dice": {0: 5, 1: 2, 2: 5, 3: 5}}, RNG)
    assert state.phase == ROLLOFF and state.contenders == [0, 2, 3]
    with pytest.raises(IllegalAction, match="Ann, Cal, Dee"):
        apply(state, None, {"type": "rolloff", "dice": {"0": 1, "1": 6, "2": 2, "3": 3}}, RNG)
    state = apply(state, 0, {"type": "rolloff", "dice": {"0": 4, "2": 6, "3": 4}}, RNG)
    assert state.first_roller == 2
    assert state.rolloffs == [
        {"seats": [0, 1, 2, 3], "dice": [5, 2, 5, 5]},
        {"seats": [0, 2, 3], "dice": [4, 6, 4]},
    ]


def test_a_roll_off_without_dice_is_rolled_by_the_app_and_recorded() -> None:
    state = setup(["Ann", "Bea", "Cal", "Dee"], {}, random.Random(5))
    rng = random.Random(5)
    while state.phase == ROLLOFF:
        state = apply(state, None, {"type": "rolloff"}, rng)
    last = state.rolloffs[-1]
    assert max(last["dice"]) == last["dice"][last["seats"].index(state.first_roller)]


def test_partners_sit_across_seats_one_and_three_against_two_and_four() -> None:
    """Ruling: 'two teams of two, partners across (seats 1+3, 2+4).'"""
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    state = roll(roll(table_starting_with(1), 6, 2, 2), 2, 2, 2)  # Bea scores, passes
    state = roll(state, 6, 2, 2)  # Cal, Ann's partner
    assert state.scores == [1, 1]
    assert view(state, 2)["partner"] == 0 and view(state, 3)["team"] == 1


def test_the_head_table_is_done_the_moment_a_team_reaches_21() -> None:
    """'The head table plays until the winning team scores 21 points.' Ruling: 'Points
    scored in that same roll still count.'"""
    state = with_scores(table_starting_with(0, head=True), 20, 3)
    assert state.phase == PLAYING and not state.stopped
    state = roll(state, 6, 6, 1)
    assert state.phase == DONE and state.stopped
    assert state.scores == [22, 3]
    result = outcome(state)
    assert (result["winners"], result["losers"], result["score"]) == ([0, 2], [1, 3], [22, 3])
    assert result["ranking"] == [[0, 2], [1, 3]]


def test_a_table_that_is_not_the_head_plays_past_21_until_stop() -> None:
    """'Winning scores at the non-head tables could be 15 or 50.'"""
    state = with_scores(table_starting_with(0), 25, 3)
    assert state.phase == PLAYING and not state.stopped
    state = apply(state, None, STOP, RNG)
    assert state.phase == DONE and outcome(state)["winners"] == [0, 2]


def test_a_table_tied_when_stop_comes_plays_on_until_the_tie_is_broken() -> None:
    """'If there is a tie at a table when play is stopped, play continues normally until the
    tie is broken.'"""
    state = with_scores(table_starting_with(0), 4, 4)
    state = apply(state, None, STOP, RNG)
    assert state.phase == PLAYING and state.stopped
    state = roll(state, 2, 3, 4)  # still tied
    assert state.phase == PLAYING
    state = roll(state, 6, 3, 4)  # Bea's team leads
    assert state.phase == DONE and outcome(state)["winners"] == [1, 3]


def test_a_bunko_scramble_pending_at_21_finishes_before_the_head_table_is_done() -> None:
    """Ruling: 'Points scored in that same roll still count': the scramble is part of it."""
    state = with_scores(table_starting_with(0, head=True), 18, 5)
    state = roll(state, 6, 6, 6)
    assert state.phase == SCRAMBLE and state.stopped and state.scores == [21, 5]
    for seat in (1, 1, 3):
        state = apply(state, seat, {"type": "grab"}, RNG)
    assert state.phase == DONE and state.scores == [21, 8]


def test_a_head_table_tied_after_its_scramble_plays_on_like_any_tied_table() -> None:
    state = with_scores(table_starting_with(0, head=True), 18, 21 - 3)
    state = roll(state, 6, 6, 6)  # 21-18, then team 1 grabs all three dice
    for seat in (1, 3, 3):
        state = apply(state, seat, {"type": "grab"}, RNG)
    assert state.scores == [21, 21] and state.phase == PLAYING and state.stopped
    state = roll(state, 6, 2, 2)
    assert state.phase == DONE and state.winner == 0


def test_stop_at_a_table_mid_scramble_waits_for_the_scramble() -> None:
    state = with_scores(table_starting_with(0), 2, 0)
    state = apply(roll(state, 6, 6, 6), None, STOP, RNG)
    assert state.phase == SCRAMBLE
    state = apply(state, None, {"type": "scramble", "split": [0, 3]}, RNG)
    assert state.phase == DONE and state.scores == [5, 3]


def test_every_applied_action_counts_one_version() -> None:
    state = table_starting_with(0)
    assert state.version == 1
    assert roll(state, 2, 2, 2).version == 2


def test_a_table_replays_from_its_logged_actions() -> None:
    """Rules 'replay from its seed and its action list': rolled dice are in the log."""
    rng = random.Random(9)
    state = setup(["Ann", "Bea", "Cal", "Dee"], {"head": True}, rng)
    while state.phase == ROLLOFF:
        state = apply(state, None, {"type": "rolloff"}, rng)
    while state.phase != DONE:
        if state.phase == SCRAMBLE:
            state = apply(state, rng.randrange(4), {"type": "grab"}, rng)
        else:
            state = apply(state, state.roller, {"type": "roll"}, rng)
    replay = setup(["Ann", "Bea", "Cal", "Dee"], {"head": True}, rng)
    for rolloff in state.rolloffs:
        dice = dict(zip(rolloff["seats"], rolloff["dice"], strict=True))
        replay = apply(replay, None, {"type": "rolloff", "dice": dice}, rng)
    for entry in state.rolls:
        replay = apply(replay, entry["seat"], {"type": "roll", "dice": entry["dice"]}, rng)
        for seat in entry.get("scramble", []):
            replay = apply(replay, seat, {"type": "grab"}, rng)
    assert replay.scores == state.scores and replay.rolls == state.rolls


def test_a_state_survives_a_trip_through_json() -> None:
    state = roll(table_starting_with(0, head=True, ghosts=[3]), 6, 6, 6)
    again = TableState.from_json(json.loads(json.dumps(state.to_json())))
    assert again == state


def test_the_view_tells_a_seat_who_they_are_and_whether_it_is_their_turn() -> None:
    state = table_starting_with(1)
    mine = view(state, 1)
    assert mine["you"] == 1 and mine["your_turn"] and mine["team"] == 1 and mine["partner"] == 3
    assert view(state, 0)["your_turn"] is False
    board = view(state, None)
    assert board["you"] is None and board["players"] == ["Ann", "Bea", "Cal", "Dee"]
    json.dumps(board)


def test_legal_actions_offer_the_roller_a_roll_and_others_nothing() -> None:
    state = table_starting_with(1)
    assert {"type": "roll"} in legal_actions(state, 1)
    assert legal_actions(state, 0) == []
    assert legal_actions(state, None) == []  # STOP comes from the night, not a timed move
    scramble = roll(state, 6, 6, 6)
    assert {"type": "grab"} in legal_actions(scramble, 0)


def illegal(state: TableState, seat: int | None, action: dict, message: str) -> None:
    """An illegal action raises a readable reason and changes nothing."""
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message):
        apply(state, seat, action, RNG)
    assert state.to_json() == before


def test_rolling_out_of_turn_is_refused() -> None:
    illegal(table_starting_with(1), 0, {"type": "roll"}, "It is Bea's turn to roll.")


def test_grabbing_without_a_bunko_is_refused() -> None:
    illegal(table_starting_with(1), 0, {"type": "grab"}, "There is no scramble")


def test_rolling_during_a_scramble_is_refused() -> None:
    state = roll(table_starting_with(1), 6, 6, 6)
    illegal(state, 1, {"type": "roll"}, "The dice are being scrambled: grab a die first.")


def test_any_action_at_a_finished_table_is_refused() -> None:
    state = apply(with_scores(table_starting_with(0), 3, 1), None, STOP, RNG)
    assert state.phase == DONE
    illegal(state, 0, {"type": "roll"}, "This table has finished its game.")
    illegal(state, 0, {"type": "grab"}, "This table has finished its game.")


@pytest.mark.parametrize(
    ("dice", "message"),
    [([6, 6], "three dice"), ([0, 2, 3], "1 to 6"), ([7, 1, 1], "1 to 6"), ("666", "three")],
)
def test_dice_that_cannot_be_rolled_are_refused(dice, message) -> None:
    illegal(table_starting_with(0), 0, {"type": "roll", "dice": dice}, message)


def test_a_seat_not_at_the_table_is_refused() -> None:
    illegal(table_starting_with(0), 4, {"type": "roll"}, "Seat 5 is not at this table.")


def test_rolling_before_the_roll_off_and_rolling_off_twice_are_refused() -> None:
    fresh = setup(["Ann", "Bea", "Cal", "Dee"], {}, RNG)
    illegal(fresh, 0, {"type": "roll"}, "Roll off first")
    illegal(table_starting_with(0), None, {"type": "rolloff"}, "already known")


def test_stop_comes_only_from_the_night_and_only_once() -> None:
    state = table_starting_with(0)
    illegal(state, 0, STOP, "STOP is called by the head table")
    illegal(apply(state, None, STOP, RNG), None, STOP, "already been called")


def test_bad_scramble_entries_and_unknown_actions_are_refused() -> None:
    state = roll(table_starting_with(0), 6, 6, 6)
    illegal(state, None, {"type": "scramble", "split": [2, 2]}, "add up to 3")
    illegal(state, None, {"type": "scramble", "grabbers": [0, 1]}, "each of the three")
    illegal(state, None, {"type": "dance"}, "not something you can do")
    grabbed = apply(state, 0, {"type": "grab"}, RNG)
    illegal(grabbed, None, {"type": "scramble", "split": [3, 0]}, "keep grabbing")


def test_the_app_rolls_for_a_ghost_at_once_and_keeps_its_dice_in_the_entries() -> None:
    """Ruling: 'the ghost's dice are rolled by the app, the ghost's points count for its
    team'. A live table rolls for its ghost the moment the dice reach it."""
    from apps.parties.rules import ghost_action

    state = table_starting_with(2, ghosts=[3])
    assert state.roller == 2
    state = roll(state, 2, 3, 4)  # the dice pass to the ghost in seat 4, who rolls at once
    ghost_rolls = [e for e in state.entries if e.get("ghost")]
    assert ghost_rolls and all(e["seat"] == 3 for e in ghost_rolls)
    assert state.roller != 3 or state.phase != PLAYING
    assert [r["seat"] for r in state.rolls][: len(ghost_rolls) + 1] == [2] + [3] * len(ghost_rolls)
    scramble = roll(table_starting_with(0), 6, 6, 6)
    assert ghost_action(scramble, 3, RNG) == {"type": "grab"}


def test_the_roller_may_tap_a_report_instead_of_rolling() -> None:
    """Physical dice: the table taps what the roller rolled instead of entering dice."""
    kinds = {a.get("kind") for a in legal_actions(table_starting_with(0), 0)}
    assert kinds == {None, "miss", "sixes", "bunko", "wipeout"}
    classic = {a.get("kind") for a in legal_actions(table_starting_with(0, classic=True), 0)}
    assert "mini" in classic and "wipeout" not in classic


def test_a_finished_table_offers_nothing_and_its_outcome_names_both_teams() -> None:
    state = apply(with_scores(table_starting_with(0), 1, 5), None, STOP, RNG)
    assert all(legal_actions(state, seat) == [] for seat in (None, 0, 1, 2, 3))
    assert outcome(state) == {
        "winners": [1, 3],
        "losers": [0, 2],
        "score": [1, 5],
        "ranking": [[1, 3], [0, 2]],
        "scores": {0: 1, 1: 5, 2: 1, 3: 5},
    }
    assert outcome(table_starting_with(0)) is None


def test_the_stayers_are_not_offered_a_swap_that_pairs_the_two_ghosts() -> None:
    """Ben and Ghost 2 stayed (seats 1 and 2), Ghost 1 arrived in seat 3: a swap would make
    the ghosts partners, so Ben has no swap to tap, and one sent anyway changes nothing."""
    options = {"swap": True, "stayers": [0, 1], "ghosts": [1, 2]}
    state = setup(["Ben", "Ghost 2", "Ghost 1", "Lotte"], options, RNG)
    assert {"type": "swap"} not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="two ghosts partners"):
        apply(state, 0, {"type": "swap"}, RNG)
    # With one ghost at the table the stayers choose as before.
    state = setup(["Ben", "Ghost 2", "Anna", "Lotte"], {**options, "ghosts": [1]}, RNG)
    assert {"type": "swap"} in legal_actions(state, 0)
    assert apply(state, 0, {"type": "swap"}, RNG).players == ["Ben", "Ghost 2", "Lotte", "Anna"]


def test_the_rolls_the_app_makes_for_a_player_say_so_and_a_ghosts_do_not() -> None:
    """A seat the host handed to the app rolls at once; its rolls carry ``app``, kept by a
    replay; a ghost's rolls are the app's anyway."""
    from apps.parties.rules.table import replay

    state = table_starting_with(2, ghosts=[3])
    state = apply(state, None, {"type": "autoplay", "seat": 2}, RNG)
    made = [r for r in state.rolls if r["seat"] == 2]
    assert made and all(r.get("app") for r in made)
    assert not any(r.get("app") for r in state.rolls if r["seat"] == 3)
    again = replay(state.players, state.options, state.entries)
    assert again.rolls == state.rolls


def test_the_host_plays_a_stalled_table_as_its_missing_phone_would() -> None:
    state = setup(["Ann", "Bea", "Cal", "Dee"], {}, RNG)
    assert stalled_move(state, None, real_dice=False) == (None, {"type": "rolloff"})
    state = apply(state, None, {"type": "rolloff", "dice": {0: 3, 1: 5, 2: 1, 3: 4}}, RNG)
    assert stalled_move(state, None, real_dice=False) == (1, {"type": "roll", "app": True})
    with pytest.raises(IllegalAction, match="real dice"):
        stalled_move(state, None, real_dice=True)
    scramble = TableState.from_json({**state.to_json(), "phase": SCRAMBLE})
    with pytest.raises(IllegalAction, match="who grabs"):
        stalled_move(scramble, None, real_dice=False)
    assert stalled_move(scramble, 2, real_dice=False) == (2, {"type": "grab"})


def test_every_move_the_rules_offer_a_seat_is_a_seat_move() -> None:
    rng = random.Random(5)
    for game in range(200):
        state = setup(["Ann", "Bea", "Cal", "Dee"], {"dice": ("app", "physical")[game % 2]}, rng)
        for _step in range(40):
            offers = [(s, a) for s in range(4) for a in legal_actions(state, s)]
            assert {a["type"] for _s, a in offers} <= SEAT_MOVES
            if not offers:
                break
            seat, action = rng.choice(offers)
            state = apply(state, seat, action, rng)
