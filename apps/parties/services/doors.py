"""Joins beyond the players the host expects: they wait for the host to let them in.

A phone picking a name the host put on the list, or coming back with its own seat, never
waits. A new name waits once the night has as many players as it expects
(``rules.doors``); the host lets it in (it becomes a player, as if it had joined) or turns
it away. Each change is one function here, in one transaction with the night locked, and
the console hears it after commit like every change of the night.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from apps.core.errors import Refused
from apps.core.names import clean_name, same_name
from apps.core.tokens import SeatClaim, make_seat_token
from apps.parties.models import JoinRequest, Party, Player
from apps.parties.rules.doors import MOST_EXPECTED, must_wait
from apps.parties.selectors import expected_of, players_of

from .log import PLAYERS, WAITING, record_night
from .night import _check_name_free, _not_ended, join_party, locked

# More phones than this waiting at once is a flood, not a party: the rest are refused in
# words until the host has decided, and the console's list stays short enough to read.
MOST_WAITING = 30


@dataclass(frozen=True)
class Arrival:
    """What a new name's join came to: a player at once, or a request that waits; the
    token is the seat's or the waiting phone's."""

    player: Player | None
    waiting: JoinRequest | None
    token: str


def wait_scope(code: str) -> str:
    """The waiting phone's token is for this scope: it never passes for a seat's."""
    return f"wait:{code}"


def waiting_of(party: Party, claim: SeatClaim | None) -> JoinRequest | None:
    """The request a waiting phone's token stands for (a forged, stale or foreign token:
    none)."""
    if claim is None:
        return None
    return party.join_requests.filter(pk=claim.seat_id, nonce=claim.nonce).first()


def _check_not_waiting(party: Party, name: str) -> None:
    waiting = {r.name: r for r in party.join_requests.filter(status=JoinRequest.Status.WAITING)}
    match = same_name(name, waiting)
    if match is not None:
        raise Refused(
            _(
                "Someone called {name} is already waiting for the host. If that is you, "
                "wait on that phone; if not, add your name with an initial (like Ann B)."
            ).format(name=match)
        )


@transaction.atomic
def ask_to_join(code: str, new_name: str, *, waiting: JoinRequest | None = None) -> Arrival:
    """A phone adds its own name: it joins at once while the night has room for it, else
    it waits for the host (a second tap of the same phone's Join finds its request)."""
    party = locked(code)
    _not_ended(party)
    name = clean_name(new_name)
    if (
        waiting is not None
        and waiting.status == JoinRequest.Status.WAITING
        and same_name(name, {waiting.name: waiting}) is not None
    ):
        return Arrival(None, waiting, make_seat_token(wait_scope(code), waiting.pk, waiting.nonce))
    _check_name_free(party, name)
    _check_not_waiting(party, name)
    if not must_wait(players_of(party), expected_of(party)):
        player, token = join_party(code, new_name=name)
        return Arrival(player, None, token)
    if party.join_requests.filter(status=JoinRequest.Status.WAITING).count() >= MOST_WAITING:
        raise Refused(
            _("Many phones are waiting for the host already. Ask the host to add your name.")
        )
    request = JoinRequest.objects.create(party=party, name=name)
    record_night(party, "join_waiting", parts=(WAITING,), name=name)
    return Arrival(None, request, make_seat_token(wait_scope(code), request.pk, request.nonce))


def _waiting(party: Party, request_id: int) -> JoinRequest:
    """A request still waiting; a decided one (a double tap, an old console) is refused."""
    try:
        request = party.join_requests.get(pk=request_id)
    except (JoinRequest.DoesNotExist, ValueError, TypeError):
        raise Refused(_("Nobody by that request is waiting to join tonight.")) from None
    if request.status == JoinRequest.Status.LET_IN:
        raise Refused(_("{name} is already in.").format(name=request.name))
    if request.status == JoinRequest.Status.TURNED_AWAY:
        raise Refused(_("{name} was already turned away.").format(name=request.name))
    return request


@transaction.atomic
def let_in(code: str, request_id: int) -> Player:
    """The host lets a waiting phone in: it becomes a player, as if it had joined, and the
    phone takes its seat when it next asks."""
    party = locked(code)
    _not_ended(party)
    request = _waiting(party, request_id)
    try:
        _check_name_free(party, request.name)
    except Refused:
        raise Refused(
            _(
                "The name {name} is on tonight's list now. Turn this phone away: it can "
                "join again with another name."
            ).format(name=request.name)
        ) from None
    player = Player.objects.create(
        party=party, name=request.name, claimed=True, joined_round=party.current_round + 1
    )
    request.status, request.player = JoinRequest.Status.LET_IN, player
    request.save(update_fields=["status", "player"])
    record_night(party, "let_in", parts=(PLAYERS, WAITING), player=player, name=player.name)
    return player


@transaction.atomic
def turn_away(code: str, request_id: int) -> JoinRequest:
    party = locked(code)
    request = _waiting(party, request_id)
    request.status = JoinRequest.Status.TURNED_AWAY
    request.save(update_fields=["status"])
    record_night(party, "turned_away", parts=(WAITING,), name=request.name)
    return request


@transaction.atomic
def turn_away_all(code: str) -> int:
    """Every waiting phone at once (a flood of made-up names)."""
    party = locked(code)
    count = party.join_requests.filter(status=JoinRequest.Status.WAITING).update(
        status=JoinRequest.Status.TURNED_AWAY
    )
    if count:
        record_night(party, "turned_away_all", parts=(WAITING,), count=count)
    return count


@transaction.atomic
def set_expected_players(code: str, number: int | None) -> int:
    """The host says how many players the night expects (``None``: derived again); returns
    the number that holds now."""
    party = locked(code)
    _not_ended(party)
    if number is not None and not 1 <= number <= MOST_EXPECTED:
        raise Refused(_("Expect between 1 and {most} players.").format(most=MOST_EXPECTED))
    party.expected_players = number or None
    party.save(update_fields=["expected_players"])
    expected = expected_of(party)
    record_night(party, "expected_players", parts=(WAITING,), number=expected)
    return expected


def collect_seat(party: Party, request: JoinRequest) -> str | None:
    """The seat token for a let-in phone, once: its waiting token goes stale as it is
    handed over (a later freeing of the name must not reach this phone through it)."""
    if request.status != JoinRequest.Status.LET_IN or request.player is None:
        return None
    player = request.player
    handed = JoinRequest.objects.filter(pk=request.pk, nonce=request.nonce).update(
        nonce=secrets.token_urlsafe(8)
    )
    if not handed or not player.claimed:
        return None
    return make_seat_token(party.scope, player.pk, player.nonce)
