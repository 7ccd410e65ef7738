"""Mbogo's rules and the product's rulings, one test per rule."""

from __future__ import annotations

import json

import pytest

from apps.core import i18n
from apps.games.mbogo import rules
from apps.games.mbogo.cards import DECK_SIZE, KIND_OF
from apps.games.mbogo.rules import IllegalAction
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
    lines,
    match_of,
    play,
    rng,
)


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
