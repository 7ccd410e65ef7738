"""The circle's notices by mail: invitations, member links, the schedule, substitute
requests, swaps and the reminder before a night.

A mail to a member speaks the member's language (``Member.language``), whoever or whatever
sent it, the scheduler included; a mail to an address that is no member yet (an invitation)
speaks the sender's.

Mail goes out after the transaction commits (a refused change sends nothing), one message
per person (each carries that person's own link). Django's mail settings decide where it
goes: the console unless EMAIL_HOST names an SMTP server (see the README). A mail server
that fails is logged, never shown to the person who clicked.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.circles import tokens
from apps.circles.models import Circle, Member, SubstituteAsk
from apps.core.language import speak, supported

log = logging.getLogger(__name__)


def absolute(circle: Circle, path: str) -> str:
    """A link on this server for a mail: SITE_URL, else the address the admin last used."""
    base = (
        getattr(settings, "SITE_URL", "") or circle.site_url or "http://localhost:8000/"
    ).rstrip("/")
    return base + path


def member_link(member: Member) -> str:
    token = tokens.make_member_token(member.circle_id, member.pk, member.nonce)
    return absolute(member.circle, reverse("circles:member_link", args=[member.circle.code, token]))


def ask_link(ask: SubstituteAsk) -> str:
    circle = ask.month.season.circle
    token = tokens.make_ask_token(ask.pk, ask.nonce)
    return absolute(circle, reverse("circles:ask", args=[token]))


def feed_link(circle: Circle) -> str:
    token = tokens.make_feed_token(circle.pk, circle.feed_nonce)
    return absolute(circle, reverse("circles:calendar", args=[circle.code, token]))


def language_of(member: Member) -> str:
    """The language a member's mails speak: their own, else the product's default."""
    return supported(member.language) or settings.LANGUAGE_CODE


def send(to: str, template: str, context: dict, language: str | None = None) -> None:
    """Render ``circles/mail/<template>.txt`` (its first line is the subject) in ``language``
    (None: the language of the moment, the sender's) and send it to one address once the
    transaction commits."""
    if not to:
        return
    circle = context.get("circle")
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    # Dates in the circle's time zone; day and month names, like every word, in the reader's.
    # Times in the circle's time zone; day and month names, like every word, in the reader's.
    tz = circle.tz if circle else timezone.get_current_timezone()
    with timezone.override(tz), speak(language):
        if context.get("hosts"):
            context = {**context, "host_names": names_and([h.name for h in context["hosts"]])}
        text = render_to_string(f"circles/mail/{template}.txt", context).strip()
    subject, _newline, body = text.partition("\n")
    message = EmailMessage(subject=" ".join(subject.split()), body=body.strip() + "\n", to=[to])
    transaction.on_commit(lambda: _deliver(message))


def send_member(member: Member, template: str, context: dict) -> None:
    """A notice to one member, in their own language."""
    send(member.email, template, {**context, "member": member}, language_of(member))


def names_and(names: list[str]) -> str:
    """ "Ann", "Ann and Bea", "Ann, Bea and Cal" in the mail's language."""
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _deliver(message: EmailMessage) -> None:
    try:
        message.send()
    except Exception:
        log.exception("circles: could not send %r to %s", message.subject, message.to)


def send_members(members, template: str, context: dict) -> None:
    """The same notice to each member with an address, with their own link and in their own
    language."""
    for member in members:
        if member.email:
            send_member(member, template, {**context, "link": member_link(member)})


def admin_language(circle: Circle) -> str | None:
    """The language of a mail to the circle's admin: theirs as a member of the circle, if they
    are one; else None (the sender's)."""
    found = circle.members.filter(user_id=circle.admin_id, active=True).first()
    return language_of(found) if found and found.language else None
