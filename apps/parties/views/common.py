from __future__ import annotations

from django.http import Http404, HttpRequest

from apps.core.tokens import SeatClaim, read_seat_token, seat_cookie_name
from apps.parties.models import Party


def get_party(code: str) -> Party:
    party = Party.objects.filter(code=code.upper()).first()
    if party is None:
        raise Http404("There is no party with that code.")
    return party


def claim_of(request: HttpRequest, party: Party) -> SeatClaim | None:
    return read_seat_token(request.COOKIES.get(seat_cookie_name(party.scope)), party.scope)
