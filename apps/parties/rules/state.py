"""The state of one table's game: a plain dataclass that round-trips through JSON.

Seats are indexes 0-3 (seats 1-4 on the sheet). Partners sit across: seats 1+3 are team 0,
seats 2+4 are team 1, so a seat's team is ``seat % 2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .dice import WIPEOUT, classic_target, shared_throw

ROLLOFF = "rolloff"
PLAYING = "playing"
SCRAMBLE = "scramble"
DONE = "done"
SEATS = 4
TARGET = 21
SPLITS = ([3, 0], [2, 1], [1, 2], [0, 3])


@dataclass
class TableState:
    """One table's game.

    ``rolls`` is the score sheet's log, one entry per roll: ``index`` (1-based, the step in a
    lock-step night), ``seat``, ``dice`` (None for a physical report), ``points`` (for the
    roller's team), ``kind`` (score, miss, bunko, wipeout), ``scores`` after the roll, and for
    a Bunko once grabbed ``scramble`` (grabber seats, empty for a split entry) and ``split``
    (dice per team), and ``app`` when the app rolled for a player (a seat the host handed to
    the app, or the host's roll for a stalled seat). ``rolloffs`` keeps every round of the
    roll-off; ``contenders`` the seats still rolling off; ``grabs`` the grabbers of a
    scramble under way; ``tallies`` per seat the Bunkos and wipeouts rolled; ``winner`` the
    winning team once done; ``version`` the number of changes made; ``entries`` the resolved
    actions that replay the table.
    """

    players: list[str]
    options: dict
    ghosts: list[int]
    phase: str = ROLLOFF
    roller: int | None = None
    scores: list[int] = field(default_factory=lambda: [0, 0])
    rolls: list[dict] = field(default_factory=list)
    rolloffs: list[dict] = field(default_factory=list)
    contenders: list[int] = field(default_factory=lambda: [0, 1, 2, 3])
    first_roller: int | None = None
    tallies: list[dict] = field(default_factory=list)
    stopped: bool = False
    winner: int | None = None
    version: int = 0
    grabs: list[int] = field(default_factory=list)
    # Every applied action, resolved (dice in it): {"seat", "action"} (+ "ghost": True for
    # the app's rolls for a ghost, "corrected": True for the host's corrections).
    entries: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        # Not dataclasses.asdict: its deep copy was the costliest step of a tap at 100
        # tables. The state's lists and the dicts in them are never changed in place (see
        # replace), so copying the top-level lists is enough to keep the state apart.
        return {
            key: list(value) if isinstance(value, list) else value
            for key, value in self.__dict__.items()
        }

    @classmethod
    def from_json(cls, data: dict) -> TableState:
        return cls(**data)


def replace(state: TableState, **changes: Any) -> TableState:
    """A changed copy (shallow: lists and dicts in a state are never changed in place).
    Faster than dataclasses.replace, which matters in a 100-table night."""
    new = object.__new__(TableState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


# The lists of a state that grow a move at a time: a new version repeats all of the old's.
LOGS = ("rolls", "entries", "rolloffs")


def share_logs(state: TableState, before: TableState | None) -> TableState:
    """``state``, just decoded, made to hold the very entries of its logs that ``before``
    (an older version of the same table, if one is kept) holds alike, and the shared list of
    each throw of dice (dice.roll_dice) in the entries it does not. A server process that did
    not make a change decodes the whole table from it, a copy of every roll of the round at
    every tap; kept three versions a table, late in a long round they took 270 KB a table
    where one copy takes 90. Entries are never changed in place (``replace``), so sharing them
    is safe: a correction changes an early entry, and sharing stops there. Only the entries
    are shared: each version keeps a list of its own."""
    for name in LOGS:
        new = getattr(state, name)
        same = 0
        if before is not None:
            old = getattr(before, name)
            same = _shared_prefix(new, old, equal=True)
            new[:same] = old[:same]  # the state's own list: the rules append to a new one
        _share_throws(name, new[same:])
    return state


# The field of a tail (``tail_after``) that says how many entries of each log it keeps.
KEPT = "kept"


def tail_after(data: dict, before: TableState) -> dict:
    """What a table's state (``data``, its JSON form) changes of ``before``, the version it
    was made from: every field but the logs as they are, and of each log the entries from
    the first that is not ``before``'s own on (with how many of ``before``'s it keeps). A
    tap adds an entry or two to logs that late in a long round hold a hundred (a grab
    rewrites the last roll, a host's correction an early entry), so the tail is what a
    change carries to the other server processes, not the whole state again."""
    tail = dict(data)
    kept = tail[KEPT] = {}
    for name in LOGS:
        new = data[name]
        same = _shared_prefix(new, getattr(before, name), equal=False)
        kept[name], tail[name] = same, new[same:]
    return tail


def with_tail(before: TableState, tail: dict) -> TableState:
    """The state ``tail_after`` described: of each log, the entries ``before`` holds that the
    tail keeps (held, not copied) and the tail's own after them; the rest as the tail has
    it."""
    data = dict(tail)
    kept = data.pop(KEPT)
    for name in LOGS:
        _share_throws(name, tail[name])
        data[name] = [*getattr(before, name)[: kept[name]], *tail[name]]
    return TableState.from_json(data)


def _shared_prefix(new: list, old: list, *, equal: bool) -> int:
    """How many of ``new``'s first entries are ``old``'s own objects, or with ``equal`` also
    equal to them (a decoded state's entries are new objects, alike in value)."""
    same = 0
    for mine, theirs in zip(new, old, strict=False):
        if mine is not theirs and not (equal and mine == theirs):
            break
        same += 1
    return same


def _share_throws(log: str, fresh: list[dict]) -> None:
    """Each entry just decoded (no one else holds it yet) takes its throw's shared list."""
    for entry in fresh:
        holder = entry.get("action") if log == "entries" and type(entry) is dict else entry
        if type(holder) is dict and "dice" in holder:
            holder["dice"] = shared_throw(holder["dice"])


def team_of(seat: int) -> int:
    """'Partners sitting across from each other': seats 1+3 are team 0, seats 2+4 team 1."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % SEATS


def target_number(state: TableState) -> int:
    """The number that scores: 6 in the rules' variant, the round's number in classic."""
    if state.options["classic"]:
        return classic_target(state.options["round"])
    return 6


def recount(state: TableState) -> list[int]:
    """The score a sheet would show from the roll log alone (wipeouts reset the team)."""
    scores = [0, 0]
    for entry in state.rolls:
        team = team_of(entry["seat"])
        if entry["kind"] == WIPEOUT:
            scores[team] = 0
        else:
            scores[team] += entry["points"]
        if "split" in entry:
            scores[0] += entry["split"][0]
            scores[1] += entry["split"][1]
    return scores
