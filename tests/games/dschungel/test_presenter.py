"""Dschungelparty's table as a phone and the big screen show it: only legal moves, each a
button with a spoken label; the sheet's crossable fields as tap targets; the others' phase
with its countdown; the rainbow stars at the end."""

from __future__ import annotations

import html
import json
import re

import pytest

from apps.games import services
from apps.games.dschungel.drawing import HEIGHT, WIDTH, areas
from apps.games.dschungel.presenter import present
from apps.games.selectors import render_room
from tests.games.dschungel import (
    BANANA,
    CONFIRM,
    DOTS,
    ELEPHANT,
    JOKER,
    SKIP_BONUS,
    STRIPES,
    bunch,
    choose,
    fountain,
    play,
    rolling,
    rules,
    sheet_with,
    table,
)
from tests.games.dschungel.rooms import dschungel_room, rolled

BUTTON = re.compile(r"<button[^>]*name=\"act\" value=\"([^\"]*)\" aria-label=\"([^\"]*)\"")
PHONE_BOARD_PX = 390 - 2 * 16  # a phone held upright, less the page's margins


def buttons(page: str) -> list[tuple[dict, str]]:
    return [(json.loads(html.unescape(v)), html.unescape(a)) for v, a in BUTTON.findall(page)]


def game(state: rules.State, seat: int | None, **context) -> dict:
    return present(rules.view(state, seat), {"screen": seat is None, **context})["game"]


def labels(found: list[dict], key: str = "aria") -> list[str]:
    return [item[key] for item in found]


DICE = [BANANA, JOKER, STRIPES, ELEPHANT, DOTS]


# --- the sheet as a drawing ----------------------------------------------------------------


def test_every_field_of_the_sheet_is_a_big_thumb_target_on_a_phone_held_upright():
    scale = PHONE_BOARD_PX / WIDTH
    for area in areas().values():
        boxes = [(f["x"], f["y"], f["x"] + f["w"], f["y"] + f["h"]) for f in area["fields"]]
        for x0, y0, x1, y1 in boxes:
            assert (x1 - x0) * scale >= 44 and (y1 - y0) * scale >= 44
            assert 0 <= x0 < x1 <= WIDTH and 0 <= y0 < y1 <= HEIGHT
        overlapping = [
            (a, b)
            for i, a in enumerate(boxes)
            for b in boxes[i + 1 :]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
        ]
        assert overlapping == [], f"{area['key']} fields overlap"


def test_the_drawing_holds_every_field_and_reward_of_the_printed_sheet_once():
    drawn = areas()
    fields = [f["id"] for area in drawn.values() for f in area["fields"]]
    rewards = [s["id"] for a in drawn.values() for s in a["spots"] if s["kind"] == "reward"]
    rewards += [a["extra"]["id"] for a in drawn.values()]
    assert len(fields) == len(set(fields)) == 12 + 12 + 12 + 13
    assert len(rewards) == len(set(rewards)) == 9 + 6 + 5 + 2 + 5 + 4


# --- the active player's turn --------------------------------------------------------------


def test_each_colour_offered_is_a_button_that_names_the_dice_it_takes():
    seen = game(table(DICE), 0)
    assert seen["headline"] == "Take a colour"
    assert labels(seen["choices"]) == [
        "Take purple: banana, 1 joker",
        "Take blue: elephant, 1 joker (the elephants are rolled again, the joker stays)",
        "Take pink: coconut half (stripes), coconut half (dots), 1 joker",
    ]
    assert [c["act"] for c in seen["choices"]] == [
        json.dumps(a, separators=(",", ":")) for a in rules.legal_actions(table(DICE), 0)[:3]
    ]
    assert labels(seen["controls"], "text") == ["Pass"]
    # every die is drawn with its colour and symbol, and said in words too
    assert [(d["colour"], d["icon"], d["label"]) for d in seen["dice"]][:2] == [
        ("purple", "banana", "purple die: banana"),
        ("joker", "joker", "joker"),
    ]


def test_every_buttons_spoken_label_begins_with_its_written_words():
    """So a voice command of what is written on a button works."""
    state = play(table(DICE, sheets={0: sheet_with(purple=[(0, 0)])}), 0, choose("purple"))
    steps = [table(), table(DICE), state, play(state, 0, bunch(0, 1))]
    for seat_sees in (game(step, 0) for step in steps):
        for button in seat_sees["controls"] + seat_sees["choices"]:
            assert button["aria"].startswith(button["text"]), button


def test_the_others_see_who_is_choosing_and_have_no_buttons():
    bea = game(table(DICE), 1)
    assert bea["headline"] == "Ann is choosing"
    assert bea["choices"] == [] and bea["controls"] == [] and bea["sheet"]["areas"][0]["taps"] == []
    assert [(p["name"], p["status_words"]) for p in bea["players"]] == [
        ("Ann", "choosing"),
        ("Bea", "waiting"),
    ]


def test_every_cross_the_dice_allow_is_a_tap_on_the_sheet_with_what_it_wins():
    state = play(table(DICE, sheets={0: sheet_with(purple=[(0, 0)])}), 0, choose("purple"))
    seen = game(state, 0)
    purple = seen["sheet"]["areas"][0]
    assert purple["key"] == "purple" and purple["marking"]  # the area to cross comes first
    tapped = {f["id"]: f["tap"] for f in purple["taps"]}
    legal = [a for a in rules.legal_actions(state, 0) if a["type"] == "mark" and "dice" not in a]
    assert sorted(json.loads(t["act"])["field"] for t in tapped.values()) == sorted(
        a["field"] for a in legal
    )
    assert tapped["purple-0-1"]["label"] == (
        "Cross bunch 2 of banana crate 1: wins a pink bonus mark"
    )
    assert tapped["purple-1-0"]["label"] == "Cross bunch 1 of banana crate 2"
    assert [a["taps"] for a in seen["sheet"]["areas"][1:]] == [[], [], []]
    assert labels(seen["controls"]) == [
        "Put the dice back: the purple dice, to choose again",
        "Done: cross nothing",
    ]


def test_a_choice_of_dice_is_one_button_saying_what_it_spends_and_what_stays():
    """ "You can decide which dice you want to take": a tap on a field uses the banana; the
    same cross with the joker is one tap of its own, saying the banana then stays for the
    others. Only the active player sees such buttons."""
    state = play(table(DICE), 0, choose("purple"))
    purple = game(state, 0)["sheet"]["areas"][0]
    offered = [a for a in rules.legal_actions(state, 0) if "dice" in a]
    assert [json.loads(c["act"]) for c in purple["dice_choices"]] == offered
    first = purple["dice_choices"][0]
    assert first["text"] == "Cross bunch 1 of banana crate 1 using: joker"
    assert first["left"] == "Stays for the others: banana"
    assert first["aria"].startswith(first["text"])
    assert json.loads(purple["taps"][0]["tap"]["act"]) == bunch(0, 0)  # the tap: the banana
    assert all(a["dice_choices"] == [] for a in game(state, 0)["sheet"]["areas"][1:])
    both = play(state, 0, bunch(1, 1))  # a bunch of 2 takes the banana and the joker
    assert game(both, 0)["sheet"]["areas"][0]["dice_choices"] == []


def test_a_waiting_bonus_mark_is_offered_alone_and_may_be_skipped_but_not_confirmed_past():
    state = play(table(DICE, sheets={0: sheet_with(purple=[(0, 0)])}), 0, choose("purple"))
    state = play(state, 0, bunch(0, 1))  # crate 1 full: a pink bonus mark
    seen = game(state, 0)
    assert seen["headline"] == "Bonus mark: pink"
    assert seen["subline"] == "Cross the next coconut."
    pink = seen["sheet"]["areas"][0]
    assert pink["key"] == "pink"
    assert [(f["id"], f["tap"]["label"]) for f in pink["taps"]] == [
        ("pink-0", "Bonus mark: cross coconut 1")
    ]
    assert labels(seen["controls"], "type") == ["skip_bonus", "undo"]
    assert labels(seen["controls"])[1] == "Undo last cross: bunch 2 of banana crate 1"
    skipped = game(play(state, 0, SKIP_BONUS), 0)
    assert labels(skipped["controls"])[0] == "Undo: take back skipping the bonus mark"


def test_a_cross_not_yet_confirmed_is_drawn_ringed_and_counted_on_the_big_screen():
    state = play(play(table(DICE), 0, choose("purple")), 0, bunch(0, 0))
    mine = {f["id"]: f for a in game(state, 0)["sheet"]["areas"] for f in a["fields"]}
    assert mine["purple-0-0"]["marked"] and mine["purple-0-0"]["new"]
    screen = game(state, None)
    assert screen["sheet"] is None and screen["controls"] == []
    assert [s["new_count"] for s in screen["sheets"]] == [1, 0]


def test_a_rerolled_joker_shows_what_it_stood_for():
    state = play(table([JOKER, BANANA, BANANA, ELEPHANT, DOTS]), 0, choose("purple"))
    state = play(state, 0, bunch(4, 1))  # a bunch of 3: two bananas and the joker
    joker = game(state, 0)["dice"][0]
    assert (joker["status"], joker["as_words"]) == ("used", "banana")
    assert joker["label"] == "joker (used as banana), used"


def test_elephants_taken_for_the_fountain_show_their_new_faces_as_rolled_again():
    dice = [ELEPHANT, ELEPHANT, BANANA, STRIPES, DOTS]
    source = rolling((0, "pink-half-stripes"), (1, "green-flower-blue"))
    state = play(table(dice), 0, choose("blue"), source)
    seen = game(state, 0)
    assert [(d["caption"], d["status_words"]) for d in seen["dice"][:2]] == [
        ("stripes half", "rolled again, taken"),
        ("blue flower", "rolled again, taken"),
    ]
    assert seen["subline"] == "Tap a dashed field on your sheet, then confirm."
    assert seen["hint"] == "Tap a dashed field in blue, then confirm."
    assert labels(seen["controls"], "type") == ["confirm"]  # the reroll cannot be undone


def test_a_joker_taken_with_the_elephants_stays_drawn_as_a_joker_not_rolled_again():
    """Ruling: "a joker taken with them is no elephant die and is not rerolled"."""
    source = rolling((3, "pink-half-stripes"))
    state = play(table(DICE), 0, choose("blue"), source)
    seen = {d["die"]: d for d in game(state, 0)["dice"]}
    assert (seen[1]["icon"], seen[1]["label"]) == ("joker", "joker, taken")
    assert (seen[3]["caption"], seen[3]["status_words"]) == ("stripes half", "rolled again, taken")
    state = play(play(state, 0, fountain("pink", 0)), 0, CONFIRM)
    bea = {d["die"]: d for d in game(state, 1)["dice"]}
    assert (bea[1]["label"], bea[3]["status_words"]) == ("joker, free", "rolled again, Ann's")


# --- the others' phase ---------------------------------------------------------------------


def others_phase(players: int = 3) -> rules.State:
    state = play(table(DICE, players=players), 0, choose("purple"))
    return play(play(state, 0, bunch(0, 0)), 0, CONFIRM)


def test_the_others_choose_from_the_dice_left_with_the_countdown_running():
    state = others_phase()
    timers = [{"type": "timeout", "action": {}, "ms": 41_500}]
    bea = game(state, 1, timers=timers)
    assert bea["headline"] == "Take a colour from Ann's dice"
    assert bea["countdown"] == {"ms": 41_500, "seconds": 60, "words": "s left to choose"}
    assert [(d["caption"], d["status_words"]) for d in bea["dice"]] == [
        ("banana", "Ann's"),
        ("joker", "free"),  # Ann's banana die made her cross: the joker goes back
        ("stripes half", "free"),
        ("elephant", "free"),
        ("dots half", "free"),
    ]
    assert [c["colour"] for c in bea["choices"]] == ["purple", "blue", "pink"]
    ann = game(state, 0, timers=timers)
    assert ann["headline"] == "The others choose from your dice"
    assert ann["subline"] == "Still choosing: Bea, Cal."
    assert ann["countdown"]["words"] == "s left for the others"


def test_who_has_confirmed_and_who_still_chooses_is_shown_in_words():
    state = play(others_phase(), 1, {"type": "pass"})
    state = play(state, 2, choose("pink"))
    seen = game(state, 0)
    assert [(p["name"], p["status_words"]) for p in seen["players"]] == [
        ("Ann", "done"),
        ("Bea", "passed"),
        ("Cal", "crossing"),
    ]
    assert game(state, 1)["headline"] == "You passed this round"
    assert game(state, 1)["subline"] == "Waiting for Cal."


# --- the end -------------------------------------------------------------------------------


def test_the_end_shows_the_winner_and_each_players_rainbow_stars_by_area():
    state = table(
        [STRIPES, STRIPES, BANANA, BANANA, ELEPHANT],
        players=2,
        sheets={0: sheet_with(pink=12), 1: sheet_with(pink=5)},
    )
    state = play(play(play(state, 0, choose("pink")), 0, coconut_13()), 0, CONFIRM)
    state = play(state, 1, {"type": "pass"})
    seen = game(state, None)
    assert seen["headline"] == "Ann wins with 3 rainbow stars"
    assert [(r["name"], r["stars"], r["areas"], r["extras"]) for r in seen["outcome"]["rows"]] == [
        ("Ann", 3, [("green", 0), ("purple", 0), ("blue", 0), ("pink", 3)], ["pink"]),
        ("Bea", 1, [("green", 0), ("purple", 0), ("blue", 0), ("pink", 1)], []),
    ]


def coconut_13() -> dict:
    return {"type": "mark", "area": "pink", "coconut": 12, "field": "pink-12"}


# --- rendered pages ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_phone_offers_only_legal_moves_each_with_a_spoken_label():
    room, claims = dschungel_room(("Ann", "Bea"))
    ann, bea = room.seats.get(name="Ann"), room.seats.get(name="Bea")
    assert buttons(render_room(room, ann)) == [({"type": "roll"}, "Roll the dice: all five")]
    assert buttons(render_room(room, bea)) == []
    state = rolled(room, DICE)
    services.perform_action(room.code, claims["Ann"], "take-purple", choose("purple"))
    room.refresh_from_db()
    page = render_room(room, ann)
    offered = [action for action, _label in buttons(page)]
    legal = rules.legal_actions(play(state, 0, choose("purple")), 0)
    assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, legal))
    assert 'id="turn-error"' in page and 'role="alert"' in page


@pytest.mark.django_db
def test_the_big_screen_draws_every_sheet_and_has_no_buttons():
    room, claims = dschungel_room(("Ann", "Bea", "Cal"))
    rolled(room, DICE)
    page = render_room(room, None, screen=True)
    assert buttons(page) == [] and 'name="act"' not in page
    for name in ("Ann", "Bea", "Cal"):
        assert f'id="sheet-{["Ann", "Bea", "Cal"].index(name)}-name"' in page
    assert page.count('class="dj-svg"') == 3 * 4
    assert "The dice" in page and "Ann is choosing" in page
