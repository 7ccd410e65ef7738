"""Person names are cleaned one way for every list (a night's players, a room's seats, a
circle's members): invisible characters go, look-alikes and ghost imitations are refused."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from apps.circles import services as circles
from apps.core.errors import Refused
from apps.core.names import clean_name, same_name
from apps.games import services as games
from apps.parties import services


@pytest.mark.parametrize(
    "typed, stored",
    [
        ("Ann\u200b", "Ann"),  # a zero-width space
        ("\ufeffAnn\u2060", "Ann"),  # a byte-order mark and a word joiner
        ("Ann\u202e", "Ann"),  # a right-to-left override
        ("\u202eennA", "ennA"),
        ("Ａｎｎ", "Ann"),  # full-width letters
        ("  Ann \t\n  B\u00a0 ", "Ann B"),
        ("Ann\x00", "Ann"),
        ("Zoë", "Zoë"),
        ("Zoe\u0308", "Zoë"),  # a combining diaeresis is the same Zoë
        ("李 小龙", "李 小龙"),
    ],
)
def test_a_name_is_stored_without_invisible_characters_and_with_one_space(typed, stored):
    assert clean_name(typed) == stored


@pytest.mark.parametrize("typed", ["", "   ", "\u200b", "\u200b\u200c\u200d", "\u202e\u2066"])
def test_a_name_of_nothing_but_invisible_characters_is_refused(typed):
    with pytest.raises(Refused, match="Type a name first"):
        clean_name(typed)


GHOSTLIKE = ["Ghost 1", "ghost 12", "\u200bGhost 1", "Ｇhost 2", "G\u200bhost"]


@pytest.mark.parametrize("typed", GHOSTLIKE)
def test_a_name_that_passes_for_a_ghost_seat_is_refused(typed):
    with pytest.raises(Refused, match="ghost seats"):
        clean_name(typed)


def test_a_name_longer_than_thirty_characters_is_refused():
    assert clean_name("W" * 30) == "W" * 30
    with pytest.raises(Refused, match="at most 30"):
        clean_name("W" * 31)


def test_names_that_differ_only_in_case_or_width_are_the_same_name():
    assert same_name("ANN", ["Bea", "Ann"]) == "Ann"
    assert same_name("Ａnn", ["Ann"]) == "Ann"
    assert same_name("Ann B", ["Ann"]) is None


@pytest.fixture
def party(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    services.join_party(party.code, new_name="Ann")
    return party


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["Ann\u200b", "ａｎｎ", "\u200bGhost 1", "\u200b"])
def test_a_phone_cannot_join_a_night_as_a_look_alike_or_a_ghost(party, typed):
    response = Client().post(f"/p/{party.code}/join/", {"name": typed})
    assert response.status_code == 400
    assert list(party.players.values_list("name", flat=True)) == ["Ann"]


@pytest.mark.django_db
def test_the_host_cannot_add_or_rename_to_a_look_alike(party):
    with pytest.raises(Refused, match="Ann"):
        services.add_player(party.code, "ANN\u200b")
    bea = services.add_player(party.code, " Bea\u202e ")
    assert bea.name == "Bea"
    with pytest.raises(Refused, match="Ann"):
        services.rename_player(party.code, bea.pk, "Ａnn")
    with pytest.raises(Refused, match="ghost"):
        services.rename_player(party.code, bea.pk, "\u2060Ghost 3")


@pytest.mark.django_db
def test_a_game_room_refuses_a_look_alike_seat_and_drops_a_bad_invited_name():
    room, creator = games.create_room("mbogo", {}, "Ann\u200b", prelisted=["\u200b", "Ｃal"])
    assert creator.name == "Ann"
    assert list(room.seats.exclude(name="").values_list("name", flat=True)) == ["Ann", "Cal"]
    with pytest.raises(Refused, match="already called Ann"):
        games.take_seat(room.code, 2, "ａnn")
    with pytest.raises(Refused, match="ghost"):
        games.take_seat(room.code, 2, "\u200bGhost 1")


@pytest.mark.django_db
def test_a_circle_refuses_a_look_alike_member(admin_user):
    circle = circles.create_circle(admin_user, name="Belles", start=date(2030, 1, 1), tz="UTC")
    ann = circles.add_member(circle.pk, name="Ann\u200b")
    assert ann.name == "Ann"
    with pytest.raises(Refused, match="already a member called Ann"):
        circles.add_member(circle.pk, name="ＡＮＮ")
    with pytest.raises(Refused, match="ghost"):
        circles.add_member(circle.pk, name="\u200bGhost 1")


def test_names_that_differ_only_in_spaces_are_the_same_name():
    assert same_name("Jo Ann", ["JoAnn"]) == "JoAnn"
