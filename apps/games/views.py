"""The game-room pages: the lobby (start or join), a room (phone), and the big screen."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.core.codes import normalize_code
from apps.games import services
from apps.games.models import Room, Seat
from apps.games.registry import GAMES
from apps.games.selectors import cookie_name, room_by_code, room_context, seat_for_token
from apps.parties.render import phone_player
from apps.parties.selectors import invitable
from apps.parties.views.common import claim_of

SEAT_COOKIE_AGE = 60 * 60 * 24 * 3  # a party game rarely outlives the weekend


def _remember_seat(response: HttpResponse, room: Room, seat: Seat) -> HttpResponse:
    response.set_cookie(
        cookie_name(room),
        services.seat_token(room, seat),
        max_age=SEAT_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
    )
    return response


def _room_or_404(code: str) -> Room:
    room = room_by_code(code)
    if room is None:
        raise Http404("There is no room with that code.")
    return room


def _party_context(request: HttpRequest, code: str) -> dict:
    """From a party night: its players to invite, and the phone's own name there."""
    found = invitable(normalize_code(code)) if code else None
    if found is None:
        return {}
    party, names = found
    player = phone_player(party, claim_of(request, party))
    me = player.name if player else ""
    return {"party": party, "invitable": [n for n in names if n != me], "my_name": me}


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    context = {"games": GAMES.values(), **_party_context(request, request.GET.get("party", ""))}
    return render(request, "games/lobby.html", context)


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    game = request.POST.get("game", "")
    party = _party_context(request, request.POST.get("party", ""))
    # Only names of that night can be pre-listed: the form can't smuggle in others.
    invited = [n for n in request.POST.getlist("invite") if n in party.get("invitable", [])]
    try:
        room, seat = services.create_room(
            game,
            {},
            request.POST.get("name", ""),
            prelisted=invited,
            party_code=party["party"].code if party else "",
        )
    except services.RoomError as error:
        context = {"games": GAMES.values(), "create_error": str(error), "chosen": game, **party}
        return render(request, "games/lobby.html", context, status=400)
    return _remember_seat(redirect("games:room", code=room.code), room, seat)


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    code = normalize_code(request.POST.get("code", ""))
    if not code or room_by_code(code) is None:
        message = f"There is no room with the code {code}." if code else "Type the room's code."
        context = {"games": GAMES.values(), "join_error": message, "code": code}
        return render(request, "games/lobby.html", context, status=400)
    return redirect("games:room", code=code)


def _room_page(request: HttpRequest, room: Room, status: int = 200, **extra) -> HttpResponse:
    seat = seat_for_token(room, request.COOKIES.get(cookie_name(room)))
    context = room_context(room, seat, request.build_absolute_uri("/")[:-1])
    context.update(extra)
    return render(request, "games/room.html", context, status=status)


@require_GET
def room(request: HttpRequest, code: str) -> HttpResponse:
    return _room_page(request, _room_or_404(code))


@require_POST
def sit(request: HttpRequest, code: str) -> HttpResponse:
    room = _room_or_404(code)
    try:
        slot = int(request.POST.get("slot", ""))
    except ValueError:
        return _room_page(request, room, 400, sit_error="Pick a seat.")
    try:
        seat = services.take_seat(room.code, slot, request.POST.get("name", ""))
    except services.RoomError as error:
        return _room_page(request, room, 400, sit_error=str(error))
    return _remember_seat(redirect("games:room", code=room.code), room, seat)


@require_GET
def screen(request: HttpRequest, code: str) -> HttpResponse:
    room = _room_or_404(code)
    context = room_context(room, None, request.build_absolute_uri("/")[:-1], screen=True)
    return render(request, "games/screen.html", context)
