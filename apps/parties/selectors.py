"""Reads of a party night: its tables' states, the players' tallies, who sits where.

A busy night is read often and changes a little at a time, so reads are cached in the
process by what makes them true: a table's state by its version, the night's context by the
night's version. A version never changes meaning, so nothing cached goes stale; what is kept,
and for how long, is caches.py's.
"""

from __future__ import annotations

import heapq
import json
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

from apps.core.changes import Change, stamp
from apps.parties.caches import Cache, by_version, let_go_tables
from apps.parties.models import JoinRequest, Party, Player, SitOut, Table
from apps.parties.rules.dice import BUNKO, WIPEOUT
from apps.parties.rules.doors import expected_players
from apps.parties.rules.state import share_logs
from apps.parties.rules.summary import TableSummary, summary_of
from apps.parties.rules.table import DONE, TableState

# A table's state by (table id, version); the newest three versions of each table. Only the
# tables in play are asked for again and again: the others go idle here (caches.py).
STATES = Cache(4096, slot=by_version, keep=3)
# A table's marks on the score sheets by (table id, version): every table of the night, read
# at each change of the night for the tallies and the travelling prizes, in a few hundred
# bytes instead of its whole game (rules/summary.py).
SUMMARIES = Cache(16384, slot=by_version, keep=1)


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table without its state: what a query of the round's tables returns cheaply. (With
    slots: a night keeps one for every table of its past rounds.)"""

    pk: int
    round: int
    number: int
    version: int
    seats: tuple[int, ...]
    changed: datetime | None = None  # when the table last changed

    @property
    def stamp(self) -> int:
        return stamp(self.round, self.version)

    @property
    def changed_ms(self) -> int:
        return ms_of(self.changed) if self.changed else 0


def ms_of(moment: datetime) -> int:
    """A moment in whole milliseconds since 1970, as a table's change message carries it;
    ``moment_of`` turns it back into the same milliseconds."""
    return round(moment.timestamp() * 1000)


def moment_of(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def rows_of(tables, when: bool = True) -> list[TableRow]:
    """Tables (a queryset) as rows, without their states; ``when``: with the time each
    last changed (the console's clock of a table in play; a past table's is not kept)."""
    fields = ["pk", "round", "number", "version", "seats"] + (["changed"] if when else [])
    return [
        TableRow(pk, r, n, v, tuple(s), *changed)
        for pk, r, n, v, s, *changed in tables.values_list(*fields)
    ]


def table_rows(party: Party, round_number: int | None = None) -> list[TableRow]:
    number = party.current_round if round_number is None else round_number
    return rows_of(party.tables.filter(round=number))


def table_at(row: TableRow) -> tuple[TableRow, TableState]:
    """A table's state as near ``row.version`` as can be had: at that version when it is
    cached, else as it is now, with the row's version moved to match. A state is only ever
    kept under its own version: a fragment stamped v shows the table at v, never later."""
    cached = STATES.peek((row.pk, row.version))
    if cached is not None:
        return row, cached
    version, data = Table.objects.values_list("version", "state").get(pk=row.pk)
    return replace(row, version=version), decoded_state(row.pk, version, data)


def keep_sent_state(change: Change) -> TableState | None:
    """Cache the state a table's change carries (services/log.py record_table) under its
    version: a server process that did not make the change draws it without reading the
    table back from the database. Returns the state, or None when it does not read as a
    table's state (and the table is read back from the database as for any other)."""
    key = (change.payload["table"], change.version)
    state = STATES.peek(key)
    if state is None:
        try:
            state = decoded_state(*key, json.loads(change.payload["state"]))
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
    return state


def decoded_state(pk: int, version: int, data: dict, keep: bool = True) -> TableState:
    """A table's state at ``version`` from its stored form, kept under that version (unless
    ``keep`` is false). The rolls and entries it shares with an older version kept here are
    held once (rules/state.py ``share_logs``)."""
    state = STATES.peek((pk, version))
    if state is None:
        state = TableState.from_json(data)
        share_logs(state, STATES.newest_before(pk, version))
        if keep:
            STATES.put((pk, version), state)
    return state


def keep_state(table_id: int, version: int, state: dict) -> None:
    """Cache a table's state as just saved and committed, under its version."""
    decoded_state(table_id, version, state)


def table_state(table: Table) -> TableState:
    """The state of a table row just read, decoded once per version."""
    return STATES.get((table.pk, table.version), lambda: TableState.from_json(table.state))


def table_states(rows: Iterable[TableRow], keep: bool = True) -> list[TableState]:
    """The states of many tables for tallies and flags: the ones not cached at their version
    come in one query, as they are now (and are kept under their own versions, unless
    ``keep`` is false: a service reading inside its transaction may see a version that is
    never committed)."""
    rows = list(rows)
    found = {r.pk: STATES.peek((r.pk, r.version)) for r in rows}
    missing = [pk for pk, state in found.items() if state is None]
    for pk, version, data in stored_states(missing):
        found[pk] = decoded_state(pk, version, data, keep)
    return [found[r.pk] for r in rows]


def table_summaries(rows: Iterable[TableRow], keep: bool = True) -> list[TableSummary]:
    """The summaries of many tables (``keep`` as for ``table_states``). A table whose state
    is not cached is read in the same one query as the others, summed up, and its state let
    go: a finished table's game is not kept for the tallies' sake."""
    rows = list(rows)
    found = {r.pk: SUMMARIES.peek((r.pk, r.version), touch=keep) for r in rows}
    for row in rows:
        if found[row.pk] is None and (state := STATES.peek((row.pk, row.version))) is not None:
            found[row.pk] = _kept_summary(row.pk, row.version, summary_of(state), keep)
    missing = [pk for pk, summary in found.items() if summary is None]
    for pk, version, data in stored_states(missing):
        summary = SUMMARIES.peek((pk, version)) or summary_of(TableState.from_json(data))
        found[pk] = _kept_summary(pk, version, summary, keep)
    return [found[r.pk] for r in rows]


# Tables whose states are read in one query. A finished table's state decodes to some 90 KB
# of lists and dicts; a server started late in a night (or a host's correction, which reads
# the past rounds afresh) read every past table in one query, and at round 41 of 30 tables
# its 1,200 decoded states, held at once, took the process from 84 to 204 MB for good.
STATES_PER_READ = 100


def stored_states(pks: list[int]) -> Iterator[tuple[int, int, dict]]:
    """(pk, version, stored state) of these tables, read ``STATES_PER_READ`` at a time so
    that only those are decoded at once."""
    for start in range(0, len(pks), STATES_PER_READ):
        chunk = pks[start : start + STATES_PER_READ]
        yield from Table.objects.filter(pk__in=chunk).values_list("pk", "version", "state")


def _kept_summary(pk: int, version: int, summary: TableSummary, keep: bool) -> TableSummary:
    return SUMMARIES.put((pk, version), summary) if keep else summary


# --- tallies ------------------------------------------------------------------------------------


@dataclass
class Tally:
    """One line of the score sheet."""

    player: Player
    wins: int = 0
    losses: int = 0
    bunkos: int = 0
    wipeouts: int = 0
    # Per round played or rested: "W", "L", "-" (sat out) or "" (still playing); None where
    # only the totals are wanted (the night's past tallies, kept by every server process).
    rounds: dict[int, str] | None = field(default_factory=dict)

    def add(self, table: TableSummary, seat: int, round_number: int) -> None:
        self.bunkos += table.bunkos[seat]
        self.wipeouts += table.wipeouts[seat]
        if table.winners is None:
            mark = ""
        elif seat in table.winners:
            self.wins += 1
            mark = "W"
        else:
            self.losses += 1
            mark = "L"
        if self.rounds is not None:
            self.rounds[round_number] = mark


def tallies_of(
    players: dict[int, Player],
    tables: Iterable[tuple[TableRow, TableSummary]],
    rests: Iterable,
    marks: bool = True,
) -> dict[int, Tally]:
    """Each player's tally of these tables; ``marks``: with the mark of every round (for a
    score sheet), else the totals alone (a night keeps its past rounds' totals all night,
    and a mark a player a round was 11 KB a round at 100 tables)."""
    sheet = {pid: Tally(p, rounds={} if marks else None) for pid, p in players.items()}
    for row, summary in tables:
        for seat, pid in enumerate(row.seats):
            if pid in sheet:
                sheet[pid].add(summary, seat, row.round)
    if marks:
        for round_number, pid in rests:
            if pid in sheet:
                sheet[pid].rounds[round_number] = "-"
    return sheet


def tallies(party: Party) -> list[Tally]:
    """Wins, losses, Bunkos and wipeouts of every player, recounted from the tables."""
    players = {p.id: p for p in party.players.all()}
    rows = rows_of(party.tables.all())
    rests = party.sit_outs.values_list("round", "player_id")
    sheet = tallies_of(players, zip(rows, table_summaries(rows), strict=True), rests)
    rows_out = [t for t in sheet.values() if t.player.active or t.wins or t.losses]
    return sorted(rows_out, key=lambda t: (t.player.is_ghost, -t.wins, t.losses, t.player.name))


# --- the night, read once per version ----------------------------------------------------------


@dataclass
class Night:
    """What every screen of a night shares at one night version."""

    party: Party
    players: dict[int, Player]
    sitting_out: list[Player]
    # Tallies of the rounds before this one (their tables no longer change without a
    # correction, which is a night event).
    past: dict[int, Tally]
    tables: list[TableRow]
    past_rounds: PastRounds = field(default_factory=lambda: NO_PAST)
    rests: list[tuple[int, int]] = field(default_factory=list)  # (round, player id)
    # Everyone who held each travelling prize, latest first (ghosts hold none).
    holders: dict[str, list[int]] = field(default_factory=dict)
    # What the renders work out of this night once, by name (render.night_flags).
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def names(self, row: TableRow) -> list[str]:
        return [self.players[pid].name for pid in row.seats]

    def table_of(self, player_id: int) -> TableRow | None:
        return next((row for row in self.tables if player_id in row.seats), None)

    @property
    def listed(self) -> list[Player]:
        people = [p for p in self.players.values() if not p.is_ghost]
        return sorted(people, key=lambda p: p.name.casefold())


# A night's context by (code, version); the newest two versions of each night.
NIGHTS = Cache(64, slot=by_version, keep=2)


def night_at(party: Party) -> Night:
    """The night as of ``party.version`` (its row read by the caller)."""
    return NIGHTS.get((party.code, party.version), lambda: _read_night(party))


def _read_night(party: Party) -> Night:
    players = {p.id: p for p in party.players.all()}
    past_rounds = past_of(party)
    rests = list(SitOut.objects.filter(party=party).values_list("round", "player_id"))
    # The sockets of a busy night each hold the version they last drew, so a process keeps
    # dozens of versions alive at once: what did not change since the version before (the
    # players, the past rounds' tallies, growing all night) is that version's own objects,
    # kept once, not once per version.
    before = NIGHTS.newest_before(party.code, party.version)
    if before is not None:
        players = _shared_players(before.players, players)
        rests = before.rests if rests == before.rests else rests
    if (
        before is not None
        and players is before.players
        and past_rounds is before.past_rounds
        and rests is before.rests
    ):
        past = before.past
    else:
        played = zip(past_rounds.rows, past_rounds.summaries, strict=True)
        past = tallies_of(players, played, rests, marks=False)
    tables = sorted(table_rows(party), key=lambda r: r.number)
    table_states(tables)  # the round in play: every screen draws its tables' games next
    resting = {pid for r, pid in rests if r == party.current_round}
    return Night(
        party=party,
        players=players,
        sitting_out=[players[pid] for pid in resting if pid in players],
        past=past,
        tables=tables,
        past_rounds=past_rounds,
        rests=rests,
        holders=travelling_holders(tables, players, past_rounds),
    )


def _shared_players(kept: dict[int, Player], read: dict[int, Player]) -> dict[int, Player]:
    """``read`` with each player that has not changed since ``kept`` taken from ``kept``
    (the very dict when none changed): a night's versions share their players."""
    shared = {pid: _same_player(kept.get(pid), p) for pid, p in read.items()}
    if kept.keys() == read.keys() and all(shared[pid] is kept[pid] for pid in shared):
        return kept
    return shared


# The heartbeat stamps when each phone was last seen, every few seconds: a player whose
# stamp alone moved is the same player (its newest stamp is kept on the shared object).
_PLAYER_FIELDS = [f.attname for f in Player._meta.concrete_fields if f.name != "seen_at"]


def _same_player(kept: Player | None, read: Player) -> Player:
    if kept is not None and all(getattr(kept, f) == getattr(read, f) for f in _PLAYER_FIELDS):
        kept.seen_at = read.seen_at
        return kept
    return read


# --- the rounds before this one ---------------------------------------------------------------


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


def round_state(rows: list[TableRow]) -> tuple[bool, bool]:
    """(STOP called, round over) for a round's tables (head table first)."""
    if not rows:
        return False, False
    states = table_states(rows)
    return states[0].stopped, all(s.phase == DONE for s in states)


def players_of(party: Party) -> int:
    """The names on the night's list (those who left too: removing a name frees no room)."""
    return party.players.exclude(kind=Player.Kind.GHOST).count()


def expected_of(party: Party) -> int:
    """How many players the night expects now (``rules.doors``)."""
    seated = 0
    if party.current_round:
        seated = (
            party.players.exclude(kind=Player.Kind.GHOST)
            .filter(joined_round__lte=party.current_round)
            .count()
        )
    return expected_players(party.expected_players, seated)


def waiting_requests(party: Party) -> list[JoinRequest]:
    """The phones waiting for the host's OK to join, first come first."""
    return list(party.join_requests.filter(status=JoinRequest.Status.WAITING).order_by("id"))


def listed_players(party: Party) -> list[Player]:
    return list(party.players.exclude(kind=Player.Kind.GHOST).order_by("name"))


def invitable(code: str) -> tuple[Party, list[str]] | None:
    """The night's players a party game can pre-list: those sitting out first."""
    party = Party.objects.filter(code=code).first()
    if party is None or party.status == Party.Status.ENDED:
        return None
    resting = set(
        party.sit_outs.filter(round=party.current_round).values_list("player_id", flat=True)
    )
    players = party.players.exclude(kind=Player.Kind.GHOST).filter(active=True)
    ordered = sorted(players, key=lambda p: (p.id not in resting, p.name))
    return party, [p.name for p in ordered]


def preview_correction(party: Party, table_id: int, index: int, replacement: dict | None) -> dict:
    """What a correction would make of a table, before the host confirms it: the entry
    before and after, and the scores it would leave (or the rules' reason it can't be)."""
    import random

    from apps.core.protocol import IllegalAction
    from apps.parties.presenter import entry_label, team_names
    from apps.parties.rules.attendance import shown_name
    from apps.parties.rules.table import apply

    table = party.tables.filter(pk=table_id).first()
    if table is None:
        return {"error": _("That table is not part of this night.")}
    state = TableState.from_json(table.state)
    names = [shown_name(name) for name in state.players]
    if not 0 <= index < len(state.entries):
        return {"error": _("That entry is not in this table's log.")}
    action = {"type": "correct", "index": index, "replacement": replacement}
    try:
        after = apply(state, None, action, random.Random(0))
    except IllegalAction as error:
        return {"error": str(error)}
    return {
        "table": table,
        "entry": entry_label(index, state.entries[index], names),
        "teams": [
            {"names": team_names(names, t), "now": state.scores[t], "then": after.scores[t]}
            for t in (0, 1)
        ],
        "stops": after.stopped and not state.stopped,
        "unstops": state.stopped and not after.stopped,
    }
