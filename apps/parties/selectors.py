"""Reads of a party night: standings, tables and who sits where."""

from __future__ import annotations

from dataclasses import dataclass, field

from apps.parties.models import Party, Player, Table
from apps.parties.rules import outcome
from apps.parties.rules.table import TableState


@dataclass
class Tally:
    """One line of the score sheet."""

    player: Player
    wins: int = 0
    losses: int = 0
    bunkos: int = 0
    wipeouts: int = 0
    rounds: list[str] = field(default_factory=list)  # "W"/"L" per finished round, "-" resting


def tallies(party: Party) -> list[Tally]:
    """Wins, losses, Bunkos and wipeouts of every player, recounted from the tables."""
    players = {p.id: p for p in party.players.all()}
    sheet = {pid: Tally(p) for pid, p in players.items()}
    for table in party.tables.all():
        state = TableState.from_json(table.state)
        for seat, pid in enumerate(table.seats):
            sheet[pid].bunkos += state.tallies[seat]["bunkos"]
            sheet[pid].wipeouts += state.tallies[seat]["wipeouts"]
        result = outcome(state)
        if result is None:
            continue
        for seat in result["winners"]:
            sheet[table.seats[seat]].wins += 1
            sheet[table.seats[seat]].rounds.append("W")
        for seat in result["losers"]:
            sheet[table.seats[seat]].losses += 1
            sheet[table.seats[seat]].rounds.append("L")
    rows = [t for t in sheet.values() if t.player.active or t.wins or t.losses]
    return sorted(rows, key=lambda t: (t.player.is_ghost, -t.wins, t.losses, t.player.name))


@dataclass
class TableView:
    """A table as the templates show it."""

    table: Table
    state: TableState
    players: list[Player]

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def head(self) -> bool:
        return self.table.number == 1

    @property
    def teams(self) -> list[tuple[Player, Player]]:
        return [(self.players[0], self.players[2]), (self.players[1], self.players[3])]

    @property
    def roller(self) -> Player | None:
        return None if self.state.roller is None else self.players[self.state.roller]

    @property
    def last_roll(self) -> dict | None:
        return self.state.rolls[-1] if self.state.rolls else None

    @property
    def tied_after_stop(self) -> bool:
        return self.state.stopped and self.state.phase != "done"

    @property
    def result(self) -> dict | None:
        return outcome(self.state)

    @property
    def team_rows(self) -> list[dict]:
        return [
            {
                "index": team,
                "names": f"{self.players[team].name} & {self.players[team + 2].name}",
                "score": self.state.scores[team],
                "won": self.state.winner == team,
            }
            for team in (0, 1)
        ]

    @property
    def rolloff_text(self) -> str:
        """'Each player rolls a die to see whom goes first', as the table saw it."""
        if not self.state.rolloffs or self.state.first_roller is None:
            return ""
        rounds = [
            ", ".join(
                f"{self.players[seat].name} {die}"
                for seat, die in zip(r["seats"], r["dice"], strict=True)
            )
            for r in self.state.rolloffs
        ]
        starter = self.players[self.state.first_roller].name
        return f"Roll-off: {'; tied, again: '.join(rounds)}. {starter} starts."

    @property
    def recent(self) -> list[str]:
        """The last rolls, newest first, as a sentence each."""
        return [describe(entry, self.players) for entry in reversed(self.state.rolls[-6:])]

    @property
    def can_swap(self) -> bool:
        return (
            self.table.round > 1
            and not self.head
            and self.state.phase == "rolloff"
            and not self.state.rolloffs
        )

    @property
    def stayers(self) -> list[Player]:
        return self.players[:2]

    def seat_of(self, player: Player) -> int | None:
        return self.table.seats.index(player.id) if player.id in self.table.seats else None


def describe(entry: dict, players: list[Player]) -> str:
    """One roll as the score sheet would say it."""
    name = players[entry["seat"]].name
    dice = " ".join(str(d) for d in entry["dice"]) if entry.get("dice") else None
    rolled = f"{name} rolled {dice}" if dice else name
    kind, points = entry["kind"], entry["points"]
    if kind == "bunko":
        text = f"{rolled}: BUNKO! {points} points"
        if entry.get("scramble"):
            grabbers = ", ".join(players[s].name for s in entry["scramble"])
            text += f", dice grabbed by {grabbers}"
        elif "split" in entry:
            text += f", scramble {entry['split'][0]}-{entry['split'][1]}"
        return text
    if kind == "wipeout":
        return f"{rolled}: wipeout, the team is back to 0"
    if kind == "miss":
        return f"{rolled}: no point, the dice pass"
    return f"{rolled}: {points} point{'s' if points != 1 else ''}, rolls again"


def round_tables(party: Party, round_number: int | None = None) -> list[TableView]:
    number = party.current_round if round_number is None else round_number
    tables = list(party.tables.filter(round=number))
    ids = {pid for t in tables for pid in t.seats}
    players = party.players.in_bulk(ids)
    return [
        TableView(t, TableState.from_json(t.state), [players[pid] for pid in t.seats])
        for t in tables
    ]


def round_over(tables: list[TableView]) -> bool:
    return bool(tables) and all(t.state.phase == "done" for t in tables)


def stop_called(tables: list[TableView]) -> bool:
    return bool(tables) and tables[0].state.stopped


def sitting_out(party: Party) -> list[Player]:
    return [s.player for s in party.sit_outs.filter(round=party.current_round)]


def listed_players(party: Party) -> list[Player]:
    return list(party.players.exclude(kind=Player.Kind.GHOST).order_by("name"))


def invitable(code: str) -> tuple[Party, list[str]] | None:
    """The night's players a party game can pre-list: those sitting out first."""
    party = Party.objects.filter(code=code).first()
    if party is None or party.status == Party.Status.ENDED:
        return None
    resting = {p.id for p in sitting_out(party)}
    players = party.players.exclude(kind=Player.Kind.GHOST).filter(active=True)
    ordered = sorted(players, key=lambda p: (p.id not in resting, p.name))
    return party, [p.name for p in ordered]
