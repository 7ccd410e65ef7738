"""The players' pages: joining by code, picking a name, and the phone at the table."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from apps.core import cookies, i18n
from apps.core.errors import Refused
from apps.core.language import speak, supported
from apps.core.limits import limited, wrong_code
from apps.core.tokens import SeatClaim, read_seat_token, seat_cookie_name
from apps.parties import services
from apps.parties.forms import JoinCodeForm, JoinNightForm
from apps.parties.models import JoinRequest, Party, Player
from apps.parties.render import phone_context, phone_player

from .common import claim_of, get_party

COOKIE_AGE = 60 * 60 * 24 * 2  # the night, and the morning after for the score sheet


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    """Type the code from the big screen (or scan the QR code, which skips this page)."""
    error = None
    form = JoinCodeForm(request.POST if request.method == "POST" else request.GET or None)
    code = ""
    if form.is_bound and form.is_valid():
        code = form.cleaned_data["code"]
        if Party.objects.filter(code=code).exists():
            return redirect("party_join", code=code)
        if refused := wrong_code(request):
            return refused
        error = _("No party has the code {code}. Check the big screen and try again.").format(
            code=code
        )
    elif form.is_bound:
        error = _("Type the code from the big screen.")
    return render(request, "parties/join.html", {"error": error, "code": code})


@require_http_methods(["GET", "POST"])
@limited("join")
def party_join(request: HttpRequest, code: str) -> HttpResponse:
    party = get_party(code)
    player = phone_player(party, claim_of(request, party))
    if request.method == "GET" and player is not None:
        return redirect("party_phone", code=party.code)
    waiting = services.waiting_of(party, wait_claim_of(request, party))
    answer = waiting_answer(request, party, waiting) if request.method == "GET" else None
    if answer is not None:
        return answer
    error = None
    if request.method == "POST":
        form = JoinNightForm(request.POST)
        try:
            if not form.is_valid():
                raise Refused(_("Pick your name, or type it to add yourself."))
            if form.cleaned_data["player"] is not None:
                joined, token = services.join_party(
                    party.code, player_id=form.cleaned_data["player"]
                )
            else:
                arrival = services.ask_to_join(
                    party.code, form.cleaned_data["name"], waiting=waiting
                )
                if arrival.waiting is not None:
                    # Beyond the players the host expects: wait on this page for the OK.
                    response = redirect("party_join", code=party.code)
                    name = wait_cookie_name(party.code)
                    return cookies.keep(response, name, arrival.token, max_age=COOKIE_AGE)
                token = arrival.token
        except Refused as problem:
            error = str(problem)
        else:
            response = redirect("party_phone", code=party.code)
            return cookies.keep(response, seat_cookie_name(party.scope), token, max_age=COOKIE_AGE)
    names = party.players.filter(kind=Player.Kind.PLAYER, active=True, claimed=False)
    return render(
        request,
        "parties/party_join.html",
        {"party": party, "names": names.order_by("name"), "error": error},
        status=400 if error else 200,
    )


def wait_cookie_name(code: str) -> str:
    return seat_cookie_name(services.wait_scope(code))


def wait_claim_of(request: HttpRequest, party: Party) -> SeatClaim | None:
    scope = services.wait_scope(party.code)
    return read_seat_token(request.COOKIES.get(seat_cookie_name(scope)), scope)


def waiting_answer(
    request: HttpRequest, party: Party, waiting: JoinRequest | None
) -> HttpResponse | None:
    """A phone waiting for the host: still waiting (the page asks again every few seconds),
    let in (to its seat, with the seat's cookie), or turned away (in words). None: its
    request is spent (the seat was handed over before) or there is none: the join page."""
    if waiting is None:
        return None
    if waiting.status == JoinRequest.Status.LET_IN:
        token = services.collect_seat(party, waiting)
        if token is None:
            return None
        url = reverse("party_phone", args=[party.code])
        response = HttpResponseClientRedirect(url) if request.htmx else redirect(url)
        cookies.keep(response, seat_cookie_name(party.scope), token, max_age=COOKIE_AGE)
        return cookies.forget(response, wait_cookie_name(party.code))
    context = {"party": party, "waiting": waiting}
    template = "parties/party_wait.html#wait" if request.htmx else "parties/party_wait.html"
    return render(request, template, context)


@require_GET
def phone(request: HttpRequest, code: str) -> HttpResponse:
    party = get_party(code)
    player = phone_player(party, claim_of(request, party))
    if player is None:
        return redirect(reverse("party_join", args=[party.code]))
    language = seat_language(request, player)
    with speak(language):
        response = render(
            request, "parties/phone.html", phone_context(party, claim_of(request, party))
        )
    if not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
        # A phone that lost its language cookie gets its seat's language back for good.
        cookies.keep_language(response, language)
    return response


def seat_language(request: HttpRequest, player: Player) -> str:
    """The language of a seated phone: a language it just chose (its cookie, when that
    differs from the seat's) is kept with the seat; else the seat's; else the request's."""
    chosen = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if chosen and chosen != player.language:
        player.language = services.set_player_language(player.pk, chosen)
    return player.language or supported(request.LANGUAGE_CODE) or i18n.DEFAULT
