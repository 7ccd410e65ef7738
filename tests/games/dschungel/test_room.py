"""Dschungelparty in a room, through the services and the scheduler: bots play whole games,
the others' countdown passes for whoever did not choose, a player who leaves is played by a
bot until they come back, and a player alone plays turn after turn."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core import scheduler
from apps.games import services
from apps.games.models import Room, RoomEvent
from apps.games.selectors import render_room, replay
from tests.games.dschungel import BANANA, CONFIRM, DOTS, ELEPHANT, JOKER, PASS, STRIPES, bunch
from tests.games.dschungel.rooms import dschungel_room, rolled, state_of
from tests.games.roomkit import claim_of

pytestmark = pytest.mark.django_db

DICE = [BANANA, JOKER, STRIPES, ELEPHANT, DOTS]


@pytest.fixture(autouse=True)
def bot_settings(settings):
    settings.GAME_BOT_PACE = 0
    settings.GAME_BOT_TAKEOVER = 60


def timeout_deadline(room: Room):
    return next(
        d for d in scheduler.pending(room.scope) if d.payload.get("kind") == RoomEvent.SYSTEM
    )


def test_a_whole_game_of_bots_runs_to_its_rainbow_stars_through_the_scheduler():
    room, claims = dschungel_room(("Ann",), bots=2)
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    # The bots' moves are due at once; the others' countdown never is, as the bots confirm
    # well before it ends.
    for _ in range(2000):
        scheduler.run_until_quiet(now=timezone.now() + timedelta(seconds=1))
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            break
    assert room.status == Room.Status.FINISHED
    assert not room.events.filter(kind=RoomEvent.SYSTEM).exists()
    assert room.events.filter(kind=RoomEvent.BOT, seat=0).exists()
    state = state_of(room)
    assert state.phase == "over" and state.ending
    assert replay(room).to_json() == state.to_json()  # the log replays to the same end
    page = render_room(room, None, screen=True)
    assert "Final standings" in page and "Rainbow stars" in page
    assert "Bot playing for Ann" in page


def test_the_countdown_passes_for_a_seat_that_did_not_confirm_when_it_runs_out():
    room, claims = dschungel_room(("Ann", "Bea"), countdown=20)
    rolled(room, DICE)
    services.perform_action(room.code, claims["Ann"], "ann-passes", PASS)
    deadline = timeout_deadline(room)
    assert deadline.payload["action"] == {"type": "timeout", "turn": 1}
    assert abs(deadline.due_at - deadline.created - timedelta(seconds=20)) < timedelta(seconds=1)
    # Bea takes purple and crosses, but does not confirm in time.
    services.perform_action(
        room.code, claims["Bea"], "bea-purple", {"type": "choose", "colour": "purple"}
    )
    services.perform_action(room.code, claims["Bea"], "bea-crosses", bunch(0, 0))
    assert timeout_deadline(room).due_at == deadline.due_at  # crosses do not restart it
    room.refresh_from_db()
    assert 'data-countdown-ms="' in render_room(room, room.seats.get(name="Bea"))
    assert scheduler.run_until_quiet(now=deadline.due_at - timedelta(milliseconds=1)) == 0
    assert scheduler.run_until_quiet(now=deadline.due_at) == 1
    state = state_of(room)
    assert state.phase == "roll" and state.active == 1  # Bea rolls next
    assert not any(state.sheets[1].purple[0])  # her cross was never confirmed
    assert state.log[-1] == {"turn": 1, "seat": 1, "how": "timed_out", "marks": []}
    assert room.events.filter(kind=RoomEvent.SYSTEM).count() == 1
    assert "Bea ran out of time" in render_room(room, room.seats.get(name="Ann"))


def test_a_player_who_leaves_is_played_by_a_bot_until_they_return():
    room, claims = dschungel_room(("Ann", "Bea"))
    bea = room.seats.get(name="Bea")
    services.seat_connected(room.code, room.seats.get(name="Ann").id)
    services.seat_connected(room.code, bea.id)
    services.seat_left(bea.id)
    later = timezone.now() + timedelta(seconds=61)
    services.stamp_seats([room.seats.get(name="Ann").id], later)
    assert services.take_over_absent_seats(room.code, later) == ["Bea"]
    room.refresh_from_db()
    assert "Bot playing for Bea" in render_room(room, None, screen=True)
    # Ann's turn: her dice, then Bea's bot chooses from what she left, as Bea would.
    rolled(room, DICE)
    services.perform_action(
        room.code, claims["Ann"], "ann-purple", {"type": "choose", "colour": "purple"}
    )
    services.perform_action(room.code, claims["Ann"], "ann-crosses", bunch(0, 0))
    services.perform_action(room.code, claims["Ann"], "ann-confirms", CONFIRM)
    for _ in range(20):  # the bot's moves are due at once, the countdown is not
        scheduler.run_due(timezone.now() + timedelta(seconds=1))
        if state_of(room).phase != "others":
            break
    state = state_of(room)
    assert (state.turn, state.active, state.phase) == (2, 1, "roll")
    assert state.log[-1]["seat"] == 1 and state.log[-1]["how"] in ("confirmed", "passed")
    assert room.events.filter(kind=RoomEvent.BOT, seat=1).exists()
    assert any(d.key == "bot:1" for d in scheduler.pending(room.scope))  # the bot would roll
    assert not room.events.filter(kind=RoomEvent.SYSTEM).exists()
    # Bea comes back: the seat is hers again, and no bot move waits for it.
    services.seat_connected(room.code, bea.id)
    room.refresh_from_db()
    assert "Bot playing for" not in render_room(room, None, screen=True)
    assert not any(d.key == "bot:1" for d in scheduler.pending(room.scope))
    services.perform_action(room.code, claims["Bea"], "bea-rolls", {"type": "roll"})
    assert state_of(room).phase == "active"


def test_a_player_alone_rolls_turn_after_turn_for_a_high_score():
    room, ann = services.create_room("dschungel", {}, "Ann")
    claim = claim_of(ann)
    services.start_room(room.code, claim)
    rolled(room, DICE)
    services.perform_action(room.code, claim, "solo-purple", {"type": "choose", "colour": "purple"})
    services.perform_action(room.code, claim, "solo-cross", bunch(0, 0))
    services.perform_action(room.code, claim, "solo-confirm", CONFIRM)
    state = state_of(room)
    assert (state.turn, state.active, state.phase) == (2, 0, "roll")
    assert scheduler.pending(room.scope) == []  # no others, no countdown
    room.refresh_from_db()
    page = render_room(room, room.seats.get(name="Ann"))
    assert "Your turn: roll the dice" in page and "Ann took purple: 1 cross" in page


def test_the_lobby_offers_dschungelparty_for_one_to_four_with_its_countdown(client):
    page = client.get("/games/").content.decode()
    assert "Auch schon clever: Dschungelparty" in page and "1–4 players" in page
    assert 'name="dschungel__countdown"' in page
    response = client.post(
        "/games/new/", {"game": "dschungel", "name": "Ann", "dschungel__countdown": "30"}
    )
    assert response.status_code == 302
    room = Room.objects.get()
    assert room.game == "dschungel" and room.options == {"countdown": 30}
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert "Start Auch schon clever: Dschungelparty" in page
