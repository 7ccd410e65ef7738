"""Seating: the first round, and who moves where between rounds.

A table is a list of four names in seat order 1-4; partners sit across (seats 1+3, 2+4).
Tables are ranked: index 0 is the head table, the last index the bottom table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence

Table = list[str]
# A table's result: {"winners": [a, b], "losers": [c, d]}, each pair in seat order.
Result = dict
# choose(table_number, proposed_table) -> True when the stayers swap partners (asked only
# where the swap is offered: never one that makes two ghosts partners).
Chooser = Callable[[int, Table], bool]


def seat_first_round(
    players: Sequence[str], rng: random.Random, mode: str = "random"
) -> list[Table]:
    """Seat round 1: four to a table, in a random order, or by a die each ('roll': highest
    rolls sit at the head table; equal dice in random order)."""
    if len(players) < 4 or len(players) % 4:
        raise ValueError("Bunko seats players in multiples of 4.")
    order = list(players)
    if mode == "random":
        rng.shuffle(order)
    elif mode == "roll":
        keyed = [(-rng.randint(1, 6), rng.random(), name) for name in order]
        order = [name for _, _, name in sorted(keyed)]
    else:
        raise ValueError(f"Unknown seating mode: {mode}.")
    return [order[i : i + 4] for i in range(0, len(order), 4)]


def swap_partners(table: Table) -> Table:
    """Ruling: 'Which stayer partners which arriver is the stayers' choice (the app proposes
    one, the table may swap before the first roll).' Swapping the two arrivers' seats gives
    each stayer the other arriver; the stayers keep their seats."""
    return [table[0], table[1], table[3], table[2]]


def _split_table(stayers: Sequence[str], arrivers: Sequence[str]) -> Table:
    """Ruling: 'each of the two players who stayed partners one of the two who arrived.'
    Stayers take seats 1 and 2, arrivers seats 3 and 4, so partners sit across."""
    return [stayers[0], stayers[1], arrivers[0], arrivers[1]]


def _pair_table(first: Sequence[str], second: Sequence[str]) -> Table:
    """Two pairs that keep their partners: seats 1+3 and 2+4."""
    return [first[0], second[0], first[1], second[1]]


def _ghost_pairs(table: Table, ghosts: Collection[str]) -> int:
    return sum(1 for a, b in ((table[0], table[2]), (table[1], table[3])) if {a, b} <= ghosts)


def swap_pairs_ghosts(table: Table, ghosts: Collection[str]) -> bool:
    """True when the stayers' swap would make two ghosts partners: such a swap is not
    offered (the app plays both ghosts, so their team would have no player at all)."""
    return _ghost_pairs(swap_partners(table), set(ghosts)) > 0


def _propose(table: Table, ghosts: Collection[str]) -> Table:
    """The app's proposal avoids two ghosts as partners when a swap can."""
    if ghosts and _ghost_pairs(table, ghosts):
        swapped = swap_partners(table)
        if _ghost_pairs(swapped, ghosts) < _ghost_pairs(table, ghosts):
            return swapped
    return table


def rotate(
    tables: Sequence[Table],
    results: Sequence[Result],
    choose: Chooser | None = None,
    ghosts: Collection[str] = (),
) -> list[Table]:
    """Next round's tables.

    Ruling: 'head = head winners + table-2 winners (each pair keeps its partner); middle table
    k = table-k losers + table-(k+1) winners; bottom = bottom losers + head losers.' 'With 2
    tables, the bottom table receives the head losers and the bottom losers stay.'
    With one table there is nowhere to move: both pairs stay as they are.
    """
    if len(tables) != len(results) or not tables:
        raise ValueError("Every table needs its result.")
    ghosts = set(ghosts)
    count = len(tables)
    winners = [list(r["winners"]) for r in results]
    losers = [list(r["losers"]) for r in results]
    if count == 1:
        return [_pair_table(winners[0], losers[0])]
    new = [_pair_table(winners[0], winners[1])]
    for k in range(1, count):
        arrivers = winners[k + 1] if k + 1 < count else losers[0]
        table = _propose(_split_table(losers[k], arrivers), ghosts)
        if choose is not None and not swap_pairs_ghosts(table, ghosts) and choose(k + 1, table):
            table = swap_partners(table)
        new.append(table)
    return new


def next_table(number: int, tables: int, won: bool) -> int:
    """Where a pair that played at table ``number`` (1 is the head table) of ``tables`` sits
    next round: the same rulings as ``rotate``. 'head = head winners + table-2 winners';
    'middle table k = table-k losers + table-(k+1) winners'; 'bottom = bottom losers + head
    losers'; with one table both pairs stay."""
    if tables < 2:
        return number
    if number == 1:
        return 1 if won else tables
    return number - 1 if won else number


def partners(table: Table) -> list[frozenset[str]]:
    """The two teams at a table: seats 1+3 and 2+4."""
    return [frozenset((table[0], table[2])), frozenset((table[1], table[3]))]
