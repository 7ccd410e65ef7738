"""A night late in the evening, made in seconds: rounds seated by the night's own rotation
(services.start_next_round) and played to the end by the rules, with a log entry per move
as the taps would have left, so a bench can measure a tap at round 90 as it measures one at
round 1. What a four-hour night leaves behind is what the later rounds' taps pay for."""

from __future__ import annotations

import random
import time

from apps.parties import services
from apps.parties.models import Event, Party, Table
from apps.parties.rules.state import DONE, TableState
from apps.parties.rules.table import apply, legal_actions

# What a bench's phone taps first when it is offered (load_play.PRIORITY).
PRIORITY = ("grab", "roll", "rolloff")
ROUND_MS = 80_000  # a round at the bench's pace: one tap a second per table


def phone_move(state: TableState, rng: random.Random) -> tuple[int, dict] | None:
    """A seat and its move, as the bench's phones would pick (rolloff by seat 1 only)."""
    seats = list(range(4))
    rng.shuffle(seats)
    for kind in PRIORITY:
        for seat in seats:
            if kind == "rolloff" and seat != 1:
                continue
            if any(a["type"] == kind for a in legal_actions(state, seat)):
                return seat, {"type": kind}
    return None


def _play_round(party: Party, number: int, started_ms: int, rng: random.Random) -> list[Event]:
    """Play a seated round: every table one move in turn until the head table is done, then
    STOP for the others (the ruling: every table stops at once; a tie plays on)."""
    tables = list(party.tables.filter(round=number).order_by("number"))
    states = [TableState.from_json(t.state) for t in tables]
    events: list[Event] = []
    moves = 0
    stopped = False
    while any(state.phase != DONE for state in states):
        if states[0].phase == DONE and not stopped:
            stopped = True
            for index, state in enumerate(states[1:], start=1):
                if state.phase != DONE and not state.stopped:
                    states[index] = apply(state, None, {"type": "stop"}, random.Random(0))
                    version = states[index].version
                    events.append(_event(party, tables[index], version, "stop", None))
        for index, state in enumerate(states):
            picked = phone_move(state, rng) if state.phase != DONE else None
            if picked is None:
                continue
            seat, action = picked
            moves += 1
            stamp = started_ms + moves * ROUND_MS // (80 * len(tables))
            new = apply(state, seat, {**action, "t": stamp}, rng)
            states[index] = new
            events.append(_event(party, tables[index], new.version, action["type"], seat))
    for table, state in zip(tables, states, strict=True):
        table.state, table.version = state.to_json(), state.version
    Table.objects.bulk_update(tables, ["state", "version"])
    return events


def _event(party: Party, table: Table, version: int, kind: str, seat: int | None) -> Event:
    player_id = table.seats[seat] if seat is not None else None
    return Event(
        party=party, table=table, version=version, kind=kind, player_id=player_id, seat=seat
    )


def age_night(code: str, rounds: int, seed: int = 7) -> None:
    """Play ``rounds`` rounds of the night ``code`` (its players joined, no round started)
    and leave it between rounds, as the host is about to start the next."""
    rng = random.Random(seed)
    started_ms = int(time.time() * 1000) - rounds * ROUND_MS
    for number in range(1, rounds + 1):
        services.start_next_round(code)
        play_round(code, started_ms + (number - 1) * ROUND_MS, rng)


def play_round(code: str, started_ms: int, rng: random.Random) -> None:
    """Play the round in play of the night ``code`` to its end, as from ``started_ms``."""
    party = Party.objects.get(code=code)
    events = _play_round(party, party.current_round, started_ms, rng)
    Event.objects.bulk_create(events, batch_size=500)
