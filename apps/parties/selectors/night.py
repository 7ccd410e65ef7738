"""The night as its screens share it at one version (players, tables, tallies, prizes),
and the smaller reads of the night's list and doors.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from apps.parties.caches import Cache, by_version
from apps.parties.models import JoinRequest, Party, Player, SitOut
from apps.parties.rules.doors import expected_players
from apps.parties.rules.summary import TableSummary
from apps.parties.rules.table import TableState
from apps.parties.selectors.past import NO_PAST, PastRounds, past_of, travelling_holders
from apps.parties.selectors.tables import (
    TableRow,
    rows_of,
    table_rows,
    table_states,
    table_summaries,
)

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
