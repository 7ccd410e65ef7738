"""Every change to a circle: one function per action, each in one transaction.

Changes to who is in the circle and who hosts what lock the circle's row; changes to one
month's night (RSVPs, substitutes, the checklist, starting it) lock the month's row. A refused
change raises ``Refused`` with the sentence the person reads, and nothing changes.
"""

from __future__ import annotations

import logging
import math
import random
import secrets
from datetime import date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from apps.circles import mail, planner, tokens
from apps.circles.dates import add_months, season_months, usual_date
from apps.circles.models import (
    Activity,
    Circle,
    Hosting,
    Member,
    Month,
    NightSeat,
    Rsvp,
    Season,
    SubstituteAsk,
    SwapRequest,
)
from apps.circles.selectors import CHECKLIST, attendance, hosts_of, place_of
from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.models import Deadline
from apps.parties import services as parties
from apps.parties.models import Party, Player
from apps.prizes.categories import Category
from apps.prizes.services import set_categories

log = logging.getLogger(__name__)

MAX_NAME = 30
# The shortest time a substitute is given to answer when the night is close.
MIN_ANSWER = timedelta(minutes=30)


# --- helpers ------------------------------------------------------------------------------------


def _lock_circle(circle_id: int) -> Circle:
    circle = Circle.objects.select_for_update().filter(pk=circle_id).first()
    if circle is None:
        raise Refused("That circle no longer exists.")
    return circle


def _lock_month(month_id: int) -> Month:
    month = Month.objects.select_for_update().filter(pk=month_id).first()
    if month is None:
        raise Refused("That month is not part of the circle's season.")
    return month


def _note(circle: Circle, text: str, month: Month | None = None) -> None:
    Activity.objects.create(circle=circle, month=month, text=text[:300])


def clean_name(circle: Circle, name: str, exclude: int | None = None) -> str:
    """A member's name as the party nights will use it: one line, at most 30 characters,
    not a ghost's, and not the name of another member of the circle."""
    name = " ".join(str(name or "").split())
    if not name:
        raise Refused("Type a name first.")
    if len(name) > MAX_NAME:
        raise Refused(f"A name can be at most {MAX_NAME} characters.")
    if name.lower().startswith("ghost"):
        raise Refused("Names starting with 'Ghost' are kept for the app's ghost seats.")
    taken = circle.members.filter(active=True, name__iexact=name).exclude(pk=exclude).first()
    if taken is not None:
        raise Refused(
            f"There is already a member called {taken.name} in this circle. If that is you, open "
            "your member link; otherwise add an initial to your name."
        )
    return name


def _clean_months(values) -> list[int]:
    months = sorted({int(v) for v in values or []})
    if any(not 1 <= m <= 12 for m in months):
        raise Refused("Months are numbered 1 to 12.")
    if len(months) == 12:
        raise Refused("Leave at least one month you could host.")
    return months


def _open(month: Month, now: datetime | None = None) -> bool:
    """A month whose hosts may still change: its night neither started nor over."""
    return not month.started and not month.is_past(now)


def _check_open(month: Month, what: str) -> None:
    if month.started:
        raise Refused(f"{month.name}'s night has started: {what} can't change any more.")
    if month.is_past():
        raise Refused(f"{month.name} is already past: {what} can't change any more.")


def day_name(day: date) -> str:
    """'Thursday 19 March', as the pages and mails say a date."""
    return f"{day:%A} {day.day} {day:%B}"


def _ms(delay: timedelta) -> int:
    """A delay in whole milliseconds, rounded up: a deadline never fires early."""
    return math.ceil(delay.total_seconds() * 1000)


def _scope(month: Month) -> str:
    return f"circle:{month.pk}"


def _arm_reminder(month: Month, now: datetime | None = None) -> None:
    """The reminder mail, due the circle's number of days before the night."""
    now = now or timezone.now()
    circle = month.season.circle
    due = month.starts_at - timedelta(days=circle.reminder_days)
    Deadline.objects.filter(scope=_scope(month), key="reminder").delete()
    if circle.reminder_days and due > now and not month.started and month.reminded_at is None:
        scheduler.arm(_scope(month), "reminder", _ms(due - now), {"kind": "reminder"}, now=now)


def remember_site(circle: Circle, base_url: str) -> None:
    """Where the links in mails sent later (by the scheduler) point."""
    base_url = base_url.rstrip("/")
    if base_url and circle.site_url != base_url:
        Circle.objects.filter(pk=circle.pk).update(site_url=base_url)
        circle.site_url = base_url


# --- the circle -----------------------------------------------------------------------------------


@transaction.atomic
def create_circle(
    admin,
    *,
    name: str,
    start: date,
    week: int = 3,
    weekday: int = 3,
    at: time = time(19, 0),
    tz: str = "",
    site_url: str = "",
) -> Circle:
    """A new circle and its first season of twelve months on the circle's usual night."""
    name = " ".join(str(name or "").split())
    if not name:
        raise Refused("Give the circle a name.")
    circle = Circle.objects.create(
        name=name[:60], admin=admin, week=week, weekday=weekday, time=at, site_url=site_url
    )
    if tz:
        circle.timezone = tz
        circle.save(update_fields=["timezone"])
    _new_season(circle, start)
    _note(circle, f"{admin.get_username()} started the circle.")
    return circle


def _new_season(circle: Circle, start: date) -> Season:
    season = Season.objects.create(circle=circle, start=start.replace(day=1))
    Month.objects.bulk_create(
        Month(
            season=season,
            index=index,
            first=first,
            date=usual_date(first, circle.week, circle.weekday),
            time=circle.time,
        )
        for index, first in enumerate(season_months(season.start))
    )
    return season


@transaction.atomic
def new_season(circle_id: int) -> Season:
    """The next twelve months after the circle's last season."""
    circle = _lock_circle(circle_id)
    last = circle.seasons.order_by("-start").first()
    start = add_months(last.start, 12) if last else circle.today().replace(day=1)
    season = _new_season(circle, start)
    _note(circle, f"The {season.name} season was added.")
    return season


@transaction.atomic
def update_circle(circle_id: int, data: dict) -> Circle:
    """The admin's settings. A new usual night moves the months to come that are still on
    the old one (a date a host set stays); every month to come gets its reminder at the
    (new) number of days before."""
    circle = _lock_circle(circle_id)
    name = " ".join(str(data.get("name", circle.name)).split())
    if not name:
        raise Refused("Give the circle a name.")
    data = {**data, "name": name[:60]}
    categories = data.get("prize_categories")
    if categories is not None and not categories:
        raise Refused("Keep at least one prize category.")
    old = (circle.week, circle.weekday, circle.time)
    for key, value in data.items():
        setattr(circle, key, value)
    circle.save()
    now = timezone.now()
    months = Month.objects.filter(season__circle=circle).select_related("season__circle")
    moved = 0
    for month in months:
        month.season.circle = circle
        if not _open(month, now):
            continue
        on_old_night = (month.date, month.time) == (usual_date(month.first, *old[:2]), old[2])
        new = (usual_date(month.first, circle.week, circle.weekday), circle.time)
        if on_old_night and new != (month.date, month.time):
            month.date, month.time = new
            month.revision += 1
            month.reminded_at = None
            month.save(update_fields=["date", "time", "revision", "reminded_at", "updated"])
            moved += 1
        _arm_reminder(month, now)
    if moved:
        _note(circle, f"{moved} month(s) to come moved to the {circle.usual_night}.")
    return circle


@transaction.atomic
def new_invite_links(circle_id: int) -> Circle:
    """Every invite link given out before stops working."""
    circle = _lock_circle(circle_id)
    circle.invite_nonce = secrets.token_urlsafe(8)
    circle.save(update_fields=["invite_nonce"])
    _note(circle, "New invite links were made; the old ones no longer work.")
    return circle


@transaction.atomic
def new_feed_link(circle_id: int) -> Circle:
    circle = _lock_circle(circle_id)
    circle.feed_nonce = secrets.token_urlsafe(8)
    circle.save(update_fields=["feed_nonce"])
    return circle


def invite_circle(token: str) -> tuple[Circle, str]:
    """The circle an invite link is for and the kind of member it makes, or the reason it
    cannot be used."""
    invite = tokens.read_invite(token)
    circle = Circle.objects.filter(pk=invite.circle_id).first() if invite else None
    if invite is None or circle is None or invite.kind not in Member.Kind.values:
        raise Refused(
            "This invite link is not valid: it may have been cut short or mistyped. Ask the "
            "circle's admin to send it again."
        )
    if invite.nonce != circle.invite_nonce:
        raise Refused(
            f"This invite link to {circle.name} has been replaced by a newer one. Ask the "
            "circle's admin for the new link."
        )
    return circle, invite.kind


@transaction.atomic
def send_invitations(circle_id: int, addresses: list[str], kind: str, invite_url: str) -> int:
    circle = _lock_circle(circle_id)
    for address in addresses:
        mail.send(address, "invite", {"circle": circle, "link": invite_url, "kind": kind})
    if addresses:
        _note(circle, f"Invitations were mailed to {len(addresses)} address(es).")
    return len(addresses)


# --- members ----------------------------------------------------------------------------------


def _next_position(circle: Circle) -> int:
    last = circle.members.filter(kind=Member.Kind.SUBSTITUTE).order_by("-position").first()
    return (last.position + 1) if last else 1


def _create_member(circle: Circle, kind: str, user=None, **details) -> Member:
    name = clean_name(circle, details.pop("name", ""))
    member = Member.objects.create(
        circle=circle,
        name=name,
        kind=kind,
        position=_next_position(circle) if kind == Member.Kind.SUBSTITUTE else 0,
        user=user,
        **{k: " ".join(str(v or "").split()) for k, v in details.items()},
    )
    return member


@transaction.atomic
def join_circle(token: str, *, user=None, **details) -> Member:
    """A phone joins from an invite link with a name and, if they like, how to reach them.
    A signed-in user becomes that member on every device they sign in on."""
    circle, kind = invite_circle(token)
    circle = _lock_circle(circle.pk)
    if user is not None and circle.members.filter(user=user, active=True).exists():
        raise Refused(f"You are already a member of {circle.name}.")
    member = _create_member(circle, kind, user=user, **details)
    role = " as a substitute" if member.is_substitute else ""
    _note(circle, f"{member.name} joined{role}.")
    mail.send(
        member.email,
        "welcome",
        {"circle": circle, "member": member, "link": mail.member_link(member)},
    )
    return member


@transaction.atomic
def add_member(circle_id: int, *, kind: str = Member.Kind.MEMBER, **details) -> Member:
    """The admin adds someone by hand (a member without a phone, a substitute they know)."""
    circle = _lock_circle(circle_id)
    if kind not in Member.Kind.values:
        raise Refused("Choose member or substitute.")
    member = _create_member(circle, kind, **details)
    _note(circle, f"{member.name} was added as a {member.get_kind_display().lower()}.")
    mail.send(
        member.email,
        "welcome",
        {"circle": circle, "member": member, "link": mail.member_link(member)},
    )
    return member


def _member(circle: Circle, member_id: int) -> Member:
    member = circle.members.filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused("That person is not a member of this circle.")
    return member


@transaction.atomic
def update_member(
    member_id: int,
    *,
    name: str,
    email: str = "",
    phone: str = "",
    address: str = "",
    cannot_host=None,
) -> Member:
    """A member's own details (or the admin's edit of them)."""
    member = Member.objects.filter(pk=member_id).first()
    if member is None:
        raise Refused("That person is not a member of this circle.")
    circle = _lock_circle(member.circle_id)
    member = _member(circle, member_id)
    member.name = clean_name(circle, name, exclude=member.pk)
    member.email = " ".join(str(email or "").split())
    member.phone = " ".join(str(phone or "").split())
    member.address = " ".join(str(address or "").split())
    if cannot_host is not None:
        member.cannot_host = _clean_months(cannot_host)
    member.save()
    return member


@transaction.atomic
def set_kind(circle_id: int, member_id: int, kind: str) -> Member:
    """The admin makes a substitute a member (or the other way round)."""
    circle = _lock_circle(circle_id)
    member = _member(circle, member_id)
    if kind not in Member.Kind.values or kind == member.kind:
        return member
    if kind == Member.Kind.SUBSTITUTE and _future_hostings(member).exists():
        raise Refused(f"{member.name} hosts a month to come: give that month another host first.")
    member.kind = kind
    member.position = _next_position(circle) if kind == Member.Kind.SUBSTITUTE else 0
    member.save(update_fields=["kind", "position"])
    _note(circle, f"{member.name} is now a {member.get_kind_display().lower()}.")
    return member


@transaction.atomic
def move_substitute(circle_id: int, member_id: int, step: int) -> list[Member]:
    """Move a substitute up (-1) or down (+1) the list; the list is asked in this order."""
    circle = _lock_circle(circle_id)
    subs = list(
        circle.members.filter(active=True, kind=Member.Kind.SUBSTITUTE).order_by("position", "id")
    )
    index = next((i for i, m in enumerate(subs) if m.pk == member_id), None)
    if index is None:
        raise Refused("That person is not on the list of substitutes.")
    other = index + (1 if step > 0 else -1)
    if 0 <= other < len(subs):
        subs[index], subs[other] = subs[other], subs[index]
    for position, member in enumerate(subs, start=1):
        if member.position != position:
            member.position = position
            member.save(update_fields=["position"])
    return subs


def _future_hostings(member: Member):
    now = timezone.now()
    ids = [
        h.pk for h in member.hostings.select_related("month__season__circle") if _open(h.month, now)
    ]
    return Hosting.objects.filter(pk__in=ids)


@transaction.atomic
def remove_member(circle_id: int, member_id: int) -> list[Month]:
    """Someone leaves the circle: off the list and off the months to come (those months
    need a new host); the nights they played stay in the standings."""
    circle = _lock_circle(circle_id)
    member = _member(circle, member_id)
    months = [h.month for h in _future_hostings(member).select_related("month")]
    _future_hostings(member).delete()
    member.active = False
    member.nonce = secrets.token_urlsafe(8)
    member.save(update_fields=["active", "nonce"])
    for ask in member.asks.filter(status=SubstituteAsk.Status.ASKED):
        _close_ask(ask, SubstituteAsk.Status.WITHDRAWN)
    SwapRequest.objects.filter(status=SwapRequest.Status.PENDING).filter(from_member=member).update(
        status=SwapRequest.Status.VOID
    )
    SwapRequest.objects.filter(status=SwapRequest.Status.PENDING, to_member=member).update(
        status=SwapRequest.Status.VOID
    )
    text = f"{member.name} left the circle."
    orphaned = [m.name for m in months if not m.hostings.exists()]
    if orphaned:
        text += f" No host now: {', '.join(orphaned)}."
    _note(circle, text)
    return months


@transaction.atomic
def reset_member_link(circle_id: int, member_id: int) -> Member:
    """A lost phone: the old member link stops working; the new one is mailed."""
    circle = _lock_circle(circle_id)
    member = _member(circle, member_id)
    member.nonce = secrets.token_urlsafe(8)
    member.save(update_fields=["nonce"])
    mail.send(
        member.email,
        "welcome",
        {"circle": circle, "member": member, "link": mail.member_link(member), "renewed": True},
    )
    return member


@transaction.atomic
def give_login(member_id: int, username: str, password: str):
    """A login for a member (their own sign-up, or made by the admin), so they can run the
    night they host on the laptop and be recognised on any device they sign in on."""
    member = Member.objects.select_related("circle").filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused("That person is not a member of this circle.")
    _lock_circle(member.circle_id)
    member.refresh_from_db()
    if member.user_id:
        raise Refused(f"{member.name} already has a login ({member.user.get_username()}).")
    users = get_user_model()
    username = str(username or "").strip()
    if not username:
        raise Refused("Choose a username.")
    if users.objects.filter(username__iexact=username).exists():
        raise Refused(f"The username {username} is taken: choose another.")
    user = users(username=username, email=member.email)
    try:
        validate_password(password, user)
    except ValidationError as problems:
        raise Refused(" ".join(problems.messages)) from None
    user.set_password(password)
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as problems:
        raise Refused(" ".join(m for ms in problems.message_dict.values() for m in ms)) from None
    user.save()
    member.user = user
    member.save(update_fields=["user"])
    return user


# --- the season planner -------------------------------------------------------------------------


@transaction.atomic
def plan_season(season_id: int, rng: random.Random | None = None) -> planner.Plan:
    """One action: every month to come gets its hosts, each member hosting as evenly as the
    count allows and never in a month they cannot host. Months already played (or started)
    keep their hosts and count for them."""
    season = Season.objects.select_related("circle").filter(pk=season_id).first()
    if season is None:
        raise Refused("That season does not exist.")
    circle = _lock_circle(season.circle_id)
    rng = rng or random.Random(secrets.randbits(64))
    now = timezone.now()
    months = list(season.months.select_related("season__circle"))
    open_months = [m for m in months if _open(m, now)]
    if not open_months:
        raise Refused("Every month of this season is past or started: add the next season.")
    members = list(circle.members.filter(active=True, kind=Member.Kind.MEMBER).order_by("pk"))
    if not members:
        raise Refused("Invite the members first: the planner needs people to host.")
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
        _arm_reminder(month, now)
    season.planned_at = now
    season.save(update_fields=["planned_at"])
    unhosted = [open_months[i].name for i in plan.unhosted]
    text = f"The schedule of {season.name} was made ({len(open_months)} months)."
    if unhosted:
        text += f" Nobody can host {', '.join(unhosted)}: choose a host by hand."
    _note(circle, text)
    schedule = [(m, hosts_of(m)) for m in months]
    for member in members:
        mine = [m for m in open_months if any(h.pk == member.pk for h in hosts_of(m))]
        mail.send(
            member.email,
            "schedule",
            {
                "circle": circle,
                "season": season,
                "member": member,
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
    month = _lock_month(month_id)
    circle = month.season.circle
    _check_open(month, "its details")
    if (day.year, day.month) != (month.first.year, month.first.month):
        raise Refused(f"{month.name}'s night must be in {month.first:%B}.")
    if datetime.combine(day, at, tzinfo=circle.tz) < timezone.now():
        raise Refused("That date and time are already past.")
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
    _arm_reminder(month)
    if before != after:
        _note(
            circle,
            f"{month.name}'s night is now on {day_name(month.date)} at {month.time:%H:%M}"
            + (f", at {after[2]}" if after[2] else "")
            + ".",
            month,
        )
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
        raise Refused("Only members of the circle can host.")
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
    names = ", ".join(members[pk].name for pk in ids) or "nobody"
    _note(circle, f"The admin made {names} the host of {month.name}.", month)


@transaction.atomic
def set_rsvp(month_id: int, member_id: int, answer: str) -> Rsvp:
    """A member answers from their phone: coming, not coming, maybe. After the night has
    started the list is the party's (late arrivals join there)."""
    month = _lock_month(month_id)
    if answer not in Rsvp.Answer.values:
        raise Refused("Answer coming, not coming or maybe.")
    member = month.season.circle.members.filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused("Only members of the circle can answer.")
    if member.is_substitute:
        raise Refused("Substitutes are asked by the host when a seat is free.")
    if month.hostings.filter(member=member).exists():
        raise Refused(
            f"You host {month.name}, so you count as coming. If you can't, ask another host "
            "to swap months."
        )
    if month.started:
        raise Refused(
            f"{month.name}'s night has already started, so the answers are closed. If you "
            "are there, join the night from your page."
        )
    if month.is_past():
        raise Refused(f"{month.name}'s night is over.")
    rsvp, _ = Rsvp.objects.update_or_create(month=month, member=member, defaults={"answer": answer})
    _withdraw_if_full(month)
    return rsvp


@transaction.atomic
def set_checklist(month_id: int, item: str, done: bool) -> Month:
    month = _lock_month(month_id)
    if item not in CHECKLIST:
        raise Refused("That is not on the host's checklist.")
    _check_open(month, "the checklist")
    setattr(month, CHECKLIST[item][0], bool(done))
    month.save(update_fields=[CHECKLIST[item][0], "updated"])
    return month


@transaction.atomic
def set_fill(month_id: int, fill: str) -> Month:
    """What the night does when the players are not a multiple of 4: substitutes, or the
    host falls back to ghost seats or sit-outs (the party's attendance option)."""
    month = _lock_month(month_id)
    if fill not in Month.Fill.values:
        raise Refused("Choose substitutes, ghost seats or sit-outs.")
    _check_open(month, "the empty seats")
    month.fill = fill
    month.save(update_fields=["fill", "updated"])
    if fill != Month.Fill.SUBSTITUTES:
        for ask in month.asks.filter(status=SubstituteAsk.Status.ASKED):
            _close_ask(ask, SubstituteAsk.Status.WITHDRAWN)
    return month


# --- substitutes -------------------------------------------------------------------------------


def _close_ask(ask: SubstituteAsk, status: str, now: datetime | None = None) -> None:
    ask.status = status
    ask.answered_at = now or timezone.now()
    ask.save(update_fields=["status", "answered_at"])
    Deadline.objects.filter(scope=_scope(ask.month), key=f"ask:{ask.pk}").delete()
    if status == SubstituteAsk.Status.WITHDRAWN:
        month = ask.month
        mail.send(
            ask.member.email,
            "substitute_withdrawn",
            {"circle": month.season.circle, "month": month, "member": ask.member},
        )


def _withdraw_if_full(month: Month) -> None:
    """Once every seat is filled the open requests are withdrawn (nobody arrives to find
    the tables full)."""
    seen = attendance(month)
    extra = len(seen.open_asks) - seen.short
    if extra <= 0:
        return
    for ask in reversed(seen.open_asks[-extra:]):
        _close_ask(ask, SubstituteAsk.Status.WITHDRAWN)


def _ask(month: Month, count: int, now: datetime | None = None) -> list[SubstituteAsk]:
    """Ask the next ``count`` substitutes on the list who were not asked for this month."""
    now = now or timezone.now()
    circle = month.season.circle
    asked = set(month.asks.values_list("member_id", flat=True))
    coming = set(month.rsvps.filter(answer=Rsvp.Answer.YES).values_list("member_id", flat=True))
    candidates = [
        m
        for m in circle.members.filter(active=True, kind=Member.Kind.SUBSTITUTE).order_by(
            "position", "id"
        )
        if m.pk not in asked and m.pk not in coming
    ]
    window = timedelta(hours=circle.answer_hours)
    due = min(now + window, month.starts_at - timedelta(hours=1))
    due = max(due, now + MIN_ANSWER)
    made = []
    for member in candidates[:count]:
        ask = SubstituteAsk.objects.create(month=month, member=member, asked_at=now, due_at=due)
        scheduler.arm(
            _scope(month),
            f"ask:{ask.pk}",
            _ms(due - now),
            {"kind": "ask", "ask": ask.pk},
            now=now,
        )
        hosts = hosts_of(month)
        mail.send(
            member.email,
            "substitute",
            {
                "circle": circle,
                "month": month,
                "member": member,
                "hosts": hosts,
                "where": place_of(month, hosts),
                "due": due.astimezone(circle.tz),
                "link": mail.ask_link(ask),
            },
        )
        _note(circle, f"{member.name} was asked to fill a seat in {month.name}.", month)
        made.append(ask)
    return made


def _ask_next(month: Month, now: datetime | None = None) -> list[SubstituteAsk]:
    """After a decline or a silence: ask the next ones while seats are short; when the list
    runs out, tell the host."""
    if month.fill != Month.Fill.SUBSTITUTES or not _open(month, now):
        return []
    seen = attendance(month)
    if seen.still_to_find <= 0:
        return []
    made = _ask(month, seen.still_to_find, now)
    if len(made) < seen.still_to_find:
        circle = month.season.circle
        short = seen.still_to_find - len(made)
        _note(circle, f"The list of substitutes ran out for {month.name}.", month)
        for host in hosts_of(month):
            mail.send(
                host.email,
                "list_ran_out",
                {
                    "circle": circle,
                    "month": month,
                    "member": host,
                    "short": short,
                    "link": mail.member_link(host),
                },
            )
    return made


@transaction.atomic
def ask_substitutes(month_id: int) -> list[SubstituteAsk]:
    """The host's one action: ask the substitutes in the list's order, as many as seats are
    short. Each gets a link to accept or decline; the next is asked when one declines or
    does not answer in time."""
    month = _lock_month(month_id)
    _check_open(month, "the players")
    seen = attendance(month)
    if seen.short == 0:
        raise Refused(
            "Nobody is coming yet." if not seen.count else "Every table is full: no seat to fill."
        )
    if seen.still_to_find == 0:
        raise Refused(
            f"{len(seen.open_asks)} substitute(s) have been asked already: wait for their answers."
        )
    if month.fill != Month.Fill.SUBSTITUTES:
        month.fill = Month.Fill.SUBSTITUTES
        month.save(update_fields=["fill", "updated"])
    made = _ask(month, seen.still_to_find)
    if not made:
        raise Refused(
            "Every substitute on the list has been asked. Fall back to ghost seats or "
            "sit-outs, or ask the admin to add substitutes."
        )
    return made


def ask_of(token: str) -> SubstituteAsk:
    found = tokens.read_ask_token(token)
    ask = (
        SubstituteAsk.objects.select_related("month__season__circle", "member")
        .filter(pk=found[0])
        .first()
        if found
        else None
    )
    if ask is None or ask.nonce != found[1]:
        raise Refused(
            "This link is not valid: it may have been cut short or mistyped. Ask the host "
            "to send it again."
        )
    return ask


STATUS_REFUSALS = {
    SubstituteAsk.Status.DECLINED: "You already said you can't come. Thank you for answering.",
    SubstituteAsk.Status.EXPIRED: (
        "Sorry, the time to answer ran out and the next substitute was asked."
    ),
    SubstituteAsk.Status.WITHDRAWN: (
        "Thank you, but the tables are full now: you are not needed this time."
    ),
}


@transaction.atomic
def answer_ask(token: str, accept: bool) -> SubstituteAsk:
    """A substitute accepts or declines from the link on their phone."""
    found = ask_of(token)
    month = _lock_month(found.month_id)
    ask = SubstituteAsk.objects.select_related("member").get(pk=found.pk)
    if ask.status == SubstituteAsk.Status.ACCEPTED:
        if accept:
            return ask  # a second tap on the same answer
        raise Refused(
            "You already said you'll come. If you can't after all, tell the host, "
            f"{', '.join(h.name for h in hosts_of(month)) or 'the admin'}."
        )
    if ask.status in STATUS_REFUSALS:
        raise Refused(STATUS_REFUSALS[ask.status])
    if month.started:
        raise Refused(f"{month.name}'s night has already started.")
    if month.is_past():
        raise Refused(f"{month.name}'s night is over.")
    circle = month.season.circle
    if not accept:
        _close_ask(ask, SubstituteAsk.Status.DECLINED)
        _note(circle, f"{ask.member.name} can't come in {month.name}.", month)
        _ask_next(month)
        return ask
    if attendance(month).short == 0:
        _close_ask(ask, SubstituteAsk.Status.WITHDRAWN)
        raise Refused(STATUS_REFUSALS[SubstituteAsk.Status.WITHDRAWN])
    _close_ask(ask, SubstituteAsk.Status.ACCEPTED)
    Rsvp.objects.update_or_create(
        month=month, member=ask.member, defaults={"answer": Rsvp.Answer.YES}
    )
    _note(circle, f"{ask.member.name} fills a seat in {month.name}.", month)
    _withdraw_if_full(month)
    for host in hosts_of(month):
        mail.send(
            host.email,
            "substitute_found",
            {
                "circle": circle,
                "month": month,
                "member": host,
                "substitute": ask.member,
                "short": attendance(month).short,
                "link": mail.member_link(host),
            },
        )
    return ask


# --- the night ---------------------------------------------------------------------------------


def may_start(month: Month, today: date | None = None) -> str | None:
    """Why the month's night cannot be started today, or None."""
    today = today or month.season.circle.today()
    if month.started:
        return f"{month.name}'s night has already started."
    if today < month.date - timedelta(days=1):
        return (
            f"{month.name}'s night can be started from "
            f"{day_name(month.date - timedelta(days=1))} (the day before)."
        )
    if today > month.date + timedelta(days=1):
        return f"{month.name}'s night is over."
    return None


@transaction.atomic
def start_night(month_id: int, user) -> Party:
    """The party night of the month: the RSVPs who are coming as its players (substitutes as
    substitutes), the circle's prize categories, and the circle's options; the month's
    fallback is the night's attendance. The one who starts it is its host on the laptop."""
    month = _lock_month(month_id)
    circle = month.season.circle
    if reason := may_start(month):
        raise Refused(reason)
    seen = attendance(month)
    if seen.count < 4:
        raise Refused(
            f"Only {seen.count} {'is' if seen.count == 1 else 'are'} coming: Bunko needs at "
            "least 4 players."
        )
    if seen.short and month.fill == Month.Fill.SUBSTITUTES:
        raise Refused(
            f"{seen.short} seat{'s are' if seen.short > 1 else ' is'} still short of a table of "
            "4. Ask the substitutes, or fall back to ghost seats or sit-outs."
        )
    party = parties.create_party(
        user,
        name=f"{circle.name}: {month.name}"[:80],
        rounds=circle.rounds,
        dice_mode=circle.dice_mode,
        attendance=month.fill,
    )
    set_categories(party.code, [Category.from_json(c) for c in circle.prize_categories])
    for member in seen.coming:
        kind = Player.Kind.SUBSTITUTE if member.is_substitute else Player.Kind.PLAYER
        player = parties.add_player(party.code, member.name, kind=kind)
        NightSeat.objects.create(month=month, member=member, player=player)
    month.party = party
    month.save(update_fields=["party", "updated"])
    for ask in month.asks.filter(status=SubstituteAsk.Status.ASKED):
        _close_ask(ask, SubstituteAsk.Status.WITHDRAWN)
    Deadline.objects.filter(scope=_scope(month)).delete()
    _note(circle, f"{month.name}'s night started with {seen.count} players.", month)
    return party


@transaction.atomic
def arrive(month_id: int, member_id: int) -> tuple[Player, str]:
    """A member arrives at the night: their phone becomes their player (the one made from
    their RSVP, or a new one for someone who came after all), so the night's results go to
    the right person. Returns the player and the seat token."""
    month = _lock_month(month_id)
    member = month.season.circle.members.filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused("Only members of the circle can join its night.")
    party = month.party
    if party is None:
        raise Refused(f"{month.name}'s night has not started yet.")
    if party.status == Party.Status.ENDED:
        raise Refused(f"{month.name}'s night is over.")
    seat = NightSeat.objects.filter(month=month, member=member).select_related("player").first()
    if seat is None:
        player = party.players.filter(name__iexact=member.name, circle_seat__isnull=True).first()
        if player is None:
            kind = Player.Kind.SUBSTITUTE if member.is_substitute else Player.Kind.PLAYER
            player = parties.add_player(party.code, member.name, kind=kind)
        seat = NightSeat.objects.create(month=month, member=member, player=player)
    return parties.join_party(party.code, player_id=seat.player_id)


# --- swaps ------------------------------------------------------------------------------------


def _swap_months(circle: Circle, from_id: int, to_id: int) -> tuple[Month, Month]:
    months = {
        m.pk: m
        for m in Month.objects.filter(
            pk__in=[from_id, to_id], season__circle=circle
        ).select_related("season__circle")
    }
    if from_id not in months or to_id not in months:
        raise Refused("Both months must be months of this circle.")
    return months[from_id], months[to_id]


def _check_swappable(first: Month, second: Month) -> None:
    now = timezone.now()
    for month in (first, second):
        if month.started:
            raise Refused(f"{month.name}'s night has started: it can no longer be swapped.")
        if month.is_past(now):
            raise Refused(f"{month.name} is already past: only months to come can be swapped.")


@transaction.atomic
def request_swap(member_id: int, from_month_id: int, to_month_id: int, to_member_id: int):
    """A host asks another host to exchange months; the other answers on their phone."""
    member = Member.objects.filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused("Only members of the circle can swap months.")
    circle = _lock_circle(member.circle_id)
    mine, theirs = _swap_months(circle, from_month_id, to_month_id)
    _check_swappable(mine, theirs)
    if not mine.hostings.filter(member=member).exists():
        raise Refused(f"You don't host {mine.name}, so you can't swap it.")
    other = theirs.hostings.filter(member_id=to_member_id).select_related("member").first()
    if other is None:
        raise Refused(f"That member doesn't host {theirs.name}.")
    if other.member_id == member.pk or mine.hostings.filter(member_id=to_member_id).exists():
        raise Refused("You already host both months together: there is nothing to swap.")
    if theirs.hostings.filter(member=member).exists():
        raise Refused(f"You already host {theirs.name}.")
    if SwapRequest.objects.filter(
        status=SwapRequest.Status.PENDING,
        from_month=mine,
        from_member=member,
        to_month=theirs,
        to_member_id=to_member_id,
    ).exists():
        raise Refused(f"You have already asked {other.member.name}: wait for the answer.")
    swap = SwapRequest.objects.create(
        from_month=mine, from_member=member, to_month=theirs, to_member=other.member
    )
    _note(
        circle,
        f"{member.name} asked {other.member.name} to swap {mine.name} for {theirs.name}.",
        mine,
    )
    mail.send(
        other.member.email,
        "swap_request",
        {
            "circle": circle,
            "swap": swap,
            "member": other.member,
            "link": mail.member_link(other.member),
        },
    )
    return swap


def _pending(circle: Circle, swap_id: int) -> SwapRequest:
    swap = (
        SwapRequest.objects.select_related("from_month", "to_month", "from_member", "to_member")
        .filter(pk=swap_id, from_month__season__circle=circle)
        .first()
    )
    if swap is None:
        raise Refused("That swap request does not exist.")
    if swap.status != SwapRequest.Status.PENDING:
        raise Refused(f"That swap request is closed ({swap.get_status_display().lower()}).")
    return swap


@transaction.atomic
def answer_swap(circle_id: int, swap_id: int, member_id: int, accept: bool) -> SwapRequest:
    """The asked host accepts (the two exchange months) or declines; the admin sees it."""
    circle = _lock_circle(circle_id)
    swap = _pending(circle, swap_id)
    if swap.to_member_id != member_id:
        raise Refused(f"Only {swap.to_member.name} can answer this swap request.")
    mine, theirs = swap.from_month, swap.to_month
    swap.answered_at = timezone.now()
    if not accept:
        swap.status = SwapRequest.Status.DECLINED
        swap.save(update_fields=["status", "answered_at"])
        _note(
            circle,
            f"{swap.to_member.name} declined to swap {theirs.name} for {mine.name}.",
            mine,
        )
        mail.send(
            swap.from_member.email,
            "swap_answer",
            {
                "circle": circle,
                "swap": swap,
                "member": swap.from_member,
                "link": mail.member_link(swap.from_member),
            },
        )
        return swap
    _check_swappable(mine, theirs)
    give = mine.hostings.filter(member=swap.from_member).first()
    take = theirs.hostings.filter(member=swap.to_member).first()
    if give is None or take is None:
        swap.status = SwapRequest.Status.VOID
        swap.save(update_fields=["status", "answered_at"])
        raise Refused("The hosts of these months changed since the request: it no longer holds.")
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
    _note(
        circle,
        f"Swapped: {swap.to_member.name} now hosts {mine.name}, "
        f"{swap.from_member.name} hosts {theirs.name}.",
        mine,
    )
    context = {"circle": circle, "swap": swap}
    mail.send(
        swap.from_member.email,
        "swap_answer",
        {**context, "member": swap.from_member, "link": mail.member_link(swap.from_member)},
    )
    if circle.admin.email:
        mail.send(circle.admin.email, "swap_admin", context)
    return swap


@transaction.atomic
def cancel_swap(circle_id: int, swap_id: int, member_id: int) -> SwapRequest:
    circle = _lock_circle(circle_id)
    swap = _pending(circle, swap_id)
    if swap.from_member_id != member_id:
        raise Refused(f"Only {swap.from_member.name} can take this swap request back.")
    swap.status = SwapRequest.Status.CANCELLED
    swap.answered_at = timezone.now()
    swap.save(update_fields=["status", "answered_at"])
    return swap


# --- timed: the substitute who did not answer, the reminder ---------------------------------------


def fire_deadline(deadline_id: int, scope: str, now: datetime) -> bool:
    """The scheduler's handler for circles ("circle:<month id>")."""
    try:
        month_id = int(scope.split(":", 1)[1])
    except (IndexError, ValueError):
        return False
    with transaction.atomic():
        month = Month.objects.select_for_update().filter(pk=month_id).first()
        deadline = scheduler.claim(deadline_id)
        if month is None or deadline is None:
            return False
        payload = deadline.payload or {}
        if payload.get("kind") == "ask":
            ask = month.asks.select_related("member").filter(pk=payload.get("ask")).first()
            if ask is None or not ask.open:
                return False
            if ask.due_at > now:  # moved later meanwhile: wait for the new time
                scheduler.arm(
                    scope,
                    deadline.key,
                    _ms(ask.due_at - now),
                    payload,
                    now=now,
                )
                return False
            _close_ask(ask, SubstituteAsk.Status.EXPIRED, now)
            _note(
                month.season.circle,
                f"{ask.member.name} did not answer in time for {month.name}.",
                month,
            )
            _ask_next(month, now)
            return True
        if payload.get("kind") == "reminder":
            return _remind(month, now)
    return False


def _remind(month: Month, now: datetime) -> bool:
    if month.started or month.is_past(now) or month.reminded_at is not None:
        return False
    circle = month.season.circle
    hosts = hosts_of(month)
    seen = attendance(month)
    month.reminded_at = now
    month.save(update_fields=["reminded_at"])
    for member in circle.members.filter(active=True, kind=Member.Kind.MEMBER):
        if not member.email:
            continue
        answer = next(
            (
                label
                for group, label in (
                    (seen.coming, "coming"),
                    (seen.maybe, "maybe"),
                    (seen.not_coming, "not coming"),
                )
                if member in group
            ),
            "",
        )
        mail.send(
            member.email,
            "reminder",
            {
                "circle": circle,
                "month": month,
                "member": member,
                "hosts": hosts,
                "hosting": member in hosts,
                "where": place_of(month, hosts),
                "answer": answer,
                "seen": seen,
                "link": mail.member_link(member),
            },
        )
    return True
