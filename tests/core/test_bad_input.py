"""Bad input at the edges: NUL bytes, lone surrogates, deep nesting, odd paths and malformed
moves get a clear refusal (a form error, a 404 page, an error message on the socket) and change
nothing, on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from apps.circles import services as circles
from apps.circles.tokens import make_invite
from apps.core.codes import normalize_code
from apps.games import services as games
from apps.games.models import Room, Seat
from apps.parties import services
from config.asgi import application
from tests.games.roomkit import connect, hello, receive_until, seat_header, started_room
from tests.parties.test_party_consumer import headers, night, phone

NUL = "\x00"


@pytest.fixture
def party(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    services.join_party(party.code, new_name="Ann")
    return party


def players(party) -> list[str]:
    return sorted(party.players.values_list("name", flat=True))


# -- pages -----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["", "join/", "screen/", "sheet/", "host/"])
def test_a_nul_byte_in_a_party_code_is_a_page_that_does_not_exist(party, page):
    response = Client().get(f"/p/{party.code}%00/{page}")
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/rooms/AB%00CD/", "/c/AB%00CD/", "/p/AB%2F..%2F/screen/"])
def test_a_code_with_anything_but_letters_and_digits_is_a_404(url):
    assert Client().get(url).status_code == 404


def test_a_code_typed_with_full_width_letters_is_the_code_and_other_scripts_are_dropped():
    assert normalize_code("ＡＢ１２-c") == "AB12C"
    assert normalize_code("AΒC\x00D") == "ACD"  # a Greek capital beta is not a B


@pytest.mark.django_db
def test_a_name_with_a_nul_byte_is_a_form_error_on_the_join_page(party):
    response = Client().post(f"/p/{party.code}/join/", {"name": f"Zed{NUL}"})
    assert response.status_code == 400
    assert b"Pick your name, or type it" in response.content
    assert players(party) == ["Ann"]


@pytest.mark.django_db
def test_the_host_adding_a_name_with_a_nul_byte_is_told_and_nothing_changes(party):
    client = Client()
    client.force_login(party.host)
    response = client.post(f"/p/{party.code}/host/add-player/", {"name": f"Zed{NUL}"})
    assert response.status_code == 302
    page = client.get(response.url)
    assert b"Null characters are not allowed" in page.content
    assert players(party) == ["Ann"]


@pytest.mark.django_db
def test_a_room_made_or_a_seat_taken_with_a_nul_byte_in_the_name_changes_nothing():
    client = Client()
    response = client.post("/games/new/", {"game": "mbogo", "name": f"Zed{NUL}"})
    assert response.status_code == 400 and not Room.objects.exists()
    room, _ = games.create_room("mbogo", {"target": 0}, "Ann")
    response = client.post(f"/rooms/{room.code}/sit/", {"slot": 1, "name": f"Bo{NUL}"})
    assert response.status_code == 400
    assert list(Seat.objects.exclude(name="").values_list("name", flat=True)) == ["Ann"]


@pytest.mark.django_db
def test_a_circle_member_joining_with_a_nul_byte_in_the_name_gets_a_form_error(admin_user):
    from datetime import date

    circle = circles.create_circle(admin_user, name="Belles", start=date(2030, 1, 1), tz="UTC")
    token = make_invite(circle.pk, circle.invite_nonce, "member")
    response = Client().post(f"/c/{circle.code}/join/{token}/", {"name": f"Zed{NUL}"})
    assert response.status_code in (200, 400)
    assert b"Null characters are not allowed" in response.content
    assert not circle.members.exists()


# -- sockets ---------------------------------------------------------------------------------

pytest_socket = pytest.mark.django_db(transaction=True)


async def refused(communicator, text: str) -> dict:
    await communicator.send_to(text_data=text)
    message = await receive_until(communicator, lambda m: m["type"] in ("error", "ack"))
    assert message["type"] == "error", message
    return message


@pytest_socket
async def test_an_unknown_socket_path_is_closed_with_4404():
    for path in ["/ws/p/X/../host/", "/ws/p/AB\x00/phone/", "/ws/rooms/A%00B/", "/ws/nothing/"]:
        communicator = WebsocketCommunicator(application, path, headers=headers())
        assert await communicator.connect() == (False, 4404)


@pytest_socket
async def test_a_nul_byte_anywhere_in_a_phones_message_is_refused_and_nothing_changes(
    django_user_model,
):
    party, tokens, _ = await night(django_user_model)
    ann = await phone(party, tokens["Ann"])
    before = await sync_to_async(lambda: party.events.count())()
    for message in [
        {"type": "action", "id": f"nul-id-{NUL}1", "act": {"type": "rolloff"}},
        {"type": "action", "id": "nul-act-0001", "act": {"type": f"rolloff{NUL}"}},
        {"type": "action", "id": "nul-act-0002", "act": json.dumps({"type": "x", "k": NUL})},
        {"type": "hello", "since": 0, NUL: 1},
    ]:
        error = await refused(ann, json.dumps(message))
        assert "nothing changed" in error["message"]
    assert await sync_to_async(lambda: party.events.count())() == before
    await ann.disconnect()


@pytest_socket
async def test_a_lone_surrogate_or_deep_nesting_is_refused_and_the_socket_stays_open(
    django_user_model,
):
    party, tokens, _ = await night(django_user_model)
    ann = await phone(party, tokens["Ann"])
    deep = "[" * 5000 + "]" * 5000
    for text in [
        '{"type": "action", "id": "surrogate-01", "act": {"type": "roll\\ud800"}}',
        '{"type": "action", "id": "deep-000001", "act": {"type": "roll", "x": ' + deep + "}}",
        '{"type": "action", "id": "deep-000002", "act": {"type": "roll", "x": [[[[[[[[1]]]]]]]]}}',
        '{"type": "action", "id": "deep-000003", "act": ' + json.dumps(deep) + "}",
    ]:
        await refused(ann, text)
    await ann.send_json_to({"type": "ping", "sent": 1})
    assert (await receive_until(ann, lambda m: m["type"] == "pong"))["sent"] == 1
    await ann.disconnect()


@pytest_socket
async def test_malformed_bunko_moves_are_refused_with_a_sentence(django_user_model):
    party, tokens, _ = await night(django_user_model)
    ann = await phone(party, tokens["Ann"])
    for act in [
        {"type": "roll", "move": ["roll"]},
        {"type": "report", "kind": ["bunko"]},
        {"type": "report", "kind": {"bunko": 1}, "count": "two"},
        {"type": ["roll"]},
        {"type": "rolloff", "table": {"n": 1}, "round": [1]},
    ]:
        await refused(ann, json.dumps({"type": "action", "id": "malformed-01", "act": act}))
    assert await sync_to_async(players)(party) == sorted(tokens)
    await ann.disconnect()


@pytest_socket
async def test_malformed_game_moves_are_refused_and_the_room_keeps_its_version():
    room, claims = await sync_to_async(started_room)()
    ann = await connect(room.code, seat_header(room, claims, "Ann"))
    await hello(ann)
    for act in [
        {"type": "play", "card": ["x"]},
        {"type": ["play"]},
        {"type": "play", "card": {"id": 1}, "cards": "all"},
        {"type": "room.bot", "slot": {"a": 1}},
        {"type": "room.bot", "slot": 1, "level": ["hard"]},
    ]:
        await refused(ann, json.dumps({"type": "action", "id": "game-bad-01", "act": act}))
    assert (await sync_to_async(Room.objects.get)(pk=room.pk)).version == room.version
    await ann.disconnect()


@pytest_socket
async def test_an_action_that_fails_unexpectedly_is_answered_and_the_socket_stays_open(
    django_user_model, monkeypatch, caplog
):
    party, tokens, _ = await night(django_user_model)
    ann = await phone(party, tokens["Ann"])

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "table_action", broken)
    error = await refused(
        ann, json.dumps({"type": "action", "id": "bug-0001", "act": {"type": "roll"}})
    )
    assert error["id"] == "bug-0001" and "nothing changed" in error["message"]
    assert "live: an action failed" in caplog.text  # the bug is reported on the laptop
    await ann.send_json_to({"type": "ping", "sent": 2})
    assert (await receive_until(ann, lambda m: m["type"] == "pong"))["sent"] == 2
    await ann.disconnect()
