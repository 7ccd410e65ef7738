"""What a night tells the game rooms (through apps.core.links): its players to invite, where
the asking phone's page of the night is, and what the night wants of that phone now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from apps.core.codes import normalize_code
from apps.core.links import NightLink
from apps.core.tokens import read_seat_token, seat_cookie_name
from apps.parties.models import Party, Table
from apps.parties.render import phone_player
from apps.parties.rules.table import DONE
from apps.parties.selectors import invitable


def night_link(code: str, cookies: Mapping[str, str], user: Any = None) -> NightLink | None:
    found = invitable(normalize_code(code))
    if found is None:
        return None
    party, names = found
    claim = read_seat_token(cookies.get(seat_cookie_name(party.scope)), party.scope)
    player = phone_player(party, claim)
    me = player.name if player else ""
    if player is not None:
        url = reverse("party_phone", args=[party.code])
    elif user is not None and user.is_authenticated and user.pk == party.host_id:
        url = reverse("party_host", args=[party.code])
    else:
        url = reverse("party_join", args=[party.code])
    return NightLink(
        code=party.code,
        name=party.name,
        invitable=tuple(n for n in names if n != me),
        my_name=me,
        url=url,
        call=_call(party, player.pk) if player is not None else "",
    )


def _call(party: Party, player_id: int) -> str:
    """ "Round 2 has started: go to table 3", while that table is waiting for its roll-off."""
    if party.status != Party.Status.PLAYING or not party.current_round:
        return ""
    tables = Table.objects.filter(party=party, round=party.current_round)
    for pk, number, seats in tables.values_list("pk", "number", "seats"):
        if player_id in seats:
            phase = Table.objects.values_list("state__phase", flat=True).get(pk=pk)
            if phase != DONE:
                return _("Round %(round)s has started: go to table %(table)s") % {
                    "round": party.current_round,
                    "table": number,
                }
    return ""
