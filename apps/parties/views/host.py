"""The host's pages: creating a night, the console, and every host-only action."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.parties import services
from apps.parties.forms import PartyForm
from apps.parties.models import Party
from apps.parties.render import host_context
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
    context = host_context(party)
    context["join_url"] = request.build_absolute_uri(f"/p/{party.code}/join/")
    return render(request, "parties/host.html", context)


def _player_id(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("player", ""))
    except ValueError:
        return None


HOST_ACTIONS: dict[str, Callable[[str, HttpRequest], object]] = {
    "add-player": lambda code, r: services.add_player(
        code, r.POST.get("name", ""), kind=r.POST.get("kind") or "player"
    ),
    "rename": lambda code, r: services.rename_player(code, _player_id(r), r.POST.get("name", "")),
    "remove": lambda code, r: services.remove_player(code, _player_id(r)),
    "return": lambda code, r: night_services.return_player(code, _player_id(r)),
    "free": lambda code, r: services.free_player(code, _player_id(r)),
    "start-round": lambda code, r: services.start_next_round(code),
    "pause": lambda code, r: services.pause_night(code),
    "resume": lambda code, r: services.resume_night(code),
    "end": lambda code, r: services.end_night(code),
}


@host_only
@require_POST
def act(request: HttpRequest, party: Party, action: str) -> HttpResponse:
    """Every host button posts here; the page reloads with the result or the reason."""
    handler = HOST_ACTIONS.get(action)
    if handler is None:
        return HttpResponse("Unknown host action.", status=404)
    try:
        handler(party.code, request)
    except services.PartyError as problem:
        messages.error(request, str(problem))
    return redirect(f"/p/{party.code}/host/#{request.POST.get('back', 'main')}")


@host_only
@require_POST
def correct(request: HttpRequest, party: Party) -> HttpResponse:
    """The host changes or deletes one entry of a table, with a reason kept in the log."""
    try:
        table_id = int(request.POST.get("table", ""))
        index = int(request.POST.get("index", ""))
        replacement = _replacement(request.POST.get("replacement", ""))
        services.correct_entry(
            party.code, table_id, index, replacement, request.POST.get("reason", "")
        )
    except ValueError:
        messages.error(request, "Choose a table entry and what it should have been.")
    except services.PartyError as problem:
        messages.error(request, str(problem))
    return redirect(f"/p/{party.code}/host/#tables")


def _replacement(value: str) -> dict | None:
    """The correction menu's choices, as rules actions ('delete' removes the entry)."""
    if value == "delete":
        return None
    choices = {
        "miss": {"type": "report", "kind": "miss"},
        "six1": {"type": "report", "kind": "sixes", "count": 1},
        "six2": {"type": "report", "kind": "sixes", "count": 2},
        "bunko": {"type": "report", "kind": "bunko"},
        "wipeout": {"type": "report", "kind": "wipeout"},
    }
    if value in choices:
        return choices[value]
    if value.startswith("dice:"):
        dice = json.loads("[" + value[5:] + "]")
        return {"type": "roll", "dice": dice}
    if value.startswith("split:"):
        a, b = value[6:].split("-")
        return {"type": "scramble", "split": [int(a), int(b)]}
    raise ValueError(value)
