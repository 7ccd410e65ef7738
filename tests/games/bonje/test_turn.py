"""A turn: the flip, the reveal of a player's own card, the race to take, the last card."""

from __future__ import annotations

import pytest

from apps.core.protocol import DELAY, IllegalAction
from apps.games.bonje import rules
from apps.games.bonje.state import PAUSE
from tests.games.bonje import (
    BULLS,
    COWS,
    ELEPHANTS,
    HENS,
    MARES,
    NAMES,
    SOWS,
    STALLIONS,
    TRUCKS,
    play,
    position,
    rng,
    run_system,
)


def flipped(players: int = 3, **options) -> rules.BonjeState:
    return run_system(rules.setup(NAMES[:players], options, rng(players)))


def test_the_flip_turns_every_players_top_card_face_up_at_once():
    """ "All players simultaneously turn over the top card of their face-down stack and place
    it on the table in front of their stack." """
    state = rules.setup(NAMES[:3], {}, rng(1))
    tops = [stack[-1] for stack in state.stacks]
    state = run_system(state)
    assert state.face_up == tops
    assert [len(s) for s in state.stacks] == [21, 21, 21]
    seen = rules.view(state, None)
    assert [(f["seat"], f["card"]["id"]) for f in seen["face_up"]] == list(enumerate(tops))
    assert seen["log"][-1] == {"type": "flip", "round": 1, "turn": 1}


def test_a_players_own_card_is_hidden_from_them_until_the_reveal():
    """ "A player must turn the card so that it faces away from them, so that they see the card
    themselves last." Ruling: "A player's own card is shown to them last (a short delay after
    the others')." """
    state = flipped(3)
    mine = state.face_up[0]
    seen = rules.view(state, 0)
    assert seen["revealed"] is False
    assert seen["face_up"][0] == {"seat": 0, "card": None, "hidden": True}
    assert seen["face_up"][1]["card"]["id"] == state.face_up[1]
    assert rules.view(state, 1)["face_up"][0]["card"]["id"] == mine
    assert rules.view(state, None)["face_up"][0]["card"]["id"] == mine
    state = run_system(state)
    assert rules.view(state, 0)["face_up"][0]["card"]["id"] == mine


def test_the_reveal_is_a_timed_system_move_with_the_chosen_delay():
    state = flipped(2, reveal_ms=1500)
    assert rules.legal_actions(state, None) == [
        {"type": "reveal", "round": 1, "turn": 1, DELAY: 1500}
    ]
    assert rules.view(state, None)["timer"] == {
        "type": "reveal",
        "round": 1,
        "turn": 1,
        DELAY: 1500,
    }


def test_with_no_reveal_delay_players_see_their_own_card_at_once():
    state = flipped(2, reveal_ms=0)
    assert state.revealed
    assert rules.legal_actions(state, None) == []
    assert rules.view(state, 0)["face_up"][0]["hidden"] is False


def test_the_reveal_offer_stays_the_same_while_cards_are_taken_so_its_countdown_runs_on():
    """Protocol: the delay counts "as long as every later state keeps offering the same
    action"."""
    state = flipped(4)
    offered = rules.legal_actions(state, None)
    state = play(state, 0, {"type": "take", "from": 1})
    assert rules.legal_actions(state, None) == offered


def test_a_player_may_not_take_their_own_card_before_they_see_it():
    state = flipped(3)
    assert {"type": "take", "from": 0} not in rules.legal_actions(state, 0)
    assert {"type": "take", "from": 0} in rules.legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="don't see your own card"):
        play(state, 0, {"type": "take", "from": 0})
    state = run_system(state)
    assert {"type": "take", "from": 0} in rules.legal_actions(state, 0)


def test_every_player_may_take_at_the_same_moment():
    """ "Each player must take 1 of the face-up cards as quickly as possible." Several seats
    have legal takes at once; the server's order decides."""
    state = run_system(flipped(4))
    for seat in range(4):
        takes = [a for a in rules.legal_actions(state, seat) if a["type"] == "take"]
        assert takes == [{"type": "take", "from": s} for s in range(4)]


def test_the_first_tap_wins_the_card_and_a_later_tap_is_told_who_took_it():
    """Ruling: "the first tap the server receives wins that card"."""
    state = position(
        [[[], [], []]] * 3, face_up=[STALLIONS[0], MARES[0], HENS[0]], stacks=[[1], [2], [3]]
    )
    state = play(state, 1, {"type": "take", "from": 0})
    assert state.held[1] == STALLIONS[0]
    with pytest.raises(IllegalAction, match="Bea already took that card"):
        play(state, 2, {"type": "take", "from": 0})
    assert {"type": "take", "from": 0} not in rules.legal_actions(state, 2)


def test_a_player_takes_one_card_a_turn_and_a_tap_cannot_be_taken_back():
    """ "A player who has touched a card must take it. They may not change their mind
    afterwards and choose another card." Ruling: "A player holds at most one card a turn." """
    state = position(
        [[[], [], []]] * 3, face_up=[STALLIONS[0], MARES[0], HENS[0]], stacks=[[1], [2], [3]]
    )
    state = play(state, 0, {"type": "take", "from": 1})
    with pytest.raises(IllegalAction, match="one card per player per turn"):
        play(state, 0, {"type": "take", "from": 2})
    kinds = {a["type"] for a in rules.legal_actions(state, 0)}
    assert kinds == {"place", "wait"}  # no take, no putting the card back


def test_the_last_card_goes_to_the_player_who_has_none():
    """ "The slowest player must take the last face-up card." Ruling: "When one card is left
    and one player has none, that card goes to that player." """
    state = position(
        [[[], [], []]] * 3, face_up=[STALLIONS[0], MARES[0], HENS[0]], stacks=[[1], [2], [3]]
    )
    state = play(state, 0, {"type": "take", "from": 2})
    assert state.held[2] is None
    state = play(state, 2, {"type": "take", "from": 0})
    assert state.held[1] == MARES[0]
    assert state.took_from == [2, 1, 0]
    assert state.log[-1] == {"type": "take", "seat": 1, "from": 1, "card": MARES[0], "auto": True}


def test_with_two_players_the_second_card_goes_to_the_slower_player_at_once():
    state = position([[[], [], []]] * 2, face_up=[BULLS[0], COWS[0]], stacks=[[1], [2]])
    state = play(state, 1, {"type": "take", "from": 1})
    assert state.held == [BULLS[0], COWS[0]]


def test_a_taken_card_may_be_played_at_once_without_waiting_for_the_others():
    """ "The player who first puts their hand on a card may play it right away. They do not
    have to wait for the others." """
    state = position(
        [[[], [], []]] * 3, face_up=[STALLIONS[0], MARES[0], HENS[0]], stacks=[[1], [2], [3]]
    )
    state = play(state, 0, {"type": "take", "from": 0})
    state = play(state, 0, {"type": "place", "stable": 1})
    assert state.stables[0][1].cards == [STALLIONS[0]]
    assert state.face_up == [None, MARES[0], HENS[0]]


def test_the_next_flip_is_a_timed_system_move_once_every_card_of_the_turn_is_played():
    state = position([[[], [], []]] * 2, face_up=[BULLS[0], COWS[0]], stacks=[[SOWS[0]], [HENS[0]]])
    state = play(state, 0, {"type": "take", "from": 0})
    state = play(state, 0, {"type": "place", "stable": 0})
    assert rules.legal_actions(state, None) == []  # the reveal was done; a card is still held
    state = play(state, 1, {"type": "place", "stable": 2})
    assert state.phase == PAUSE
    assert rules.legal_actions(state, None) == [
        {"type": "flip", "round": 1, "turn": 2, DELAY: rules.FLIP_MS}
    ]
    state = run_system(state)
    assert state.face_up == [SOWS[0], HENS[0]]


def test_taking_is_refused_between_turns_and_a_stale_system_move_is_refused():
    state = position([[[], [], []]] * 2, stacks=[[SOWS[0]], [HENS[0]]], phase=PAUSE)
    with pytest.raises(IllegalAction, match="next cards"):
        play(state, 0, {"type": "take", "from": 0})
    with pytest.raises(IllegalAction, match="not due"):
        play(state, None, {"type": "flip", "round": 1, "turn": 7})
    with pytest.raises(IllegalAction, match="not due"):
        play(state, None, {"type": "reveal", "round": 1, "turn": 1})


def test_a_move_from_outside_the_table_or_of_another_game_is_refused():
    state = position([[[], [], []]] * 2, face_up=[TRUCKS[0], ELEPHANTS[0]], stacks=[[1], [2]])
    with pytest.raises(IllegalAction, match="player at this table"):
        play(state, 5, {"type": "take", "from": 0})
    with pytest.raises(IllegalAction, match="not a move"):
        play(state, 0, {"type": "roll"})
    with pytest.raises(IllegalAction, match="not a move"):
        play(state, 0, "take")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="face-up cards"):
        play(state, 0, {"type": "take", "from": "1"})
    assert rules.legal_actions(state, 9) == []


def test_the_turn_counts_in_the_view_and_the_stacks_shrink():
    state = flipped(2)
    seen = rules.view(state, None)
    assert (seen["round"], seen["turn"], seen["turns_left"]) == (1, 1, 32)
    assert [p["stack"] for p in seen["players"]] == [32, 32]


def test_a_taken_card_is_seen_by_all_even_by_the_player_who_flipped_it():
    state = position(
        [[[], [], []]] * 3,
        face_up=[STALLIONS[0], MARES[0], HENS[0]],
        stacks=[[1], [2], [3]],
        revealed=False,
    )
    assert rules.view(state, 0)["face_up"][0]["hidden"] is True
    state = play(state, 1, {"type": "take", "from": 0})
    seen = rules.view(state, 0)
    assert seen["players"][1]["holding"]["id"] == STALLIONS[0]
    assert all(f["seat"] != 0 for f in seen["face_up"])
