"""What each seat sees: the big screen, a player's phone, the log, the timers."""

from __future__ import annotations

import json

from apps.games.bonje import rules
from apps.games.bonje.presenter import present
from apps.games.bonje.seat_view import card as card_of
from tests.games.bonje import (
    BULLS,
    ELEPHANTS,
    HENS,
    MARES,
    NAMES,
    STALLIONS,
    TRUCKS,
    elephant_against_truck,
    play,
    position,
    rng,
    run_system,
)

VIEW_KEYS = {
    "game",
    "seat",
    "phase",
    "round",
    "turn",
    "turns_left",
    "options",
    "goal",
    "players",
    "face_up",
    "revealed",
    "due",
    "waiting_order",
    "calls",
    "can_call",
    "choosing_special",
    "box",
    "rounds",
    "timer",
    "log",
    "legal_actions",
    "outcome",
}
PLAYER_KEYS = {
    "seat",
    "name",
    "stack",
    "stables",
    "stable_count",
    "value",
    "complete",
    "wins",
    "holding",
    "took_from",
    "took",
    "waiting",
    "called",
}


def test_a_view_has_what_a_table_screen_needs_and_is_plain_json():
    state = run_system(rules.setup(NAMES[:3], {}, rng(5)))
    for seat in (None, 0, 1, 2):
        seen = rules.view(state, seat)
        assert set(seen) == VIEW_KEYS
        assert all(set(p) == PLAYER_KEYS for p in seen["players"])
        assert json.loads(json.dumps(seen)) == seen
        assert seen["seat"] == seat
        assert seen["outcome"] is None


def test_the_big_screen_sees_every_face_up_card_and_has_no_legal_actions():
    state = run_system(rules.setup(NAMES[:4], {}, rng(6)))
    seen = rules.view(state, None)
    assert [f["card"]["id"] for f in seen["face_up"]] == state.face_up
    assert seen["legal_actions"] == []
    assert seen["can_call"] is False


def test_a_played_card_stays_named_in_front_of_its_taker_until_the_next_flip():
    state = position(
        [[[], [], []], [[], [], []]],
        face_up=[HENS[0], STALLIONS[0]],
        stacks=[[MARES[0]], [BULLS[0]]],
    )
    state = play(state, 0, {"type": "take", "from": 1})
    state = play(state, 0, {"type": "place", "stable": 0})
    for seat in (None, 0, 1):
        ann, bea = rules.view(state, seat)["players"]
        assert (ann["holding"], ann["took"]["name"], ann["took_from"]) == (None, "stallion", 1)
        assert bea["took"]["name"] == "hen"  # the last card went to her
    state = run_system(play(state, 1, {"type": "place", "stable": 0}))
    assert [p["took"] for p in rules.view(state, None)["players"]] == [None, None]


def test_a_seats_view_carries_its_own_legal_actions():
    state = run_system(run_system(rules.setup(NAMES[:2], {}, rng(6))))
    assert rules.view(state, 1)["legal_actions"] == rules.legal_actions(state, 1)


def test_a_view_names_who_holds_which_taken_card_and_who_waits():
    state = position(
        [[[], [], []], [[], [], []], [[STALLIONS[0]], [], []]],
        face_up=[None, None, MARES[0]],
        held=[ELEPHANTS[0], TRUCKS[0], None],
        took_from=[1, 0, None],
        waiting=[True, False, False],
        stacks=[[1], [2], [3]],
    )
    for seat in (None, 0, 2):
        seen = rules.view(state, seat)
        ann, bea, cal = seen["players"]
        assert (ann["holding"]["name"], ann["took_from"], ann["waiting"]) == ("elephant", 1, True)
        assert (bea["holding"]["name"], bea["took_from"], bea["waiting"]) == ("truck", 0, False)
        assert (cal["holding"], cal["took_from"]) == (None, None)
        assert seen["face_up"] == [{"seat": 2, "card": card_of(MARES[0]), "hidden": False}]


def test_the_log_keeps_recent_happenings_as_data_with_their_cards():
    state = position([[[], [], []], [[BULLS[0]], [], []]], held=[HENS[0], TRUCKS[0]])
    state = play(state, 0, {"type": "place", "stable": 1})
    state = play(
        state,
        1,
        {
            "type": "truck",
            "from_seat": 1,
            "from_stable": 0,
            "animal": "bull",
            "to_seat": None,
            "to_stable": None,
        },
    )
    placed, trucked = rules.view(state, 0)["log"][-2:]
    assert placed == {
        "type": "placed",
        "seat": 0,
        "card": card_of(HENS[0]),
        "stable": 1,
    }
    assert trucked["type"] == "truck" and trucked["animal"]["name"] == "bull"
    assert trucked["card"]["name"] == "truck" and trucked["to_seat"] is None


def test_the_log_shown_is_short():
    state = rules.setup(NAMES[:2], {}, rng())
    for turn in range(20):
        state.note({"type": "flip", "round": 1, "turn": turn})
    assert len(rules.view(state, None)["log"]) == 12


def test_a_view_shows_the_timer_of_the_next_system_move():
    state = rules.setup(NAMES[:2], {}, rng())
    assert rules.view(state, 0)["timer"] == {
        "type": "flip",
        "round": 1,
        "turn": 1,
        "delay_ms": rules.FIRST_FLIP_MS,
    }


def test_no_view_shows_a_face_down_card():
    """The face-down stacks' cards never appear, not even as ids."""
    state = run_system(rules.setup(NAMES[:3], {}, rng(2)))
    text = {seat: json.dumps(rules.view(state, seat)) for seat in (None, 0, 1, 2)}
    for seat, dumped in text.items():
        ids = {c["id"] for c in _cards_in(json.loads(dumped))}
        assert not ids & {c for stack in state.stacks for c in stack}, seat


def _cards_in(node):
    if isinstance(node, dict):
        if "id" in node and "name" in node:
            yield node
        for value in node.values():
            yield from _cards_in(value)
    elif isinstance(node, list):
        for item in node:
            yield from _cards_in(item)


def test_the_big_screen_says_the_taken_cards_are_played_once_none_is_left_to_grab():
    state = elephant_against_truck(players=2)
    assert present(rules.view(state, None), {"screen": True})["game"]["headline"] == (
        "Turn 1: the taken cards are played"
    )
    grabbing = position([[[], [], []], [[], [], []]], face_up=[MARES[0], None], stacks=[[1], [2]])
    assert present(rules.view(grabbing, None), {"screen": True})["game"]["headline"] == (
        "Turn 1: grab the cards!"
    )
