"""Fixtures for the circles' tests: a circle with its admin, members and substitutes, and
clients that are each role."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from apps.circles import activity, services
from apps.circles.dates import add_months
from apps.circles.models import Circle, Member, Month
from apps.circles.tokens import make_member_token

MEMBERS = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]
SUBSTITUTES = ["Sue", "Tia", "Uma"]


@pytest.fixture(autouse=True)
def quick_passwords(settings):
    """Logins are made in most tests: hash their passwords the quick way."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_user("admin", password="admin-pass-21")


@pytest.fixture
def outsider(django_user_model):
    """The admin of another circle."""
    user = django_user_model.objects.create_user("other", password="other-pass-21")
    services.create_circle(user, name="The Other Circle", start=next_month())
    return user


def next_month() -> date:
    return add_months(timezone.localdate(), 1)


@pytest.fixture
def circle(admin) -> Circle:
    return services.create_circle(admin, name="Bunko Belles", start=next_month(), tz="UTC")


def add_people(circle: Circle, names, kind=Member.Kind.MEMBER) -> dict[str, Member]:
    return {
        name: services.add_member(
            circle.pk, name=name, email=f"{name.lower()}@example.com", kind=kind
        )
        for name in names
    }


@pytest.fixture
def members(circle) -> dict[str, Member]:
    return add_people(circle, MEMBERS)


@pytest.fixture
def subs(circle) -> dict[str, Member]:
    return add_people(circle, SUBSTITUTES, Member.Kind.SUBSTITUTE)


def first_month(circle: Circle) -> Month:
    return Month.objects.filter(season__circle=circle).order_by("index").first()


def host(month: Month, member: Member) -> None:
    """Make ``member`` the only host of ``month`` (as the admin would)."""
    month.hostings.all().delete()
    month.hostings.create(member=member, position=0)


def tonight(month: Month) -> Month:
    """Move the month's night to later today, so it can be started (and is not past)."""
    now = timezone.now().astimezone(month.season.circle.tz)
    later = (now + timedelta(hours=2)).replace(second=0, microsecond=0)
    if later.date() != now.date():  # late in the evening: keep the date, start soon
        later = now.replace(second=0, microsecond=0) + timedelta(minutes=5)
    Month.objects.filter(pk=month.pk).update(
        first=later.date().replace(day=1), date=later.date(), time=later.time()
    )
    month.refresh_from_db()
    return month


def as_member(client: Client, member: Member) -> Client:
    client.cookies[member.circle.cookie_name] = make_member_token(
        member.circle_id, member.pk, member.nonce
    )
    return client


def lines(circle: Circle, language: str = "en") -> list[str]:
    """The circle's activity, newest first, as a reader of ``language`` reads it."""
    with translation.override(language):
        return [activity.line(a) for a in circle.activities.all()]
