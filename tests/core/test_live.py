"""The live-update protocol, over Channels' WebsocketCommunicator."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

# Channels closes stale database connections around every message, so these sockets need
# database access even though the phone check itself stores nothing.
pytestmark = pytest.mark.django_db


async def connect(path: str = "/ws/check/") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_hello_is_answered_with_the_current_fragments():
    phone = await connect()
    await phone.send_json_to({"type": "hello", "since": 0})
    reply = await phone.receive_json_from()
    assert reply["type"] == "fragments"
    assert 'id="check-status"' in reply["html"]
    assert "Connected" in reply["html"]
    await phone.disconnect()


async def test_a_message_that_is_not_json_gets_a_clear_error_and_the_socket_stays_open():
    phone = await connect()
    await phone.send_to(text_data="{not json")
    reply = await phone.receive_json_from()
    assert reply == {
        "type": "error",
        "message": "That message was not valid JSON; nothing changed.",
    }
    await phone.send_json_to({"type": "ping", "sent": 5})
    assert await phone.receive_json_from() == {"type": "pong", "sent": 5}
    await phone.disconnect()


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("[1, 2]", "A message must be a JSON object; nothing changed."),
        ('{"type": "launch"}', "Unknown message type 'launch'; nothing changed."),
        ('{"type": "action", "name": "Ann"}', "An action needs an id; nothing changed."),
        ("x" * 20_000, "That message is too long; nothing changed."),
    ],
)
async def test_malformed_messages_are_refused_with_a_reason(raw, reason):
    phone = await connect()
    await phone.send_to(text_data=raw)
    reply = await phone.receive_json_from()
    assert reply["type"] == "error"
    assert reply["message"] == reason
    await phone.disconnect()


async def test_an_action_is_acknowledged_by_its_id_and_its_effect_reaches_every_phone():
    ann, bea = await connect(), await connect()
    await ann.send_json_to(
        {"type": "action", "id": "a1b2c3d4e5", "act": {"type": "wave", "name": "Ann"}}
    )
    replies = [await ann.receive_json_from(), await ann.receive_json_from()]
    assert {"type": "ack", "id": "a1b2c3d4e5"} in replies
    wave = await bea.receive_json_from()
    assert "Ann waved" in wave["html"]
    await ann.disconnect()
    await bea.disconnect()


async def test_a_refused_action_says_why_next_to_the_field_that_caused_it():
    phone = await connect()
    await phone.send_json_to(
        {
            "type": "action",
            "id": "0123456789",
            "act": {"type": "wave", "name": "  "},
            "target": "wave-name",
        }
    )
    reply = await phone.receive_json_from()
    assert reply == {
        "type": "error",
        "id": "0123456789",
        "message": "Type your name first, then wave.",
        "target": "wave-name",
    }
    await phone.disconnect()


async def test_a_name_with_markup_is_shown_as_text_not_html():
    ann, bea = await connect(), await connect()
    await ann.send_json_to(
        {"type": "action", "id": "abcdefgh12", "act": {"type": "wave", "name": "<b>x</b>"}}
    )
    wave = await bea.receive_json_from()
    assert "&lt;b&gt;x&lt;/b&gt;" in wave["html"]
    await ann.disconnect()
    await bea.disconnect()


async def test_a_socket_opened_by_a_page_of_another_site_is_refused():
    communicator = WebsocketCommunicator(
        application,
        "/ws/check/",
        headers=[(b"origin", b"http://evil.example"), (b"host", b"192.168.1.20:8000")],
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_a_socket_from_the_laptops_own_page_is_accepted_at_any_of_its_addresses():
    from apps.core.network import laptop_hosts

    for address in laptop_hosts():
        host = f"{address}:8000".encode()
        communicator = WebsocketCommunicator(
            application, "/ws/check/", headers=[(b"origin", b"http://" + host), (b"host", host)]
        )
        connected, _ = await communicator.connect()
        assert connected, address
        await communicator.disconnect()
