"""What a party night and the game rooms started from it know of each other, passed through
core so that neither app imports the other: the night's app provides, the rooms' app asks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest


@dataclass(frozen=True)
class NightLink:
    code: str
    name: str
    invitable: tuple[str, ...]  # names a party game may pre-list, those sitting out first
    my_name: str  # the asking phone's name at the night, or ""
    url: str  # the night's page for that phone


NightFinder = Callable[[HttpRequest, str], NightLink | None]
_finders: list[NightFinder] = []


def provide_night(finder: NightFinder) -> None:
    if finder not in _finders:
        _finders.append(finder)


def night_for(request: HttpRequest, code: str) -> NightLink | None:
    """The running night with this code as the asking phone sees it, or None."""
    if not code:
        return None
    for finder in _finders:
        if (link := finder(request, code)) is not None:
            return link
    return None
