"""What a night tells the game rooms (through apps.core.links): its players to invite, and
where the asking phone's page of the night is."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from apps.core.codes import normalize_code
from apps.core.links import NightLink
from apps.parties.render import phone_player
from apps.parties.selectors import invitable
from apps.parties.views.common import claim_of


def night_link(request: HttpRequest, code: str) -> NightLink | None:
    found = invitable(normalize_code(code))
    if found is None:
        return None
    party, names = found
    player = phone_player(party, claim_of(request, party))
    me = player.name if player else ""
    if player is not None:
        url = reverse("party_phone", args=[party.code])
    elif request.user.is_authenticated and request.user.pk == party.host_id:
        url = reverse("party_host", args=[party.code])
    else:
        url = reverse("party_join", args=[party.code])
    return NightLink(
        code=party.code,
        name=party.name,
        invitable=tuple(n for n in names if n != me),
        my_name=me,
        url=url,
    )
