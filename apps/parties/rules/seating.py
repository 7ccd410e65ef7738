"""Seating a round of a live night, with players arriving late or leaving early.

Players are keys (strings). Ghost seats use the ghost names of ``attendance``. The rotation
of ``rotation.rotate`` decides who moves where; this module then fits the night's changes in:
a leaver's seat goes to an arrival (or a player back from a rest), and only when the number of
tables must change is the bottom of the room re-packed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from apps.core.i18n import ngettext

from .attendance import (
    GHOSTS,
    SITOUTS,
    SUBSTITUTES,
    choose_sitouts,
    ghost_names,
    ghost_slots,
    is_ghost,
    missing,
    seat_with_ghosts,
)
from .rotation import Result, Table, rotate, seat_first_round


class SeatingProblem(ValueError):
    """The round can't be seated as asked; the message tells the host what to do."""


@dataclass
class Seating:
    tables: list[Table]
    sitouts: list[str] = field(default_factory=list)

    @property
    def ghosts(self) -> list[str]:
        return [p for t in self.tables for p in t if is_ghost(p)]


def _check_count(players: Sequence[str], rule: str) -> None:
    if len(players) < 4:
        here = ngettext(
            "Bunko needs at least 4 players; {count} is here.",
            "Bunko needs at least 4 players; {count} are here.",
            len(players),
        )
        raise SeatingProblem(here.format(count=len(players)))
    if rule == SUBSTITUTES and len(players) % 4:
        need = missing(len(players))
        add = ngettext(
            "{count} players is not a multiple of 4: add {need} substitute, "
            "or choose ghosts or sit-outs.",
            "{count} players is not a multiple of 4: add {need} substitutes, "
            "or choose ghosts or sit-outs.",
            need,
        )
        raise SeatingProblem(add.format(count=len(players), need=need))


def plan_first_round(
    players: Sequence[str], rule: str, rng: random.Random, mode: str = "random"
) -> Seating:
    """Round 1 by ``mode`` ("random" or "roll"), with the night's attendance rule."""
    _check_count(players, rule)
    if rule == GHOSTS:
        tables, _ = seat_with_ghosts(players, rng, mode)
        return Seating(tables)
    if rule == SITOUTS:
        sitouts = choose_sitouts(players, {}, [], rng)
        playing = [p for p in players if p not in sitouts]
        return Seating(seat_first_round(playing, rng, mode), sitouts)
    return Seating(seat_first_round(players, rng, mode))


def plan_next_round(
    tables: Sequence[Table],
    results: Sequence[Result],
    players: Sequence[str],
    rule: str,
    rng: random.Random,
    sitout_counts: Mapping[str, int] | None = None,
    last_sitouts: Sequence[str] = (),
) -> Seating:
    """The rotation of the last round, then the night's changes fitted in.

    ``players`` are everyone who plays on (arrivals included, leavers left out); ghosts are
    not in it. Ruling: sit-outs rest 'rotating fairly'; ghosts fill the seats that are short.
    """
    _check_count(players, rule)
    ghost_keys = [p for t in tables for p in t if is_ghost(p)]
    rotated = rotate(tables, results, ghosts=ghost_keys)
    sitouts: list[str] = []
    if rule == SITOUTS:
        sitouts = choose_sitouts(players, sitout_counts or {}, last_sitouts, rng)
    staying = set(players) - set(sitouts)
    # Seats of leavers and of new sit-outs are open; ghosts stay where the rotation put them.
    open_tables = [[p if p in staying or is_ghost(p) else None for p in t] for t in rotated]
    seated = {p for t in open_tables for p in t if p}
    # Back from a rest first, in the order they sat out; then the late arrivals.
    fillers = [p for p in last_sitouts if p in staying and p not in seated]
    fillers += [p for p in players if p in staying and p not in seated and p not in fillers]

    ghosts_needed = missing(len(staying)) if rule == GHOSTS else 0
    wanted_tables = (len(staying) + ghosts_needed) // 4
    if wanted_tables != len(open_tables):
        people = [[p if p and not is_ghost(p) else None for p in t] for t in open_tables]
        return Seating(_repack(people, fillers, wanted_tables, ghosts_needed), sitouts)
    # Same number of tables: fillers take open seats top down (a returner takes the seat of
    # the player who starts a rest), then ghosts' seats from the bottom up; seats still open
    # get a ghost.
    result = [list(t) for t in open_tables]
    queue = list(fillers)
    for table in result:
        for seat, who in enumerate(table):
            if who is None and queue:
                table[seat] = queue.pop(0)
    for table in reversed(result):
        for seat in range(3, -1, -1):
            if queue and is_ghost(table[seat]):
                table[seat] = queue.pop(0)
    used = {p for t in result for p in t if p and is_ghost(p)}
    spare = iter(g for g in ghost_names(len(used) + 4) if g not in used)
    result = [[p if p is not None else next(spare) for p in t] for t in result]
    return Seating(result, sitouts)


def _repack(
    open_tables: list[list[str | None]], fillers: list[str], count: int, ghosts: int
) -> list[Table]:
    """The number of tables changes: keep everyone's order from the head table down, add
    the fillers at the bottom, and deal four to a table again, ghosts in their slots."""
    order = [p for t in open_tables for p in t if p] + fillers
    slots = set(ghost_slots(count, ghosts))
    names = iter(ghost_names(ghosts))
    people = iter(order)
    return [
        [next(names) if (t, s) in slots else next(people) for s in range(4)] for t in range(count)
    ]
