"""Who holds a seat: a seat held by a phone changes hands only when its holder lets it go or
the room's creator gives it to a new phone, and a seat claimed by a phone that never opens
the room goes back (to its bot, or open) after ``SEAT_OPEN_TIMEOUT`` seconds, so a tap on
someone else's name can neither take a hand that is being played nor stall the table."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.links import tell_night
from apps.core.models import Deadline
from apps.core.tokens import SeatClaim
from apps.games.models import Room, Seat

from .common import changed, locked_room, seat_for_claim

# Deadlines of this kind live in their own scope: the room's scope is re-planned (and
# cleared) with every move, and these must outlive that.
PREFIX = "seat"


def open_timeout_ms() -> int:
    return int(float(getattr(settings, "SEAT_OPEN_TIMEOUT", 45)) * 1000)


def _scope(code: str) -> str:
    return f"{PREFIX}:{code}"


def _key(seat: Seat) -> str:
    return f"unopened:{seat.pk}"


def expect_phone(room: Room, seat: Seat) -> None:
    """Inside the claim's transaction: free the seat again unless its phone opens the room."""
    scheduler.arm(
        _scope(room.code),
        _key(seat),
        open_timeout_ms(),
        {"seat": seat.pk, "nonce": seat.nonce},
    )


def phone_opened(room_code: str, seat_id: int) -> None:
    """A socket of the seat's phone opened: the seat is held now, and stays its phone's."""
    Deadline.objects.filter(scope=_scope(room_code), key=f"unopened:{seat_id}").delete()


def _let_go(room: Room, seat: Seat, keep_name: bool) -> None:
    """The seat's phone loses it (its token no longer matches). In a running game a bot plays
    the seat until a phone claims the name again; in the lobby a typed name is dropped
    unless ``keep_name``."""
    seat.claimed = False
    seat.nonce = ""
    seat.taken_over = False
    if keep_name or room.status != Room.Status.LOBBY or seat.prelisted:
        seat.prelisted = True  # "I am Ann" on the room's page claims it again
    else:
        seat.name = ""
    seat.save()
    Deadline.objects.filter(scope=_scope(room.code), key=_key(seat)).delete()
    changed(room)
    if room.party_code and seat.prelisted:
        tell_night(room.party_code, "invitations")


def release_seat(code: str, claim: SeatClaim | None, slot: int) -> Seat:
    """The seat's holder hands it over, or the room's creator gives it to a new phone (a
    player whose phone died): the old phone is out, and the name waits for a phone to claim
    it from the room's page."""
    with transaction.atomic():
        room = locked_room(code)
        me = seat_for_claim(room, claim)
        seat = room.seats.filter(slot=slot).first()
        if seat is None:
            raise Refused(_("There is no such seat at this table."))
        if seat.pk != me.pk and not me.is_creator:
            raise Refused(_("Only the player who made the room can give someone else's seat away."))
        if room.status == Room.Status.FINISHED:
            raise Refused(_("This game is over."))
        if seat.is_bot or not seat.claimed:
            raise Refused(_("No phone holds that seat."))
        _let_go(room, seat, keep_name=True)
    return seat


def fire_unopened(deadline_id: int, scope: str, now: datetime) -> bool:
    """The scheduler's handler: the claiming phone never opened the room, so the claim ends."""
    code = scope.split(":", 1)[1]
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()
        deadline = scheduler.claim(deadline_id)
        if room is None or deadline is None or room.status == Room.Status.FINISHED:
            return False
        payload = deadline.payload
        seat = room.seats.filter(pk=payload.get("seat"), claimed=True).first()
        if seat is None or seat.nonce != payload.get("nonce") or seat.is_creator:
            return False
        _let_go(room, seat, keep_name=False)
        return True
