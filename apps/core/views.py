from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.http import require_GET

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
        return HttpResponseBadRequest("Only links on this server get a QR code.")
    svg = qr_svg(request.build_absolute_uri(target))
    return HttpResponse(svg, content_type="image/svg+xml")
