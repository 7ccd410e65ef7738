"""Seat tokens: how a player's phone proves which seat it is, without an account.

A token is signed with the install's SECRET_KEY and names its scope (a party or a game room),
the seat and the seat's nonce. The host removing or replacing a player changes the nonce, so
an old phone's token goes stale instead of acting for the new occupant.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

SALT = "bunko-night.seat"


@dataclass(frozen=True)
class SeatClaim:
    scope: str
    seat_id: int
    nonce: str


def make_seat_token(scope: str, seat_id: int, nonce: str) -> str:
    return signing.dumps({"s": scope, "id": seat_id, "n": nonce}, salt=SALT, compress=True)


def read_seat_token(token: str | None, scope: str) -> SeatClaim | None:
    """The claim inside a token for this scope, or None when forged, garbled or elsewhere."""
    if not token or len(token) > 500:
        return None
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("s") != scope:
        return None
    seat_id, nonce = data.get("id"), data.get("n")
    if not isinstance(seat_id, int) or not isinstance(nonce, str):
        return None
    return SeatClaim(scope=scope, seat_id=seat_id, nonce=nonce)


def seat_cookie_name(scope: str) -> str:
    """One cookie per party or room, so a phone can be at a party and in a game at once."""
    return "seat_" + scope.replace(":", "_")


def seat_cookie_holds(name: str, token: str | None) -> bool:
    """Whether a seat cookie holds a token the server signed for its own scope (no query)."""
    if not token or len(token) > 500:
        return False
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return False
    return isinstance(data, dict) and seat_cookie_name(str(data.get("s", ""))) == name
