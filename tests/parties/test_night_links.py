"""What a night tells its players' game rooms: the call back to their table."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.core.tokens import seat_cookie_name
from apps.parties import services
from apps.parties.links import night_link

pytestmark = pytest.mark.django_db


def started_night(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    tokens = {}
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    party.refresh_from_db()
    return party, tokens


def test_a_player_in_a_game_room_is_called_to_her_table_in_her_language(django_user_model):
    party, tokens = started_night(django_user_model)
    cookies = {seat_cookie_name(party.scope): tokens["Ann"]}
    assert night_link(party.code, cookies).call == "Round 1 has started: go to table 1"
    with translation.override("nl"):
        assert night_link(party.code, cookies).call == "Ronde 1 is begonnen: ga naar tafel 1"
    with translation.override("de"):
        assert night_link(party.code, cookies).call == "Runde 1 hat begonnen: geh an Tisch 1"


def test_a_phone_without_a_seat_at_the_night_is_called_nowhere(django_user_model):
    party, _ = started_night(django_user_model)
    assert night_link(party.code, {}).call == ""
