"""The night's event log and the after-commit messages, shared by every service.

Two kinds of change, each emitted as one ``Change`` once committed (apps/core/changes.py):

- a table's change (a tap, a STOP reaching it, a correction) bumps that table's version; its
  phones and the screens (big screen, host console) hear a ``table`` change and redraw that
  table only (apps/parties/fanout.py);
- a night-wide change (players, a round starting or ending, STOP, a travelling prize, pause)
  bumps the night's version; every socket of the night hears a ``night`` change with the parts
  that changed.

The services draw nothing: what the sockets show is drawn on their side of the channel layer.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import transaction
from django.utils import timezone

from apps.core import groups
from apps.core.changes import night_change, table_change
from apps.core.latest import LATEST
from apps.core.live import emit, send_after_commit
from apps.parties.models import Event, Party, Player, Table
from apps.parties.rules.state import TableState, tail_after
from apps.parties.selectors import STATES, keep_state, ms_of

from .tap_store import append_event, save_table

# The parts of the screens a night-wide change can touch; ALL redraws everything.
ALL = "all"
TRAVELLING = "travelling"
PLAYERS = "players"  # the list of the night's players (the host's console, the lobby)
INVITATIONS = "invitations"  # a party game keeps a seat for a player
LANGUAGE = "language"  # the big screen's language
AWARDS = "awards"  # a step of the awards ceremony (apps.parties.awards)
WAITING = "waiting"  # the phones waiting for the host's OK to join (the console alone)


def record_night(
    party: Party,
    kind: str,
    *,
    parts: tuple[str, ...] = (ALL,),
    action_id: str | None = None,
    player: Player | None = None,
    concerns: tuple[int, ...] = (),
    **data: Any,
) -> Event:
    """Append a night-wide event at the next night version (the caller holds the party row
    locked) and tell every socket of the night after commit; the players it ``concerns``
    (by id: a travelling prize's new and former holder) hear it at once."""
    party.version += 1
    party.save(update_fields=["version"])
    event = Event.objects.create(
        party=party,
        version=party.version,
        kind=kind,
        action_id=action_id,
        player=player,
        data=data,
    )
    change = night_change(party.code, party.version, list(parts))
    if parts == (TRAVELLING,):
        # Only who holds the prizes now matters: at a big night the prizes move every
        # second, so each server process tells its sockets at most once a second (every
        # few seconds at a big night); the players concerned hear it at once, by a message
        # of their own that is not held back.
        emit([party.group], change, **{LATEST: TRAVELLING})
    else:
        emit([party.group], change)
    if concerns:
        emit([groups.seat(party.scope, pk) for pk in concerns], change)
    if player is not None and ALL not in parts:
        # The player concerned redraws all of their phone (joined, freed, leaving...).
        emit([groups.seat(party.scope, player.pk)], night_change(party.code, party.version, [ALL]))
    return event


def record_table(
    party: Party,
    table: Table,
    kind: str,
    *,
    action_id: str | None = None,
    player: Player | None = None,
    seat: int | None = None,
    tallies: bool = False,
    **data: Any,
) -> None:
    """Append a table's event at the table's next version (the caller holds the table row
    locked and has set its new state), save it and tell that table's phones and the screens."""
    table.party = party  # its group's name needs the night's code: not another query
    before = STATES.peek((table.pk, table.version))  # the version this change was made from
    table.version += 1
    state_text = state_json(table.state)
    save_table(table, state_text, json.dumps(table.seats))
    append_event(
        party_id=party.pk,
        table_id=table.pk,
        version=table.version,
        kind=kind,
        action_id=action_id,
        player_id=player.pk if player is not None else None,
        seat=seat,
        data=data,
    )
    # Once committed, this process keeps the state it saved under its version: its own
    # sockets decode nothing.
    pk, version, saved = table.pk, table.version, table.state
    transaction.on_commit(lambda: keep_state(pk, version, saved))
    change = table_change(
        party.code,
        table.round,
        table.version,
        table=table.pk,
        number=table.number,
        seats=list(table.seats),
        # The table as saved, so that no server process reads it back to draw it. A Bunko
        # table hides nothing: this is what its phones and the screens show. It goes no
        # further than the servers' consumers.
        **sent_state(table, before, state_text),
        # When it changed, for the console's "waiting" clock: not read back either.
        changed=ms_of(table.changed),
        # The players' tallies moved (a Bunko, a wipeout, a finished game): their sheets too.
        tallies=tallies,
    )
    emit([table.group, party.screens_group], change)


def sent_state(table: Table, before: TableState | None, state_text: str) -> dict[str, Any]:
    """What a table's change carries of its state: what it changes of the version before
    when this process holds that one (a roll adds an entry to logs that a long round makes a
    hundred long, and every other process decoded all of it at every tap), else the state
    as saved. A process that does not hold the version before reads the table back
    (selectors.tables.keep_sent_state)."""
    if before is None:
        return {"state": state_text}
    tail = state_json(tail_after(table.state, before))
    return {"tail": tail, "base": table.version - 1}


def state_json(data: dict[str, Any]) -> str:
    """A table's state (or its tail) as JSON text. Every tap encodes its table's whole state
    for the database, and the state holds the round's log (a roll an entry): late in a long
    round 16 KB of text, 0.3 ms with the standard library's encoder on a quick core, against
    a tenth of that with orjson. Keys that are not strings become strings, as ``json.dumps``
    makes them; characters beyond ASCII are written as they are (valid JSON, read back
    alike)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def announce(audience: list[str], event: str, **data: Any) -> None:
    """A one-off moment on the screens (the STOP bell, a Bunko), after commit."""
    send_after_commit(audience, {"type": "live.event", "event": event, "data": data})


def now_ms() -> int:
    """A stamp for a roll: the latest Bunko of the night is the one with the highest."""
    return int(timezone.now().timestamp() * 1000)
