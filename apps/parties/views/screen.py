"""The big screen and the score sheet: what everyone may see."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.core.language import speak
from apps.core.network import public_base
from apps.parties.big_screen import render_screen

from .common import get_party


@require_GET
def screen(request: HttpRequest, code: str) -> HttpResponse:
    party = get_party(code)
    with speak(party.language):  # the room reads the host's language, whoever opened it
        html, _night = render_screen(party.code, public_base(request))
        return render(request, "parties/screen.html", {"party": party, "screen_html": html})
