"""What one socket may ask of the server: a hello is answered once per version, and messages
beyond a phone's pace are dropped with one warning, then the socket is closed. A phone's
reconnect (its hello and every unanswered tap at once) and fast tapping never reach the limit."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from apps.core import live, pace
from apps.parties import services
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(path: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@sync_to_async
def a_night(django_user_model) -> str:
    host = django_user_model.objects.create_user("host", password="x")
    code = services.create_party(host, name="Friday").code
    for name in ("Ann", "Bea", "Cal", "Dot"):
        services.join_party(code, new_name=name)
    return code


async def until_pong(communicator: WebsocketCommunicator, sent: int) -> list[dict]:
    """Everything the socket hears up to the pong of ``sent`` (its answers come in order)."""
    await communicator.send_json_to({"type": "ping", "sent": sent})
    heard = []
    while (message := await communicator.receive_json_from(timeout=5)) != {
        "type": "pong",
        "sent": sent,
    }:
        heard.append(message)
    return heard


async def test_a_repeated_hello_on_the_big_screen_gets_no_new_redraw(django_user_model):
    code = await a_night(django_user_model)
    screen = await connect(f"/ws/p/{code}/screen/")
    await screen.send_json_to({"type": "hello", "since": -1})
    assert (await screen.receive_json_from())["type"] == "fragments"
    for _ in range(10):
        await screen.send_json_to({"type": "hello", "since": -1})
    assert await until_pong(screen, 1) == []
    await screen.disconnect()


async def test_a_hello_after_a_new_version_of_the_night_is_answered_again(django_user_model):
    code = await a_night(django_user_model)
    screen = await connect(f"/ws/p/{code}/screen/")
    await screen.send_json_to({"type": "hello", "since": -1})
    first = await screen.receive_json_from()
    await sync_to_async(services.start_next_round)(code)
    pushed = await screen.receive_json_from(timeout=5)
    assert pushed["type"] == "fragments" and pushed["version"] > first["version"]
    await screen.send_json_to({"type": "hello", "since": first["version"]})
    answers = await until_pong(screen, 1)
    assert [m["version"] for m in answers if m["type"] == "fragments"] == [pushed["version"]]
    await screen.send_json_to({"type": "hello", "since": first["version"]})
    assert await until_pong(screen, 2) == []
    await screen.disconnect()


async def test_a_new_socket_of_the_same_screen_is_answered_as_the_first_was(django_user_model):
    code = await a_night(django_user_model)
    for _ in range(2):
        screen = await connect(f"/ws/p/{code}/screen/")
        await screen.send_json_to({"type": "hello", "since": -1})
        assert (await screen.receive_json_from())["type"] == "fragments"
        await screen.disconnect()


async def test_a_socket_that_floods_messages_is_told_once_to_slow_down_and_then_closed():
    check = await connect("/ws/check/")
    for number in range(4 * pace.BURST):
        await check.send_json_to({"type": "ping", "sent": number})
    heard = []
    while True:
        output = await check.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
        heard.append(output["text"])
    pongs = [text for text in heard if '"pong"' in text]
    errors = [text for text in heard if '"error"' in text]
    assert pace.BURST <= len(pongs) <= pace.BURST + 2  # the burst, and what refilled meanwhile
    assert len(errors) == 1 and "slow down" in errors[0]
    assert output["code"] == live.FLOODING


async def test_a_phone_reconnecting_with_its_taps_and_tapping_fast_never_meets_the_limit():
    check = await connect("/ws/check/")
    # A reconnect: the hello and every tap that was not answered, at once.
    await check.send_json_to({"type": "hello", "since": 0})
    for number in range(20):
        await check.send_json_to({"type": "ping", "sent": number})
    heard = await until_pong(check, 99)
    assert len(heard) == 21 and all(m["type"] != "error" for m in heard)
    # Double taps and quick play: two at once, five times a second, for three seconds.
    for round_ in range(15):
        await check.send_json_to({"type": "ping", "sent": 1000 + round_})
        assert all(m["type"] == "pong" for m in await until_pong(check, 2000 + round_))
        await asyncio.sleep(0.2)
    await check.disconnect()


def test_the_pace_refills_at_its_rate_and_forgives_a_client_that_slowed_down():
    now = [0.0]
    bucket = pace.Pace(rate=10, burst=4, clock=lambda: now[0])
    assert [bucket.take() for _ in range(5)] == [pace.OK] * 4 + [pace.SLOW]
    assert bucket.take() == pace.DROP  # told once
    now[0] += 1.0  # ten refilled, less the two refused
    assert [bucket.take() for _ in range(4)] == [pace.OK] * 4
    assert bucket.take() == pace.SLOW  # a new burst over the pace is told again
    assert [bucket.take() for _ in range(3)] == [pace.DROP] * 3
    assert bucket.take() == pace.STOP  # another burst's worth ignored the warning
