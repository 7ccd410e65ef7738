"""Mbogo's draw and the end of a hand: whom a card is drawn from, drawing Mbogo, running out
of cards, the face-down card, and when a hand is over (one test per rule, as test_rules.py)."""

from __future__ import annotations

import pytest

from apps.games.mbogo import rules
from apps.games.mbogo.rules import IllegalAction
from tests.games.mbogo import (
    ANTELOPES,
    CAGES,
    ELEPHANTS,
    GORILLAS,
    HUNTERS,
    LIONS,
    MBOGO,
    hand_state,
    lines,
    match_of,
    play,
)

# --- drawing -------------------------------------------------------------------------------


def test_the_draw_is_from_the_nearest_player_to_the_right_who_still_has_cards():
    """Ruling: "To draw is to take one card, unseen, from the hand of the nearest player to the
    right who still has cards." """
    hand = hand_state(
        [[LIONS[0], LIONS[1]], [], [ELEPHANTS[0]]], turn=2, phase="draw"
    )  # Bea, to Cal's right, is out
    state = match_of(hand)
    seen = rules.view(state, 2)
    assert (seen["draw_from"], seen["draw_from_size"]) == (0, 2)
    assert rules.legal_actions(state, 2) == [
        {"type": "draw", "position": 0},
        {"type": "draw", "position": 1},
    ]
    after = play(state, 2, {"type": "draw", "position": 1})
    assert len(after.hand.hands[0]) == 1 and len(after.hand.hands[2]) == 2
    assert "Cal drew from Ann." in lines(after.hand)


def test_the_drawn_card_is_random_whatever_back_the_drawer_picks():
    """ "The card is drawn at random and placed in the player's hand." """
    hand = hand_state([[GORILLAS[0]], LIONS[:6]], turn=0, phase="draw", face_down=ELEPHANTS[0])
    state = match_of(hand)
    drawn = {
        play(state, 0, {"type": "draw", "position": 0}, seed).hand.hands[0][-1]
        for seed in range(60)
    }
    assert drawn == set(LIONS[:6])


def test_drawing_mbogo_lets_the_giver_choose_a_cage_whose_animals_go_to_the_centre():
    """ "If the player should draw the Mbogo card, the player from whom he drew it indicates a
    cage of the drawing player which is attacked by Mbogo. All of the animals from this cage
    are released and placed face up in the center of the table. The cage remains where it is,
    empty and the Mbogo card remains in the drawing player's hand." """
    hand = hand_state(
        [[GORILLAS[0]], [MBOGO, HUNTERS[0]], [ANTELOPES[0]]],
        cages=[
            [(CAGES[0], [LIONS[0], LIONS[1]]), (CAGES[1], []), (CAGES[2], [ELEPHANTS[0]])],
            [],
            [],
        ],
        turn=0,
        phase="draw",
    )
    # Ann draws from Cal: make Cal hold only Mbogo.
    hand.hands[2] = [MBOGO]
    hand.hands[1] = [HUNTERS[0], ANTELOPES[0]]
    hand.face_down = GORILLAS[1]
    state = play(match_of(hand), 0, {"type": "draw", "position": 0})
    assert state.hand.phase == "mbogo_attack"
    seen = rules.view(state, None)
    assert seen["attack"] == {"chooser": 2, "drawer": 0, "cages": [0, 2]}
    assert seen["to_act"] == 2
    assert rules.legal_actions(state, 2) == [
        {"type": "attack", "cage": 0},
        {"type": "attack", "cage": 2},
    ]
    assert rules.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="Cal chooses which cage Mbogo attacks."):
        play(state, 0, {"type": "attack", "cage": 0})
    with pytest.raises(IllegalAction, match="that holds animals"):
        play(state, 2, {"type": "attack", "cage": 1})
    after = play(state, 2, {"type": "attack", "cage": 0})
    assert after.hand.cages[0][0].animals == []
    assert [c.card for c in after.hand.cages[0]] == [CAGES[0], CAGES[1], CAGES[2]]
    assert after.hand.centre == [LIONS[0], LIONS[1]]
    assert MBOGO in after.hand.hands[0]
    assert after.hand.phase == "play2" and after.hand.turn == 0
    assert "Mbogo! Cal releases Ann's 2 lions." in lines(after.hand)


def test_drawing_mbogo_without_a_cage_holding_animals_does_nothing():
    """Ruling: "If the drawer has no cage with animals, nothing happens." Nobody is told that
    Mbogo was drawn, since nothing happened that would show it."""
    hand = hand_state(
        [[GORILLAS[0]], [MBOGO]],
        cages=[[(CAGES[0], [])], []],
        turn=0,
        phase="draw",
        face_down=LIONS[0],
    )
    after = play(match_of(hand), 0, {"type": "draw", "position": 0})
    assert after.hand.phase == "play2"
    assert MBOGO in after.hand.hands[0]
    assert not any("Mbogo" in line for line in lines(after.hand))


# --- empty hands and the end of a hand -----------------------------------------------------


def test_the_first_player_to_run_out_takes_the_face_down_card_as_a_new_hand():
    """ "The first player to run out of cards draws the card originally placed face down on the
    table to form a new hand of one." """
    hand = hand_state(
        [[LIONS[0]], [GORILLAS[0], GORILLAS[1]], [ANTELOPES[0]]],
        cages=[[(CAGES[0], [])], [], []],
        face_down=ELEPHANTS[0],
    )
    after = play(match_of(hand), 0, {"type": "animal", "animal": LIONS[0], "cage": 0})
    assert after.hand.hands[0] == [ELEPHANTS[0]]
    assert after.hand.face_down is None and after.hand.phase == "draw"
    assert rules.view(after, 1)["face_down"] is False
    assert rules.view(after, 1)["players"][0]["took_face_down"] is True


def test_a_player_whose_last_card_is_drawn_takes_the_face_down_card_if_first():
    """The face-down card goes to the first hand that empties, however it empties."""
    hand = hand_state(
        [[LIONS[0]], [GORILLAS[0]], [ANTELOPES[0]]], turn=1, phase="draw", face_down=MBOGO
    )
    after = play(match_of(hand), 1, {"type": "draw", "position": 0})
    assert after.hand.hands[0] == [MBOGO]
    assert after.hand.phase == "play2"


def test_after_the_face_down_card_is_gone_a_player_who_runs_out_is_out_of_the_hand():
    """ "After this, any players who run out of cards are out of the current hand and do not
    draw or play any more cards." """
    hand = hand_state(
        [[LIONS[0]], [GORILLAS[0], GORILLAS[1]], [ANTELOPES[0], ANTELOPES[1]]],
        cages=[[(CAGES[0], [])], [], []],
    )
    after = play(match_of(hand), 0, {"type": "animal", "animal": LIONS[0], "cage": 0})
    # No draw for Ann: her turn ends, and Bea plays next.
    assert after.hand.hands[0] == []
    assert (after.hand.turn, after.hand.phase) == (1, "play1")
    assert rules.view(after, None)["players"][0]["in_hand"] is False
    assert "Ann ran out of cards and is out of the hand." in lines(after.hand)
    # Bea, to Ann's left, draws from Cal: Ann, to her right, is out.
    after = play(after, 1, {"type": "release", "animal": GORILLAS[0]})
    assert rules.view(after, 1)["draw_from"] == 2
    after = play(after, 1, {"type": "draw", "position": 0})
    assert len(after.hand.hands[2]) == 1


def test_the_turn_passes_over_players_who_are_out():
    hand = hand_state([[], [GORILLAS[0], LIONS[0]], [ANTELOPES[0]]], turn=2, phase="play2")
    after = play(match_of(hand), 2, {"type": "release", "animal": ANTELOPES[0]})
    # Cal ran out too and the hand is over; try with Cal keeping a card instead.
    assert after.hand.phase == "over"
    hand = hand_state([[], [GORILLAS[0], LIONS[0]], [ANTELOPES[0], MBOGO]], turn=2, phase="play2")
    after = play(match_of(hand), 2, {"type": "release", "animal": ANTELOPES[0]})
    assert (after.hand.turn, after.hand.phase) == (1, "play1")


def test_the_hand_ends_when_only_one_player_has_cards():
    """ "The game ends when there is only one player with cards remaining." """
    hand = hand_state(
        [[LIONS[0]], [GORILLAS[0], GORILLAS[1]]],
        cages=[[(CAGES[0], [LIONS[1]])], []],
    )
    state = play(match_of(hand), 0, {"type": "animal", "animal": LIONS[0], "cage": 0})
    assert state.hand.phase == "over"
    result = rules.hand_result(state)
    assert result["ended_by"] == "cards"
    assert result["scores"] == {0: 2 + 3, 1: 0}
    assert rules.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        play(state, 1, {"type": "release", "animal": GORILLAS[0]})


def test_the_hand_ends_after_two_full_rounds_in_which_nobody_plays():
    """Ruling: "the hand also ends when two full rounds of turns pass in which nobody plays a
    card (to the table or the centre) and no Mbogo attack happens; it is scored as it
    stands." """
    # Neither hand holds an animal and the centre is empty: nothing can ever be played, and
    # each player only draws from the other, so the rules as written would never end.
    hand = hand_state(
        [[CAGES[3], HUNTERS[0]], [CAGES[0], HUNTERS[1]]],
        cages=[[(CAGES[1], [LIONS[0], LIONS[1], LIONS[2]])], [(CAGES[2], [ELEPHANTS[0]])]],
    )
    state = match_of(hand)
    turns_started = 0
    actions = 0
    while rules.hand_result(state) is None:
        seat = rules.view(state, None)["to_act"]
        if state.hand.phase == "play1":
            turns_started += 1
        state = play(state, seat, rules.legal_actions(state, seat)[0], actions)
        actions += 1
        assert actions < 100
    assert turns_started == 4  # two rounds of two players
    result = rules.hand_result(state)
    assert result["ended_by"] == "no_play"
    assert "Nobody has played for two rounds: the hand is over." in lines(state.hand)
    assert result["caged"] == {0: {"lion": 3}, 1: {"elephant": 1}}
    assert result["scores"] == {0: 3 + 3, 1: 1 + 3}


def test_a_play_restarts_the_count_of_quiet_rounds():
    hand = hand_state([[MBOGO, LIONS[0]], [CAGES[0], HUNTERS[1]]], turn=1)
    hand.quiet_turns = 3
    state = play(match_of(hand), 1, {"type": "skip"})
    state = play(state, 1, {"type": "draw", "position": 0}, seed=1)
    # Bea drew either Mbogo or the lion; a lion with her cage in hand must be played.
    if LIONS[0] in state.hand.hands[1]:
        state = play(state, 1, {"type": "cage", "cage": CAGES[0], "animal": LIONS[0]})
        assert state.hand.quiet_turns == 0
    else:
        state = play(state, 1, {"type": "skip"})
        assert state.hand.phase == "over"
