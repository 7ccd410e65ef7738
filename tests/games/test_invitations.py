"""A seat a party game keeps for a player of the night: "Take your seat" on the night's phone
seats them in one tap, and a forged, stale or borrowed invitation changes nothing."""

from __future__ import annotations

import re

import pytest

from apps.core.tokens import seat_cookie_name
from apps.games import invitations
from apps.games import services as rooms
from apps.games.models import Seat
from apps.parties import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(django_user_model):
    """A night with Ann and Dirk, and Ann's Mbogo room from it that keeps a seat for Dirk."""
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    tokens = {name: services.join_party(party.code, new_name=name)[1] for name in ("Ann", "Dirk")}
    room, _seat = rooms.create_room("mbogo", {}, "Ann", prelisted=["Dirk"], party_code=party.code)
    return party, tokens, room


def as_night_phone(client, party, tokens, name) -> str:
    """The night's page on ``name``'s phone."""
    client.cookies[seat_cookie_name(party.scope)] = tokens[name]
    return client.get(f"/p/{party.code}/").content.decode()


def invitation_on(page: str) -> tuple[str, str]:
    """Where "Take your seat" posts, and the invitation it posts."""
    action = re.search(r'<form class="inline-form" method="post" action="([^"]+)"', page)
    invite = re.search(r'name="invite" value="([^"]+)"', page)
    assert action and invite, "no Take your seat button"
    return action.group(1), invite.group(1)


def dirks_seat(room) -> Seat:
    return room.seats.get(name="Dirk")


def test_take_your_seat_on_the_nights_phone_seats_the_player_in_one_tap(client, night):
    party, tokens, room = night
    action, invite = invitation_on(as_night_phone(client, party, tokens, "Dirk"))
    response = client.post(action, {"invite": invite})
    assert response.status_code == 302 and response.url == f"/rooms/{room.code}/"
    seat = dirks_seat(room)
    assert seat.claimed and seat.nonce
    page = client.get(response.url).content.decode()
    assert 'id="sit-form"' not in page and "I am Dirk" not in page
    assert "You have a seat" not in as_night_phone(client, party, tokens, "Dirk")
    # A second tap (the back button) keeps the seat as it is.
    again = client.post(action, {"invite": invite})
    assert again.status_code == 302 and dirks_seat(room).nonce == seat.nonce


def test_a_forged_invitation_is_refused_and_changes_nothing(client, night):
    party, tokens, room = night
    action, invite = invitation_on(as_night_phone(client, party, tokens, "Dirk"))
    response = client.post(action, {"invite": invite[:-4] + "abcd"})
    assert response.status_code == 400
    assert "This invitation is not valid." in response.content.decode()
    assert not dirks_seat(room).claimed


def test_an_invitation_for_another_room_or_out_of_date_is_refused(client, night, monkeypatch):
    party, tokens, room = night
    other, _seat = rooms.create_room("bonje", {}, "Ann", prelisted=["Dirk"], party_code=party.code)
    invite = invitations.make_invitation(other.code, dirks_seat(other).pk, "Dirk")
    as_night_phone(client, party, tokens, "Dirk")
    assert client.post(f"/rooms/{room.code}/invited/", {"invite": invite}).status_code == 400
    monkeypatch.setattr(invitations, "MAX_AGE", -1)  # a day later
    response = client.post(f"/rooms/{other.code}/invited/", {"invite": invite})
    assert response.status_code == 400
    assert not dirks_seat(room).claimed and not dirks_seat(other).claimed


def test_another_phone_of_the_night_cannot_use_the_invitation(client, night):
    party, tokens, room = night
    action, invite = invitation_on(as_night_phone(client, party, tokens, "Dirk"))
    as_night_phone(client, party, tokens, "Ann")
    response = client.post(action, {"invite": invite})
    assert response.status_code == 403
    assert "This invitation is for Dirk&#x27;s phone at the night." in response.content.decode()
    assert not dirks_seat(room).claimed


def test_an_invitation_to_a_seat_another_phone_took_meanwhile_says_what_to_do(client, night):
    party, tokens, room = night
    action, invite = invitation_on(as_night_phone(client, party, tokens, "Dirk"))
    taken = rooms.take_seat(room.code, dirks_seat(room).slot)  # "I am Dirk" on another phone
    response = client.post(action, {"invite": invite})
    assert response.status_code == 409
    assert "Another phone already holds Dirk&#x27;s seat." in response.content.decode()
    assert "ask Ann to give your seat to a new phone" in response.content.decode()
    assert dirks_seat(room).nonce == taken.nonce
