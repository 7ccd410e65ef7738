"""Bonje in de Stal's table as phones and the big screen get it: cards to grab, where the card
in hand may go, stables in words, WAIT and COMPLETE, countdowns, results; and its lobby."""

from __future__ import annotations

import json
import re

import pytest

from apps.core import scheduler
from apps.core.protocol import without_delay
from apps.games import services
from apps.games.bonje import rules
from apps.games.models import Room
from tests.games.bonje import (
    BULLS,
    COWS,
    ELEPHANTS,
    EWES,
    HENS,
    MARES,
    RAMS,
    STALLIONS,
    TRUCKS,
    elephant_against_truck,
    play,
    position,
)
from tests.games.bonje.roomkit import bonje_room, buttons, by_id, moves, page_for

pytestmark = pytest.mark.django_db

STACKS2 = [[HENS[5], HENS[6]], [HENS[7], HENS[8]]]
STACKS3 = [[HENS[5]], [HENS[6]], [HENS[7]]]


def text_of(page: str) -> str:
    """The words a page shows, tags dropped and whitespace squeezed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split()).replace("&#x27;", "'")


def test_the_lobby_offers_bonje_with_its_options_and_a_bonus_variant_that_switches_on(client):
    lobby = client.get("/games/").content.decode()
    assert "Bonje in de Stal" in lobby and "Bonus variant: special stables" in lobby
    response = client.post(
        "/games/new/",
        {
            "game": "bonje",
            "name": "Ann",
            "bonje__length": "short",
            "bonje__bonus": "True",
            "bonje__reveal_ms": "0",
        },
    )
    assert response.status_code == 302
    assert Room.objects.get().options == {"length": "short", "bonus": True, "reveal_ms": 0}


def test_the_creator_chooses_a_quick_or_a_relaxed_bot_for_each_seat(client):
    client.post("/games/new/", {"game": "bonje", "name": "Ann"})
    room = Room.objects.get()
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert '<option value="relaxed">Relaxed: slow and easy</option>' in page
    assert '<option value="quick">Quick: fast and sharp</option>' in page


def test_a_phone_may_grab_every_card_it_sees_and_sees_its_own_only_as_a_back_until_the_reveal():
    state = position(
        [[[STALLIONS[0]], [], []], [[BULLS[0], COWS[0]], [], []]],
        face_up=[ELEPHANTS[0], MARES[0]],
        stacks=STACKS2,
        revealed=False,
    )
    room, _ = bonje_room(state=state)
    ann, bea, screen = page_for(room, "Ann"), page_for(room, "Bea"), page_for(room, None)
    assert moves(ann) == [{"type": "take", "from": 1}]
    assert by_id(ann, "take-1")["aria-label"] == "Take a mare from Bea's pile"
    assert "#card-elephant" not in ann and "elephant" not in ann  # her own, unseen card
    assert "yours: wait" in ann
    assert moves(bea) == [{"type": "take", "from": 0}]
    assert by_id(bea, "take-0")["aria-label"] == "Take an elephant (number 3) from Ann's pile"
    assert "#card-mare" not in bea
    assert "#card-elephant" in screen and "#card-mare" in screen and buttons(screen) == []


def test_a_taken_card_stays_in_its_place_with_the_name_of_who_took_it():
    state = position(
        [[[], [], []], [[], [], []], [[], [], []]],
        face_up=[MARES[0], HENS[0], RAMS[0]],
        stacks=STACKS3,
    )
    room, claims = bonje_room(("Ann", "Bea", "Cal"), state=state)
    services.perform_action(room.code, claims["Bea"], "bea-grabs-0", {"type": "take", "from": 0})
    ann = page_for(room, "Ann")
    assert moves(ann) == [{"type": "take", "from": 1}, {"type": "take", "from": 2}]
    assert 'aria-label="Bea took a mare from your pile"' in ann
    assert "Bea took the mare from Ann's pile." in text_of(page_for(room, "Cal"))
    assert "You took the mare from Ann's pile." in text_of(page_for(room, "Bea"))


def test_the_card_in_hand_marks_exactly_the_stables_it_may_go_to():
    # Ann has a horse stable: her mare may join the stallion, not open the empty stable.
    state = position(
        [[[STALLIONS[0]], [BULLS[0]], []], [[], [], []]],
        held=[MARES[0], None],
        face_up=[None, HENS[0]],
        stacks=STACKS2,
    )
    room, _ = bonje_room(state=state)
    ann = page_for(room, "Ann")
    legal = rules.legal_actions(room_state(room), 0)
    assert (
        moves(ann) == [a for a in legal if a["type"] == "place"] == [{"type": "place", "stable": 0}]
    )
    assert by_id(ann, "to-0-0")["aria-label"] == "Put the mare in your stable 1"
    assert "Tap one of your stables marked Here." in text_of(ann)
    assert "to-0-2" not in ann


def test_an_elephant_marks_the_other_players_empty_stables():
    state = position(
        [[[], [], []], [[BULLS[0]], [], [HENS[0]]], [[RAMS[0]], [EWES[0]], []]],
        held=[ELEPHANTS[0], None, None],
        face_up=[None, MARES[0], MARES[1]],
        stacks=STACKS3,
    )
    room, _ = bonje_room(("Ann", "Bea", "Cal"), state=state)
    ann = page_for(room, "Ann")
    targets = sorted(b["id"] for b in buttons(ann) if b.get("class") == "bj-target")
    assert targets == ["to-1-1", "to-2-2"]
    assert by_id(ann, "to-2-2")["aria-label"] == "Put the elephant in Cal's stable 3"


def test_a_truck_offers_each_animal_then_every_stable_it_may_go_to_or_out_of_the_game():
    state = position(
        [[[STALLIONS[0], MARES[0]], [], []], [[BULLS[0], COWS[0], COWS[1]], [ELEPHANTS[0]], []]],
        held=[TRUCKS[0], None],
        face_up=[None, HENS[0]],
        stacks=STACKS2,
    )
    room, _ = bonje_room(state=state)
    ann = page_for(room, "Ann")
    picks = {b["data-key"]: json.loads(b["data-pick"]) for b in buttons(ann) if "data-pick" in b}
    assert picks["1-0-cow"] == {"from_seat": 1, "from_stable": 0, "animal": "cow"}
    elephant = by_id(ann, "pick-1-1-elephant")
    assert elephant["aria-label"] == "Move the elephant from Bea's stable 2"
    # The two steps together: every legal truck move, and nothing else.
    offered = [
        {"type": "truck", **picks[key], **json.loads(drop["data-drop"])}
        for drop in buttons(ann)
        if "data-drop" in drop
        for key in drop["data-from"].split()
    ]
    legal = rules.legal_actions(room_state(room), 0)
    trucks = [a for a in legal if a["type"] == "truck"]
    assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, trucks))
    assert by_id(ann, "drop-out")["aria-label"] == "Take {animal} out of the game"
    assert "Step 1: tap the animal to move." in text_of(ann)


def test_every_stable_says_in_words_what_it_still_needs():
    state = position(
        [
            [
                [STALLIONS[0], STALLIONS[1], MARES[0]],
                [ELEPHANTS[0]],
                [BULLS[0], COWS[0]],
                [HENS[0]],
            ],
            [[], [], []],
        ],
        face_up=[MARES[1], HENS[1]],
        stacks=STACKS2,
    )
    state.stables[0].append(type(state.stables[0][0])())
    room, _ = bonje_room(state=state)
    mine = text_of(page_for(room, "Ann")).split("Your stables", 1)[1].split(" Bea ")[0]
    brawl = "Stable 1 Brawl! 2 stallions ♂ 1 mare ♀ There is a brawl: 2 stallions fight in it"
    assert brawl in mine
    assert "Stable 2 Elephant inside 1 elephant An elephant fills it: only a truck" in mine
    assert "Stable 3 Complete ✓ 1 bull ♂ 1 cow ♀" in mine
    assert "Stable 4 Needs a rooster 1 hen ♀" in mine
    assert "Stable 5 Empty Needs a male and a female of one kind" in mine
    assert "1/5 complete" in mine
    # The others' stables are compact on a phone, and still named in full for screen readers.
    assert "Stable 1 Brawl! 2♂ 2 stallions 1♀ 1 mare" in text_of(page_for(room, "Bea"))


def test_wait_and_complete_are_always_in_the_bar_and_say_whether_they_apply():
    state = position(
        [[[BULLS[0], COWS[0]], [RAMS[0], EWES[0]], [HENS[0]]], [[], [], []]],
        held=[MARES[0], None],
        face_up=[None, HENS[1]],
        stacks=STACKS2,
    )
    room, _ = bonje_room(state=state)
    ann, bea = page_for(room, "Ann"), page_for(room, "Bea")
    assert "aria-disabled" not in by_id(ann, "bj-wait") and "2 of 3 complete" in ann
    assert by_id(bea, "bj-wait")["aria-disabled"] == "true"
    assert json.loads(by_id(bea, "bj-complete")["value"]) == {"type": "complete"}
    assert "bj-bar" not in page_for(room, None)
    # With every stable complete the button says so.
    state = position(
        [[[BULLS[0], COWS[0]], [RAMS[0], EWES[0]], [STALLIONS[0], MARES[0]]], [[], [], []]],
        face_up=[HENS[0], HENS[1]],
        stacks=STACKS2,
    )
    room, _ = bonje_room(state=state)
    complete = by_id(page_for(room, "Ann"), "bj-complete")
    assert "is-ready" in complete["class"]
    assert "all stables complete!" in page_for(room, "Ann")


def test_the_next_flip_counts_down_from_the_rooms_timers():
    room, _ = bonje_room()
    ann = page_for(room, "Ann")
    found = re.search(r'First cards in <strong><span data-countdown-ms="(\d+)">(\d)</span>', ann)
    assert found and 2000 <= int(found.group(1)) <= rules.FIRST_FLIP_MS
    assert found.group(2) == "3"
    assert "First cards in" in page_for(room, None)


def test_the_round_result_and_the_winner_are_on_every_screen():
    state = position(
        [[[BULLS[0], COWS[0]], [RAMS[0], EWES[0]], [STALLIONS[0], MARES[0]]], [[HENS[0]], [], []]],
        face_up=[HENS[1], HENS[2]],
        stacks=STACKS2,
    )
    room, claims = bonje_room(state=state)
    services.perform_action(room.code, claims["Ann"], "ann-calls-1", {"type": "complete"})
    assert "Ann called COMPLETE! Deciding…" in page_for(room, "Bea")
    room.refresh_from_db()
    state = rules.apply(room_state(room), None, {"type": "close_calls", "round": 1}, None)
    room.state = state.to_json()
    room.save()
    scheduler.clear(room.scope)
    for name in ("Bea", None):
        page = text_of(page_for(room, name))
        assert "Round 1: Ann wins" in page
        assert "How round 1 ended Ann called COMPLETE with every stable complete." in page
        assert "Ann won called 24 pts 4" in page  # her stables' worth, and her new stable
        assert ("You" if name else "Bea") + " 1 pt 3" in page
    assert "Round 1: You win" in text_of(page_for(room, "Ann"))


def test_the_end_of_a_short_game_names_the_winner_and_the_final_standings():
    state = position(
        [[[BULLS[0], COWS[0]], [RAMS[0], EWES[0]], [STALLIONS[0], MARES[0]]], [[HENS[0]], [], []]],
        face_up=[HENS[1], HENS[2]],
        stacks=STACKS2,
        options={"length": "short"},
    )
    state = rules.apply(state, 0, {"type": "complete"}, None)
    state = rules.apply(state, None, {"type": "close_calls", "round": 1}, None)
    room, _ = bonje_room(options={"length": "short"}, state=state)
    room.status = Room.Status.FINISHED
    room.save()
    for name in ("Bea", None):
        page = text_of(page_for(room, name))
        assert "Ann wins the game!" in page and "Final standings" in page
    assert "bj-bar" not in page_for(room, "Ann")


def test_the_first_to_earn_a_fifth_stable_chooses_a_special_one_with_two_buttons():
    state = position([[[]] * 4, [[]] * 3], stacks=STACKS2, options={"bonus": True})
    state.stables[0] = [type(state.stables[0][0])() for _ in range(5)]
    state.phase, state.choosing, state.rounds = (
        "round_over",
        0,
        [{"round": 1, "winners": [0], "values": [0, 0], "ended_by": "stacks", "callers": []}],
    )
    room, _ = bonje_room(options={"bonus": True}, state=state)
    ann, bea = page_for(room, "Ann"), page_for(room, "Bea")
    assert moves(ann) == [
        {"type": "choose_special", "kind": "horse"},
        {"type": "choose_special", "kind": "cow"},
    ]
    assert "Special horse stable" in ann and "Choose your special stable" in ann
    assert "Ann chooses a special stable" in bea and moves(bea) == []


def test_a_bot_standing_in_for_a_player_is_named_on_every_screen():
    room, claims = bonje_room(("Ann", "Bea"))
    seat = room.seats.get(name="Bea")
    seat.taken_over = True
    seat.save()
    for name in ("Ann", None):
        assert "Bot playing for Bea" in page_for(room, name)


def room_state(room: Room) -> rules.BonjeState:
    room.refresh_from_db()
    return rules.BonjeState.from_json(room.state)


def test_a_played_turn_reads_as_sentences_in_the_log():
    state = position(
        [[[], [], []], [[COWS[0]], [], []]],
        face_up=[STALLIONS[0], TRUCKS[0]],
        stacks=STACKS2,
    )
    state = play(state, 0, {"type": "take", "from": 1})
    state = play(state, 1, {"type": "place", "stable": 1})
    state = play(
        state,
        0,
        {
            "type": "truck",
            "from_seat": 1,
            "from_stable": 0,
            "animal": "cow",
            "to_seat": 0,
            "to_stable": 2,
        },
    )
    room, _ = bonje_room(state=state)
    bea = text_of(page_for(room, "Bea"))
    assert "Ann took the transport truck from your pile." in bea
    assert "You got the last card: a stallion." in bea
    assert "You put the stallion in your stable 2." in bea
    assert "Ann trucked the cow from your stable 1 to their stable 3." in bea
    assert "Your hand You put the stallion in your stable 2." in bea
    assert without_delay(rules.legal_actions(room_state(room), None)[0])["type"] == "flip"


def test_a_card_no_stable_fits_leaves_the_game_and_the_phone_says_why():
    state = position(
        [[[BULLS[0]], [RAMS[0]], [HENS[0]]], [[], [], []]],
        face_up=[STALLIONS[1], MARES[0]],
        stacks=STACKS2,
    )
    room, claims = bonje_room(state=state)
    services.perform_action(room.code, claims["Ann"], "ann-grabs-1", {"type": "take", "from": 1})
    ann = text_of(page_for(room, "Ann"))
    assert "Your hand Your mare left the game: none of your stables fits it." in ann
    assert "Ann lost the mare" in text_of(page_for(room, None))


def test_a_player_who_waits_is_told_so_and_plays_when_their_number_comes():
    state = position(
        [[[STALLIONS[0]], [], []], [[BULLS[0]], [], []]],
        face_up=[None, None],
        held=[ELEPHANTS[0], TRUCKS[0]],
        took_from=[1, 0],
        stacks=STACKS2,
    )
    room, claims = bonje_room(state=state)
    services.perform_action(room.code, claims["Bea"], "bea-waits-1", {"type": "wait"})
    bea = page_for(room, "Bea")
    assert "You wait with the transport truck" in bea
    assert "is-on" in by_id(bea, "bj-wait")["class"] and moves(bea) == []
    assert "waits with the transport truck (plays 1st)" in page_for(room, "Ann")
    services.perform_action(room.code, claims["Ann"], "ann-waits-1", {"type": "wait"})
    # Both wait: the elephant (3) goes before the truck (6).
    ann, bea = page_for(room, "Ann"), page_for(room, "Bea")
    assert "Play the elephant!" in ann and "Your turn now. Tap an empty stable" in ann
    assert moves(ann) and moves(bea) == []
    assert "waits with the transport truck (plays 2nd)" in ann


def test_a_card_with_no_place_yet_is_offered_wait_and_its_later_removal_is_told():
    """The waiting tactic is for any taken card: Ann's elephant has no empty stable to go to
    yet, but Bea's truck could still make one, so the phone offers WAIT; when its turn comes
    with still no place, the log says it left the game and why."""
    room, claims = bonje_room(state=elephant_against_truck(players=2))
    ann = page_for(room, "Ann")
    assert rules.legal_actions(room_state(room), 0) == [{"type": "wait"}]
    assert moves(ann) == [] and "is-off" not in by_id(ann, "bj-wait")["class"]
    words = text_of(ann)
    assert "No place yet for the elephant" in words
    assert "No other player has an empty stable yet. WAIT: a card still to be played" in words
    services.perform_action(room.code, claims["Ann"], "ann-waits-0", {"type": "wait"})
    truck = {
        "type": "truck",
        "from_seat": 0,
        "from_stable": 0,
        "animal": "stallion",
        "to_seat": None,
        "to_stable": None,
    }
    services.perform_action(room.code, claims["Bea"], "bea-trucks-0", truck)
    ann, screen = text_of(page_for(room, "Ann")), text_of(page_for(room, None))
    assert (
        "Your elephant still had no place when its turn came and left the game: "
        "no other player has an empty stable." in ann
    )
    assert "Ann's elephant still had no place when its turn came" in screen
