"""What the circle's services share: locking the rows that order the changes, names,
the activity list, and the deadlines of a month (its reminder, its substitutes' answers)."""

from __future__ import annotations

import logging
import math
from datetime import date, datetime, timedelta

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from apps.circles import activity, mail
from apps.circles.models import (
    Activity,
    Circle,
    Month,
    SubstituteAsk,
)
from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.models import Deadline
from apps.core.names import MAX_NAME, same_name
from apps.core.names import clean_name as clean_person_name

log = logging.getLogger(__name__)

# The shortest time a substitute is given to answer when the night is close.
MIN_ANSWER = timedelta(minutes=30)


# --- helpers ------------------------------------------------------------------------------------


def lock_circle(circle_id: int) -> Circle:
    circle = Circle.objects.select_for_update().filter(pk=circle_id).first()
    if circle is None:
        raise Refused(_("That circle no longer exists."))
    return circle


def lock_month(month_id: int) -> Month:
    month = Month.objects.select_for_update().filter(pk=month_id).first()
    if month is None:
        raise Refused(_("That month is not part of the circle's season."))
    return month


def note(circle: Circle, kind: str, data: dict | None = None, month: Month | None = None) -> None:
    """A line of the circle's activity: what happened (a kind of apps.circles.activity) and
    to whom and when (names as typed, months and dates as themselves), told in each reader's
    language when shown. ``month`` is the month the line is about (``{month}`` unless the data
    says otherwise)."""
    if kind not in activity.KINDS:
        raise ValueError(f"No sentence tells an activity of kind {kind!r}.")
    data = dict(data or {})
    if month is not None:
        data.setdefault("month", month)
    Activity.objects.create(circle=circle, month=month, kind=kind, data=activity.kept(data))


def clean_name(circle: Circle, name: str, exclude: int | None = None) -> str:
    """A member's name as the party nights will use it: one line, at most 30 characters,
    not a ghost's, and not the name of another member of the circle."""
    name = clean_person_name(name, MAX_NAME)
    others = circle.members.filter(active=True).exclude(pk=exclude).values_list("name", flat=True)
    taken = same_name(name, others)
    if taken is not None:
        raise Refused(
            _(
                "There is already a member called {taken} in this circle. If "
                "that is you, open your member link; otherwise add an initial to "
                "your name."
            ).format(taken=taken)
        )
    return name


def clean_months(values) -> list[int]:
    months = sorted({int(v) for v in values or []})
    if any(not 1 <= m <= 12 for m in months):
        raise Refused(_("Months are numbered 1 to 12."))
    if len(months) == 12:
        raise Refused(_("Leave at least one month you could host."))
    return months


def is_open(month: Month, now: datetime | None = None) -> bool:
    """A month whose hosts may still change: its night neither started nor over."""
    return not month.started and not month.is_past(now)


def check_open(month: Month, what: str) -> None:
    if month.started:
        raise Refused(
            _("{month}'s night has started: {what} can't change any more.").format(
                month=month.name, what=what
            )
        )
    if month.is_past():
        raise Refused(
            _("{month} is already past: {what} can't change any more.").format(
                month=month.name, what=what
            )
        )


def day_name(day: date) -> str:
    """'Thursday 19 March' ('Donnerstag, 19. März'), as the pages and mails say a date."""
    return date_format(day, "WEEKDAY_DATE_FORMAT")


def ms(delay: timedelta) -> int:
    """A delay in whole milliseconds, rounded up: a deadline never fires early."""
    return math.ceil(delay.total_seconds() * 1000)


def scope_of(month: Month) -> str:
    return f"circle:{month.pk}"


def arm_reminder(month: Month, now: datetime | None = None) -> None:
    """The reminder mail, due the circle's number of days before the night."""
    now = now or timezone.now()
    circle = month.season.circle
    due = month.starts_at - timedelta(days=circle.reminder_days)
    Deadline.objects.filter(scope=scope_of(month), key="reminder").delete()
    if circle.reminder_days and due > now and not month.started and month.reminded_at is None:
        scheduler.arm(scope_of(month), "reminder", ms(due - now), {"kind": "reminder"}, now=now)


def remember_site(circle: Circle, base_url: str) -> None:
    """Where the links in mails sent later (by the scheduler) point."""
    base_url = base_url.rstrip("/")
    if base_url and circle.site_url != base_url:
        Circle.objects.filter(pk=circle.pk).update(site_url=base_url)
        circle.site_url = base_url


def close_ask(ask: SubstituteAsk, status: str, now: datetime | None = None) -> None:
    ask.status = status
    ask.answered_at = now or timezone.now()
    ask.save(update_fields=["status", "answered_at"])
    Deadline.objects.filter(scope=scope_of(ask.month), key=f"ask:{ask.pk}").delete()
    if status == SubstituteAsk.Status.WITHDRAWN:
        month = ask.month
        mail.send_member(
            ask.member,
            "substitute_withdrawn",
            {"circle": month.season.circle, "month": month},
        )
