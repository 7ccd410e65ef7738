"""The year of hosts: the planner's one action, a month's date and place, and the hosts' swaps."""

from __future__ import annotations

import random
import secrets
from datetime import date, datetime, time

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from apps.circles import mail, planner
from apps.circles.models import (
    MONTH_NAMES,
    Circle,
    Hosting,
    Member,
    Month,
    Season,
    SwapRequest,
)
from apps.circles.selectors import can_host, hosts_of, place_of
from apps.core.errors import Refused

from .common import (
    arm_reminder,
    check_open,
    is_open,
    lock_circle,
    lock_month,
    note,
)

# --- the season planner -------------------------------------------------------------------------


@transaction.atomic
def plan_season(season_id: int, rng: random.Random | None = None) -> planner.Plan:
    """One action: every month to come gets its hosts, each member hosting as evenly as the
    count allows and never in a month they cannot host. Months already played (or started)
    keep their hosts and count for them."""
    season = Season.objects.select_related("circle").filter(pk=season_id).first()
    if season is None:
        raise Refused(_("That season does not exist."))
    circle = lock_circle(season.circle_id)
    rng = rng or random.Random(secrets.randbits(64))
    now = timezone.now()
    months = list(season.months.select_related("season__circle"))
    open_months = [m for m in months if is_open(m, now)]
    if not open_months:
        raise Refused(_("Every month of this season is past or started: add the next season."))
    members = list(circle.members.filter(active=True, kind=Member.Kind.MEMBER).order_by("pk"))
    if not members:
        raise Refused(_("Invite the members first: the planner needs people to host."))
    hosted: dict[str, int] = {}
    for hosting in Hosting.objects.filter(month__in=[m for m in months if m not in open_months]):
        key = str(hosting.member_id)
        hosted[key] = hosted.get(key, 0) + 1
    plan = planner.plan_season(
        [str(m.pk) for m in members],
        [m.first.month for m in open_months],
        {str(m.pk): set(m.cannot_host) for m in members},
        rng,
        hosted=hosted,
    )
    Hosting.objects.filter(month__in=open_months).delete()
    SwapRequest.objects.filter(from_month__season=season, status=SwapRequest.Status.PENDING).update(
        status=SwapRequest.Status.VOID
    )
    by_id = {str(m.pk): m for m in members}
    for index, month in enumerate(open_months):
        Hosting.objects.bulk_create(
            Hosting(month=month, member=by_id[key], position=position)
            for position, key in enumerate(plan.hosts[index])
        )
        month.revision += 1
        month.save(update_fields=["revision", "updated"])
        arm_reminder(month, now)
    season.planned_at = now
    season.save(update_fields=["planned_at"])
    unhosted = [open_months[i] for i in plan.unhosted]
    note(circle, "planned", {"season": season, "count": len(open_months), "unhosted": unhosted})
    schedule = [(m, hosts_of(m)) for m in months]
    for member in members:
        mine = [m for m, hs in schedule if m in open_months and member in hs]
        mail.send_member(
            member,
            "schedule",
            {
                "circle": circle,
                "season": season,
                "mine": mine,
                "schedule": schedule,
                "link": mail.member_link(member),
                "feed": mail.feed_link(circle),
            },
        )
    return plan


# --- a month --------------------------------------------------------------------------------------


@transaction.atomic
def edit_month(
    month_id: int,
    *,
    day: date,
    at: time,
    place: str,
    host_note: str,
    hosts: list[int] | None = None,
) -> Month:
    """The night's date, time and place (the host or the admin) and its hosts (the admin).
    Members with an address hear of a new date or place."""
    month = lock_month(month_id)
    circle = month.season.circle
    check_open(month, "its details")
    if (day.year, day.month) != (month.first.year, month.first.month):
        raise Refused(
            _("{month}'s night must be in {name}.").format(
                month=month.name, name=date_format(month.first, "F")
            )
        )
    if datetime.combine(day, at, tzinfo=circle.tz) < timezone.now():
        raise Refused(_("That date and time are already past."))
    before = (month.date, month.time, place_of(month))
    month.date, month.time = day, at
    month.place = " ".join(str(place or "").split())[:200]
    month.host_note = " ".join(str(host_note or "").split())[:300]
    if hosts is not None:
        _set_hosts(circle, month, hosts)
    after = (month.date, month.time, place_of(month))
    if before[:2] != after[:2]:
        month.reminded_at = None
    month.revision += 1
    month.save()
    arm_reminder(month)
    if before != after:
        when = {"day": month.date, "time": month.time, "place": after[2]}
        note(circle, "night_moved_place" if after[2] else "night_moved", when, month)
        mail.send_members(
            circle.members.filter(active=True, kind=Member.Kind.MEMBER),
            "moved",
            {"circle": circle, "month": month, "where": after[2]},
        )
    return month


def _set_hosts(circle: Circle, month: Month, member_ids: list[int]) -> None:
    ids = list(dict.fromkeys(int(i) for i in member_ids))
    members = {
        m.pk: m for m in circle.members.filter(pk__in=ids, active=True, kind=Member.Kind.MEMBER)
    }
    if len(members) != len(ids):
        raise Refused(_("Only members of the circle can host."))
    current = [h.member_id for h in month.hostings.all()]
    if current == ids:
        return
    month.hostings.all().delete()
    Hosting.objects.bulk_create(
        Hosting(month=month, member=members[pk], position=i) for i, pk in enumerate(ids)
    )
    SwapRequest.objects.filter(status=SwapRequest.Status.PENDING).filter(from_month=month).update(
        status=SwapRequest.Status.VOID
    )
    SwapRequest.objects.filter(status=SwapRequest.Status.PENDING, to_month=month).update(
        status=SwapRequest.Status.VOID
    )
    names = [members[pk].name for pk in ids]
    note(circle, "hosts_set" if names else "hosts_cleared", {"names": names}, month)


# --- swaps ------------------------------------------------------------------------------------


def _swap_months(circle: Circle, from_id: int, to_id: int) -> tuple[Month, Month]:
    months = {
        m.pk: m
        for m in Month.objects.filter(
            pk__in=[from_id, to_id], season__circle=circle
        ).select_related("season__circle")
    }
    if from_id not in months or to_id not in months:
        raise Refused(_("Both months must be months of this circle."))
    return months[from_id], months[to_id]


def _check_swappable(first: Month, second: Month) -> None:
    now = timezone.now()
    for month in (first, second):
        if month.started:
            raise Refused(
                _("{month}'s night has started: it can no longer be swapped.").format(
                    month=month.name
                )
            )
        if month.is_past(now):
            raise Refused(
                _("{month} is already past: only months to come can be swapped.").format(
                    month=month.name
                )
            )


@transaction.atomic
def request_swap(member_id: int, from_month_id: int, to_month_id: int, to_member_id: int):
    """A host asks another host to exchange months; the other answers on their phone."""
    member = Member.objects.filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused(_("Only members of the circle can swap months."))
    circle = lock_circle(member.circle_id)
    mine, theirs = _swap_months(circle, from_month_id, to_month_id)
    _check_swappable(mine, theirs)
    if not mine.hostings.filter(member=member).exists():
        raise Refused(_("You don't host {mine}, so you can't swap it.").format(mine=mine.name))
    other = theirs.hostings.filter(member_id=to_member_id).select_related("member").first()
    if other is None:
        raise Refused(_("That member doesn't host {theirs}.").format(theirs=theirs.name))
    if other.member_id == member.pk or mine.hostings.filter(member_id=to_member_id).exists():
        raise Refused(_("You already host both months together: there is nothing to swap."))
    if theirs.hostings.filter(member=member).exists():
        raise Refused(_("You already host {theirs}.").format(theirs=theirs.name))
    _check_can_host(member, theirs, other.member, mine)
    if SwapRequest.objects.filter(
        status=SwapRequest.Status.PENDING,
        from_month=mine,
        from_member=member,
        to_month=theirs,
        to_member_id=to_member_id,
    ).exists():
        raise Refused(
            _("You have already asked {name}: wait for the answer.").format(name=other.member.name)
        )
    swap = SwapRequest.objects.create(
        from_month=mine, from_member=member, to_month=theirs, to_member=other.member
    )
    asked = {"name": member.name, "other": other.member.name, "other_month": theirs}
    note(circle, "swap_asked", asked, mine)
    mail.send_member(
        other.member,
        "swap_request",
        {
            "circle": circle,
            "swap": swap,
            "link": mail.member_link(other.member),
        },
    )
    return swap


def _check_can_host(me: Member, my_new: Month, other: Member, their_new: Month) -> None:
    """A swap never puts someone in a month they said they can't host (the planner keeps
    them out of it too); said to ``me``, who asks or answers."""
    if not can_host(me, my_new):
        raise Refused(
            _("You said you can't host in {month}: change that on your page first.").format(
                month=MONTH_NAMES[my_new.date.month - 1]
            )
        )
    if not can_host(other, their_new):
        raise Refused(
            _("{name} can't host in {month}.").format(
                name=other.name, month=MONTH_NAMES[their_new.date.month - 1]
            )
        )


def _pending(circle: Circle, swap_id: int) -> SwapRequest:
    swap = (
        SwapRequest.objects.select_related("from_month", "to_month", "from_member", "to_member")
        .filter(pk=swap_id, from_month__season__circle=circle)
        .first()
    )
    if swap is None:
        raise Refused(_("That swap request does not exist."))
    if swap.status != SwapRequest.Status.PENDING:
        raise Refused(
            _("That swap request is closed ({value}).").format(
                value=swap.get_status_display().lower()
            )
        )
    return swap


def answer_swap(circle_id: int, swap_id: int, member_id: int, accept: bool) -> SwapRequest:
    """The asked host accepts (the two exchange months) or declines; the admin sees it. A
    request that no longer holds (a month went past, a host changed) is closed as such, and
    the answer is refused with the reason."""
    with transaction.atomic():
        swap, problem = _answer_swap(circle_id, swap_id, member_id, accept)
    if problem:
        raise Refused(problem)
    return swap


def _answer_swap(
    circle_id: int, swap_id: int, member_id: int, accept: bool
) -> tuple[SwapRequest, str | None]:
    circle = lock_circle(circle_id)
    swap = _pending(circle, swap_id)
    if swap.to_member_id != member_id:
        raise Refused(
            _("Only {name} can answer this swap request.").format(name=swap.to_member.name)
        )
    mine, theirs = swap.from_month, swap.to_month
    swap.answered_at = timezone.now()
    if not accept:
        swap.status = SwapRequest.Status.DECLINED
        swap.save(update_fields=["status", "answered_at"])
        declined = {"name": swap.to_member.name, "month": theirs, "other_month": mine}
        note(circle, "swap_declined", declined, mine)
        mail.send_member(
            swap.from_member,
            "swap_answer",
            {
                "circle": circle,
                "swap": swap,
                "link": mail.member_link(swap.from_member),
            },
        )
        return swap, None
    give = mine.hostings.filter(member=swap.from_member).first()
    take = theirs.hostings.filter(member=swap.to_member).first()
    try:
        _check_swappable(mine, theirs)
        if give is None or take is None:
            raise Refused(
                _("The hosts of these months changed since the request: it no longer holds.")
            )
        # Either may have said since that they can't host the month they would take.
        _check_can_host(swap.to_member, mine, swap.from_member, theirs)
    except Refused as problem:
        swap.status = SwapRequest.Status.VOID
        swap.save(update_fields=["status", "answered_at"])
        return swap, str(problem)
    give.member, take.member = swap.to_member, swap.from_member
    give.save(update_fields=["member"])
    take.save(update_fields=["member"])
    for month in (mine, theirs):
        month.revision += 1
        month.save(update_fields=["revision", "updated"])
    swap.status = SwapRequest.Status.ACCEPTED
    swap.save(update_fields=["status", "answered_at"])
    # Other requests about either hosting no longer hold.
    SwapRequest.objects.filter(status=SwapRequest.Status.PENDING).filter(
        from_month__in=[mine, theirs]
    ).update(status=SwapRequest.Status.VOID)
    SwapRequest.objects.filter(
        status=SwapRequest.Status.PENDING, to_month__in=[mine, theirs]
    ).update(status=SwapRequest.Status.VOID)
    swapped = {"name": swap.to_member.name, "other": swap.from_member.name, "other_month": theirs}
    note(circle, "swapped", swapped, mine)
    context = {"circle": circle, "swap": swap}
    mail.send_member(
        swap.from_member,
        "swap_answer",
        {**context, "link": mail.member_link(swap.from_member)},
    )
    if circle.admin.email:
        mail.send(circle.admin.email, "swap_admin", context, mail.admin_language(circle))
    return swap, None


@transaction.atomic
def cancel_swap(circle_id: int, swap_id: int, member_id: int) -> SwapRequest:
    circle = lock_circle(circle_id)
    swap = _pending(circle, swap_id)
    if swap.from_member_id != member_id:
        raise Refused(
            _("Only {name} can take this swap request back.").format(name=swap.from_member.name)
        )
    swap.status = SwapRequest.Status.CANCELLED
    swap.answered_at = timezone.now()
    swap.save(update_fields=["status", "answered_at"])
    withdrawn = {"name": swap.from_member.name, "other": swap.to_member.name}
    note(circle, "swap_withdrawn", {**withdrawn, "other_month": swap.to_month}, swap.from_month)
    # The asked host had a mail asking them: they hear that there is nothing to answer.
    mail.send_member(
        swap.to_member,
        "swap_withdrawn",
        {"circle": circle, "swap": swap, "link": mail.member_link(swap.to_member)},
    )
    return swap
