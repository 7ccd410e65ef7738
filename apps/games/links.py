"""What the game rooms tell a night (through apps.core.links): its rooms, and the seats a
room keeps for a player of the night."""

from __future__ import annotations

import time
from dataclasses import replace

from django.urls import reverse

from apps.core.links import RoomLink
from apps.core.names import same_name
from apps.games.invitations import make_invitation
from apps.games.models import Room, Seat
from apps.games.registry import all_games


def _link(room: Room, seats: list) -> RoomLink:
    names = [s.name for s in seats if s.name]
    entry = all_games().get(room.game)
    return RoomLink(
        code=room.code,
        game=entry.name if entry else room.game,
        players=", ".join(names),
        status=room.status,
        url=reverse("games:room", args=[room.code]),
        screen_url=reverse("games:screen", args=[room.code]),
    )


def rooms_of_night(code: str) -> list[RoomLink]:
    rooms = Room.objects.filter(party_code=code).exclude(status=Room.Status.FINISHED)
    rooms = rooms.prefetch_related("seats").order_by("-created_at")[:10]
    return [_link(room, list(room.seats.all())) for room in rooms]


# A night's rooms that keep a seat for one of its players, read once for all the night's
# phones that redraw together: a round change redraws every phone of a 100-table night within
# a second or two, and reading the same rooms 400 times was a quarter of that redraw. Kept a
# few seconds at most. A phone told of new invitations reads them afresh (``shared`` false),
# and what it read replaces the copy here; a redraw that took an older copy hears that news
# after it, so no phone is left without a seat kept for it.
SHARED_FOR = 5.0  # seconds
_shared: dict[str, tuple[float, list[tuple[Room, list[Seat]]]]] = {}
OPEN_ROOMS = 50  # a night's open rooms read at most (a night has a handful)
INVITATIONS_SHOWN = 3


def _rooms_keeping_seats(code: str, shared: bool) -> list[tuple[Room, list[Seat]]]:
    """The night's unfinished rooms that keep a seat for a name, newest first, each with
    its seats."""
    now = time.monotonic()
    kept = _shared.get(code)
    if shared and kept is not None and now - kept[0] < SHARED_FOR:
        return kept[1]
    rooms = Room.objects.filter(party_code=code, seats__prelisted=True, seats__claimed=False)
    rooms = rooms.exclude(status=Room.Status.FINISHED).prefetch_related("seats")
    rooms = rooms.distinct().order_by("-created_at")[:OPEN_ROOMS]
    read = [(room, list(room.seats.all())) for room in rooms]
    kept = _shared.get(code)
    if kept is None or kept[0] <= now:  # a read begun later than the one kept, or none
        _shared[code] = (now, read)
    for other, (at, _rooms) in list(_shared.items()):
        if now - at >= SHARED_FOR:  # no redraw takes it any more
            _shared.pop(other, None)
    return read


def invitations_for(code: str, name: str, shared: bool = False) -> list[RoomLink]:
    """The seats the night's rooms keep for ``name`` (the newest rooms first). ``shared``:
    for a redraw of all the night's phones at once, which may take this process's copy of
    the night's rooms read a moment ago."""
    links = []
    for room, seats in _rooms_keeping_seats(code, shared):
        kept = [s for s in seats if s.prelisted and not s.claimed and same_name(name, [s.name])]
        if not kept:
            continue
        links.append(
            replace(
                _link(room, seats),
                accept_url=reverse("games:invited", args=[room.code]),
                invite=make_invitation(room.code, kept[0].pk, kept[0].name),
            )
        )
        if len(links) == INVITATIONS_SHOWN:
            break
    return links
