"""Limits on anonymous work, per client, so one phone (or one script) cannot guess codes,
spam joins, make rooms by the hundred or hold hundreds of sockets while a party plays.

A client is an IP address: the socket's peer, or the first hop a trusted proxy names in
X-Forwarded-For (only when ``TRUSTED_PROXY`` is on: anyone can send that header). A whole
party may share one address behind the venue's Wi-Fi (400 phones at 100 tables), and one
guesser there must not lock out the rest. So a browser the party knows (it holds a seat of a
night or a game room, a circle's member link, or a signed-in session: each signed by the
server, so none can be made up) counts only by what it holds, against a tight count of its
own, and is never refused for what others at its address did. Any other request counts
against its address (generous) and its browser's session or CSRF cookie (tight), and is
refused once either runs out: a script that drops its cookies is slowed per address without
touching the known browsers there. Counts live in Django's cache (Redis on the scale-out
stack, so every server process shares them) in fixed windows.
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
from django.core import signing
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render

from apps.core.i18n import N_, _
from apps.core.tokens import seat_cookie_holds


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
    # Wrong passwords: per address from browsers not signed in before (all usernames), and
    # per username (from one address, or from a browser that signed in as it before).
    "signin": Rate(60, 10, 600, N_("Too many sign-in attempts; wait a few minutes.")),
    "socket": Rate(2000, 40, 0, N_("Too many pages open from here; close some and reload.")),
}
BROWSER_COOKIES = ("sessionid", "csrftoken")
# Keys start with this; the test suite gives every test a namespace of its own.
log = logging.getLogger(__name__)

NAMESPACE = "limit:"
PROOFS_READ = 20  # seat and member cookies checked per request, at most
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


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def browser_of(cookies: dict[str, str]) -> str:
    for name in BROWSER_COOKIES:
        if value := cookies.get(name):
            return _digest(value)
    return ""


def proof_of(cookies: dict[str, str], user=None) -> str:
    """What shows the party knows this browser, or "": a seat cookie (a night's or a game
    room's), a circle's member cookie, a signed-in user. Only the signature is checked (no
    query): a stale seat was still handed to this browser by the server, and what it may do
    there is the views' business."""
    from apps.circles.tokens import read_member_token  # the circle's own reader of its links

    held = [name for name in cookies if name.startswith(("seat_", "circle_"))]
    for name in sorted(held)[:PROOFS_READ]:
        value = cookies[name]
        if name.startswith("seat_") and seat_cookie_holds(name, value):
            return f"seat:{value}"
        if name.startswith("circle_") and read_member_token(value) is not None:
            return f"member:{value}"
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    return ""


def _client(address: str, cookies: dict[str, str], user) -> tuple[str, str, bool]:
    """(address, browser, known): a known browser is named by its proof, any other by its
    session or CSRF cookie (which anyone can make afresh)."""
    if proof := proof_of(cookies, user):
        return address, _digest(proof), True
    return address, browser_of(cookies), False


def request_address(request) -> str:
    meta = request.META
    return client_address(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"))


def request_client(request) -> tuple[str, str, bool]:
    return _client(request_address(request), request.COOKIES, getattr(request, "user", None))


def scope_client(scope: dict[str, Any]) -> tuple[str, str, bool]:
    headers = dict(scope.get("headers", []))
    forwarded = headers.get(b"x-forwarded-for", b"").decode("latin1")
    peer = (scope.get("client") or [None])[0]
    address = client_address(peer, forwarded)
    return _client(address, scope.get("cookies", {}), scope.get("user"))


def _keys(
    name: str, address: str, browser: str, window: str, known: bool = False
) -> list[tuple[str, int]]:
    limit = rate(name)
    if known:  # its own count only: never the address's
        return [(f"{NAMESPACE}{name}:k:{browser}:{window}", limit.per_browser)]
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
def hit(name: str, address: str, browser: str = "", known: bool = False) -> None:
    """Count one attempt; raise Limited when this client has used up its window."""
    if not enabled():
        return
    limit = rate(name)
    window = str(int(time.time() // limit.seconds))
    for key, allowed in _keys(name, address, browser, window, known):
        if _incr(key, limit.seconds + 1) > allowed:
            raise Limited(limit)


def hit_request(name: str, request) -> None:
    """Count what a client makes (a join, a game room) against its address and cookie, known
    or not: what it makes is a seat, so a seat cannot be what frees it from the count."""
    hit(name, request_address(request), browser_of(request.COOKIES))


@_fail_open([])
def open_socket(address: str, browser: str, known: bool = False) -> list[str]:
    """Count an opening socket; the keys to release when it closes. Raise Limited (and count
    nothing) when this client already holds its share."""
    if not enabled():
        return []
    limit = rate("socket")
    keys = _keys("socket", address, browser, "open", known)
    counted: list[str] = []
    for key, allowed in keys:
        counted.append(key)
        if _incr(key, SOCKET_HOLD) > allowed:
            close_socket(counted)
            raise Limited(limit)
    return counted


def socket_opening(address: str, browser: str, known: bool = False) -> list[str]:
    """A socket opens: counted against the cap, and refused to a client out of guesses."""
    keys = open_socket(address, browser, known)
    if (limit := over("code", address, browser, known)) is not None:
        close_socket(keys)
        raise Limited(limit)
    return keys


def wrong_socket(address: str, browser: str, known: bool = False) -> None:
    """A socket named a night or room that does not exist (or may not be opened): a guess."""
    with contextlib.suppress(Limited):  # refused from the next socket on
        hit("code", address, browser, known)


@_fail_open(None)
def close_socket(keys: list[str]) -> None:
    for key in keys:
        try:
            if cache.decr(key) < 0:
                cache.set(key, 0, SOCKET_HOLD)
        except ValueError:
            pass  # faded already


@_fail_open(None)
def over(name: str, address: str, browser: str = "", known: bool = False) -> Rate | None:
    """Whether this client has used up its window (without counting an attempt)."""
    if not enabled():
        return None
    limit = rate(name)
    window = str(int(time.time() // limit.seconds))
    keys = _keys(name, address, browser, window, known)
    counts = cache.get_many([key for key, _ in keys])
    if any(counts.get(key, 0) >= allowed for key, allowed in keys):
        return limit
    return None


# -- signing in -----------------------------------------------------------------------------------

SIGNED_IN_SALT = "bunko-night.signed-in"
SIGNED_IN_AGE = 60 * 60 * 24 * 400  # a season and then some, as a member's link


def signed_in_cookie(username: str) -> str:
    """One cookie per username: a laptop several hosts sign in on keeps each of them."""
    return "signedin_" + _digest(username.casefold())[:12]


def signed_in_token(username: str, device: str) -> str:
    return signing.Signer(salt=SIGNED_IN_SALT).sign(f"{device}.{username.casefold()}")


def signed_in_before(cookies: dict[str, str], username: str) -> str:
    """The device this browser was when it last signed in as ``username`` (its own count of
    wrong passwords), or "" for a browser that never did."""
    value = cookies.get(signed_in_cookie(username))
    if not value or len(value) > 300:
        return ""
    try:
        device, _, named = signing.Signer(salt=SIGNED_IN_SALT).unsign(value).partition(".")
    except signing.BadSignature:
        return ""
    return device if named == username.casefold() else ""


def _signin_keys(address: str, username: str, device: str) -> list[tuple[str, int]]:
    limit = rate("signin")
    window = str(int(time.time() // limit.seconds))
    if device:  # signed in from here before: only its own mistakes count against it
        return [(f"{NAMESPACE}signin:d:{_digest(device)}:{window}", limit.per_browser)]
    return [
        (
            f"{NAMESPACE}signin:u:{address}:{_digest(username.casefold())}:{window}",
            limit.per_browser,
        ),
        (f"{NAMESPACE}signin:a:{address}:{window}", limit.per_address),
    ]


@_fail_open(None)
def signin_over(address: str, username: str, device: str) -> Rate | None:
    """Whether this sign-in is refused unheard: the right password too, or the refusal would
    tell a guesser which of their guesses was right."""
    if not enabled():
        return None
    keys = _signin_keys(address, username, device)
    counts = cache.get_many([key for key, _ in keys])
    if any(counts.get(key, 0) >= allowed for key, allowed in keys):
        return rate("signin")
    return None


@_fail_open(None)
def signin_failed(address: str, username: str, device: str) -> None:
    if enabled():
        for key, _ in _signin_keys(address, username, device):
            _incr(key, rate("signin").seconds + 1)


@_fail_open(None)
def signin_succeeded(device: str) -> None:
    """The right password: this browser's own mistakes are forgiven."""
    if device:
        cache.delete_many([key for key, _ in _signin_keys("", "", device)])


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
        hit("code", *request_client(request))
    except Limited as error:
        return too_many(request, error.rate)
    return None


CODE_PARTS = {"code", "token"}  # the parts of an address that a guess would change


def own_limit(view):
    """A page with a limit of its own that shows no code (signing in): never refused for the
    address's guesses, so a host can sign in while someone at the venue guesses codes."""
    view.own_limit = True
    return view


class GuessingMiddleware:
    """Every page that names a night, a room or a circle by its code (or a link by its
    token) answers "not found" to a wrong one, so each such 404 counts as a guess, and a
    client out of guesses gets the 429 page for any address until its window ends. A 404
    for an address that names no code (a browser looking for an icon) is no guess. It runs
    after the session and sign-in middleware: a signed-in host is a known browser."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if response.status_code == 404 and match and CODE_PARTS & match.kwargs.keys():
            with contextlib.suppress(Limited):  # this one is answered; the next is refused
                hit("code", *request_client(request))
        return response

    def process_view(self, request, view, args, kwargs):
        if getattr(view, "own_limit", False):
            return None
        if (limit := over("code", *request_client(request))) is not None:
            return too_many(request, limit)
        return None
