"""The night's event log and the after-commit broadcast, shared by every service."""

from __future__ import annotations

from typing import Any

from apps.core.live import broadcast, broadcast_event
from apps.parties.models import Event, Party, Player, Table


def record(
    party: Party,
    kind: str,
    *,
    action_id: str | None = None,
    table: Table | None = None,
    player: Player | None = None,
    only_table: bool = False,
    **data: Any,
) -> Event:
    """Append one event at the next version and tell every screen after commit.

    The caller holds the party row locked (select_for_update), so versions never collide.
    ``only_table`` says the change shows only at that table (and on the host's and the big
    screens): phones at other tables then skip the re-render.
    """
    party.version += 1
    party.save(update_fields=["version"])
    event = Event.objects.create(
        party=party,
        version=party.version,
        kind=kind,
        action_id=action_id,
        table=table,
        player=player,
        data=data,
    )
    broadcast(party.group, party.version, table=table.number if table and only_table else None)
    return event


def announce(party: Party, event: str, **data: Any) -> None:
    """A one-off moment on the screens (the STOP bell, a Bunko), after commit."""
    broadcast_event(party.group, event, **data)
