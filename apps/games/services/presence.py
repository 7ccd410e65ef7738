"""Who is at the table: a seat's phone connecting and leaving, and a bot standing in for a
player whose phone has been gone longer than ``GAME_BOT_TAKEOVER`` seconds."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.core.errors import Refused
from apps.games.models import Room, Seat

from .common import changed, locked_room
from .seats import phone_opened


def takeover_after() -> timedelta:
    """How long a phone may be gone before a bot plays for it. Never less than two
    heartbeats, so a phone whose socket is open is never taken for gone."""
    seconds = float(getattr(settings, "GAME_BOT_TAKEOVER", 60))
    heartbeat = float(getattr(settings, "PRESENCE_HEARTBEAT", 5))
    return timedelta(seconds=max(seconds, 2 * heartbeat))


def stamp_seats(seat_ids: Iterable[int], now: datetime) -> None:
    """The heartbeat: these seats have a socket open in this process."""
    Seat.objects.filter(pk__in=list(seat_ids)).update(seen_at=now)


def seat_connected(room_code: str, seat_id: int) -> None:
    """A socket of the seat's phone opened: the seat is its player's again."""
    with transaction.atomic():
        room = locked_room(room_code)
        seat = room.seats.filter(id=seat_id).first()
        if seat is None:
            return
        phone_opened(room.code, seat.pk)
        was_taken_over = seat.taken_over
        seat.seen_at = timezone.now()
        seat.taken_over = False
        seat.save(update_fields=["seen_at", "taken_over"])
        if was_taken_over:
            changed(room)


def seat_left(seat_id: int) -> None:
    """A socket closed (however): the takeover clock counts from now, unless another of the
    seat's sockets keeps stamping it."""
    Seat.objects.filter(pk=seat_id).update(seen_at=timezone.now())


def _absent(seats, cutoff: datetime):
    return seats.filter(claimed=True, is_bot=False, taken_over=False, player__isnull=False).filter(
        Q(seen_at__lt=cutoff) | Q(seen_at__isnull=True)
    )


def take_over_absent_seats(room_code: str, now: datetime | None = None) -> list[str]:
    """Bots play for this room's players whose phones have been gone too long."""
    cutoff = (now or timezone.now()) - takeover_after()
    with transaction.atomic():
        try:
            room = locked_room(room_code)
        except Refused:
            return []
        if room.status != Room.Status.PLAYING:
            return []
        absent = list(_absent(room.seats.all(), cutoff))
        for seat in absent:
            seat.taken_over = True
            seat.save(update_fields=["taken_over"])
        if absent:
            changed(room)
        return [seat.name for seat in absent]


def take_over_everywhere(now: datetime | None = None) -> int:
    """The scheduler's sweep: every running room with a player gone too long gets its bot."""
    cutoff = (now or timezone.now()) - takeover_after()
    seats = _absent(Seat.objects.filter(room__status=Room.Status.PLAYING), cutoff)
    codes = set(seats.values_list("room__code", flat=True))
    return sum(len(take_over_absent_seats(code, now)) for code in codes)


def seated_at_the_night(party_code: str, names: list[str]) -> int:
    """A night started a round: the players now at a table leave their party games, and a
    bot plays their seats at once (they come back by opening the game again)."""
    wanted = {n.casefold() for n in names}
    taken = 0
    codes = Room.objects.filter(party_code=party_code, status=Room.Status.PLAYING)
    for code in codes.values_list("code", flat=True):
        with transaction.atomic():
            room = locked_room(code)
            seats = [
                s
                for s in room.seats.filter(claimed=True, is_bot=False, taken_over=False)
                if s.player is not None and s.name.casefold() in wanted
            ]
            for seat in seats:
                seat.taken_over = True
                seat.save(update_fields=["taken_over"])
            if seats:
                changed(room)
            taken += len(seats)
    return taken
