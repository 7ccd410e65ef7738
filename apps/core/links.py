"""What a party night and the game rooms started from it know of each other, passed through
core so that neither app imports the other: the night's app provides, the rooms' app asks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest


@dataclass(frozen=True)
class NightLink:
    code: str
    name: str
    invitable: tuple[str, ...]  # names a party game may pre-list, those sitting out first
    my_name: str  # the asking phone's name at the night, or ""
    url: str  # the night's page for that phone
    # What the night wants of this phone now ("Round 2 has started: go to table 3"), or "".
    call: str = ""


# (night code, the phone's cookies, whether the user hosts it) -> what that phone sees.
NightFinder = Callable[[str, Mapping[str, str], Any], NightLink | None]
_finders: list[NightFinder] = []


def provide_night(finder: NightFinder) -> None:
    if finder not in _finders:
        _finders.append(finder)


def night_for(request: HttpRequest, code: str) -> NightLink | None:
    """The running night with this code as the asking phone sees it, or None."""
    return night_for_phone(code, request.COOKIES, getattr(request, "user", None))


def night_for_phone(code: str, cookies: Mapping[str, str], user: Any = None) -> NightLink | None:
    """The same, from a socket's cookies."""
    if not code:
        return None
    for finder in _finders:
        if (link := finder(code, cookies, user)) is not None:
            return link
    return None


# Told when a night starts a round: (night code, names of the players now at a table).
RoundStarted = Callable[[str, list[str]], Any]
_round_started: list[RoundStarted] = []


def on_round_started(handler: RoundStarted) -> None:
    if handler not in _round_started:
        _round_started.append(handler)


def round_started(code: str, seated: list[str]) -> None:
    for handler in _round_started:
        handler(code, seated)


def tell_night(code: str, part: str) -> None:
    """After commit, the night's sockets redraw one part (the invitations to a party game)."""
    from apps.core import groups
    from apps.core.changes import night_change
    from apps.core.live import emit

    emit(groups.night(code), night_change(code, None, [part]))


@dataclass(frozen=True)
class RoomLink:
    """A party game started from a night, as the night's screens show it."""

    code: str
    game: str  # the game's name
    players: str  # "Ann, Bea and a bot"
    status: str  # "lobby", "playing", "finished"
    url: str  # the room's page
    screen_url: str  # the room's big screen
    # For an invitation: where "Take your seat" posts, and the signed invitation it posts.
    accept_url: str = ""
    invite: str = ""


RoomFinder = Callable[[str], list[RoomLink]]
_room_finders: list[RoomFinder] = []


def provide_rooms(finder: RoomFinder) -> None:
    if finder not in _room_finders:
        _room_finders.append(finder)


def rooms_of_night(code: str) -> list[RoomLink]:
    """The party games started from the night with this code, newest first."""
    return [room for finder in _room_finders for room in finder(code)]


# (night code, player's name, shared) -> the seats kept for that name ("shared": see below).
InviteFinder = Callable[[str, str, bool], list[RoomLink]]
_invite_finders: list[InviteFinder] = []


def provide_invitations(finder: InviteFinder) -> None:
    if finder not in _invite_finders:
        _invite_finders.append(finder)


def invitations_for(code: str, name: str, shared: bool = False) -> list[RoomLink]:
    """The night's party games that keep a seat for this player's name, still to take.
    ``shared``: for a redraw of every phone of the night at once, which may share one read
    of the night's rooms made a moment ago (a phone told of new invitations reads afresh)."""
    return [room for finder in _invite_finders for room in finder(code, name, shared)]
