"""Limits on anonymous work, per client, so one phone (or one script) cannot guess codes,
spam joins, make rooms by the hundred or hold hundreds of sockets while a party plays.

A client is an IP address: the socket's peer, or the first hop a trusted proxy names in
X-Forwarded-For (only when ``TRUSTED_PROXY`` is on: anyone can send that header). A whole
party may share one address behind the venue's Wi-Fi (400 phones at 100 tables), so every
limit has a generous count per address and a tight one per browser (the address with the
browser's session or CSRF cookie); a request without either cookie counts only against its
address. Counts live in Django's cache (Redis on the scale-out stack, so every server
process shares them) in fixed windows.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render

from apps.core.i18n import N_, _


@dataclass(frozen=True)
class Rate:
    per_address: int
    per_browser: int
    seconds: int  # the window; 0 for a cap on what is open at once (sockets)
    says: str  # the refusal, in words


DEFAULTS: dict[str, Rate] = {
    "code": Rate(600, 30, 600, N_("Too many codes tried from here; wait a few minutes.")),
    "join": Rate(600, 20, 600, N_("Too many joins from here; wait a few minutes.")),
    "room": Rate(200, 20, 600, N_("Too many game rooms started from here; wait a few minutes.")),
    "signin": Rate(60, 10, 600, N_("Too many sign-in attempts; wait a few minutes.")),
    "socket": Rate(2000, 40, 0, N_("Too many pages open from here; close some and reload.")),
}
BROWSER_COOKIES = ("sessionid", "csrftoken")
# Keys start with this; the test suite gives every test a namespace of its own.
log = logging.getLogger(__name__)

NAMESPACE = "limit:"
SOCKET_HOLD = 6 * 60 * 60  # an open-socket count left by a killed process fades after this


class Limited(Exception):
    def __init__(self, rate: Rate) -> None:
        super().__init__(_(rate.says))  # in the language of whoever is refused
        self.rate = rate


def rate(name: str) -> Rate:
    return {**DEFAULTS, **getattr(settings, "RATE_LIMITS", {})}[name]


def enabled() -> bool:
    return bool(getattr(settings, "RATE_LIMITS_ON", True))


# -- who is asking --------------------------------------------------------------------------------


def client_address(peer: str | None, forwarded_for: str | None) -> str:
    """The client's address: the peer's, or what the trusted proxy says it saw (the last
    entry: the one the proxy itself appended)."""
    if getattr(settings, "TRUSTED_PROXY", False) and forwarded_for:
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return peer or "unknown"


def browser_of(cookies: dict[str, str]) -> str:
    for name in BROWSER_COOKIES:
        if value := cookies.get(name):
            return hashlib.sha256(value.encode()).hexdigest()[:16]
    return ""


def request_client(request) -> tuple[str, str]:
    meta = request.META
    address = client_address(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"))
    return address, browser_of(request.COOKIES)


def scope_client(scope: dict[str, Any]) -> tuple[str, str]:
    headers = dict(scope.get("headers", []))
    forwarded = headers.get(b"x-forwarded-for", b"").decode("latin1")
    peer = (scope.get("client") or [None])[0]
    return client_address(peer, forwarded), browser_of(scope.get("cookies", {}))


def _keys(name: str, address: str, browser: str, window: str) -> list[tuple[str, int]]:
    limit = rate(name)
    keys = [(f"{NAMESPACE}{name}:a:{address}:{window}", limit.per_address)]
    if browser:
        keys.append((f"{NAMESPACE}{name}:b:{address}:{browser}:{window}", limit.per_browser))
    return keys


def _incr(key: str, ttl: int, by: int = 1) -> int:
    cache.add(key, 0, ttl)
    try:
        return cache.incr(key, by)
    except ValueError:  # expired between the two calls
        cache.add(key, by, ttl)
        return by


# -- counting -------------------------------------------------------------------------------------


def _fail_open(default):
    """The limits guard a party; they never stop one: when the cache is out of reach (Redis
    restarting) the attempt is let through uncounted instead of failing the page or socket."""

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            try:
                return function(*args, **kwargs)
            except Limited:
                raise
            except Exception as error:  # the cache backend's own connection errors
                log.warning("limits: the cache is out of reach (%s); not counted", error)
                return default

        return wrapper

    return decorate


@_fail_open(None)
def hit(name: str, address: str, browser: str = "") -> None:
    """Count one attempt; raise Limited when this client has used up its window."""
    if not enabled():
        return
    limit = rate(name)
    window = str(int(time.time() // limit.seconds))
    for key, allowed in _keys(name, address, browser, window):
        if _incr(key, limit.seconds + 1) > allowed:
            raise Limited(limit)


def hit_request(name: str, request) -> None:
    hit(name, *request_client(request))


@_fail_open([])
def open_socket(address: str, browser: str) -> list[str]:
    """Count an opening socket; the keys to release when it closes. Raise Limited (and count
    nothing) when this client already holds its share."""
    if not enabled():
        return []
    limit = rate("socket")
    keys = _keys("socket", address, browser, "open")
    counted: list[str] = []
    for key, allowed in keys:
        counted.append(key)
        if _incr(key, SOCKET_HOLD) > allowed:
            close_socket(counted)
            raise Limited(limit)
    return counted


def socket_opening(address: str, browser: str) -> list[str]:
    """A socket opens: counted against the cap, and refused to a client out of guesses."""
    keys = open_socket(address, browser)
    if (limit := over("code", address, browser)) is not None:
        close_socket(keys)
        raise Limited(limit)
    return keys


def wrong_socket(address: str, browser: str) -> None:
    """A socket named a night or room that does not exist (or may not be opened): a guess."""
    with contextlib.suppress(Limited):  # refused from the next socket on
        hit("code", address, browser)


@_fail_open(None)
def close_socket(keys: list[str]) -> None:
    for key in keys:
        try:
            if cache.decr(key) < 0:
                cache.set(key, 0, SOCKET_HOLD)
        except ValueError:
            pass  # faded already


@_fail_open(None)
def over(name: str, address: str, browser: str = "") -> Rate | None:
    """Whether this client has used up its window (without counting an attempt)."""
    if not enabled():
        return None
    limit = rate(name)
    window = str(int(time.time() // limit.seconds))
    keys = _keys(name, address, browser, window)
    counts = cache.get_many([key for key, _ in keys])
    if any(counts.get(key, 0) >= allowed for key, allowed in keys):
        return limit
    return None


# -- pages ----------------------------------------------------------------------------------------


def too_many(request, limit: Rate) -> HttpResponse:
    response = render(request, "core/too_many.html", {"message": _(limit.says)}, status=429)
    response["Retry-After"] = str(limit.seconds or 60)
    return response


def limited(name: str, methods: tuple[str, ...] = ("POST",)):
    """A view whose ``methods`` count against the limit ``name``."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method in methods:
                try:
                    hit_request(name, request)
                except Limited as error:
                    return too_many(request, error.rate)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def wrong_code(request) -> HttpResponse | None:
    """A code that named nothing: counted as a guess; the 429 page once guesses run out."""
    try:
        hit_request("code", request)
    except Limited as error:
        return too_many(request, error.rate)
    return None


CODE_PARTS = {"code", "token"}  # the parts of an address that a guess would change


class GuessingMiddleware:
    """Every page that names a night, a room or a circle by its code (or a link by its
    token) answers "not found" to a wrong one, so each such 404 counts as a guess, and a
    client out of guesses gets the 429 page for any address until its window ends. A 404
    for an address that names no code (a browser looking for an icon) is no guess."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        address, browser = request_client(request)
        if (limit := over("code", address, browser)) is not None:
            return too_many(request, limit)
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if response.status_code == 404 and match and CODE_PARTS & match.kwargs.keys():
            with contextlib.suppress(Limited):  # this one is answered; the next is refused
                hit("code", address, browser)
        return response
