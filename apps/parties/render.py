"""What each screen of a night shows, rendered to HTML for pages and live updates alike."""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.template.loader import render_to_string

from apps.core.tokens import SeatClaim
from apps.parties.models import Party, Player
from apps.parties.selectors import (
    listed_players,
    round_over,
    round_tables,
    sitting_out,
    stop_called,
    tallies,
)

PHONE_PARTS = ["banner", "seat", "table", "standings"]
SCREEN_PARTS = ["banner", "lobby", "tables", "side"]
HOST_PARTS = ["banner", "status", "players", "tables"]


def phone_player(party: Party, claim: SeatClaim | None) -> Player | None:
    if claim is None:
        return None
    player = party.players.filter(pk=claim.seat_id).first()
    if player is None or player.nonce != claim.nonce:
        return None
    return player


_CACHE: OrderedDict[tuple[str, int], dict] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 16


def night_context(party: Party) -> dict:
    """What every screen of the night shares at one version, read once per version.

    Every write bumps the version, so a version's context never goes stale; each phone then
    only adds its own seat to it.
    """
    key = (party.code, party.version)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return dict(_CACHE[key], party=party)
    context = _read_night(party)
    with _CACHE_LOCK:
        _CACHE[key] = context
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return dict(context)


def _read_night(party: Party) -> dict:
    tables = round_tables(party) if party.current_round else []
    sheet = tallies(party)
    last_round = bool(party.rounds) and party.current_round >= party.rounds
    return {
        "party": party,
        "tables": tables,
        "sheet": sheet,
        "sitting_out": sitting_out(party),
        "round_over": round_over(tables),
        "stop_called": stop_called(tables),
        "last_round": last_round,
        "virtual": party.dice_mode == Party.DiceMode.VIRTUAL,
        "splits": [(3, 0), (2, 1), (1, 2), (0, 3)],
    }


def phone_context(party: Party, player: Player | None) -> dict:
    context = night_context(party)
    context["player"] = player
    context["my_table"] = None
    if player is not None:
        for table in context["tables"]:
            seat = table.seat_of(player)
            if seat is not None:
                context.update(
                    my_table=table,
                    my_seat=seat,
                    my_team=seat % 2,
                    partner=table.players[(seat + 2) % 4],
                )
        context["my_tally"] = next((t for t in context["sheet"] if t.player == player), None)
        context["resting"] = player in context["sitting_out"]
    return context


def _render(template: str, parts: list[str], context: dict) -> str:
    return "".join(render_to_string(f"{template}#{part}", context) for part in parts)


def render_phone(code: str, claim: SeatClaim | None) -> tuple[int, str, int | None]:
    """The phone's fragments, and the number of its table (None when not seated)."""
    party = Party.objects.get(code=code)
    context = phone_context(party, phone_player(party, claim))
    table = context["my_table"].number if context["my_table"] else None
    return party.version, _render("parties/phone.html", PHONE_PARTS, context), table


def render_screen(code: str) -> tuple[int, str]:
    party = Party.objects.get(code=code)
    return party.version, _render("parties/screen.html", SCREEN_PARTS, screen_context(party))


def screen_context(party: Party) -> dict:
    context = night_context(party)
    context["listed"] = listed_players(party)
    return context


def host_context(party: Party) -> dict:
    context = screen_context(party)
    context["events"] = list(party.events.order_by("-version")[:30])
    return context


def render_host(code: str) -> tuple[int, str]:
    party = Party.objects.get(code=code)
    return party.version, _render("parties/host.html", HOST_PARTS, host_context(party))
