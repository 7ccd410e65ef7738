"""Behind the HTTPS proxy (HTTPS=1) every cookie the app sets travels over HTTPS only: the
seat cookies of a night and a game room, a circle member's cookie, the language a phone
keeps, and the cookie a phone drops when it signs out of a circle."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.circles import services as circles
from apps.circles.tokens import make_invite
from apps.parties import services as parties
from tests.circles.conftest import as_member, next_month

pytestmark = pytest.mark.django_db


@pytest.fixture
def https(settings):
    """What ``HTTPS=1`` sets (config/settings.py), for requests that came over HTTPS."""
    settings.HTTPS = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SESSION_COOKIE_SECURE = True
    settings.CSRF_COOKIE_SECURE = True
    settings.LANGUAGE_COOKIE_SECURE = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def phone() -> Client:
    return Client(HTTP_X_FORWARDED_PROTO="https")


def insecure_cookies(response) -> list[str]:
    assert response.cookies, "the page sets a cookie"
    return [name for name, morsel in response.cookies.items() if not morsel["secure"]]


def test_a_night_seat_cookie_and_the_seats_language_are_secure_under_https(
    https, django_user_model
):
    host = django_user_model.objects.create_user("host", password="pw-long-enough")
    party = parties.create_party(host, name="Friday")
    ann = phone()
    joined = ann.post(f"/p/{party.code}/join/", {"name": "Ann"})
    assert joined.status_code == 302
    assert insecure_cookies(joined) == []
    ann.cookies.pop("django_language", None)
    page = ann.get(f"/p/{party.code}/")
    assert page.status_code == 200
    assert insecure_cookies(page) == []


def test_a_game_room_seat_cookie_is_secure_under_https(https):
    made = phone().post("/games/new/", {"game": "mbogo", "name": "Ann"})
    assert made.status_code == 302
    assert insecure_cookies(made) == []


def test_a_circle_member_cookie_is_secure_under_https_and_so_is_signing_out(
    https, django_user_model
):
    admin = django_user_model.objects.create_user("admin", password="admin-pass-21")
    circle = circles.create_circle(admin, name="Bunko Belles", start=next_month(), tz="UTC")
    token = make_invite(circle.pk, circle.invite_nonce, "member")
    ann = phone()
    joined = ann.post(f"/c/{circle.code}/join/{token}/", {"name": "Ann"})
    assert joined.status_code == 302
    assert insecure_cookies(joined) == []
    bea = as_member(phone(), circles.add_member(circle.pk, name="Bea", kind="member"))
    page = bea.get(f"/c/{circle.code}/")
    assert page.status_code == 200
    signed_out = bea.post(f"/c/{circle.code}/me/forget/")
    assert signed_out.status_code == 302
    assert insecure_cookies(signed_out) == []
