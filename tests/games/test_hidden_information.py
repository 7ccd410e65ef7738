"""Hidden cards never leave the server: every message to every socket is recorded over whole
random games, and no seat's HTML ever names a card in another hand or the face-down card."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from channels.db import database_sync_to_async

from apps.games.models import Room
from apps.games.registry import get_game
from apps.games.selectors import replay
from tests.games.roomkit import actor, connect, hello, receive_until, seat_header, started_room

pytestmark = pytest.mark.django_db(transaction=True)

CARD_ATTR = re.compile(r'data-card="(\d+)"')
ACT_VALUE = re.compile(r'name="act" value="([^"]*)"')
HAND_SECTION = re.compile(r'<section class="my-hand".*?</section>', re.S)


def card_ids_in(page: str) -> set[int]:
    """Every card id a page carries: data-card attributes and the cards inside its moves."""
    ids = {int(n) for n in CARD_ATTR.findall(page)}
    for raw in ACT_VALUE.findall(page):
        action = json.loads(html.unescape(raw))
        ids.update(action[key] for key in ("animal", "hunter") if key in action)
        if action["type"] == "cage":
            ids.add(action["cage"])
    return ids


def states_by_version(room: Room) -> dict[int, dict]:
    """The hand state (as JSON) at each room version, rebuilt from the seed and the log."""
    states = {}
    for entry in room.events.order_by("version"):
        states[entry.version + 1] = replay(room, entry.version + 1).to_json()["hand"]
    return states


async def play_recording(names: tuple[str, ...], seed: int) -> tuple[Room, list]:
    room, claims = await database_sync_to_async(started_room)(names)
    sockets = {name: await connect(room.code, seat_header(room, claims, name)) for name in names}
    sockets[None] = await connect(room.code, query="screen/")
    recorded: list[tuple[str | None, dict]] = []
    for name, socket in sockets.items():
        recorded.append((name, await hello(socket)))
    rng = random.Random(seed)
    for move in range(3000):
        room = await database_sync_to_async(Room.objects.get)(pk=room.pk)
        state = get_game("mbogo").load_state(room.state)
        if state.hand.phase == "over":
            break
        player, legal = await database_sync_to_async(actor)(room)
        mover = sockets[names[player]]
        action_id = f"rand-{seed}-{move:05d}"
        await mover.send_json_to(
            {"type": "action", "id": action_id, "act": json.dumps(rng.choice(legal))}
        )
        target = room.version + 1
        for name, socket in sockets.items():

            def done(message, name=name, target=target):
                recorded.append((name, message))
                return message["type"] == "fragments" and message["version"] >= target

            await receive_until(socket, done)
    else:
        raise AssertionError("the hand did not end")
    for socket in sockets.values():
        await socket.disconnect()
    return room, recorded


@pytest.mark.parametrize(
    "names, seed",
    [(("Ann", "Bea"), 1), (("Ann", "Bea", "Cal"), 2), (("Ann", "Bea", "Cal", "Dot", "Eve"), 3)],
)
async def test_no_message_to_any_seat_names_a_card_hidden_from_it(names, seed):
    room, recorded = await play_recording(names, seed)
    room = await database_sync_to_async(Room.objects.get)(pk=room.pk)
    states = await database_sync_to_async(states_by_version)(room)
    fragments = 0
    for viewer, message in recorded:
        text = json.dumps(message)
        if message["type"] != "fragments":
            assert "data-card" not in text
            continue
        fragments += 1
        hand = states[message["version"]]
        seat = names.index(viewer) if viewer else None
        hidden = {card for s, cards in enumerate(hand["hands"]) if s != seat for card in cards}
        if hand["face_down"] is not None:
            hidden.add(hand["face_down"])
        page = message["html"]
        assert not card_ids_in(page) & hidden, f"{viewer} saw a hidden card"
        public = set(hand["centre"])
        own = set(hand["hands"][seat]) if seat is not None else set()
        assert card_ids_in(page) <= own | public
        if seat is not None:
            shown = {int(n) for n in CARD_ATTR.findall(HAND_SECTION.search(page).group(0))}
            assert shown == own
        else:
            assert "my-hand" not in page
    # Every socket saw every move: the test looked at the whole game, not a corner of it.
    assert fragments >= (len(names) + 1) * (len(states) - 1)
