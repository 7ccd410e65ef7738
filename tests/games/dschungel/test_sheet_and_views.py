"""The dice and the sheet as the rulings print them, and what each seat sees."""

from __future__ import annotations

import json
from collections import Counter

from apps.games.dschungel import sheet
from apps.games.dschungel.areas import Sheet, stars
from tests.games.dschungel import (
    BANANA,
    CONFIRM,
    DOTS,
    ELEPHANT,
    JOKER,
    PASS,
    STRIPES,
    bunch,
    choose,
    play,
    rules,
    table,
)


def test_five_dice_with_thirty_faces_three_of_them_jokers():
    """ "In addition, there are three die faces with a joker symbol." Ruling: "five dice, 30
    faces"."""
    faces = [face for die in sheet.DICE for face in die]
    assert len(sheet.DICE) == 5 and len(faces) == 30
    assert faces.count(sheet.JOKER) == 3
    assert Counter(sheet.FACES[f].colour for f in faces if f != sheet.JOKER) == {
        "green": 10,
        "purple": 6,
        "blue": 5,
        "pink": 6,
    }


def test_the_sheet_has_the_rulings_fields():
    """Ruling: 3 butterfly rows x 4 flowers, 6 crates, 4 columns x 3 rows, 13 coconuts."""
    blank = Sheet.blank()
    assert [len(r) for r in blank.green] == [4, 4, 4]
    assert [len(c) for c in blank.purple] == [2, 2, 2, 2, 2, 2]
    assert [len(c) for c in blank.blue] == [3, 3, 3, 3]
    assert len(blank.pink) == 13


def test_a_full_sheet_holds_every_printed_star():
    """5 green, 4 purple (crate 6 gives two), 4 blue (2 fields, 2 rows), 2 pink, 4 Extra."""
    full = Sheet(
        [[True] * 4 for _ in range(3)],
        [[True] * 2 for _ in range(6)],
        [[True] * 3 for _ in range(4)],
        [True] * 13,
    )
    assert stars(full) == 5 + 4 + 4 + 2 + 4


def test_the_layout_names_every_field_and_reward_once():
    drawn = sheet.layout()
    fields = [f for row in drawn["green"]["rows"] for f in row["flowers"]]
    fields += [b["field"] for c in drawn["purple"]["crates"] for b in c["bunches"]]
    fields += [f for c in drawn["blue"]["columns"] for f in c["fields"]]
    fields += drawn["pink"]["coconuts"]
    assert len(fields) == len(set(fields)) == 12 + 12 + 12 + 13
    names = [r["id"] for r in drawn["rewards"]]
    assert len(names) == len(set(names)) == 9 + 6 + 5 + 2 + 5 + 4
    json.dumps(drawn)


def test_every_seat_and_the_big_screen_see_the_same_public_table():
    """All of Dschungelparty is public: the seat decides only the legal actions."""
    state = table([BANANA, JOKER, STRIPES, ELEPHANT, DOTS], players=3)
    state = play(play(state, 0, choose("purple")), 0, bunch(0, 0))
    screen = rules.view(state, None)
    assert screen["seat"] is None and screen["legal_actions"] == []
    for seat in range(3):
        seen = rules.view(state, seat)
        assert seen["legal_actions"] == rules.legal_actions(state, seat)
        assert {**seen, "seat": None, "legal_actions": []} == screen
    json.dumps(screen)


def test_the_view_shows_dice_phase_sheets_and_the_turn():
    state = table([BANANA, JOKER, STRIPES, ELEPHANT, DOTS], players=2)
    state = play(play(state, 0, choose("purple")), 0, bunch(1, 1))
    seen = rules.view(state, 0)
    assert set(seen) >= {
        "seat",
        "players",
        "turn",
        "active",
        "phase",
        "to_act",
        "dice",
        "countdown",
        "confirmed",
        "others",
        "sheets",
        "ending",
        "log",
        "legal_actions",
        "outcome",
    }
    assert (seen["phase"], seen["active"], seen["turn"], seen["to_act"]) == ("active", 0, 1, [0])
    assert [(d["face"], d["status"], d["as"]) for d in seen["dice"]] == [
        (BANANA, "used", None),
        (JOKER, "used", "purple-banana"),
        (STRIPES, "rolled", None),
        (ELEPHANT, "rolled", None),
        (DOTS, "rolled", None),
    ]
    mine = seen["sheets"][0]
    assert mine["status"] == "marking"
    assert mine["new"] == ["purple-1-1"] and mine["fields"] == ["purple-1-1"]
    assert mine["play"]["colour"] == "purple" and mine["play"]["dice_marks_open"]
    assert mine["marks"]["purple"][1] == [False, True]
    assert seen["sheets"][1]["status"] == "waiting"


def test_the_view_of_the_others_phase_shows_who_has_confirmed_and_the_countdown():
    state = table([BANANA, BANANA, STRIPES, ELEPHANT, DOTS], players=3, countdown=30)
    state = play(state, 0, PASS)
    state = play(play(state, 1, choose("purple")), 1, bunch(0, 0))
    state = play(state, 1, CONFIRM)
    seen = rules.view(state, 2)
    assert seen["phase"] == "others" and seen["confirmed"] == [1]
    assert seen["others"] == [{"seat": 1, "status": "confirmed"}, {"seat": 2, "status": "choosing"}]
    assert seen["countdown"] == {"seconds": 30, "turn": 1}
    assert [d["status"] for d in seen["dice"]] == ["left"] * 5
    assert seen["sheets"][1]["confirmed_stars"] == 0 and seen["sheets"][1]["new"] == []


def test_pending_bonus_marks_are_in_the_view():
    state = table([BANANA, BANANA, STRIPES, ELEPHANT, DOTS], players=2)
    state = play(play(state, 0, choose("purple")), 0, bunch(0, 0))
    state = play(state, 0, bunch(0, 1))
    mine = rules.view(state, None)["sheets"][0]
    assert mine["bonuses"] == [{"area": "pink", "bananas": 0, "reward": "purple-crate-0"}]
    assert mine["rewards"] == ["purple-crate-0"]
    assert mine["play"]["dice_marks_open"]  # no bonus mark taken yet


def test_states_round_trip_through_json_exactly():
    state = table([BANANA, JOKER, STRIPES, ELEPHANT, DOTS], players=4)
    state = play(play(state, 0, choose("purple")), 0, bunch(1, 1))
    text = json.dumps(state.to_json())
    again = rules.State.from_json(json.loads(text))
    assert again == state and json.dumps(again.to_json()) == text
    assert rules.State.from_json(text) == state
