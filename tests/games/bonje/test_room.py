"""Bonje in de Stal in a room: a race for one card between two phones over real sockets, and
whole games played through the scheduler by bots, one standing in for a player whose phone
dropped."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from apps.core import scheduler
from apps.games import services
from apps.games.bonje import rules
from apps.games.models import Room, RoomEvent
from apps.games.selectors import render_room, replay
from tests.games.bonje import HENS, MARES, RAMS, STALLIONS, position
from tests.games.bonje.roomkit import bonje_room
from tests.games.roomkit import connect, hello, receive_until, seat_header


def state_of(room: Room) -> rules.BonjeState:
    room.refresh_from_db()
    return rules.BonjeState.from_json(room.state)


@pytest.mark.django_db(transaction=True)
async def test_two_phones_tapping_one_card_in_the_same_instant_get_one_winner_on_every_screen():
    state = position(
        [[[], [], []], [[], [], []], [[], [], []]],
        face_up=[MARES[0], HENS[0], STALLIONS[0]],
        stacks=[[HENS[1]], [HENS[2]], [RAMS[0]]],
    )
    room, claims = await database_sync_to_async(bonje_room)(("Ann", "Bea", "Cal"), state=state)
    ann = await connect(room.code, seat_header(room, claims, "Ann"))
    bea = await connect(room.code, seat_header(room, claims, "Bea"))
    screen = await connect(room.code, query="screen/")
    for socket in (ann, bea, screen):
        await hello(socket)
    grab = {"type": "take", "from": 2}
    await asyncio.gather(
        ann.send_json_to({"type": "action", "id": "ann-grabs-2", "act": grab, "target": "take"}),
        bea.send_json_to({"type": "action", "id": "bea-grabs-2", "act": grab, "target": "take"}),
    )
    answers = {
        name: await receive_until(phone, lambda m: m["type"] in ("ack", "error"))
        for name, phone in (("Ann", ann), ("Bea", bea))
    }
    assert sorted(a["type"] for a in answers.values()) == ["ack", "error"]
    winner = next(name for name, a in answers.items() if a["type"] == "ack")
    loser = next(name for name in answers if name != winner)
    refused = answers[loser]
    # The loser is told at once, beside the cards, in the rules' words...
    assert refused["message"] == f"{winner} already took that card."
    assert refused["target"] == "take"
    fresh = await database_sync_to_async(state_of)(room)
    assert fresh.took_from == [2 if n == winner else None for n in ("Ann", "Bea", "Cal")]
    # ...and every screen shows the same winner.
    for name, socket in (("Ann", ann), ("Bea", bea), (None, screen)):
        shown = await receive_until(socket, lambda m: m["type"] == "fragments")
        who = "You" if name == winner else winner
        assert f"{who} took a stallion from Cal's pile" in shown["html"].replace("&#x27;", "'")
    # The loser grabs another card straight away.
    phone = ann if loser == "Ann" else bea
    other = {"type": "take", "from": 0}
    await phone.send_json_to({"type": "action", "id": "second-grab", "act": other})
    assert (await receive_until(phone, lambda m: m["type"] in ("ack", "error")))["type"] == "ack"
    for socket in (ann, bea, screen):
        await socket.disconnect()


def run_until(room: Room, done, now) -> None:
    """Fire due deadlines (bots' moves and timed moves) until ``done(state)``."""
    for _ in range(2000):
        if done(state_of(room)):
            return
        assert scheduler.run_due(now), "the game stalled"
    raise AssertionError("the game did not get there")


@pytest.mark.django_db
def test_a_whole_game_with_bots_runs_to_its_outcome_and_a_dropped_player_is_played_until_back(
    settings, monkeypatch
):
    settings.GAME_BOT_PACE = 0
    monkeypatch.setenv("BUNKO_FIXED_SEED", "2")
    room, claims = bonje_room(("Ann",), bots=("quick", "relaxed"), options={"length": "short"})
    ann = room.seats.get(name="Ann")
    later = timezone.now() + timedelta(hours=1)
    drop(room, "Ann", later)
    run_until(room, lambda s: s.turn >= 4, later)
    assert "Bot playing for Ann" in render_room(room, None, screen=True)
    assert room.events.filter(kind=RoomEvent.BOT, seat=0).exists()

    # Ann's phone comes back: the bot stops, and the table waits for her.
    services.seat_connected(room.code, ann.id)
    assert "Bot playing for Ann" not in render_room(room, None, screen=True)
    scheduler.run_until_quiet(now=later)
    state = state_of(room)
    assert room.status == Room.Status.PLAYING and not room.seats.get(pk=ann.pk).bot_plays
    legal = rules.legal_actions(state, 0)
    assert legal, "the table waits for Ann"
    services.perform_action(room.code, claims["Ann"], "ann-is-back", legal[0])

    # She drops again; the bots play the game to its end.
    drop(room, "Ann", later + timedelta(minutes=5))
    scheduler.run_until_quiet(now=later + timedelta(minutes=5))
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    result = rules.outcome(state_of(room))
    assert result is not None and result["winners"]
    kinds = set(room.events.values_list("kind", flat=True))
    assert kinds == {RoomEvent.START, RoomEvent.SYSTEM, RoomEvent.BOT, RoomEvent.MOVE}
    assert room.events.count() > 100  # a whole round of cards, not a corner of it
    assert replay(room).to_json() == room.state
    assert "Final standings" in render_room(room, None, screen=True)
    assert not scheduler.pending(room.scope)


def drop(room: Room, name: str, now) -> None:
    """The player's phone connects, then goes; at ``now`` it has been gone long enough."""
    seat = room.seats.get(name=name)
    services.seat_connected(room.code, seat.id)
    services.seat_left(seat.id)
    assert services.take_over_absent_seats(room.code, now) == [name]
