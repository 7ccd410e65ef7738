"""The season's standings: every member over the nights played, recounted from the nights'
tables on every read (the parties app's tallies), so a host's correction shows at once."""

from __future__ import annotations

from dataclasses import dataclass, field

from apps.circles.models import Circle, Member, Month, NightSeat, Season
from apps.circles.selectors import months_of
from apps.parties.models import Party, Player
from apps.parties.selectors import tallies
from apps.prizes.selectors import awards_of


@dataclass
class NightLine:
    """One member's night: what their score sheet said."""

    month: Month
    wins: int = 0
    losses: int = 0
    bunkos: int = 0
    wipeouts: int = 0
    prizes: list[str] = field(default_factory=list)
    top: bool = False  # the night's overall winner
    rounds: dict[int, str] = field(default_factory=dict)

    @property
    def in_progress(self) -> bool:
        party = self.month.party
        return party is not None and party.status != Party.Status.ENDED


@dataclass
class Line:
    """A member's season."""

    member: Member
    history: list[NightLine] = field(default_factory=list)

    @property
    def nights(self) -> int:
        return len(self.history)

    def _sum(self, name: str) -> int:
        return sum(getattr(night, name) for night in self.history)

    @property
    def wins(self) -> int:
        return self._sum("wins")

    @property
    def losses(self) -> int:
        return self._sum("losses")

    @property
    def bunkos(self) -> int:
        return self._sum("bunkos")

    @property
    def wipeouts(self) -> int:
        return self._sum("wipeouts")

    @property
    def prizes(self) -> int:
        return sum(len(night.prizes) for night in self.history)

    @property
    def tops(self) -> int:
        return sum(night.top for night in self.history)

    def night(self, month: Month) -> NightLine | None:
        return next((n for n in self.history if n.month.pk == month.pk), None)


@dataclass
class Standings:
    season: Season
    nights: list[Month]  # the months whose night has been played (or is being played)
    lines: list[Line]

    def line_of(self, member: Member) -> Line | None:
        return next((line for line in self.lines if line.member.pk == member.pk), None)


def _members_of_night(month: Month, circle: Circle, members: list[Member]) -> dict[int, Member]:
    """Player id -> member: the seats made from the RSVPs and arrivals, then any other
    player whose name is a member's (someone the host added at the party by hand)."""
    found = {
        seat.player_id: seat.member
        for seat in NightSeat.objects.filter(month=month).select_related("member")
    }
    by_name = {m.name.casefold(): m for m in sorted(members, key=lambda m: m.active)}
    linked = set(m.pk for m in found.values())
    for player in month.party.players.exclude(kind=Player.Kind.GHOST):
        if player.pk in found:
            continue
        member = by_name.get(player.name.casefold())
        if member is not None and member.pk not in linked:
            found[player.pk] = member
            linked.add(member.pk)
    return found


def standings(season: Season) -> Standings:
    circle = season.circle
    members = list(circle.members.all())
    lines: dict[int, Line] = {
        m.pk: Line(m) for m in members if m.active and m.kind == Member.Kind.MEMBER
    }
    played = [m for m in months_of(season) if m.party is not None and m.party.current_round]
    for month in played:
        party = month.party
        who = _members_of_night(month, circle, members)
        awards: dict[int, list[str]] = {}
        for award in awards_of(party):
            awards.setdefault(award.player_id, []).append(award.name)
        winner = (party.result or {}).get("winner")
        for tally in tallies(party):
            member = who.get(tally.player.pk)
            if member is None:
                continue
            line = lines.setdefault(member.pk, Line(member))
            line.history.append(
                NightLine(
                    month=month,
                    wins=tally.wins,
                    losses=tally.losses,
                    bunkos=tally.bunkos,
                    wipeouts=tally.wipeouts,
                    prizes=awards.get(tally.player.pk, []),
                    top=bool(winner) and winner == tally.player.name,
                    rounds=tally.rounds,
                )
            )
    ordered = sorted(
        lines.values(),
        key=lambda ln: (
            ln.nights == 0,
            -ln.wins,
            ln.losses,
            -ln.bunkos,
            ln.member.is_substitute,
            ln.member.name.casefold(),
        ),
    )
    return Standings(season=season, nights=played, lines=ordered)
