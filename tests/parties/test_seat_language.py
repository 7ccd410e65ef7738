"""Each player's language is remembered with their seat: a phone that loses its language
cookie gets its language back with its place, on the page and on the socket."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from apps.core.tokens import seat_cookie_name
from apps.parties import services
from apps.parties.models import Player
from config.asgi import application

NAMES = ["Ann", "Bea", "Cal", "Dot"]


def seated(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    tokens = {}
    for name in NAMES:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    return party, tokens


@pytest.mark.django_db
def test_a_seated_phone_that_chooses_german_gets_german_back_after_losing_its_cookie(
    client, django_user_model
):
    party, tokens = seated(django_user_model)
    client.cookies[seat_cookie_name(party.scope)] = tokens["Ann"]
    client.post("/i18n/setlang/", {"language": "de", "next": f"/p/{party.code}/"})
    assert "Dein Partner ist" in client.get(f"/p/{party.code}/").text
    assert Player.objects.get(name="Ann").language == "de"

    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    page = client.get(f"/p/{party.code}/", headers={"accept-language": "nl"})
    assert "Dein Partner ist" in page.text
    assert page.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"


@pytest.mark.django_db
def test_a_phone_that_chooses_again_changes_its_seats_language(client, django_user_model):
    party, tokens = seated(django_user_model)
    client.cookies[seat_cookie_name(party.scope)] = tokens["Bea"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.get(f"/p/{party.code}/")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    assert "Je partner is" in client.get(f"/p/{party.code}/").text
    assert Player.objects.get(name="Bea").language == "nl"


@pytest.mark.django_db(transaction=True)
async def test_a_phones_socket_speaks_its_seats_language_before_its_browsers(
    django_user_model,
):
    party, tokens = await sync_to_async(seated)(django_user_model)
    await sync_to_async(services.set_player_language)(
        (await Player.objects.aget(name="Cal")).pk, "nl"
    )
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"accept-language", b"de-DE,de;q=0.9"),
        (b"cookie", f"{seat_cookie_name(party.scope)}={tokens['Cal']}".encode()),
    ]
    phone = WebsocketCommunicator(application, f"/ws/p/{party.code}/phone/", headers=headers)
    assert (await phone.connect())[0]
    await phone.send_json_to({"type": "hello", "since": 0})
    first = await phone.receive_json_from()
    assert "Je partner is" in first["html"]
    await phone.disconnect()
