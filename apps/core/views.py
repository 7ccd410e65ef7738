from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from apps.core.network import public_base
from apps.core.paths import local_path
from apps.core.qr import qr_svg


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


@require_GET
def phone_check(request: HttpRequest) -> HttpResponse:
    return render(request, "core/check.html")


@require_GET
def qr_code(request: HttpRequest) -> HttpResponse:
    """The QR code of a link on this server (never an outside address)."""
    target = request.GET.get("for", "/")
    if not target.startswith("/") or target.startswith("//") or len(target) > 200:
        return HttpResponseBadRequest(_("Only links on this server get a QR code."))
    svg = qr_svg(public_base(request) + target)
    return HttpResponse(svg, content_type="image/svg+xml")


HOW_TO = {
    "bunko": "Bunko",
    "mbogo": "Mbogo",
    "bonje": "Bonje in de Stal",
    "dschungel": "Auch schon clever: Dschungelparty",
}


@require_GET
def how_to_play(request: HttpRequest, game: str) -> HttpResponse:
    """A short how-to-play for each game, one tap away from its screens."""
    if game not in HOW_TO:
        raise Http404("There is no such game here.")
    back = local_path(request, request.GET.get("back"), "")
    context = {"game": game, "name": HOW_TO[game], "games": HOW_TO, "back": back}
    return render(request, f"core/how/{game}.html", context)


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them the app's icon."""
    return redirect(static("core/icon.svg"), permanent=True)
