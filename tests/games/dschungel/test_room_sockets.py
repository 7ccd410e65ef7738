"""Dschungelparty over the room socket: in the others' phase every other phone chooses at
the same moment, and every choice counts."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from apps.games import services
from tests.games.dschungel import BANANA, CONFIRM, DOTS, ELEPHANT, JOKER, PASS, STRIPES, choose
from tests.games.dschungel.rooms import dschungel_room, rolled, state_of
from tests.games.roomkit import connect, hello, receive_until, seat_header

pytestmark = pytest.mark.django_db(transaction=True)


def others_choose_from_all_five_dice():
    """Ann, Bea and Cal; Ann rolled and passed, so Bea and Cal choose from all five dice."""
    room, claims = dschungel_room(("Ann", "Bea", "Cal"))
    rolled(room, [BANANA, JOKER, STRIPES, ELEPHANT, DOTS])
    services.perform_action(room.code, claims["Ann"], "ann-passes", PASS)
    room.refresh_from_db()
    return room, claims


async def answer(phone, action_id: str) -> dict:
    return await receive_until(phone, lambda m: m.get("id") == action_id)


async def test_two_phones_choosing_at_once_in_the_others_phase_both_count():
    room, claims = await database_sync_to_async(others_choose_from_all_five_dice)()
    bea = await connect(room.code, seat_header(room, claims, "Bea"))
    cal = await connect(room.code, seat_header(room, claims, "Cal"))
    screen = await connect(room.code, query="screen/")
    start = room.version
    for socket in (bea, cal, screen):
        page = (await hello(socket))["html"]
        assert "The dice Ann left" in page
    # Both phones drew their buttons at the same version and tap in the same instant.
    await asyncio.gather(
        bea.send_json_to(
            {"type": "action", "id": "bea-takes-pink", "act": json.dumps(choose("pink"))}
        ),
        cal.send_json_to(
            {"type": "action", "id": "cal-takes-pink", "act": json.dumps(choose("pink"))}
        ),
    )
    acks = await asyncio.gather(answer(bea, "bea-takes-pink"), answer(cal, "cal-takes-pink"))
    assert [a["type"] for a in acks] == ["ack", "ack"]
    state = await database_sync_to_async(state_of)(room)
    assert state.plays[1].colour == state.plays[2].colour == "pink"
    # Each crosses its first coconut with the same dice and confirms, again at once.
    coconut = {"type": "mark", "area": "pink", "coconut": 0, "field": "pink-0"}
    for step, act in (("cross", coconut), ("confirm", CONFIRM)):
        await asyncio.gather(
            bea.send_json_to({"type": "action", "id": f"bea-{step}", "act": act}),
            cal.send_json_to({"type": "action", "id": f"cal-{step}", "act": act}),
        )
        acks = await asyncio.gather(answer(bea, f"bea-{step}"), answer(cal, f"cal-{step}"))
        assert [a["type"] for a in acks] == ["ack", "ack"]
    state = await database_sync_to_async(state_of)(room)
    assert state.sheets[1].pink[0] and state.sheets[2].pink[0]
    assert (state.turn, state.active, state.phase) == (2, 1, "roll")
    update = await receive_until(
        screen, lambda m: m["type"] == "fragments" and m["version"] == start + 6
    )
    assert "Bea rolls the dice" in update["html"]
    for socket in (bea, cal, screen):
        await socket.disconnect()


async def test_a_refused_tap_says_why_next_to_the_turns_buttons():
    room, claims = await database_sync_to_async(others_choose_from_all_five_dice)()
    ann = await connect(room.code, seat_header(room, claims, "Ann"))
    await hello(ann)
    await ann.send_json_to(
        {"type": "action", "id": "ann-again-01", "act": choose("pink"), "target": "turn"}
    )
    error = await answer(ann, "ann-again-01")
    assert error == {
        "type": "error",
        "id": "ann-again-01",
        "message": "The others are choosing from your dice now.",
        "target": "turn",
    }
    await ann.disconnect()
