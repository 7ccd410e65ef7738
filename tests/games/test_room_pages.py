"""The room pages over plain HTTP: start a game, join by code or link, sit, watch."""

from __future__ import annotations

import pytest

from apps.games.models import Room
from apps.games.selectors import cookie_name

pytestmark = pytest.mark.django_db


def make_room(client, name: str = "Ann") -> Room:
    response = client.post("/games/new/", {"game": "mbogo", "name": name})
    assert response.status_code == 302
    room = Room.objects.get()
    assert response["Location"] == f"/rooms/{room.code}/"
    assert cookie_name(room) in response.cookies
    return room


def test_the_lobby_offers_mbogo_and_a_join_form(client):
    page = client.get("/games/").content.decode()
    assert "Start a party game" in page and "Mbogo" in page and "Room code" in page


def test_starting_a_game_seats_the_creator_and_shows_the_code_and_a_qr(client):
    room = make_room(client)
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert room.code in page and "<svg" in page
    assert "Start Mbogo" in page and "made the room" in page


def test_a_nameless_start_and_an_unknown_code_say_why_on_the_lobby_page(client):
    response = client.post("/games/new/", {"game": "mbogo", "name": " "})
    assert response.status_code == 400 and "Type your name first." in response.content.decode()
    response = client.post("/games/join/", {"code": "zz-zzz"})
    assert response.status_code == 400
    assert "There is no room with the code ZZZZZ." in response.content.decode()


def test_a_friend_joins_by_code_then_sits_on_an_empty_seat(client, django_user_model):
    from django.test import Client

    room = make_room(client)
    friend = Client()
    response = friend.post("/games/join/", {"code": room.code.lower()})
    assert response["Location"] == f"/rooms/{room.code}/"
    page = friend.get(response["Location"]).content.decode()
    assert "Take a seat" in page and "Sit here" in page and "Start Mbogo" not in page
    response = friend.post(f"/rooms/{room.code}/sit/", {"slot": "1", "name": "Bea"})
    assert response.status_code == 302
    page = friend.get(f"/rooms/{room.code}/").content.decode()
    assert "You sit at this table" in page
    stranger = Client()
    response = stranger.post(f"/rooms/{room.code}/sit/", {"slot": "1", "name": "Cal"})
    assert response.status_code == 400
    assert "Bea already sits there; pick another seat." in response.content.decode()


def test_the_big_screen_is_public_readable_and_shows_the_join_qr(client):
    room = make_room(client)
    page = client.get(f"/rooms/{room.code}/screen/").content.decode()
    assert 'class="bigscreen room"' in page and "<svg" in page
    assert "Start Mbogo" not in page and f"/ws/rooms/{room.code}/screen/" in page


def test_an_unknown_room_is_a_404(client):
    assert client.get("/rooms/QQQQQ/").status_code == 404
