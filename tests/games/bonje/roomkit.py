"""Bonje rooms for the table, room and socket tests: a started room, optionally put into a
chosen position, and the buttons a rendered page offers."""

from __future__ import annotations

import html
import json
import re

from apps.core import scheduler
from apps.games import services
from apps.games.bonje.state import BonjeState
from apps.games.models import Room
from apps.games.selectors import render_room
from tests.games.roomkit import claim_of

TAG = re.compile(r"<button\b([^>]*)>", re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def bonje_room(
    names: tuple[str, ...] = ("Ann", "Bea"),
    bots: tuple[str, ...] = (),
    options: dict | None = None,
    state: BonjeState | None = None,
):
    """A started room: the first name made it, the others sat, then a bot of each level in
    ``bots``. With ``state``, the game is put in that position (its timed moves cleared)."""
    room, creator = services.create_room("bonje", options or {}, names[0])
    claims = {names[0]: claim_of(creator)}
    for slot, name in enumerate(names[1:], start=1):
        claims[name] = claim_of(services.take_seat(room.code, slot, name))
    for slot, level in enumerate(bots, start=len(names)):
        services.set_seat_bot(room.code, claims[names[0]], slot, True, level)
    services.start_room(room.code, claims[names[0]])
    room.refresh_from_db()
    if state is not None:
        state.players = list(room.state["players"])
        room.state = state.to_json()
        room.save(update_fields=["state"])
        scheduler.clear(room.scope)
    return room, claims


def page_for(room: Room, name: str | None) -> str:
    """The room's live section as the named player's phone (None: the big screen) gets it."""
    room.refresh_from_db()
    if name is None:
        return render_room(room, None, screen=True)
    return render_room(room, room.seats.get(name=name))


def buttons(page: str) -> list[dict[str, str]]:
    """Every button of a page as its attributes (values unescaped)."""
    return [
        {key: html.unescape(value) for key, value in ATTR.findall(tag)} for tag in TAG.findall(page)
    ]


BAR = {"bj-wait", "bj-complete"}


def moves(page: str) -> list[dict]:
    """The moves a page's buttons send as they stand, but WAIT and COMPLETE, which are always
    there (a truck's second step is filled in by the page's script, so its buttons carry no
    move yet)."""
    return [
        json.loads(b["value"])
        for b in buttons(page)
        if b.get("name") == "act" and b["value"] and b.get("id") not in BAR
    ]


def by_id(page: str, element_id: str) -> dict[str, str]:
    found = [b for b in buttons(page) if b.get("id") == element_id]
    assert found, f"no button #{element_id}"
    return found[0]
