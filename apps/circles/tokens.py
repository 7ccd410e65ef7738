"""The circle's signed links: invitations, a member's own link, a substitute's answer link and
the calendar feed.

Each is signed with the install's SECRET_KEY and carries a nonce kept on its row: a new nonce
(the admin making new invite links, resetting a member's link) makes the old link stale, and
a stale link is told apart from a forged one so the message can say what to do.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

INVITE = "bunko-night.circle-invite"
MEMBER = "bunko-night.circle-member"
ASK = "bunko-night.circle-ask"
FEED = "bunko-night.circle-feed"
MAX_LENGTH = 500


def _dumps(data: dict, salt: str) -> str:
    return signing.dumps(data, salt=salt, compress=True)


def _loads(token: str | None, salt: str) -> dict | None:
    if not token or len(token) > MAX_LENGTH:
        return None
    try:
        data = signing.loads(token, salt=salt)
    except signing.BadSignature:
        return None
    return data if isinstance(data, dict) else None


def _fields(data: dict | None, *names: str, types: tuple = ()) -> tuple | None:
    if data is None:
        return None
    values = tuple(data.get(n) for n in names)
    for value, kind in zip(values, types, strict=True):
        if not isinstance(value, kind):
            return None
    return values


@dataclass(frozen=True)
class Invite:
    circle_id: int
    nonce: str
    kind: str  # "member" or "substitute"


def make_invite(circle_id: int, nonce: str, kind: str) -> str:
    return _dumps({"c": circle_id, "n": nonce, "k": kind}, INVITE)


def read_invite(token: str | None) -> Invite | None:
    found = _fields(_loads(token, INVITE), "c", "n", "k", types=(int, str, str))
    return Invite(*found) if found else None


@dataclass(frozen=True)
class MemberClaim:
    circle_id: int
    member_id: int
    nonce: str


def make_member_token(circle_id: int, member_id: int, nonce: str) -> str:
    return _dumps({"c": circle_id, "m": member_id, "n": nonce}, MEMBER)


def read_member_token(token: str | None) -> MemberClaim | None:
    found = _fields(_loads(token, MEMBER), "c", "m", "n", types=(int, int, str))
    return MemberClaim(*found) if found else None


def make_ask_token(ask_id: int, nonce: str) -> str:
    return _dumps({"a": ask_id, "n": nonce}, ASK)


def read_ask_token(token: str | None) -> tuple[int, str] | None:
    return _fields(_loads(token, ASK), "a", "n", types=(int, str))


def make_feed_token(circle_id: int, nonce: str) -> str:
    return _dumps({"c": circle_id, "n": nonce}, FEED)


def read_feed_token(token: str | None) -> tuple[int, str] | None:
    return _fields(_loads(token, FEED), "c", "n", types=(int, str))
