"""A circle: its creation, its seasons, its settings, its invite and calendar links."""

from __future__ import annotations

import secrets
from datetime import date, time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.circles import mail, tokens
from apps.circles.dates import add_months, season_months, usual_date
from apps.circles.models import (
    Circle,
    Member,
    Month,
    Season,
)
from apps.core.errors import Refused

from .common import (
    arm_reminder,
    is_open,
    lock_circle,
    note,
)

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
        raise Refused(_("Give the circle a name."))
    circle = Circle.objects.create(
        name=name[:60], admin=admin, week=week, weekday=weekday, time=at, site_url=site_url
    )
    if tz:
        circle.timezone = tz
        circle.save(update_fields=["timezone"])
    _new_season(circle, start)
    note(circle, "created", {"name": admin.get_username()})
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
    circle = lock_circle(circle_id)
    last = circle.seasons.order_by("-start").first()
    start = add_months(last.start, 12) if last else circle.today().replace(day=1)
    season = _new_season(circle, start)
    note(circle, "season_added", {"season": season})
    return season


@transaction.atomic
def update_circle(circle_id: int, data: dict) -> Circle:
    """The admin's settings. A new usual night moves the months to come that are still on
    the old one (a date a host set stays); every month to come gets its reminder at the
    (new) number of days before."""
    circle = lock_circle(circle_id)
    name = " ".join(str(data.get("name", circle.name)).split())
    if not name:
        raise Refused(_("Give the circle a name."))
    data = {**data, "name": name[:60]}
    categories = data.get("prize_categories")
    if categories is not None and not categories:
        raise Refused(_("Keep at least one prize category."))
    old = (circle.week, circle.weekday, circle.time)
    for key, value in data.items():
        setattr(circle, key, value)
    circle.save()
    now = timezone.now()
    months = Month.objects.filter(season__circle=circle).select_related("season__circle")
    moved = 0
    for month in months:
        month.season.circle = circle
        if not is_open(month, now):
            continue
        on_old_night = (month.date, month.time) == (usual_date(month.first, *old[:2]), old[2])
        new = (usual_date(month.first, circle.week, circle.weekday), circle.time)
        if on_old_night and new != (month.date, month.time):
            month.date, month.time = new
            month.revision += 1
            month.reminded_at = None
            month.save(update_fields=["date", "time", "revision", "reminded_at", "updated"])
            moved += 1
        arm_reminder(month, now)
    if moved:
        night = {"week": circle.week, "weekday": circle.weekday, "at": circle.time}
        note(circle, "months_moved", {"count": moved, **night})
    return circle


@transaction.atomic
def new_invite_links(circle_id: int) -> Circle:
    """Every invite link given out before stops working."""
    circle = lock_circle(circle_id)
    circle.invite_nonce = secrets.token_urlsafe(8)
    circle.save(update_fields=["invite_nonce"])
    note(circle, "invite_links")
    return circle


@transaction.atomic
def new_feed_link(circle_id: int) -> Circle:
    circle = lock_circle(circle_id)
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
            _(
                "This invite link is not valid: it may have been cut short or mistyped. Ask the "
                "circle's admin to send it again."
            )
        )
    if invite.nonce != circle.invite_nonce:
        raise Refused(
            _(
                "This invite link to {circle} has been replaced by a newer one. "
                "Ask the circle's admin for the new link."
            ).format(circle=circle.name)
        )
    return circle, invite.kind


@transaction.atomic
def send_invitations(circle_id: int, addresses: list[str], kind: str, invite_url: str) -> int:
    circle = lock_circle(circle_id)
    for address in addresses:
        mail.send(address, "invite", {"circle": circle, "link": invite_url, "kind": kind})
    if addresses:
        note(circle, "invitations_mailed", {"count": len(addresses)})
    return len(addresses)
