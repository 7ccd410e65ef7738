"""The awards over the night's sockets: a tied player rolls on the phone, the big screen and
the host's console redraw, and a bad tap says why nothing changed."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from apps.core.tokens import seat_cookie_name
from apps.parties import services
from apps.parties.models import Table
from apps.prizes.models import Ceremony
from apps.prizes.rules import settlement
from apps.prizes.services import ceremonies
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Bea", "Cal", "Dot"]


def headers(cookie: str = "") -> list[tuple[bytes, bytes]]:
    result = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        result.append((b"cookie", cookie.encode()))
    return result


@sync_to_async
def night_at_its_consolation_rolloff(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    tokens = {}
    for name in NAMES:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    table = Table.objects.get(party=party, round=1)
    services.host_move(party.code, table.pk, {"type": "end", "winner": 1})
    services.end_night(party.code)
    ceremonies.start_awards(party.code)
    while view_of(party)["phase"] == "ready":
        ceremonies.host_step(party.code, {"type": "next"})
    party.refresh_from_db()
    return party, tokens


def view_of(party) -> dict:
    state = Ceremony.objects.get(party=party).state
    return settlement.view(settlement.State.from_json(state), settlement.HOST)


async def connect(party, view: str, token: str = "") -> WebsocketCommunicator:
    cookie = f"{seat_cookie_name(party.scope)}={token}" if token else ""
    communicator = WebsocketCommunicator(
        application, f"/ws/p/{party.code}/{view}/", headers=headers(cookie)
    )
    assert (await communicator.connect())[0]
    await communicator.send_json_to({"type": "hello", "since": 0})
    assert (await communicator.receive_json_from())["type"] == "fragments"
    return communicator


async def next_of_type(communicator, kind, timeout=3):
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


async def test_a_tied_player_rolls_on_the_phone_and_the_big_screen_shows_the_die(
    django_user_model,
):
    party, tokens = await night_at_its_consolation_rolloff(django_user_model)
    view = await sync_to_async(view_of)(party)
    tied = [c["player"] for c in view["rolloff"]["contenders"]]
    phone = await connect(party, "phone", tokens[tied[0]])
    screen = await connect(party, "screen")
    await phone.send_json_to(
        {"type": "action", "id": "roll-0001", "act": {"type": "awards.roll"}, "target": "awards"}
    )
    assert (await next_of_type(phone, "ack"))["id"] == "roll-0001"
    fragment = await next_of_type(phone, "fragments")
    assert 'id="awards"' in fragment["html"] and "Roll for" not in fragment["html"]
    shown = await next_of_type(screen, "fragments")
    assert "tv-awards" in shown["html"] and tied[0] in shown["html"]
    # the same tap again counts once; another roll is refused; a move the phone has no
    # part in: a message, nothing changes
    version = await sync_to_async(lambda: Ceremony.objects.get(party=party).version)()
    await phone.send_json_to(
        {"type": "action", "id": "roll-0001", "act": {"type": "awards.roll"}, "target": "awards"}
    )
    assert (await next_of_type(phone, "ack"))["id"] == "roll-0001"
    await phone.send_json_to(
        {"type": "action", "id": "roll-0002", "act": {"type": "awards.roll"}, "target": "awards"}
    )
    error = await next_of_type(phone, "error")
    assert error["message"].startswith("You have rolled")
    await phone.send_json_to(
        {"type": "action", "id": "next-0003", "act": {"type": "awards.next"}, "target": "awards"}
    )
    assert "not something a phone does" in (await next_of_type(phone, "error"))["message"]
    assert await sync_to_async(lambda: Ceremony.objects.get(party=party).version)() == version
    await phone.disconnect()
    await screen.disconnect()


async def test_a_phone_without_a_seat_in_the_awards_is_told_so(django_user_model):
    party, _tokens = await night_at_its_consolation_rolloff(django_user_model)
    stranger = await connect(party, "phone")
    await stranger.send_json_to(
        {"type": "action", "id": "stranger-1", "act": {"type": "awards.roll"}, "target": "awards"}
    )
    assert "no part in the awards" in (await next_of_type(stranger, "error"))["message"]
    await stranger.disconnect()
