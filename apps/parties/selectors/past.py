"""The rounds before the one in play: their tables' summaries, each player's tables, who
rolled the travelling prizes; read once a round and added to, not read whole again.
"""

from __future__ import annotations

import heapq
from array import array
from dataclasses import dataclass, field, replace

from apps.parties.caches import Cache, by_version, let_go_tables
from apps.parties.models import Party, Player
from apps.parties.rules.dice import BUNKO, WIPEOUT
from apps.parties.rules.summary import TableSummary
from apps.parties.selectors.tables import (
    STATES,
    TableRow,
    rows_of,
    table_rows,
    table_summaries,
)


@dataclass(frozen=True, eq=False)
class PastRounds:
    """The night's rounds before the one in play, with what the screens need of them: the
    tables' summaries, each player's tables, and who rolled the travelling prizes."""

    rows: tuple[TableRow, ...] = ()
    summaries: tuple[TableSummary, ...] = ()
    # Player id -> where in ``rows`` each table they played is, in round order: four bytes
    # a round, where a list of (table, summary) pairs took sixty (kept all night, a player
    # a round, in every server process).
    by_player: dict[int, array] = field(default_factory=dict)
    # Kind -> (when, player id) of every Bunko and wipeout rolled by a player (a ghost holds
    # no prize), latest first.
    prizes: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    ghosts: frozenset[int] = frozenset()  # the night's ghosts when these were read

    def played(self, player_id: int) -> list[tuple[TableRow, TableSummary]]:
        """The (table, summary) of each past round the player played, in round order."""
        return [(self.rows[i], self.summaries[i]) for i in self.by_player.get(player_id, ())]

    def then(self, rows: list[TableRow], summaries: list[TableSummary], ghosts: frozenset[int]):
        """These rounds and the tables of the next ones (``rows``). What was read before is
        kept, not read again: only the new round's objects are made."""
        by_player = {pid: array("I", played) for pid, played in self.by_player.items()}
        prizes = {kind: list(rolled) for kind, rolled in self.prizes.items()}
        # Each seat of a table read from the database holds an int object of its own (four
        # a table, kept all night): the past tables share one a player, their list's key.
        ids = {pid: pid for pid in by_player}
        rows = [replace(row, seats=tuple(ids.setdefault(p, p) for p in row.seats)) for row in rows]
        for index, (row, summary) in enumerate(zip(rows, summaries, strict=True), len(self.rows)):
            for pid in row.seats:
                by_player.setdefault(pid, array("I")).append(index)
            for prize in summary.prizes:
                if (pid := row.seats[prize.seat]) not in ghosts:
                    prizes.setdefault(prize.kind, []).append((prize.t, pid))
        for rolled in prizes.values():
            rolled.sort(reverse=True)
        return PastRounds(
            (*self.rows, *rows), (*self.summaries, *summaries), by_player, prizes, ghosts
        )


NO_PAST = PastRounds(prizes={BUNKO: [], WIPEOUT: []})  # before round 2: one object, shared
# The past rounds by (code, (round in play, corrections made)): a past round's table changes
# only by a host's correction, so a night reads them once a round, not at each of its
# changes (at round 90 of a 30-table night that read cost 65 ms, every few seconds, on the
# thread every tap waits for). A new round adds the round just played to the rounds kept,
# read before: read whole each round, a night's thousands of past tables were made anew in
# every process at every round change, and the memory they came to lie in stayed taken.
PAST = Cache(64, slot=by_version, keep=1)


def past_of(party: Party, fresh: bool = False) -> PastRounds:
    """The night's past rounds as of ``party`` (its row read by the caller). ``fresh``: read
    now inside a transaction that has changed one of them (a correction), neither taken
    from this process's copy nor kept."""
    if party.current_round <= 1:
        return NO_PAST
    version = (party.current_round, party.corrections)
    key = (party.code, version)
    kept = None if fresh else PAST.peek(key, touch=True)
    if kept is not None:
        return kept.past
    ghosts = frozenset(party.players.filter(kind=Player.Kind.GHOST).values_list("pk", flat=True))
    before = None if fresh else PAST.newest_before(party.code, version)
    if (
        before is None
        or before.corrections_made != party.corrections
        or not before.past.ghosts <= ghosts
    ):
        before = _Kept(NO_PAST, 1, party.corrections)
    tables = party.tables.filter(round__gte=before.through, round__lt=party.current_round)
    rows = rows_of(tables.order_by("round", "number"), when=False)
    past = before.past.then(rows, table_summaries(rows, keep=not fresh), ghosts)
    if not fresh:
        PAST.put(key, _Kept(past, party.current_round, party.corrections))
        # The past rounds' games and drawings are let go now: they would only wait here for
        # the idle sweep (a correction reads its table back, the sheet its summary).
        STATES.let_go(r.pk for r in rows)
        let_go_tables(r.pk for r in rows)
    return past


@dataclass(frozen=True)
class _Kept:
    """Past rounds kept: those before round ``through``, read after ``corrections_made``."""

    past: PastRounds
    through: int
    corrections_made: int


def travelling_holders(
    rows: list[TableRow], players: dict[int, Player], past: PastRounds
) -> dict[str, list[int]]:
    """Who held each travelling prize, latest first: 'Travelling Bunko: passes live to
    whoever rolled the latest Bunko'. Ghosts hold none. ``rows``: the round in play."""
    rolled: dict[str, list[tuple[int, int]]] = {BUNKO: [], WIPEOUT: []}
    for row, summary in zip(rows, table_summaries(rows), strict=True):
        for prize in summary.prizes:
            pid = row.seats[prize.seat]
            if pid in players and not players[pid].is_ghost:
                rolled[prize.kind].append((prize.t, pid))
    holders = {}
    for kind, now in rolled.items():
        now.sort(reverse=True)
        before = past.prizes.get(kind, [])
        # This round's rolls came after the past rounds' (a correction keeps a roll's time).
        if now and before and now[-1] < before[0]:
            merged = list(heapq.merge(now, before, reverse=True))
        else:
            merged = now + before
        holders[kind] = [pid for _t, pid in merged]
    return holders


def latest_prizes(party: Party, fresh: bool) -> dict[str, int | None]:
    """Who holds each travelling prize now: whoever rolled the latest Bunko and the latest
    wipeout still on the tables (ghosts hold none), read inside a tap's transaction
    (``fresh`` as for ``past_of``)."""
    ghosts = set(party.players.filter(kind=Player.Kind.GHOST).values_list("pk", flat=True))
    latest = {kind: rolled[0] for kind, rolled in past_of(party, fresh).prizes.items() if rolled}
    rows = table_rows(party)
    for row, summary in zip(rows, table_summaries(rows, keep=False), strict=True):
        for prize in summary.prizes:
            holder = row.seats[prize.seat]
            if holder not in ghosts:
                stamp = (prize.t, holder)
                latest[prize.kind] = max(latest.get(prize.kind, stamp), stamp)
    return {kind: latest[kind][1] if kind in latest else None for kind in (BUNKO, WIPEOUT)}
