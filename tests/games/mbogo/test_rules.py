"""Mbogo's rules and the product's rulings, one test per rule."""

from __future__ import annotations

import json

import pytest

from apps.core import i18n
from apps.games.mbogo import rules
from apps.games.mbogo.cards import DECK_SIZE, KIND_OF
from apps.games.mbogo.rules import IllegalAction
from apps.games.mbogo.words import log_line
from tests.games.mbogo import (
    ANTELOPES,
    CAGES,
    ELEPHANTS,
    GORILLAS,
    HUNTERS,
    LIONS,
    MBOGO,
    NAMES,
    hand_state,
    match_of,
    rng,
)


def lines(hand) -> list[str]:
    """The hand's log as the screens word it (in English)."""
    return [log_line(entry, hand.players) for entry in hand.log]


def play(state, seat, action, seed=0):
    return rules.apply(state, seat, action, rng(seed))


def test_illegal_action_is_the_protocols_exception():
    from apps.core.protocol import IllegalAction as ProtocolIllegalAction

    assert rules.IllegalAction is ProtocolIllegalAction


# --- set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_all_cards_but_one_are_dealt_evenly_and_one_lies_face_down(players):
    """ "Shuffles and distributes all the cards but one face down equally to all the players.
    The remaining card is left face down at the center of the table." """
    state = rules.setup(NAMES[:players], {}, rng(players))
    hand = state.hand
    assert sorted(len(h) for h in hand.hands) == [60 // players] * players
    every_card = [c for h in hand.hands for c in h] + [hand.face_down]
    assert sorted(every_card) == list(range(61)) == list(range(DECK_SIZE))
    assert rules.view(state, None)["face_down"] is True


def test_the_deck_has_the_rules_61_cards():
    """ "7 Antelope, 7 Elephant, 7 Gorilla, 7 Lion, 7 Rhinoceros, 7 Wart Hog, 11 Cage,
    7 Hunter, 1 Mbogo." """
    counts = {k: KIND_OF.count(k) for k in set(KIND_OF)}
    assert counts == {
        "antelope": 7,
        "elephant": 7,
        "gorilla": 7,
        "lion": 7,
        "rhinoceros": 7,
        "warthog": 7,
        "cage": 11,
        "hunter": 7,
        "mbogo": 1,
    }


@pytest.mark.parametrize("players", [1, 6])
def test_mbogo_is_for_two_to_five_players(players):
    """Ruling: "2 to 5 players." """
    with pytest.raises(IllegalAction, match="2 to 5 players"):
        rules.setup(NAMES[:1] * players, {}, rng())


@pytest.mark.parametrize(
    "options",
    [
        {"target": "x"},
        {"target": [50]},
        {"target": 7},
        {"dealer": "x"},
        {"dealer": 9},
        {"dealer": True},
    ],
)
def test_a_setting_that_is_not_one_of_the_games_is_refused_with_a_sentence(options):
    """Design: "Every bad input gets a clear message and changes nothing": a match is set up
    only with a target the lobby offers and a dealer who is one of the players."""
    with pytest.raises(IllegalAction) as refused:
        rules.setup(NAMES[:3], options, rng())
    assert str(refused.value)[:1].isupper() and str(refused.value).endswith(".")


def test_the_dealer_takes_the_first_turn():
    """ "The dealer is the first to take a turn." """
    assert rules.setup(NAMES[:3], {}, rng()).hand.turn == 0
    state = rules.setup(NAMES[:3], {"dealer": 2}, rng())
    seen = rules.view(state, 2)
    assert (seen["turn"], seen["phase"], seen["dealer"]) == (2, "play1", 2)
    assert seen["legal_actions"]


# --- the turn ------------------------------------------------------------------------------


def test_a_turn_is_play_then_draw_then_play_then_the_player_to_the_left():
    """Ruling: "A turn: play, then draw, then play again." and "play passes to the left"."""
    hand = hand_state(
        [[CAGES[0], LIONS[0], LIONS[1], LIONS[2]], [ELEPHANTS[0], GORILLAS[0]], [ANTELOPES[0]]],
        face_down=ELEPHANTS[1],
    )
    state = match_of(hand)
    state = play(state, 0, {"type": "cage", "cage": CAGES[0], "animal": LIONS[0]})
    assert state.hand.phase == "draw"
    state = play(state, 0, {"type": "draw", "position": 0})
    assert state.hand.phase == "play2"
    state = play(state, 0, {"type": "animal", "animal": LIONS[1], "cage": 0})
    assert (state.hand.turn, state.hand.phase) == (1, "play1")


def test_play_a_puts_a_cage_on_the_table_with_one_animal_in_it():
    """ "Play a cage and play one animal (not Mbogo) to go inside the cage." """
    state = match_of(hand_state([[CAGES[0], LIONS[0], HUNTERS[0]], [ELEPHANTS[0]]]))
    assert rules.legal_actions(state, 0) == [{"type": "cage", "cage": CAGES[0], "animal": LIONS[0]}]
    state = play(state, 0, {"type": "cage", "cage": CAGES[0], "animal": LIONS[0]})
    assert state.hand.hands[0] == [HUNTERS[0]]
    cage = rules.view(state, 1)["players"][0]["cages"][0]
    assert (cage["id"], cage["kind"], cage["count"], cage["ids"]) == (
        CAGES[0],
        "lion",
        1,
        [LIONS[0]],
    )
    assert "Ann put out a cage with a lion." in lines(state.hand)


def test_play_b_puts_an_animal_into_an_own_cage_that_is_empty_or_holds_that_kind():
    """ "Play an animal (not Mbogo) into a cage. Note that this cage must be empty or contain
    only animals of the same type." """
    hand = hand_state(
        [[LIONS[0], ELEPHANTS[0]], [GORILLAS[0]]],
        cages=[[(CAGES[0], [LIONS[1]]), (CAGES[1], [])], []],
    )
    state = match_of(hand)
    assert rules.legal_actions(state, 0) == [
        {"type": "animal", "animal": LIONS[0], "cage": 0},
        {"type": "animal", "animal": LIONS[0], "cage": 1},
        {"type": "animal", "animal": ELEPHANTS[0], "cage": 1},
    ]
    with pytest.raises(IllegalAction, match="That cage holds lions; an elephant can't go in."):
        play(state, 0, {"type": "animal", "animal": ELEPHANTS[0], "cage": 0})
    after = play(state, 0, {"type": "animal", "animal": LIONS[0], "cage": 0})
    assert after.hand.cages[0][0].animals == [LIONS[1], LIONS[0]]
    assert "Ann caged a lion." in lines(after.hand)


def test_play_b_needs_a_cage_of_ones_own():
    """Ruling: "put an animal into an own cage on the table"."""
    hand = hand_state([[LIONS[0], HUNTERS[0]], [GORILLAS[0]]], cages=[[], [(CAGES[0], [])]])
    state = match_of(hand)
    with pytest.raises(IllegalAction, match="You have no such cage on the table."):
        play(state, 0, {"type": "animal", "animal": LIONS[0], "cage": 0})


def test_play_c_discards_a_hunter_to_cage_a_face_up_animal_from_the_centre():
    """ "Play a Hunter to capture any animal which is face up in the center of the table and
    place it in a cage which is either empty or contains animals of the same type. The Hunter
    is then discarded." """
    hand = hand_state(
        [[HUNTERS[0]], [GORILLAS[0]]],
        cages=[[(CAGES[0], [ELEPHANTS[0]])], []],
        centre=[LIONS[0], ELEPHANTS[1]],
        face_down=GORILLAS[1],
    )
    state = match_of(hand)
    assert rules.legal_actions(state, 0) == [
        {"type": "hunt", "hunter": HUNTERS[0], "animal": ELEPHANTS[1], "cage": 0}
    ]
    with pytest.raises(IllegalAction, match="That cage holds elephants; a lion can't go in."):
        play(state, 0, {"type": "hunt", "hunter": HUNTERS[0], "animal": LIONS[0], "cage": 0})
    with pytest.raises(IllegalAction, match="not face up in the centre"):
        play(state, 0, {"type": "hunt", "hunter": HUNTERS[0], "animal": ELEPHANTS[2], "cage": 0})
    after = play(
        state, 0, {"type": "hunt", "hunter": HUNTERS[0], "animal": ELEPHANTS[1], "cage": 0}
    )
    assert after.hand.cages[0][0].animals == [ELEPHANTS[0], ELEPHANTS[1]]
    assert after.hand.centre == [LIONS[0]]
    assert after.hand.discarded == [HUNTERS[0]]
    assert rules.view(after, None)["hunters_discarded"] == 1


def test_release_is_refused_while_a_cage_play_or_hunt_is_possible():
    """Ruling: "Only when none of a-c is possible must the player release an animal from hand
    face up into the centre." """
    state = match_of(hand_state([[CAGES[0], LIONS[0]], [GORILLAS[0]]]))
    with pytest.raises(
        IllegalAction,
        match="You must put an animal in a cage when you can; releasing is only allowed when "
        "no other play is possible.",
    ):
        play(state, 0, {"type": "release", "animal": LIONS[0]})


def test_release_puts_an_animal_face_up_in_the_centre_when_nothing_else_is_possible():
    """ "If unable to do any of these, the player must release an animal (not Mbogo) to the
    wild, i.e. place an animal card face up in the center of the table." """
    hand = hand_state(
        [[LIONS[0], HUNTERS[0], MBOGO], [GORILLAS[0]]], cages=[[(CAGES[0], [ELEPHANTS[0]])], []]
    )
    state = match_of(hand)
    assert rules.legal_actions(state, 0) == [{"type": "release", "animal": LIONS[0]}]
    after = play(state, 0, {"type": "release", "animal": LIONS[0]})
    assert after.hand.centre == [LIONS[0]]
    assert rules.view(after, 1)["centre"] == [{"id": LIONS[0], "kind": "lion"}]


def test_skip_is_refused_while_a_release_is_possible_and_allowed_when_nothing_is():
    """ "If the player can do none of the above, the player simply ignores this part of the
    turn." """
    state = match_of(hand_state([[LIONS[0]], [GORILLAS[0]]]))
    with pytest.raises(IllegalAction, match="you may pass only when no play is possible"):
        play(state, 0, {"type": "skip"})
    stuck = match_of(hand_state([[MBOGO, HUNTERS[0], CAGES[0]], [GORILLAS[0]]]))
    assert rules.legal_actions(stuck, 0) == [{"type": "skip"}]
    after = play(stuck, 0, {"type": "skip"})
    assert after.hand.phase == "draw"
    assert after.hand.hands[0] == [MBOGO, HUNTERS[0], CAGES[0]]


def test_a_refused_skip_is_told_in_the_players_language():
    state = match_of(hand_state([[LIONS[0]], [GORILLAS[0]]]))
    with i18n.speaking("de"), pytest.raises(IllegalAction, match="passen darfst du nur"):
        play(state, 0, {"type": "skip"})


@pytest.mark.parametrize(
    "action",
    [
        {"type": "cage", "cage": CAGES[0], "animal": MBOGO},
        {"type": "animal", "animal": MBOGO, "cage": 0},
        {"type": "release", "animal": MBOGO},
        {"type": "hunt", "hunter": MBOGO, "animal": LIONS[1], "cage": 0},
    ],
)
def test_mbogo_can_never_be_played(action):
    """Ruling: "Mbogo can never be played." """
    hand = hand_state(
        [[MBOGO, CAGES[0]], [GORILLAS[0]]], cages=[[(CAGES[1], [])], []], centre=[LIONS[1]]
    )
    state = match_of(hand)
    with pytest.raises(IllegalAction, match="^Mbogo can never be played.$"):
        play(state, 0, action)
    assert all(MBOGO not in a.values() for a in rules.legal_actions(state, 0))


def test_a_card_must_be_in_the_players_hand():
    state = match_of(hand_state([[CAGES[0], LIONS[0]], [LIONS[1]]]))
    with pytest.raises(IllegalAction, match="^That card is not in your hand.$"):
        play(state, 0, {"type": "cage", "cage": CAGES[0], "animal": LIONS[1]})


def test_only_the_player_whose_turn_it_is_may_play():
    state = match_of(hand_state([[LIONS[0]], [LIONS[1]]]))
    with pytest.raises(IllegalAction, match="^It is Ann's turn.$"):
        play(state, 1, {"type": "release", "animal": LIONS[1]})


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


# --- illegal actions change nothing --------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, {"type": "release", "animal": LIONS[1]}, "It is Ann's turn."),
        (0, {"type": "cage", "cage": CAGES[0], "animal": LIONS[1]}, "not in your hand"),
        (0, {"type": "animal", "animal": MBOGO, "cage": 0}, "Mbogo can never be played."),
        (0, {"type": "animal", "animal": ELEPHANTS[0], "cage": 0}, "That cage holds lions"),
        (0, {"type": "animal", "animal": ELEPHANTS[0], "cage": 5}, "no such cage"),
        (0, {"type": "release", "animal": ELEPHANTS[0]}, "releasing is only allowed"),
        (0, {"type": "skip"}, "you may pass only"),
        (0, {"type": "draw", "position": 0}, "Play a card first"),
        (0, {"type": "cage", "cage": LIONS[0], "animal": ELEPHANTS[0]}, "not a cage"),
        (0, {"type": "cage", "cage": "x", "animal": ELEPHANTS[0]}, "needs a card"),
        (0, {"type": "dance"}, "not a move in Mbogo"),
        (0, {"type": "next_hand"}, "still being played"),
        (0, "release", "not a move in Mbogo"),
        (None, {"type": "skip"}, "Only a player"),
        ("x", {"type": "skip"}, "Only a player"),
        (1.5, {"type": "skip"}, "Only a player"),
        ([0], {"type": "skip"}, "Only a player"),
    ],
)
def test_an_illegal_action_raises_and_changes_nothing(seat, action, message):
    """Design: "Every bad input gets a clear message and changes nothing." """
    hand = hand_state(
        [[LIONS[0], ELEPHANTS[0], CAGES[0], MBOGO], [LIONS[1]]],
        cages=[[(CAGES[1], [LIONS[2]])], []],
        face_down=GORILLAS[0],
    )
    state = match_of(hand)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match=message):
        play(state, seat, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_a_draw_position_outside_the_hand_is_refused():
    hand = hand_state([[LIONS[0]], [LIONS[1], LIONS[2]]], turn=0, phase="draw")
    state = match_of(hand)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="Pick one of the 2 cards in Bea's hand."):
        play(state, 0, {"type": "draw", "position": 2})
    with pytest.raises(IllegalAction, match="Draw a card now"):
        play(state, 0, {"type": "release", "animal": LIONS[0]})
    assert state.to_json() == before


def test_apply_returns_a_new_state_and_leaves_the_old_one_as_it_was():
    """Protocol: "apply never mutates the state it is given"."""
    state = rules.setup(NAMES[:3], {}, rng(5))
    before = json.dumps(state.to_json(), sort_keys=True)
    action = rules.legal_actions(state, 0)[0]
    after = play(state, 0, action)
    assert after is not state and after.hand is not state.hand
    assert json.dumps(state.to_json(), sort_keys=True) == before


# --- views ---------------------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others():
    """Design: "Hidden cards never leave the server in another seat's view." """
    state = rules.setup(NAMES[:3], {}, rng(1))
    seen = rules.view(state, 1)
    assert sorted(c["id"] for c in seen["hand"]) == sorted(state.hand.hands[1])
    assert [p["hand_size"] for p in seen["players"]] == [20, 20, 20]
    assert "hands" not in seen
    assert seen["legal_actions"] == []
    assert seen["players"][0]["name"] == "Ann"
    assert seen["log"] == [{"event": "dealt", "seat": 0}]


def test_the_big_screen_shows_no_hand_and_never_the_face_down_card():
    state = rules.setup(NAMES[:4], {}, rng(2))
    seen = rules.view(state, None)
    assert seen["hand"] is None
    assert seen["face_down"] is True
    json.dumps(seen)  # JSON-ready
    assert seen["draw_from"] == 3 and seen["draw_from_size"] == 15
