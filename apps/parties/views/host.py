"""The host's pages: creating a night, the console, and every host-only action."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.core.errors import Refused
from apps.parties import services
from apps.parties.big_screen import table_card_now
from apps.parties.console import render_host
from apps.parties.forms import (
    AddPlayerForm,
    CorrectionForm,
    ExpectedPlayersForm,
    HostForm,
    HostMoveForm,
    JoinRequestForm,
    PartyForm,
    PlayerForm,
    RenameForm,
    ScreenLanguageForm,
    ScreenRoomForm,
    replacement_code,
)
from apps.parties.models import Party, Player
from apps.parties.selectors import preview_correction
from apps.parties.services import night as night_services

from .common import get_party


def host_only(view: Callable) -> Callable:
    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, code: str, *args, **kwargs) -> HttpResponse:
        party = get_party(code)
        if party.host_id != request.user.pk:
            return HttpResponseForbidden(_("Only the host of this night can do that."))
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
    form = PartyForm(request.POST or None, initial={"rounds": 6, "name": _("Bunko night")})
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
            language=request.LANGUAGE_CODE,
            expected_players=data["expected_players"],
        )
        return redirect("party_host", code=party.code)
    return render(request, "parties/new.html", {"form": form})


@host_only
@require_GET
def console(request: HttpRequest, party: Party) -> HttpResponse:
    html, _night = render_host(party.code)
    return render(request, "parties/host.html", {"party": party, "host_html": html})


def _add_player(code: str, form: AddPlayerForm) -> str:
    data = form.cleaned_data
    player = services.add_player(code, data["name"], kind=data["kind"] or Player.Kind.PLAYER)
    return _("{name} is on the list: they play from the next round that starts.").format(
        name=player.name
    )


def _remove(code: str, form: PlayerForm) -> tuple[str, dict]:
    player = services.remove_player(code, form.cleaned_data["player"])
    undo = {
        "action": "return",
        "fields": {"player": player.pk},
        "label": _("Undo: {name} stays").format(name=player.name),
    }
    return _("{name} leaves after this round.").format(name=player.name), undo


def _let_in(code: str, form: JoinRequestForm) -> str:
    player = services.let_in(code, form.cleaned_data["join_request"])
    return _("{name} is in: they play from the next round that starts.").format(name=player.name)


def _expected(code: str, form: ExpectedPlayersForm) -> str:
    number = services.set_expected_players(code, form.cleaned_data["expected"])
    return _("The night expects {number} players.").format(number=number)


# Each host button: its form, and the service it calls with the form's data; the service
# says what happened (and, where the rules allow, how to take it back).
HOST_ACTIONS: dict[str, tuple[type[HostForm], Callable[[str, Any], object]]] = {
    "add-player": (AddPlayerForm, _add_player),
    "rename": (
        RenameForm,
        lambda code, f: _("Renamed to {name}.").format(
            name=services.rename_player(code, f.cleaned_data["player"], f.cleaned_data["name"]).name
        ),
    ),
    "remove": (PlayerForm, _remove),
    "return": (
        PlayerForm,
        lambda code, f: _("{name} is back on the list.").format(
            name=night_services.return_player(code, f.cleaned_data["player"]).name
        ),
    ),
    "free": (
        PlayerForm,
        lambda code, f: _("The name {name} is free for another phone.").format(
            name=services.free_player(code, f.cleaned_data["player"]).name
        ),
    ),
    "let-in": (JoinRequestForm, _let_in),
    "turn-away": (
        JoinRequestForm,
        lambda code, f: _("{name} was turned away.").format(
            name=services.turn_away(code, f.cleaned_data["join_request"]).name
        ),
    ),
    "turn-away-all": (
        HostForm,
        lambda code, f: _("{count} waiting phones were turned away.").format(
            count=services.turn_away_all(code)
        ),
    ),
    "expected-players": (ExpectedPlayersForm, _expected),
    "start-round": (
        HostForm,
        lambda code, f: _("Round {round} has started.").format(
            round=services.start_next_round(code)
        ),
    ),
    "pause": (HostForm, lambda code, f: services.pause_night(code) or _("The night is paused.")),
    "resume": (HostForm, lambda code, f: services.resume_night(code) or _("The night goes on.")),
    "end": (
        HostForm,
        lambda code, f: (
            services.end_night(code) and _("The night is over."),
            {"action": "reopen", "fields": {}, "label": _("Undo: reopen the night")},
        ),
    ),
    "reopen": (
        HostForm,
        lambda code, f: services.reopen_night(code) or _("The night is open again."),
    ),
    "screen-language": (
        ScreenLanguageForm,
        lambda code, f: (
            services.set_screen_language(code, f.cleaned_data["language"])
            and _("The big screen changes its language.")
        ),
    ),
    "screen-room": (
        ScreenRoomForm,
        lambda code, f: (
            services.show_room(code, f.cleaned_data["room"])
            or (
                _("The big screen shows the party game.")
                if f.cleaned_data["room"]
                else _("The big screen shows the tables.")
            )
        ),
    ),
}


def _back(party: Party, form: HostForm) -> HttpResponse:
    return redirect(reverse("party_host", args=[party.code]) + "#" + form.anchor())


def host_answer(request: HttpRequest, party: Party, form: HostForm, text: str, ok: bool, undo=None):
    """htmx: the message (and an undo) swapped into the console; without htmx: back to the
    console with the message."""
    if request.htmx:
        context = {"party": party, "text": text, "ok": ok, "undo": undo}
        return render(request, "parties/_host_message.html", context)
    (messages.success if ok else messages.error)(request, text)
    return _back(party, form)


@host_only
@require_POST
def act(request: HttpRequest, party: Party, action: str) -> HttpResponse:
    """Every host button posts here; the console hears the change on its socket, the answer
    says what happened or why nothing did."""
    if action not in HOST_ACTIONS:
        return HttpResponse(_("Unknown host action."), status=404)
    form_class, handler = HOST_ACTIONS[action]
    form = form_class(request.POST)
    if not form.is_valid():
        return host_answer(request, party, form, first_error(form), ok=False)
    try:
        result = handler(party.code, form)
    except Refused as problem:
        return host_answer(request, party, form, str(problem), ok=False)
    text, undo = result if isinstance(result, tuple) else (result, None)
    return host_answer(request, party, form, str(text), ok=True, undo=undo)


def first_error(form: HostForm) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return _("Something in that form was not right; nothing changed.")


@host_only
@require_POST
def host_move(request: HttpRequest, party: Party) -> HttpResponse:
    """A stalled table: the host plays for a seat, hands a seat to the app, or ends the game."""
    form = HostMoveForm(request.POST)
    if not form.is_valid():
        return host_answer(request, party, form, first_error(form), ok=False)
    data = form.cleaned_data
    move = {"type": data["type"], "seat": data["seat"], "winner": data["winner"], "on": data["on"]}
    try:
        services.host_move(
            party.code, data["table"], {k: v for k, v in move.items() if v is not None}
        )
    except Refused as problem:
        return host_answer(request, party, form, str(problem), ok=False)
    return host_answer(request, party, form, _("Done."), ok=True)


@host_only
@require_POST
def correct(request: HttpRequest, party: Party) -> HttpResponse:
    """The host changes or deletes one entry of a table, with a reason kept in the log. With
    ``preview`` the console first shows what the correction would make of the table."""
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        return host_answer(
            request, party, form, _("Choose a table entry and what it should have been."), ok=False
        )
    data = form.cleaned_data
    if data.get("preview") and request.htmx:
        preview = preview_correction(party, data["table"], data["index"], data["replacement"])
        return render(
            request,
            "parties/_correction_preview.html",
            {"party": party, "preview": preview, "data": request.POST},
        )
    try:
        before = services.correct_entry(
            party.code, data["table"], data["index"], data["replacement"], data["reason"]
        )
    except Refused as problem:
        return host_answer(request, party, form, str(problem), ok=False)
    undo = {
        "action": "correct",
        "fields": {
            "table": data["table"],
            "index": data["index"],
            "replacement": replacement_code(before),
            "reason": f"Undo: {data['reason']}",
        },
        "label": _("Undo the correction"),
    }
    corrected = _("Corrected: the table counts it again.")
    return host_answer(request, party, form, corrected, True, undo)


# A table's parts on the console that are fetched when the host opens them.
TABLE_PARTS = {"correct": "parties/_correction_form.html", "tools": "parties/_host_tools.html"}


@host_only
@require_GET
def table_part(request: HttpRequest, party: Party, table_id: int, part: str) -> HttpResponse:
    """A table's correction form or its tools for a stalled game: into the console when the
    host opens them, or as a page of their own without scripts."""
    card = table_card_now(party, table_id)
    if card is None or part not in TABLE_PARTS:
        raise Http404("There is no such table tonight.")
    context = {"party": party, "t": card, "part": TABLE_PARTS[part]}
    template = TABLE_PARTS[part] if request.htmx else "parties/table_part_page.html"
    return render(request, template, context)


@host_only
@require_GET
def player_menu(request: HttpRequest, party: Party, player_id: int) -> HttpResponse:
    """The host's changes to one player (rename, leave, free the name, come back): into the
    console when the player's menu opens, or as a page of its own without scripts."""
    player = party.players.filter(pk=player_id).first()
    if player is None:
        raise Http404("There is no such player tonight.")
    context = {"party": party, "player": player}
    template = "parties/_player_menu.html" if request.htmx else "parties/player_page.html"
    return render(request, template, context)
