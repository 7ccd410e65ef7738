"""The circle's signed links: invitations, a member's own link, a substitute's answer link and
the calendar feed.

Each is signed with the install's SECRET_KEY and carries a nonce kept on its row: a new nonce
(the admin making new invite links, resetting a member's link) makes the old link stale, and
a stale link is told apart from a forged one so the message can say what to do. The signed
text is short ("12.nonce.m"), so a link stays easy to scan as a QR code and to read in a mail.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

from apps.core.converters import row_id

INVITE = "bunko-night.circle-invite"
MEMBER = "bunko-night.circle-member"
ASK = "bunko-night.circle-ask"
FEED = "bunko-night.circle-feed"
MAX_LENGTH = 300
KINDS = {"m": "member", "s": "substitute"}


def _sign(salt: str, *parts: object) -> str:
    return signing.Signer(salt=salt).sign(".".join(str(p) for p in parts))


def _unsign(token: str | None, salt: str, count: int) -> list[str] | None:
    if not token or len(token) > MAX_LENGTH:
        return None
    try:
        value = signing.Signer(salt=salt).unsign(token)
    except signing.BadSignature:
        return None
    parts = value.split(".")
    return parts if len(parts) == count and all(parts) else None


def _int(text: str) -> int | None:
    return row_id(text)


@dataclass(frozen=True)
class Invite:
    circle_id: int
    nonce: str
    kind: str  # "member" or "substitute"


def make_invite(circle_id: int, nonce: str, kind: str) -> str:
    return _sign(INVITE, circle_id, nonce, kind[0])


def read_invite(token: str | None) -> Invite | None:
    parts = _unsign(token, INVITE, 3)
    if parts is None or _int(parts[0]) is None or parts[2] not in KINDS:
        return None
    return Invite(_int(parts[0]), parts[1], KINDS[parts[2]])


@dataclass(frozen=True)
class MemberClaim:
    circle_id: int
    member_id: int
    nonce: str


def make_member_token(circle_id: int, member_id: int, nonce: str) -> str:
    return _sign(MEMBER, circle_id, member_id, nonce)


def read_member_token(token: str | None) -> MemberClaim | None:
    parts = _unsign(token, MEMBER, 3)
    if parts is None or _int(parts[0]) is None or _int(parts[1]) is None:
        return None
    return MemberClaim(_int(parts[0]), _int(parts[1]), parts[2])


def make_ask_token(ask_id: int, nonce: str) -> str:
    return _sign(ASK, ask_id, nonce)


def read_ask_token(token: str | None) -> tuple[int, str] | None:
    parts = _unsign(token, ASK, 2)
    if parts is None or _int(parts[0]) is None:
        return None
    return _int(parts[0]), parts[1]


def make_feed_token(circle_id: int, nonce: str) -> str:
    return _sign(FEED, circle_id, nonce)


def read_feed_token(token: str | None) -> tuple[int, str] | None:
    parts = _unsign(token, FEED, 2)
    if parts is None or _int(parts[0]) is None:
        return None
    return _int(parts[0]), parts[1]
