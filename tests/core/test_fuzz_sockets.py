"""Every socket, fed what no page sends (broken JSON, NUL bytes, deep nesting, moves of the
wrong shape, moves nobody may make): every message gets an answer, the socket stays open, no
traceback is logged, and a message that is not acknowledged changes no row."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.core.tokens import seat_cookie_name
from config.asgi import application
from config.routing import websocket_urlpatterns
from tests.core.fuzzkit import (
    ErrorLog,
    changed_tables,
    fingerprint,
    json_value,
    make_world,
    odd_text,
    with_nul,
)
from tests.games.roomkit import actor

pytestmark = pytest.mark.django_db(transaction=True)

SOCKETS = [
    "party_socket",
    "party_screen_socket",
    "party_host_socket",
    "room_socket",
    "room_screen_socket",
    "check_socket",
]
# Move types of every page (Bunko's table, the awards, the lobby), and fields they carry.
TYPES = ["roll", "report", "rolloff", "grab", "scramble", "undo", "awards.roll", "awards.pick"]
TYPES += ["room.bot", "room.unbot", "room.start", "play", "pass", "wave"]
FIELDS = ["kind", "count", "team0", "team1", "table", "round", "at", "slot", "level", "name"]
# What a socket's message can change (a circle changes only through its pages).
SOCKET_APPS = {"core", "parties", "games", "prizes"}
FUZZ = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def test_every_socket_is_fuzzed():
    assert {route.name for route in websocket_urlpatterns} == set(SOCKETS)


def socket_of(world, name: str) -> tuple[str, str]:
    """The path of a socket and the cookies of whoever opens it (a seated player, the host)."""
    party, room = world.party, world.room
    host = Client()
    host.force_login(world.host)
    session = f"sessionid={host.cookies['sessionid'].value}"
    seat = world.claims["Ann"]
    from apps.core.tokens import make_seat_token

    room_cookie = (
        f"{seat_cookie_name(room.scope)}={make_seat_token(room.scope, seat.seat_id, seat.nonce)}"
    )
    return {
        "party_socket": (
            f"/ws/p/{party.code}/phone/",
            f"{seat_cookie_name(party.scope)}={world.tokens['Ann']}",
        ),
        "party_screen_socket": (f"/ws/p/{party.code}/screen/", ""),
        "party_host_socket": (f"/ws/p/{party.code}/host/", session),
        "room_socket": (f"/ws/rooms/{room.code}/", room_cookie),
        "room_screen_socket": (f"/ws/rooms/{room.code}/screen/", ""),
        "check_socket": ("/ws/check/", ""),
    }[name]


def moves(world) -> st.SearchStrategy:
    """Moves of the right type with fields of the wrong shape, and moves of no shape."""
    _, legal = actor(world.room)
    types = TYPES + sorted({move["type"] for move in legal})
    fields = FIELDS + sorted({key for move in legal for key in move if key != "type"})
    shaped = st.builds(
        lambda kind, extra: {"type": kind, **extra},
        st.one_of(st.sampled_from(types), odd_text),
        st.dictionaries(st.sampled_from(fields), json_value, max_size=4),
    )
    return st.one_of(shaped, json_value, shaped.map(json.dumps))


def messages(world) -> st.SearchStrategy:
    ids = st.one_of(
        with_nul.map(lambda text: f"{text}-action-id"[:64]),
        st.text(min_size=8, max_size=64),
        json_value,
    )
    # Most messages are actions (they reach the services); the rest is anything at all.
    action = st.fixed_dictionaries(
        {"type": st.just("action"), "id": ids, "act": moves(world)},
        optional={"target": json_value, "version": json_value},
    ).map(json.dumps)
    envelope = st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(["action", "hello", "ping"]), odd_text)},
        optional={"id": ids, "act": moves(world), "target": json_value, "since": json_value},
    ).map(json.dumps)
    return st.one_of(
        action,
        action,
        envelope,
        envelope.map(lambda text: text.replace('"', '"\\u0000', 1)),
        json_value.map(json.dumps),
        odd_text,
        st.integers(min_value=1, max_value=6000).map(lambda n: "[" * n + "]" * n),
    )


async def exchange(path: str, cookie: str, texts: list[str]) -> bool:
    """Send each message, then a ping: every message is answered before the pong and the
    socket never closes. Whether anything was acknowledged."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect()
    assert connected, code
    acked = False
    try:
        for number, text in enumerate(texts):
            await communicator.send_input({"type": "websocket.receive", "text": text})
            sentinel = f"sentinel-{number}"
            await communicator.send_json_to({"type": "ping", "sent": sentinel})
            while True:
                output = await communicator.receive_output(timeout=5)
                assert output["type"] == "websocket.send", (text[:200], output)
                message = json.loads(output["text"])
                if message["type"] == "error":
                    assert isinstance(message["message"], str) and message["message"]
                acked = acked or message["type"] == "ack"
                if message == {"type": "pong", "sent": sentinel}:
                    break
    finally:
        await communicator.disconnect()
    return acked


@pytest.mark.parametrize("name", SOCKETS)
def test_a_socket_answers_every_bad_message_and_changes_nothing(django_user_model, name):
    world = make_world(django_user_model)
    path, cookie = socket_of(world, name)

    last = [fingerprint(SOCKET_APPS)]

    @FUZZ
    @given(texts=st.lists(messages(world), min_size=1, max_size=3))
    def fuzz(texts):
        with ErrorLog() as log:
            acked = async_to_sync(exchange)(path, cookie, texts)
        assert not log.records, log.text()
        before, last[0] = last[0], fingerprint(SOCKET_APPS)
        if not acked:
            assert not changed_tables(before, last[0]), texts

    fuzz()
