"""Dschungelparty rooms for the room tests: started through the services, with the dice of
the first roll chosen by the test."""

from __future__ import annotations

from apps.games import services
from apps.games.dschungel import rules
from apps.games.models import Room
from apps.games.registry import get_game
from apps.games.services.common import plan_deadlines
from tests.games.roomkit import claim_of


def dschungel_room(names=("Ann", "Bea"), bots: int = 0, countdown: int = 60):
    """A started room: the first name made it, the others sat, then ``bots`` bots."""
    room, creator = services.create_room("dschungel", {"countdown": countdown}, names[0])
    claims = {names[0]: claim_of(creator)}
    for slot, name in enumerate(names[1:], start=1):
        claims[name] = claim_of(services.take_seat(room.code, slot, name))
    for slot in range(len(names), len(names) + bots):
        services.set_seat_bot(room.code, claims[names[0]], slot, True)
    services.start_room(room.code, claims[names[0]])
    room.refresh_from_db()
    return room, claims


def state_of(room: Room) -> rules.State:
    room.refresh_from_db()
    return get_game("dschungel").load_state(room.state)


def set_state(room: Room, state: rules.State) -> None:
    """Put a position on the table, as if play had led there (the deadlines follow)."""
    room.state = state.to_json()
    room.save(update_fields=["state"])
    plan_deadlines(room, get_game("dschungel"), state)


def rolled(room: Room, dice: list[str]) -> rules.State:
    """The active player has just rolled ``dice``."""
    state = state_of(room)
    state.dice = list(dice)
    state.phase = "active"
    state.choices[state.active] = rules.usable_colours(state, state.active)
    set_state(room, state)
    return state
