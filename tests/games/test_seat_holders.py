"""A seat a phone holds changes hands only through its holder or the room's creator, and a
seat claimed by a phone that never opens the room goes back after a while."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.tokens import seat_cookie_name
from apps.games import services
from apps.games.models import Room
from tests.games.roomkit import claim_of

pytestmark = pytest.mark.django_db


def later(seconds: float = 46):
    return timezone.now() + timedelta(seconds=seconds)


def running_room_with_cal_invited():
    """Ann made the room for Bea and Cal; Bea sat, Cal's name waits (a bot plays for it)."""
    room, ann = services.create_room("mbogo", {"target": 0}, "Ann", prelisted=["Bea", "Cal"])
    ann_claim = claim_of(ann)
    bea = services.take_seat(room.code, 1, "")
    services.seat_connected(room.code, bea.pk)
    services.start_room(room.code, ann_claim)
    return room, ann_claim, claim_of(bea)


def sit_from_a_phone(room: Room, slot: int) -> Client:
    phone = Client()
    response = phone.post(f"/rooms/{room.code}/sit/", {"slot": slot, "name": "Mallory"})
    assert response.status_code in (302, 400)
    return phone


def test_a_seat_held_by_a_phone_is_not_taken_by_another_phone_with_the_room_code():
    room, _, _ = running_room_with_cal_invited()
    stranger = Client()
    response = stranger.post(f"/rooms/{room.code}/sit/", {"slot": 1})
    assert response.status_code == 400
    assert "Bea already sits there" in response.content.decode()
    assert seat_cookie_name(room.scope) not in response.cookies


def test_the_creator_gives_a_seat_to_a_new_phone_and_the_old_phone_is_out():
    room, ann_claim, bea_claim = running_room_with_cal_invited()
    services.release_seat(room.code, ann_claim, 1)
    with pytest.raises(Refused, match="given to someone else"):
        services.perform_action(room.code, bea_claim, "a-late-move", {"type": "pass"})
    new_phone = Client()
    assert new_phone.post(f"/rooms/{room.code}/sit/", {"slot": 1}).status_code == 302
    page = new_phone.get(f"/rooms/{room.code}/").content.decode()
    assert "Your hand" in page
    seat = room.seats.get(slot=1)
    assert (seat.name, seat.claimed, seat.nonce != bea_claim.nonce) == ("Bea", True, True)


def test_a_holder_hands_their_own_seat_over_but_not_someone_elses():
    room, ann_claim, bea_claim = running_room_with_cal_invited()
    with pytest.raises(Refused, match="Only the player who made the room"):
        services.release_seat(room.code, bea_claim, 0)
    services.release_seat(room.code, bea_claim, 1)
    seat = room.seats.get(slot=1)
    assert not seat.claimed and seat.prelisted and seat.bot_plays
    with pytest.raises(Refused, match="No phone holds that seat"):
        services.release_seat(room.code, ann_claim, 1)


def test_a_seat_claimed_mid_game_by_a_phone_that_never_opens_the_room_goes_back_to_its_bot():
    room, _, _ = running_room_with_cal_invited()
    sit_from_a_phone(room, 2)  # "I am Cal", then the phone is never seen
    cal = room.seats.get(slot=2)
    assert cal.claimed and not cal.bot_plays
    scheduler.run_due(timezone.now())
    assert room.seats.get(slot=2).claimed  # not yet
    scheduler.run_due(later())
    cal.refresh_from_db()
    assert not cal.claimed and cal.prelisted and cal.bot_plays and cal.name == "Cal"


def test_a_seat_claimed_in_the_lobby_by_a_phone_that_never_opens_it_is_open_again():
    room, _ = services.create_room("mbogo", {}, "Ann")
    sit_from_a_phone(room, 1)
    assert room.seats.get(slot=1).name == "Mallory"
    scheduler.run_due(later())
    seat = room.seats.get(slot=1)
    assert seat.is_empty and seat.name == ""


def test_a_seat_whose_phone_opened_the_room_stays_held_after_the_timeout():
    room, _, _ = running_room_with_cal_invited()
    cal = services.take_seat(room.code, 2)
    services.seat_connected(room.code, cal.pk)
    scheduler.run_due(later())
    cal.refresh_from_db()
    assert cal.claimed and not cal.bot_plays
