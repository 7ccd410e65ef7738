"""The one message of a live change: what a service tells the sockets once it has committed.

Every state change of the product ends the same way: inside its transaction the service
appends to its log and bumps a version; once committed, it emits one ``Change``, and every
socket listening to that change's groups hears it, reads it back with ``Change.read`` and
draws, from the data it carries and its own caches, what its own viewer may see. Only data
crosses the channel layer (Redis, on the scale-out stack): never HTML, never anything a
receiver takes on trust. A message that does not read as a change is refused there.

The kinds, the scope they name and what each carries (``payload``):

``table``: one of a night's Bunko tables changed (a tap, a STOP reaching it, a correction).
    scope: the night's code; round: the table's round; version: the table's version.
    payload: ``table`` (its id), ``number``, ``seats`` (the player ids at it, in seat order),
    ``tallies`` (true when the score sheets moved: a Bunko, a wipeout, a finished game),
    ``state`` (the table's state as saved, as JSON text: a Bunko table hides nothing from its
    phones and screens, so a receiver draws without reading the database) and ``changed``
    (when, in milliseconds since 1970, for the console's waiting clock).
``night``: a night-wide change (players, a round starting or ending, STOP, a travelling
    prize, an awards step). scope: the night's code; version: the night's version, or None for
    a part with no version of its own (the invitations to a party game). payload: ``parts``
    (the parts of the screens it touches; ``all`` redraws everything).
``room``: a party game's room changed (a move, a seat, the lobby). scope: the room's code;
    version: the room's version; no payload: each seat draws its own view of the rules' state.

A table's version starts again each round, so where a page compares the versions of one
table across rounds (``data-v``) it compares the table's ``stamp``: its round and version in
one growing number. That number is made and read here only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TABLE = "table"
NIGHT = "night"
ROOM = "room"
KINDS = (TABLE, NIGHT, ROOM)

# A table makes far fewer than a million changes in one round.
_ROUND_STEP = 1_000_000


def stamp(round_number: int, version: int) -> int:
    """A table's round and version as one number that grows across rounds too."""
    return round_number * _ROUND_STEP + version


def version_of(table_stamp: int) -> int:
    """The table's version within its round, from its ``stamp``: how far into the round the
    table has played."""
    return table_stamp % _ROUND_STEP


class NotAChange(ValueError):
    """A message that does not read as a change (a bug, or a forged message)."""


@dataclass(frozen=True)
class Change:
    kind: str
    scope: str
    version: int | None
    round: int = 0
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def stamp(self) -> int:
        return stamp(self.round, self.version or 0)

    @property
    def handler(self) -> str:
        """The channel layer's message type: which method of a consumer hears it."""
        return f"live.{self.kind}"

    def message(self, **delivery: Any) -> dict[str, Any]:
        """The change as the channel layer carries it; ``delivery`` adds hints for the layer
        itself (``latest``: apps/core/latest.py), which no receiver reads as the change."""
        return {
            "type": self.handler,
            "scope": self.scope,
            "round": self.round,
            "version": self.version,
            "payload": self.payload,
            **delivery,
        }

    @classmethod
    def read(cls, message: dict[str, Any]) -> Change:
        """The change a layer message carries, checked field by field."""
        kind = str(message.get("type", "")).removeprefix("live.")
        scope, version = message.get("scope"), message.get("version")
        round_number, payload = message.get("round", 0), message.get("payload", {})
        if kind not in KINDS or not isinstance(scope, str):
            raise NotAChange(f"not a change: {message.get('type')!r}")
        if not (version is None or _whole(version)) or not _whole(round_number):
            raise NotAChange("a change's version and round are whole numbers")
        if not isinstance(payload, dict):
            raise NotAChange("a change's payload is a mapping")
        if kind == TABLE:
            _check_table(payload)
        elif kind == NIGHT:
            parts = payload.get("parts")
            if not isinstance(parts, list) or not all(isinstance(p, str) for p in parts):
                raise NotAChange("a night's change names the parts it touches")
        return cls(kind, scope, version, round_number, payload)


def table_change(
    code: str,
    round_number: int,
    version: int,
    *,
    table: int,
    number: int,
    seats: list[int],
    state: str | None = None,
    tail: str | None = None,
    base: int | None = None,
    changed: int,
    tallies: bool = False,
) -> Change:
    """A table's change: its ``state`` as saved (JSON), or the ``tail`` of it that version
    ``base`` does not hold, for a process that holds that version to add it to."""
    payload = {
        "table": table,
        "number": number,
        "seats": list(seats),
        "tallies": tallies,
        "changed": changed,
    }
    if tail is not None:
        payload.update(tail=tail, base=base)
    else:
        payload["state"] = state
    return Change(TABLE, code, version, round_number, payload)


def night_change(code: str, version: int | None, parts: list[str]) -> Change:
    return Change(NIGHT, code, version, payload={"parts": list(parts)})


def room_change(code: str, version: int) -> Change:
    return Change(ROOM, code, version)


def _whole(value: Any) -> bool:
    return type(value) is int and value >= 0


def _check_table(payload: dict[str, Any]) -> None:
    seats = payload.get("seats")
    if not (
        _whole(payload.get("table"))
        and _whole(payload.get("number"))
        and isinstance(seats, list)
        and all(_whole(s) for s in seats)
        and isinstance(payload.get("tallies"), bool)
        and (
            isinstance(payload.get("state"), str)
            or (isinstance(payload.get("tail"), str) and _whole(payload.get("base")))
        )
        and _whole(payload.get("changed"))
    ):
        raise NotAChange(
            "a table's change carries its id, number, seats, state (or its tail) and time"
        )
