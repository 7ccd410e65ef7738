"""The Content-Security-Policy of every answer: the laptop's own scripts, styles, images and
sockets, nothing inline and nothing from elsewhere. A guest who gets a name or a chat line
into a page cannot make it run, style or send anything.

No page needs an exception: scripts and styles live in static files, and what a template
used to put in a ``style`` attribute (a grid's size, a field's place on a drawing) travels
in ``data-vars`` and is set by the live client through the CSSOM, which the policy allows.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"

FIXED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    # data: for an image a browser or a library makes on the spot; nothing can run in one.
    "img-src": "'self' data:",
    "font-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    # The big screen shows a game room in a frame of its own; no other site may frame a page.
    "frame-ancestors": "'self'",
    "frame-src": "'self'",
    "worker-src": "'self'",
    "manifest-src": "'self'",
}


def policy(request: HttpRequest) -> str:
    parts = dict(FIXED)
    try:
        host = request.get_host()
    except DisallowedHost:
        host = ""
    # 'self' covers the page's own ws: and wss: only in browsers of CSP Level 3, so the
    # socket's host is named: the very host of the page, as the live client opens it and as
    # SameOriginValidator lets it in.
    sockets = ["'self'"]
    if host:
        if not settings.HTTPS:
            sockets.append(f"ws://{host}")
        sockets.append(f"wss://{host}")
    parts["connect-src"] = " ".join(sockets)
    text = "; ".join(f"{name} {value}" for name, value in parts.items())
    if settings.HTTPS:
        # Behind the HTTPS proxy every page already is HTTPS (SECURE_SSL_REDIRECT, HSTS);
        # this turns a stray http:// link to the site into HTTPS as well. Never on the party
        # laptop, whose phones reach it over the venue's plain-HTTP Wi-Fi.
        text += "; upgrade-insecure-requests"
    return text


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response.headers:
            response.headers[HEADER] = policy(request)
        return response
