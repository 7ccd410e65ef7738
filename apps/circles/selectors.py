"""Reads of a circle: its seasons, who is coming to a month's night, what each role sees."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apps.circles.dates import add_months
from apps.circles.models import (
    Circle,
    Hosting,
    Member,
    Month,
    Rsvp,
    Season,
    SubstituteAsk,
    SwapRequest,
)


def active_members(circle: Circle) -> list[Member]:
    return list(circle.members.filter(active=True, kind=Member.Kind.MEMBER).order_by("name"))


def substitutes(circle: Circle) -> list[Member]:
    """The circle's substitutes in the order they are asked."""
    return list(
        circle.members.filter(active=True, kind=Member.Kind.SUBSTITUTE).order_by("position", "id")
    )


def hosts_of(month: Month) -> list[Member]:
    return [h.member for h in month.hostings.select_related("member").all()]


def place_of(month: Month, hosts: list[Member] | None = None) -> str:
    """Where the night is: the month's own place, else the first host's address."""
    if month.place:
        return month.place
    hosts = hosts_of(month) if hosts is None else hosts
    return hosts[0].address if hosts and hosts[0].address else ""


def months_of(season: Season) -> list[Month]:
    """A season's months with their hosts (one query each for months and hostings)."""
    months = list(
        season.months.select_related("party", "season__circle").prefetch_related(
            Prefetch("hostings", queryset=Hosting.objects.select_related("member"))
        )
    )
    for month in months:
        month.host_list = [h.member for h in month.hostings.all()]
        month.where = place_of(month, month.host_list)
    return months


def current_season(circle: Circle, today=None) -> Season | None:
    """The season running today, else the next one to come, else the latest."""
    today = today or circle.today()
    seasons = list(circle.seasons.all())
    for season in seasons:
        if season.start <= today < add_months(season.start, 12):
            return season
    upcoming = [s for s in seasons if s.start > today]
    if upcoming:
        return upcoming[0]
    return seasons[-1] if seasons else None


# --- who is coming ------------------------------------------------------------------------------


@dataclass
class Attendance:
    """Who is coming to a month's night, and how many seats are short of a table of 4."""

    coming: list[Member] = field(default_factory=list)
    maybe: list[Member] = field(default_factory=list)
    not_coming: list[Member] = field(default_factory=list)
    no_answer: list[Member] = field(default_factory=list)
    hosts: list[Member] = field(default_factory=list)
    asks: list[SubstituteAsk] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.coming)

    @property
    def short(self) -> int:
        """Seats short of a multiple of 4 (nobody coming yet: nothing to fill)."""
        return -self.count % 4 if self.count else 0

    @property
    def tables(self) -> int:
        return (self.count + self.short) // 4

    @property
    def open_asks(self) -> list[SubstituteAsk]:
        return [a for a in self.asks if a.open]

    @property
    def still_to_find(self) -> int:
        """Seats short that no open request covers yet."""
        return max(0, self.short - len(self.open_asks))


def attendance(month: Month) -> Attendance:
    """The month's answers. Its hosts count as coming: they host."""
    return attendances([month])[month.pk]


def attendances(months: list[Month]) -> dict[int, Attendance]:
    """Who is coming to each of ``months`` (all of one circle), in a few queries."""
    if not months:
        return {}
    circle = months[0].season.circle
    ids = [m.pk for m in months]
    hosts: dict[int, list[Member]] = {pk: [] for pk in ids}
    for hosting in Hosting.objects.filter(month_id__in=ids).select_related("member"):
        hosts[hosting.month_id].append(hosting.member)
    answers: dict[int, dict[int, str]] = {pk: {} for pk in ids}
    for month_id, member_id, answer in Rsvp.objects.filter(month_id__in=ids).values_list(
        "month_id", "member_id", "answer"
    ):
        answers[month_id][member_id] = answer
    asks: dict[int, list[SubstituteAsk]] = {pk: [] for pk in ids}
    for ask in SubstituteAsk.objects.filter(month_id__in=ids).select_related("member"):
        asks[ask.month_id].append(ask)
    people = sorted(
        circle.members.filter(active=True), key=lambda m: (m.is_substitute, m.name.casefold())
    )
    return {pk: _attendance(hosts[pk], answers[pk], people, asks[pk]) for pk in ids}


def _attendance(hosts, answers, people, asks) -> Attendance:
    result = Attendance(hosts=hosts, asks=asks)
    host_ids = {h.pk for h in hosts}
    for member in people:
        answer = Rsvp.Answer.YES if member.pk in host_ids else answers.get(member.pk)
        if answer == Rsvp.Answer.YES:
            result.coming.append(member)
        elif member.is_substitute:
            continue  # a substitute is on the list only once they accept
        elif answer == Rsvp.Answer.MAYBE:
            result.maybe.append(member)
        elif answer == Rsvp.Answer.NO:
            result.not_coming.append(member)
        else:
            result.no_answer.append(member)
    return result


def answer_of(month: Month, member: Member) -> str | None:
    """A member's RSVP for a month ("yes", "no", "maybe"); a host's is "yes"."""
    if month.hostings.filter(member=member).exists():
        return Rsvp.Answer.YES
    answer = Rsvp.objects.filter(month=month, member=member).values_list("answer", flat=True)
    return answer.first()


# --- swaps ------------------------------------------------------------------------------------


def pending_swaps(circle: Circle) -> list[SwapRequest]:
    return list(
        SwapRequest.objects.filter(
            from_month__season__circle=circle, status=SwapRequest.Status.PENDING
        ).select_related("from_month", "to_month", "from_member", "to_member")
    )


def swap_targets(member: Member, month: Month, now: datetime | None = None) -> list[tuple]:
    """The (month, host) pairs a host of ``month`` may ask to swap with: months to come of
    the same season, hosted by someone else, not started, and neither of the two in a month
    they said they can't host (as the planner keeps them)."""
    now = now or timezone.now()
    pairs = []
    for other in months_of(month.season):
        if other.pk == month.pk or other.started or other.is_past(now):
            continue
        if member in other.host_list or not can_host(member, other):
            continue
        for host in other.host_list:
            if can_host(host, month):
                pairs.append((other, host))
    return pairs


def can_host(member: Member, month: Month) -> bool:
    """Whether ``member`` may host ``month``: not a calendar month they said they can't."""
    return month.date.month not in set(member.cannot_host or [])


# --- the host's checklist -------------------------------------------------------------------

# The rules: 'Providing a place to play (with tables). Dinner / snacks / beverages. Providing
# prizes. Finding substitutes.' The first three are ticked by the host; the last is read from
# the answers.
CHECKLIST = {
    "place": ("place_ready", gettext_lazy("A place to play, with tables")),
    "food": ("food_ready", gettext_lazy("Food and drinks")),
    "prizes": ("prizes_ready", gettext_lazy("Prizes")),
}


def substitutes_state(month: Month, seen: Attendance) -> tuple[bool, str]:
    """The checklist's 'substitutes found': done, and what to say about it."""
    if month.started:
        return True, _("The night has started.")
    if month.fill != Month.Fill.SUBSTITUTES:
        fill = month.get_fill_display().split(" (")[0].lower()
        return True, _("Not needed: {fill}.").format(fill=fill)
    if not seen.count:
        return False, _("Waiting for the first answers.")
    if not seen.short:
        full = ngettext(
            "Every table is full ({count} table).",
            "Every table is full ({count} tables).",
            seen.tables,
        )
        return True, full.format(count=seen.tables)
    if seen.still_to_find == 0:
        asked = _("{count} asked, waiting for an answer.")
        return False, asked.format(count=len(seen.open_asks))
    short = ngettext("{count} seat short.", "{count} seats short.", seen.short)
    return False, short.format(count=seen.short)


def checklist(month: Month, seen: Attendance) -> list[dict]:
    items = [
        {"key": key, "label": label, "done": getattr(month, field)}
        for key, (field, label) in CHECKLIST.items()
    ]
    done, state = substitutes_state(month, seen)
    items.append(
        {"key": "substitutes", "label": _("Substitutes found"), "done": done, "state": state}
    )
    return items
