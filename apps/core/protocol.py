"""The one protocol every game's rules follow, Bunko included (pure: no Django imports).

A game's rules are a module with five functions, in the way boardgame.io keeps a game apart
from its transport:

    setup(players: list[str], options: dict, rng: random.Random) -> State
    legal_actions(state, seat: int | None) -> list[Action]
    apply(state, seat: int | None, action: Action, rng: random.Random) -> State
    view(state, seat: int | None) -> dict
    outcome(state) -> dict | None

Seats are 0-based indexes into ``players``. Actions are JSON dicts with a ``"type"`` key.
States are dataclasses with ``to_json()`` and a ``from_json()`` class method, so a game
replays from its seed and its action list and survives a restart.

Several seats may have legal actions at once (a race, simultaneous choices): the framework
applies moves in the order the server commits them, and a move is refused only when ``apply``
finds it no longer legal (``IllegalAction`` with a sentence the player reads).

``legal_actions(state, None)`` lists the system's timed moves, each with ``"delay_ms"``: the
framework applies one as ``apply(state, None, action, rng)`` (``delay_ms`` removed) once the
delay has passed since the first state that offered it, as long as every later state keeps
offering the same action (compared without ``delay_ms``). A rules module restarts a countdown
by changing the action (a turn number in it, say). Time never enters the rules otherwise, so
a replay of the log gives the same game.

``view(state, seat)`` is what that seat may see; ``None`` is the big screen. Hidden cards
never appear in another seat's view.

``outcome(state)`` is None while the game runs; at the end it is at least
``{"ranking": [[seat, ...], ...], "scores": {seat: points}}`` (best first, tied seats
together, seats as ints) plus the game's own keys. A game is over when, and only when,
``outcome`` says so.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from apps.core.i18n import _

Action = dict[str, Any]
DELAY = "delay_ms"


class IllegalAction(Exception):
    """An action the rules do not allow; the message is shown to the player."""


class GameRules(Protocol):
    """What the framework expects of a game's rules module."""

    def setup(self, players: list[str], options: dict, rng: random.Random) -> Any: ...

    def legal_actions(self, state: Any, seat: int | None) -> list[Action]: ...

    def apply(self, state: Any, seat: int | None, action: Action, rng: random.Random) -> Any: ...

    def view(self, state: Any, seat: int | None) -> dict: ...

    def outcome(self, state: Any) -> dict | None: ...


@dataclass(frozen=True)
class Option:
    """A choice made when a room is created (a variant, a target score, a timer).

    ``choices`` lists ``(value, label)`` pairs; without it the option is a whole number
    between ``minimum`` and ``maximum``.
    """

    name: str
    label: str
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def clean(self, value: Any) -> Any:
        """The value as the rules take it; IllegalAction with a sentence when it is not one."""
        if value is None or value == "":
            return self.default
        if self.choices:
            for choice, _label in self.choices:
                if str(choice) == str(value):
                    return choice
            raise IllegalAction(
                _("{label}: choose one of the offered settings.").format(label=self.label)
            )
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise IllegalAction(
                _("{label}: type a whole number.").format(label=self.label)
            ) from None
        if self.minimum is not None and number < self.minimum:
            raise IllegalAction(
                _("{label}: at least {minimum}.").format(label=self.label, minimum=self.minimum)
            )
        if self.maximum is not None and number > self.maximum:
            raise IllegalAction(
                _("{label}: at most {maximum}.").format(label=self.label, maximum=self.maximum)
            )
        return number


def clean_options(declared: Iterable[Option], given: Mapping[str, Any] | None) -> dict:
    """Every declared option with its value (the default where none was given); unknown
    names are dropped, so a form cannot smuggle settings the game does not declare."""
    given = given or {}
    return {option.name: option.clean(given.get(option.name)) for option in declared}


@dataclass(frozen=True)
class BotLevel:
    """How a bot plays: a label for the lobby and how long it 'thinks' before a move."""

    label: str
    think_ms: tuple[int, int] = (600, 1400)
    extra: Mapping[str, Any] = field(default_factory=dict)


def without_delay(action: Action) -> Action:
    """A system action as ``apply`` takes it (and as two states' offers are compared)."""
    return {key: value for key, value in action.items() if key != DELAY}


def ranking_by(scores: Mapping[int, float], higher_is_better: bool = True) -> list[list[int]]:
    """Seats grouped by score, best first; equal scores share a place."""
    ordered = sorted(scores, key=lambda seat: -scores[seat] if higher_is_better else scores[seat])
    ranking: list[list[int]] = []
    for seat in ordered:
        if ranking and scores[ranking[-1][0]] == scores[seat]:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return ranking
