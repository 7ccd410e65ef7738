"""The cookies the app sets itself (seats, circle members, a phone's language): one place, so
each follows ``HTTPS`` as Django's own session and CSRF cookies do."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse


def secure() -> bool:
    # Behind the HTTPS proxy a cookie sent over plain HTTP would hand a seat to anyone
    # listening; on the party laptop's plain-HTTP Wi-Fi a secure cookie would never come back.
    return bool(getattr(settings, "HTTPS", False))


def keep(response: HttpResponse, name: str, value: str, *, max_age: int) -> HttpResponse:
    """A token the page's scripts never read (a seat, a member)."""
    response.set_cookie(
        name, value, max_age=max_age, httponly=True, samesite="Lax", secure=secure()
    )
    return response


def forget(response: HttpResponse, name: str) -> HttpResponse:
    response.set_cookie(
        name,
        "",
        max_age=0,
        expires="Thu, 01 Jan 1970 00:00:00 GMT",
        httponly=True,
        samesite="Lax",
        secure=secure(),
    )
    return response


def keep_language(response: HttpResponse, language: str) -> HttpResponse:
    """The cookie Django's set_language sets, with its settings."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE or secure(),
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
