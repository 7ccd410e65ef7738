"""When attendance is not a multiple of 4: ghosts, sit-outs or substitutes.

Ruling: 'When attendance is not a multiple of 4 the host chooses, per party: substitutes from
the circle's list, ghost seats (...), or sit-outs (players who rest a round, rotating fairly).'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from apps.core.i18n import _

from .rotation import Table, seat_first_round

GHOSTS = "ghosts"
SITOUTS = "sitouts"
SUBSTITUTES = "substitutes"
MODES = (GHOSTS, SITOUTS, SUBSTITUTES)
GHOST_PREFIX = "Ghost "
MIN_PLAYERS = 4


def check_attendance(count: int) -> None:
    """The rules want 8+; the product also allows 4-7 (one or two tables)."""
    if count < MIN_PLAYERS:
        raise ValueError("Bunko needs at least 4 players.")


def missing(count: int) -> int:
    """How many seats stay empty when ``count`` players sit four to a table."""
    return -count % 4


def ghost_names(count: int) -> list[str]:
    return [f"{GHOST_PREFIX}{i}" for i in range(1, count + 1)]


def is_ghost(name: str) -> bool:
    return name.startswith(GHOST_PREFIX)


def shown_name(name: str) -> str:
    """A name as the viewer reads it: a ghost seat's in the viewer's language ("Spook 1",
    "Geist 1"), any other as typed. The stored "Ghost 1" stays the key the rules, the seating
    and the prizes know a ghost by; only what is shown is translated."""
    number = name[len(GHOST_PREFIX) :]
    if is_ghost(name) and number.isdigit():
        return _("Ghost {number}").format(number=number)
    return name


def ghost_slots(tables: int, ghosts: int) -> list[tuple[int, int]]:
    """Where ghosts sit in round 1: one per table from the bottom up, in seat 4; a second
    ghost at a table (only with 5 players) takes seat 3, so it is not the first's partner."""
    return [(tables - 1 - i % tables, 3 - i // tables) for i in range(ghosts)]


def seat_with_ghosts(
    players: Sequence[str], rng: random.Random, mode: str = "random"
) -> tuple[list[Table], list[str]]:
    """Round 1 with ghost seats filling the last table places; returns (tables, ghosts).

    Ruling: 'ghost seats (the ghost's dice are rolled by the app, the ghost's points count for
    its team, its tallies are kept but it wins no prize)'.
    """
    check_attendance(len(players))
    ghosts = ghost_names(missing(len(players)))
    if not ghosts:
        return seat_first_round(players, rng, mode), []
    count = (len(players) + len(ghosts)) // 4
    # Seat real players as if the ghosts were not there, then slide ghosts into their slots.
    order = [name for table in _order(players, rng, mode) for name in table]
    slots = dict(zip(ghost_slots(count, len(ghosts)), ghosts, strict=True))
    it = iter(order)
    tables = [
        [slots[(t, s)] if (t, s) in slots else next(it) for s in range(4)] for t in range(count)
    ]
    return tables, ghosts


def _order(players: Sequence[str], rng: random.Random, mode: str) -> list[Table]:
    padded = list(players) + [""] * missing(len(players))
    tables = seat_first_round(padded, rng, mode)
    return [[name for name in table if name] for table in tables]


def choose_sitouts(
    players: Sequence[str],
    counts: Mapping[str, int],
    last: Sequence[str],
    rng: random.Random,
) -> list[str]:
    """The fewest needed sit out: those who sat out least so far, not again straight after a
    rest when avoidable, ties broken by the dice. So nobody sits out twice before everyone
    has sat out once."""
    needed = len(players) % 4
    if not needed:
        return []
    rested = set(last)
    keyed = sorted((counts.get(p, 0), p in rested, rng.random(), p) for p in players)
    return [p for *_, p in keyed[:needed]]


def seat_returners(
    tables: Sequence[Table], leaving: Sequence[str], returning: Sequence[str]
) -> list[Table]:
    """A player back from a rest takes the seat of a player who starts a rest this round
    (in the order they sat out), so everyone else's table and partner follow the rotation."""
    if len(leaving) != len(returning):
        raise ValueError("As many players return as start a rest.")
    replace = dict(zip(leaving, returning, strict=True))
    return [[replace.get(name, name) for name in table] for table in tables]


def with_substitutes(players: Sequence[str], substitutes: Sequence[str]) -> list[str]:
    """Ruling: the month's host asks substitutes 'when RSVPs are short of a multiple of 4'.
    Substitutes are taken in list order, only as many as needed."""
    check_attendance(len(players) + len(substitutes))
    needed = missing(len(players))
    fresh = [s for s in substitutes if s not in players]
    if len(fresh) < needed:
        raise ValueError(f"{needed} substitutes are needed, only {len(fresh)} are available.")
    return list(players) + fresh[:needed]
