"""Party games started from a Bunko night: the night's players are there to invite."""

from __future__ import annotations

import pytest

from apps.core.tokens import seat_cookie_name
from apps.games.models import Room
from apps.parties import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday", attendance="sitouts")
    tokens = {}
    for name in ["Ann", "Bea", "Cal", "Dot", "Eve"]:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    return party, tokens


def test_a_player_sitting_out_starts_a_game_with_the_nights_players_to_invite(client, night):
    party, tokens = night
    resting = party.sit_outs.get().player.name
    client.cookies[seat_cookie_name(party.scope)] = tokens[resting]
    phone = client.get(f"/p/{party.code}/").content.decode()
    assert f"/games/?party={party.code}" in phone
    lobby = client.get(f"/games/?party={party.code}").content.decode()
    assert f'value="{resting}"' in lobby  # the name is filled in
    others = [n for n in tokens if n != resting]
    for name in others:
        assert f'name="invite" value="{name}"' in lobby


def test_invited_names_wait_in_the_rooms_seats_and_the_room_remembers_the_night(client, night):
    party, tokens = night
    client.post(
        "/games/new/",
        {"game": "mbogo", "name": "Ann", "party": party.code, "invite": ["Bea", "Mallory"]},
    )
    room = Room.objects.get()
    assert room.party_code == party.code
    names = [s.name for s in room.seats.order_by("slot") if s.name]
    assert names == ["Ann", "Bea"]  # Mallory is not at the party: not listed
