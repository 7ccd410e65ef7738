"""Who is looking at a circle, and what they may do there.

Roles: the circle's admin (a Django user), a member (their phone holds a signed member link,
or they signed in with a login linked to them), the month's host (a member hosting that
month) and a substitute. The admin may stand in for a month's host; nobody else acts for
another person.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.http import HttpRequest
from django.utils.translation import gettext as _

from apps.circles.models import Circle, Hosting, Member, Month
from apps.circles.tokens import read_member_token


class NotAllowed(Exception):
    """A request by someone whose role does not allow it: the message says whose it is."""


@dataclass
class Viewer:
    circle: Circle
    member: Member | None
    is_admin: bool

    @property
    def in_circle(self) -> bool:
        return self.is_admin or self.member is not None

    @property
    def is_member(self) -> bool:
        return self.member is not None and not self.member.is_substitute

    @property
    def is_substitute(self) -> bool:
        return self.member is not None and self.member.is_substitute

    @cached_property
    def hosted_ids(self) -> set[int]:
        if self.member is None:
            return set()
        return set(Hosting.objects.filter(member=self.member).values_list("month_id", flat=True))

    def hosts(self, month: Month) -> bool:
        return month.pk in self.hosted_ids

    def runs(self, month: Month) -> bool:
        """May act as the month's host: its host, or the admin standing in."""
        return self.is_admin or self.hosts(month)


def member_from_cookie(request: HttpRequest, circle: Circle) -> Member | None:
    claim = read_member_token(request.COOKIES.get(circle.cookie_name))
    if claim is None or claim.circle_id != circle.pk:
        return None
    member = circle.members.filter(pk=claim.member_id, active=True).first()
    if member is None or member.nonce != claim.nonce:
        return None
    return member


def viewer_for(request: HttpRequest, circle: Circle) -> Viewer:
    user = request.user
    member = None
    is_admin = False
    if user.is_authenticated:
        is_admin = circle.admin_id == user.pk
        member = circle.members.filter(user=user, active=True).first()
    if member is None:
        member = member_from_cookie(request, circle)
    return Viewer(circle=circle, member=member, is_admin=is_admin)


def require(viewer: Viewer, role: str, month: Month | None = None) -> None:
    """Raise NotAllowed unless the viewer has the role: "circle" (anyone in it), "admin",
    "member" (not a substitute), "runner" (the month's host or the admin), "host" (the
    month's own host)."""
    circle = viewer.circle
    if role == "circle" and viewer.in_circle:
        return
    if role == "admin" and viewer.is_admin:
        return
    if role == "member" and viewer.is_member:
        return
    if role == "runner" and month is not None and viewer.runs(month):
        return
    if role == "host" and month is not None and viewer.hosts(month):
        return
    if not viewer.in_circle:
        raise NotAllowed(
            _(
                "This page belongs to the Bunko circle {circle}, and you are not in it. "
                "Members: open your member link again (it is in the mail you got when you "
                "joined), or ask the circle's admin for it."
            ).format(circle=circle.name)
        )
    messages = {
        "admin": _("Only the circle's admin can do that in {circle}.").format(circle=circle.name),
        "member": _("Only the circle's members can do that (substitutes are asked by the host)."),
        "runner": _("Only this month's host (or the circle's admin) can do that."),
        "host": _("Only this month's host can do that."),
    }
    raise NotAllowed(messages.get(role, _("You can't do that in this circle.")))
