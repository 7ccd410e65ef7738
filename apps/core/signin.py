"""Signing in: Django's own sign-in page, with wrong passwords counted per username and
address (apps/core/limits.py), so a guesser at the host's account from the venue's Wi-Fi stops
neither the host nor anyone else signing in there."""

from __future__ import annotations

import secrets

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from apps.core import cookies, limits

login = auth_views.LoginView.as_view()


@limits.own_limit
def signin(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return login(request)
    address = limits.request_address(request)
    username = str(request.POST.get("username", ""))[:150]
    device = limits.signed_in_before(request.COOKIES, username)
    if (limit := limits.signin_over(address, username, device)) is not None:
        return limits.too_many(request, limit)
    response = login(request)
    if response.status_code != 302:  # the form again: a wrong password (or none)
        limits.signin_failed(address, username, device)
        return response
    limits.signin_succeeded(device)
    # This browser is the host's from now on: a guesser elsewhere at the address cannot
    # lock it out (the cookie is signed, so a guesser cannot make one).
    token = limits.signed_in_token(username, device or secrets.token_urlsafe(12))
    return cookies.keep(
        response, limits.signed_in_cookie(username), token, max_age=limits.SIGNED_IN_AGE
    )
