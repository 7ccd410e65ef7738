"""What happens later, fired by the scheduler: a substitute who did not answer in time, and
the reminder before a night."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from apps.circles import mail
from apps.circles.models import (
    Member,
    Month,
    Rsvp,
    SubstituteAsk,
)
from apps.circles.selectors import attendance, hosts_of, place_of
from apps.core import scheduler

from .common import (
    close_ask,
    ms,
    note,
)
from .nights import ask_next


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
                    ms(ask.due_at - now),
                    payload,
                    now=now,
                )
                return False
            close_ask(ask, SubstituteAsk.Status.EXPIRED, now)
            note(month.season.circle, "sub_expired", {"name": ask.member.name}, month)
            ask_next(month, now)
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
        # The answer as an RSVP's value: the mail says it in the member's own words.
        answer = next(
            (
                value
                for group, value in (
                    (seen.coming, Rsvp.Answer.YES),
                    (seen.maybe, Rsvp.Answer.MAYBE),
                    (seen.not_coming, Rsvp.Answer.NO),
                )
                if member in group
            ),
            "",
        )
        mail.send_member(
            member,
            "reminder",
            {
                "circle": circle,
                "month": month,
                "hosts": hosts,
                "hosting": member in hosts,
                "where": place_of(month, hosts),
                "answer": answer,
                "seen": seen,
                "link": mail.member_link(member),
            },
        )
    return True
