"""What the game rooms tell a night (through apps.core.links): its rooms, and the seats a
room keeps for a player of the night."""

from __future__ import annotations

from dataclasses import replace

from django.urls import reverse

from apps.core.links import RoomLink
from apps.core.names import same_name
from apps.games.invitations import make_invitation
from apps.games.models import Room
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


def invitations_for(code: str, name: str) -> list[RoomLink]:
    rooms = Room.objects.filter(
        party_code=code,
        seats__name__iexact=name,
        seats__prelisted=True,
        seats__claimed=False,
    ).exclude(status=Room.Status.FINISHED)
    rooms = rooms.prefetch_related("seats").distinct().order_by("-created_at")[:3]
    links = []
    for room in rooms:
        seats = list(room.seats.all())
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
    return links
