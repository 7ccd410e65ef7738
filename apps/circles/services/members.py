"""Who is in a circle: joining, the admin's list, details, logins, leaving."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.circles import mail
from apps.circles.models import (
    Circle,
    Hosting,
    Member,
    Month,
    SubstituteAsk,
    SwapRequest,
)
from apps.core.errors import Refused
from apps.core.language import supported

from .circle import invite_circle
from .common import (
    clean_months,
    clean_name,
    close_ask,
    is_open,
    lock_circle,
    note,
)

# --- members ----------------------------------------------------------------------------------


def _next_position(circle: Circle) -> int:
    last = circle.members.filter(kind=Member.Kind.SUBSTITUTE).order_by("-position").first()
    return (last.position + 1) if last else 1


def _create_member(
    circle: Circle, kind: str, user=None, language: str = "", guessed: bool = False, **details
) -> Member:
    name = clean_name(circle, details.pop("name", ""))
    member = Member.objects.create(
        circle=circle,
        name=name,
        kind=kind,
        position=_next_position(circle) if kind == Member.Kind.SUBSTITUTE else 0,
        user=user,
        language=supported(language) or "",
        language_guessed=guessed and supported(language) is not None,
        **{k: " ".join(str(v or "").split()) for k, v in details.items()},
    )
    return member


@transaction.atomic
def join_circle(token: str, *, user=None, language: str = "", **details) -> Member:
    """A phone joins from an invite link with a name and, if they like, how to reach them,
    in the language the phone speaks (their mails' from then on). A signed-in user becomes
    that member on every device they sign in on."""
    circle, kind = invite_circle(token)
    circle = lock_circle(circle.pk)
    if user is not None and circle.members.filter(user=user, active=True).exists():
        raise Refused(_("You are already a member of {circle}.").format(circle=circle.name))
    member = _create_member(circle, kind, user=user, language=language, **details)
    note(circle, "joined_substitute" if member.is_substitute else "joined", {"name": member.name})
    mail.send_member(
        member,
        "welcome",
        {"circle": circle, "link": mail.member_link(member)},
    )
    return member


@transaction.atomic
def add_member(
    circle_id: int, *, kind: str = Member.Kind.MEMBER, language: str = "", **details
) -> Member:
    """The admin adds someone by hand (a member without a phone, a substitute they know),
    speaking the admin's language: a guess, until their own browser or choice says theirs."""
    circle = lock_circle(circle_id)
    if kind not in Member.Kind.values:
        raise Refused(_("Choose member or substitute."))
    member = _create_member(circle, kind, language=language, guessed=True, **details)
    kind = "added_substitute" if member.is_substitute else "added_member"
    note(circle, kind, {"name": member.name})
    mail.send_member(
        member,
        "welcome",
        {"circle": circle, "link": mail.member_link(member)},
    )
    return member


def _member(circle: Circle, member_id: int) -> Member:
    member = circle.members.filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused(_("That person is not a member of this circle."))
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
        raise Refused(_("That person is not a member of this circle."))
    circle = lock_circle(member.circle_id)
    member = _member(circle, member_id)
    member.name = clean_name(circle, name, exclude=member.pk)
    member.email = " ".join(str(email or "").split())
    member.phone = " ".join(str(phone or "").split())
    member.address = " ".join(str(address or "").split())
    if cannot_host is not None:
        member.cannot_host = clean_months(cannot_host)
    member.save()
    return member


def set_member_language(member_id: int, language: str, *, guessed: bool = False) -> str:
    """The language of a member's pages and mails: chosen on their page, or the one their
    phone speaks (no longer a guess unless ``guessed``). Nobody else sees it, so the activity
    does not note it."""
    chosen = supported(language)
    if chosen is None:
        raise Refused(_("Choose English, Nederlands or Deutsch."))
    Member.objects.filter(pk=member_id).exclude(language=chosen, language_guessed=guessed).update(
        language=chosen, language_guessed=guessed
    )
    return chosen


@transaction.atomic
def set_kind(circle_id: int, member_id: int, kind: str) -> Member:
    """The admin makes a substitute a member (or the other way round)."""
    circle = lock_circle(circle_id)
    member = _member(circle, member_id)
    if kind not in Member.Kind.values or kind == member.kind:
        return member
    if kind == Member.Kind.SUBSTITUTE and _future_hostings(member).exists():
        raise Refused(
            _("{member} hosts a month to come: give that month another host first.").format(
                member=member.name
            )
        )
    member.kind = kind
    member.position = _next_position(circle) if kind == Member.Kind.SUBSTITUTE else 0
    member.save(update_fields=["kind", "position"])
    note(circle, "now_substitute" if member.is_substitute else "now_member", {"name": member.name})
    return member


@transaction.atomic
def move_substitute(circle_id: int, member_id: int, step: int) -> list[Member]:
    """Move a substitute up (-1) or down (+1) the list; the list is asked in this order."""
    circle = lock_circle(circle_id)
    subs = list(
        circle.members.filter(active=True, kind=Member.Kind.SUBSTITUTE).order_by("position", "id")
    )
    index = next((i for i, m in enumerate(subs) if m.pk == member_id), None)
    if index is None:
        raise Refused(_("That person is not on the list of substitutes."))
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
        h.pk
        for h in member.hostings.select_related("month__season__circle")
        if is_open(h.month, now)
    ]
    return Hosting.objects.filter(pk__in=ids)


@transaction.atomic
def remove_member(circle_id: int, member_id: int) -> list[Month]:
    """Someone leaves the circle: off the list and off the months to come (those months
    need a new host); the nights they played stay in the standings."""
    circle = lock_circle(circle_id)
    member = _member(circle, member_id)
    months = [h.month for h in _future_hostings(member).select_related("month")]
    _future_hostings(member).delete()
    member.active = False
    member.nonce = secrets.token_urlsafe(8)
    member.save(update_fields=["active", "nonce"])
    for ask in member.asks.filter(status=SubstituteAsk.Status.ASKED):
        close_ask(ask, SubstituteAsk.Status.WITHDRAWN)
    SwapRequest.objects.filter(status=SwapRequest.Status.PENDING).filter(from_member=member).update(
        status=SwapRequest.Status.VOID
    )
    SwapRequest.objects.filter(status=SwapRequest.Status.PENDING, to_member=member).update(
        status=SwapRequest.Status.VOID
    )
    unhosted = [m for m in months if not m.hostings.exists()]
    note(circle, "left", {"name": member.name, "unhosted": unhosted})
    return months


@transaction.atomic
def reset_member_link(circle_id: int, member_id: int) -> Member:
    """A lost phone: the old member link stops working; the new one is mailed."""
    circle = lock_circle(circle_id)
    member = _member(circle, member_id)
    member.nonce = secrets.token_urlsafe(8)
    member.save(update_fields=["nonce"])
    mail.send_member(
        member,
        "welcome",
        {"circle": circle, "link": mail.member_link(member), "renewed": True},
    )
    return member


@transaction.atomic
def give_login(member_id: int, username: str, password: str):
    """A login for a member (their own sign-up, or made by the admin), so they can run the
    night they host on the laptop and be recognised on any device they sign in on."""
    member = Member.objects.select_related("circle").filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused(_("That person is not a member of this circle."))
    lock_circle(member.circle_id)
    member.refresh_from_db()
    if member.user_id:
        raise Refused(
            _("{member} already has a login ({name}).").format(
                member=member.name, name=member.user.get_username()
            )
        )
    users = get_user_model()
    username = str(username or "").strip()
    if not username:
        raise Refused(_("Choose a username."))
    if users.objects.filter(username__iexact=username).exists():
        raise Refused(
            _("The username {username} is taken: choose another.").format(username=username)
        )
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
