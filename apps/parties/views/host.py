"""The host's pages: creating a night, the console, and every host-only action."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.core.errors import Refused
from apps.parties import services
from apps.parties.forms import (
    AddPlayerForm,
    CorrectionForm,
    HostForm,
    PartyForm,
    PlayerForm,
    RenameForm,
)
from apps.parties.models import Party, Player
from apps.parties.render import render_host
from apps.parties.services import night as night_services

from .common import get_party


def host_only(view: Callable) -> Callable:
    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, code: str, *args, **kwargs) -> HttpResponse:
        party = get_party(code)
        if party.host_id != request.user.pk:
            return HttpResponseForbidden("Only the host of this night can do that.")
        return view(request, party, *args, **kwargs)

    return wrapper


@login_required
@require_GET
def my_nights(request: HttpRequest) -> HttpResponse:
    nights = Party.objects.filter(host=request.user).order_by("-created")
    return render(request, "parties/my_nights.html", {"nights": nights})


@login_required
@require_http_methods(["GET", "POST"])
def new_party(request: HttpRequest) -> HttpResponse:
    form = PartyForm(request.POST or None, initial={"rounds": 6, "name": "Bunko night"})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        party = services.create_party(
            request.user,
            name=data["name"],
            rounds=data["rounds"],
            dice_mode=data["dice_mode"],
            attendance=data["attendance"],
            seating=data["seating"],
            classic=data["classic"],
        )
        return redirect("party_host", code=party.code)
    return render(request, "parties/new.html", {"form": form})


@host_only
@require_GET
def console(request: HttpRequest, party: Party) -> HttpResponse:
    html, _night = render_host(party.code)
    return render(request, "parties/host.html", {"party": party, "host_html": html})


def _add_player(code: str, form: AddPlayerForm) -> object:
    data = form.cleaned_data
    return services.add_player(code, data["name"], kind=data["kind"] or Player.Kind.PLAYER)


# Each host button: its form, and the service it calls with the form's data.
HOST_ACTIONS: dict[str, tuple[type[HostForm], Callable[[str, Any], object]]] = {
    "add-player": (AddPlayerForm, _add_player),
    "rename": (
        RenameForm,
        lambda code, f: services.rename_player(
            code, f.cleaned_data["player"], f.cleaned_data["name"]
        ),
    ),
    "remove": (PlayerForm, lambda code, f: services.remove_player(code, f.cleaned_data["player"])),
    "return": (
        PlayerForm,
        lambda code, f: night_services.return_player(code, f.cleaned_data["player"]),
    ),
    "free": (PlayerForm, lambda code, f: services.free_player(code, f.cleaned_data["player"])),
    "start-round": (HostForm, lambda code, f: services.start_next_round(code)),
    "pause": (HostForm, lambda code, f: services.pause_night(code)),
    "resume": (HostForm, lambda code, f: services.resume_night(code)),
    "end": (HostForm, lambda code, f: services.end_night(code)),
}


def _back(party: Party, form: HostForm) -> HttpResponse:
    return redirect(reverse("party_host", args=[party.code]) + "#" + form.anchor())


@host_only
@require_POST
def act(request: HttpRequest, party: Party, action: str) -> HttpResponse:
    """Every host button posts here; the page reloads with the result or the reason."""
    if action not in HOST_ACTIONS:
        return HttpResponse("Unknown host action.", status=404)
    form_class, handler = HOST_ACTIONS[action]
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return _back(party, form)
    try:
        handler(party.code, form)
    except Refused as problem:
        messages.error(request, str(problem))
    return _back(party, form)


def _first_error(form: HostForm) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return "Something in that form was not right; nothing changed."


@host_only
@require_POST
def correct(request: HttpRequest, party: Party) -> HttpResponse:
    """The host changes or deletes one entry of a table, with a reason kept in the log."""
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a table entry and what it should have been.")
        return redirect(reverse("party_host", args=[party.code]) + "#tables")
    data = form.cleaned_data
    try:
        services.correct_entry(
            party.code, data["table"], data["index"], data["replacement"], data["reason"]
        )
    except Refused as problem:
        messages.error(request, str(problem))
    return redirect(reverse("party_host", args=[party.code]) + "#tables")
