"""The game-room pages: the lobby (start or join), a room (phone), and the big screen."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.core import cookies
from apps.core.errors import Refused
from apps.core.limits import limited, wrong_code
from apps.core.links import night_for
from apps.core.names import same_name
from apps.core.network import public_base
from apps.games import services
from apps.games.forms import CreateRoomForm, JoinRoomForm, SitForm
from apps.games.invitations import read_invitation
from apps.games.models import Room, Seat
from apps.games.registry import all_games
from apps.games.selectors import cookie_name, room_by_code, room_context, seat_for_token

SEAT_COOKIE_AGE = 60 * 60 * 24 * 3  # a party game rarely outlives the weekend


def _remember_seat(response: HttpResponse, room: Room, seat: Seat) -> HttpResponse:
    return cookies.keep(
        response, cookie_name(room), services.seat_token(room, seat), max_age=SEAT_COOKIE_AGE
    )


def _room_or_404(code: str) -> Room:
    room = room_by_code(code)
    if room is None:
        raise Http404(_("There is no room with that code."))
    return room


def _lobby(
    request: HttpRequest,
    create: CreateRoomForm,
    join: JoinRoomForm,
    night=None,
    status: int = 200,
) -> HttpResponse:
    games = [
        {"entry": entry, "options": create.option_fields(slug)}
        for slug, entry in all_games().items()
    ]
    context = {"games": games, "create": create, "join": join, "night": night}
    return render(request, "games/lobby.html", context, status=status)


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Start a game or join one; from a party night (``?party=CODE``) with its players to
    invite."""
    night = night_for(request, request.GET.get("party", ""))
    initial = {"name": night.my_name, "party": night.code} if night else {}
    create = CreateRoomForm(initial=initial, invitable=night.invitable if night else ())
    return _lobby(request, create, JoinRoomForm(), night)


@require_POST
@limited("room")
def create(request: HttpRequest) -> HttpResponse:
    night = night_for(request, request.POST.get("party", ""))
    form = CreateRoomForm(request.POST, invitable=night.invitable if night else ())
    if form.is_valid():
        try:
            room, seat = services.create_room(
                form.cleaned_data["game"],
                form.chosen_options(),
                form.cleaned_data["name"],
                prelisted=form.cleaned_data["invite"],
                party_code=night.code if night else "",
            )
        except Refused as error:
            form.add_error(None, str(error))
        else:
            return _remember_seat(redirect("games:room", code=room.code), room, seat)
    return _lobby(request, form, JoinRoomForm(), night, status=400)


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    form = JoinRoomForm(request.POST)
    if form.is_valid():
        code = form.cleaned_data["code"]
        if room_by_code(code) is not None:
            return redirect("games:room", code=code)
        if refused := wrong_code(request):
            return refused
        form.add_error("code", _("There is no room with the code {code}.").format(code=code))
    return _lobby(request, CreateRoomForm(), form, status=400)


def _room_page(request: HttpRequest, room: Room, status: int = 200, **extra) -> HttpResponse:
    seat = seat_for_token(room, request.COOKIES.get(cookie_name(room)))
    context = room_context(room, seat, public_base(request))
    context["night"] = night_for(request, room.party_code)
    context.update(extra)
    return render(request, "games/room.html", context, status=status)


@require_GET
def room(request: HttpRequest, code: str) -> HttpResponse:
    return _room_page(request, _room_or_404(code))


@require_POST
def sit(request: HttpRequest, code: str) -> HttpResponse:
    room = _room_or_404(code)
    form = SitForm(request.POST)
    if not form.is_valid():
        return _room_page(request, room, 400, sit_error=_("Pick a seat."))
    try:
        seat = services.take_seat(room.code, form.cleaned_data["slot"], form.cleaned_data["name"])
    except Refused as error:
        return _room_page(request, room, 400, sit_error=str(error))
    return _remember_seat(redirect("games:room", code=room.code), room, seat)


@require_POST
def invited(request: HttpRequest, code: str) -> HttpResponse:
    """ "Take your seat" on the night's phone: the invitation says who the player is, so one
    tap seats them. A forged or stale invitation is refused in words and changes nothing."""
    room = _room_or_404(code)
    invitation = read_invitation(request.POST.get("invite"), room.code)
    if invitation is None:
        message = _(
            "This invitation is not valid. If a seat is kept for you, tap your name on this page."
        )
        return _room_page(request, room, 400, invite_error=message)
    held = seat_for_token(room, request.COOKIES.get(cookie_name(room)))
    if held is not None and held.pk == invitation.seat_id:
        return redirect("games:room", code=room.code)  # a second tap: already seated
    night = night_for(request, room.party_code)
    if night is None or same_name(invitation.name, [night.my_name]) is None:
        message = _("This invitation is for {name}'s phone at the night.")
        return _room_page(request, room, 403, invite_error=message.format(name=invitation.name))
    try:
        seat = services.take_invited_seat(room.code, invitation.seat_id, invitation.name)
    except Refused as error:
        return _room_page(request, room, 409, invite_error=str(error))
    return _remember_seat(redirect("games:room", code=room.code), room, seat)


@require_GET
def screen(request: HttpRequest, code: str) -> HttpResponse:
    room = _room_or_404(code)
    context = room_context(room, None, public_base(request), screen=True)
    context["embed"] = "embed" in request.GET  # inside the night's big screen
    return render(request, "games/screen.html", context)
