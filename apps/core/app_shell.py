"""The installable app: its manifest, its service worker and the page the worker shows when
the laptop is out of reach. Kept apart from the pages' views because the worker's rules are
about caching, and a cached score is a wrong score."""

from __future__ import annotations

import json
import re

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# What the worker keeps: the look of the app (styles, scripts, icons) and the offline page.
# Pages and their fragments are never kept: they come from the laptop or not at all.
SHELL = [
    "core/site.css",
    "core/live.js",
    "core/countdown.js",
    "core/offline.js",
    "core/icon.svg",
    "core/icons/icon-192.png",
    "parties/party.css",
    "parties/party.js",
]


# A page may name where the icon it adds to a home screen opens: a circle's page, for a
# member who added their circle (their phone keeps them signed in); nothing else.
CIRCLE_PAGE = re.compile(r"/c/[A-Za-z0-9]{1,12}/")


def start_url(asked: str | None) -> str:
    if asked and CIRCLE_PAGE.fullmatch(asked):
        return f"{asked}?from=home-screen"
    return "/?from=home-screen"


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: a phone can add Bunko Night to its home screen."""
    data = {
        "name": "Bunko Night",
        "short_name": "Bunko",
        "description": _("Bunko parties scored on the phones, with party games between rounds."),
        "lang": get_language(),
        "start_url": start_url(request.GET.get("start")),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#faf7f2",
        "theme_color": "#b3261e",
        "icons": [
            {"src": static("core/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("core/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("core/icons/maskable-192.png"),
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "maskable",
            },
            {
                "src": static("core/icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("core/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data)
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker, served from the site's root so that it may look after every page. Its
    cache name carries the static files' hashed names: a new release replaces the old shell."""
    shell = [static(path) for path in SHELL] + ["/offline/"]
    script = render(request, "core/sw.js", {"shell": json.dumps(shell)}).content
    response = HttpResponse(script, content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the worker when a page cannot be reached: it tries again by itself."""
    return render(request, "core/offline.html")
