"""The one room socket: each viewer gets their own view; actions are acked, applied once, and
reach every phone and the big screen."""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async

from apps.core.tokens import seat_cookie_name
from apps.games import services
from apps.games.models import Room
from tests.games.roomkit import (
    actor,
    claim_of,
    connect,
    hello,
    receive_until,
    seat_header,
    started_room,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.GAME_BOT_DELAY = 0


def hand_ids(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'data-card="(\d+)"', html)}


async def two_players_and_a_screen():
    room, claims = await database_sync_to_async(started_room)()
    ann = await connect(room.code, seat_header(room, claims, "Ann"))
    bea = await connect(room.code, seat_header(room, claims, "Bea"))
    screen = await connect(room.code, query="screen/")
    return room, claims, ann, bea, screen


async def close(*communicators):
    for communicator in communicators:
        await communicator.disconnect()


async def test_each_seat_sees_its_own_hand_and_the_big_screen_sees_no_hand():
    room, claims, ann, bea, screen = await two_players_and_a_screen()
    state = room.state["hand"]
    ann_view, bea_view, screen_view = await hello(ann), await hello(bea), await hello(screen)
    assert "Your hand" in ann_view["html"] and "Your hand" in bea_view["html"]
    assert "Your hand" not in screen_view["html"]
    assert set(state["hands"][0]) <= hand_ids(ann_view["html"])
    assert not set(state["hands"][1]) & hand_ids(ann_view["html"])
    assert set(state["hands"][1]) <= hand_ids(bea_view["html"])
    assert hand_ids(screen_view["html"]) == set()
    assert ann_view["version"] == bea_view["version"] == screen_view["version"] == room.version
    await close(ann, bea, screen)


async def test_an_action_is_acked_and_every_viewer_gets_the_new_version():
    room, claims, ann, bea, screen = await two_players_and_a_screen()
    for c in (ann, bea, screen):
        await hello(c)
    player, legal = await database_sync_to_async(actor)(room)
    mover = ann if player == 0 else bea
    await mover.send_json_to(
        {
            "type": "action",
            "id": "socket-move-1",
            "act": json.dumps(legal[0]),
            "version": str(room.version),
        }
    )
    ack = await receive_until(mover, lambda m: m["type"] in ("ack", "error"))
    assert ack == {"type": "ack", "id": "socket-move-1"}
    for c in (ann, bea, screen):
        update = await receive_until(c, lambda m: m["type"] == "fragments")
        assert update["version"] == room.version + 1
    await close(ann, bea, screen)


async def test_a_retried_action_is_acked_again_and_applied_once():
    room, claims, ann, bea, screen = await two_players_and_a_screen()
    player, legal = await database_sync_to_async(actor)(room)
    mover = ann if player == 0 else bea
    message = {"type": "action", "id": "retry-me-01", "act": json.dumps(legal[0])}
    for _ in range(2):
        await mover.send_json_to(message)
        assert await receive_until(mover, lambda m: m["type"] == "ack") == {
            "type": "ack",
            "id": "retry-me-01",
        }
    fresh = await database_sync_to_async(Room.objects.get)(pk=room.pk)
    assert fresh.version == room.version + 1
    await close(ann, bea, screen)


async def test_a_refused_move_says_why_next_to_the_control_that_sent_it():
    room, claims, ann, bea, screen = await two_players_and_a_screen()
    player, legal = await database_sync_to_async(actor)(room)
    waiting = bea if player == 0 else ann
    await waiting.send_json_to(
        {"type": "action", "id": "not-my-turn", "act": json.dumps(legal[0]), "target": "plays"}
    )
    error = await receive_until(waiting, lambda m: m["type"] == "error")
    assert error["target"] == "plays" and "turn" in error["message"]
    await waiting.send_json_to({"type": "action", "id": "garbled-01", "act": "{nope"})
    error = await receive_until(waiting, lambda m: m["type"] == "error")
    assert error["message"] == "That move could not be read; nothing changed."
    await close(ann, bea, screen)


async def test_a_spectator_or_a_forged_cookie_can_watch_but_not_act():
    room, claims, ann, bea, screen = await two_players_and_a_screen()
    forged = await connect(
        room.code, (b"cookie", f"{seat_cookie_name(room.scope)}=forged:token".encode())
    )
    view = await hello(forged)
    assert "Your hand" not in view["html"]
    player, legal = await database_sync_to_async(actor)(room)
    for watcher in (forged, screen):
        await watcher.send_json_to({"type": "action", "id": "watcher-01", "act": legal[0]})
        error = await receive_until(watcher, lambda m: m["type"] == "error")
        assert error["message"] == "You are watching this table; take a seat to play."
    await close(ann, bea, screen, forged)


async def test_the_big_screen_stays_public_even_on_a_laptop_holding_a_seat():
    room, claims = await database_sync_to_async(started_room)()
    screen = await connect(room.code, seat_header(room, claims, "Ann"), query="screen/")
    view = await hello(screen)
    assert "Your hand" not in view["html"] and hand_ids(view["html"]) == set()
    await close(screen)


async def test_a_phone_that_reconnects_is_caught_up_to_the_current_version():
    room, claims, ann, bea, screen = await two_players_and_a_screen()
    await close(bea)
    player, legal = await database_sync_to_async(actor)(room)
    mover = ann if player == 0 else bea
    if mover is bea:  # Bea is away: the move comes from the service, as a retry would
        await database_sync_to_async(services.perform_action)(
            room.code, claims["Bea"], "while-away-1", legal[0]
        )
    else:
        await ann.send_json_to({"type": "action", "id": "while-away-1", "act": legal[0]})
        await receive_until(ann, lambda m: m["type"] == "ack")
    bea = await connect(room.code, seat_header(room, claims, "Bea"))
    await bea.send_json_to({"type": "hello", "since": room.version})
    caught_up = await receive_until(bea, lambda m: m["type"] == "fragments")
    assert caught_up["version"] == room.version + 1
    assert "Your hand" in caught_up["html"]
    await close(ann, bea, screen)


async def test_the_creator_adds_a_bot_and_starts_from_the_phone_and_the_others_see_it():
    room, ann_seat = await database_sync_to_async(services.create_room)("mbogo", {}, "Ann")
    ann_claim = await database_sync_to_async(claim_of)(ann_seat)
    bea_seat = await database_sync_to_async(services.take_seat)(room.code, 1, "Bea")
    bea_claim = await database_sync_to_async(claim_of)(bea_seat)
    claims = {"Ann": ann_claim, "Bea": bea_claim}
    ann = await connect(room.code, seat_header(room, claims, "Ann"))
    bea = await connect(room.code, seat_header(room, claims, "Bea"))
    lobby = await hello(bea)
    assert "Bea" in lobby["html"] and "Start Mbogo" not in lobby["html"]
    assert "Start Mbogo" in (await hello(ann))["html"]
    await bea.send_json_to({"type": "action", "id": "bea-starts", "act": {"type": "room.start"}})
    error = await receive_until(bea, lambda m: m["type"] == "error")
    assert error["message"] == "Only the player who made the room can start it."
    await ann.send_json_to(
        {"type": "action", "id": "add-a-bot", "act": {"type": "room.bot", "slot": "2"}}
    )
    await receive_until(ann, lambda m: m["type"] == "ack")
    update = await receive_until(bea, lambda m: m["type"] == "fragments")
    assert "Bot Kiki" in update["html"]
    await ann.send_json_to({"type": "action", "id": "start-game", "act": {"type": "room.start"}})
    await receive_until(ann, lambda m: m["type"] == "ack")
    table = await receive_until(
        bea, lambda m: m["type"] == "fragments" and "Your hand" in m["html"]
    )
    assert "Bot Kiki" in table["html"] and 'data-status="playing"' in table["html"]
    await close(ann, bea)
