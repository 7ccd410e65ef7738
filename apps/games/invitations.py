"""A seat kept for a player of the night, as the night's phone carries it to the room.

The "Take your seat" button on the night's phone posts a signed invitation naming the room,
the seat and the player's name, so one tap seats the player: the room need not ask "I am
Dirk" again. A forged invitation fails its signature; one that no longer matches the room
(the seat taken, renamed, or the game over) is refused when it is used."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

SALT = "bunko-night.invitation"
MAX_AGE = 60 * 60 * 24  # seconds: an invitation lasts the night, not the month


@dataclass(frozen=True)
class Invitation:
    room: str  # the room's code
    seat_id: int
    name: str


def make_invitation(room_code: str, seat_id: int, name: str) -> str:
    return signing.dumps({"r": room_code, "s": seat_id, "n": name}, salt=SALT, compress=True)


def read_invitation(token: str | None, room_code: str) -> Invitation | None:
    """The invitation in a token for this room, or None when forged, garbled, expired or
    made for another room."""
    if not token or len(token) > 500:
        return None
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is one too
        return None
    if not isinstance(data, dict) or data.get("r") != room_code:
        return None
    seat_id, name = data.get("s"), data.get("n")
    if not isinstance(seat_id, int) or not isinstance(name, str) or not name:
        return None
    return Invitation(room=room_code, seat_id=seat_id, name=name)
