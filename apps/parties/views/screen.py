"""The big screen and the score sheet: what everyone may see."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from apps.parties.render import night_context, screen_context

from .common import get_party


@require_GET
def screen(request: HttpRequest, code: str) -> HttpResponse:
    party = get_party(code)
    context = screen_context(party)
    context["join_url"] = request.build_absolute_uri(reverse("party_join", args=[party.code]))
    return render(request, "parties/screen.html", context)


@require_GET
def sheet(request: HttpRequest, code: str) -> HttpResponse:
    party = get_party(code)
    context = night_context(party)
    context["rounds_played"] = list(party.tables.values_list("round", flat=True).distinct())
    return render(request, "parties/sheet.html", context)
