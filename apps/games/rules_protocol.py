"""The one protocol every game's rules follow, Bunko included.

A game is a pure module (no Django imports) with five module-level functions:

    setup(players: list[str], options: dict, rng: random.Random) -> State
    legal_actions(state, seat: int) -> list[dict]
    apply(state, seat: int | None, action: dict, rng: random.Random) -> State
    view(state, seat: int | None) -> dict
    outcome(state) -> dict | None

Seats are 0-based indexes into ``players``; ``None`` is the big screen (or the
system, for actions no seat makes). Actions are plain JSON dicts with a
``"type"`` key. States are dataclasses with ``to_json()`` and ``from_json()``,
so a game replays from its seed and its action list and survives a restart.
``apply`` never mutates the state it is given, and raises ``IllegalAction``
with a sentence a player can read when the action is not allowed.
"""

from __future__ import annotations

import random
from typing import Any, Protocol


class IllegalAction(Exception):
    """An action the rules do not allow; the message is shown to the player."""


Action = dict[str, Any]


class GameRules(Protocol):
    """What the room framework expects of a game's rules module."""

    def setup(self, players: list[str], options: dict, rng: random.Random) -> Any: ...

    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...

    def apply(self, state: Any, seat: int | None, action: Action, rng: random.Random) -> Any: ...

    def view(self, state: Any, seat: int | None) -> dict: ...

    def outcome(self, state: Any) -> dict | None: ...
