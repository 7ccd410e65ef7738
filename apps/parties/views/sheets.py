"""The night on paper and beyond the night: the tally, blank score sheets for a night
played on paper, a CSV of the night, and a results page the host shares by link."""

from __future__ import annotations

import csv

from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from apps.parties.models import Party, Player
from apps.parties.render import phone_player
from apps.parties.selectors import tallies

from .common import claim_of, get_party
from .host import host_only

RESULTS_SALT = "bunko-night.results"


def results_token(party: Party) -> str:
    return signing.dumps(party.code, salt=RESULTS_SALT)


def _sheet_context(party: Party) -> dict:
    from apps.prizes.selectors import awards_of

    rounds = list(range(1, party.current_round + 1))
    sheet = tallies(party)
    for row in sheet:
        row.marks = [row.rounds.get(r, "") or "·" for r in rounds]
    return {"party": party, "sheet": sheet, "rounds_played": rounds, "awards": awards_of(party)}


@require_GET
def sheet(request: HttpRequest, code: str) -> HttpResponse:
    """Everyone's night: rounds, wins, losses, Bunkos, wipeouts and the prizes, printable."""
    party = get_party(code)
    context = _sheet_context(party)
    # A player's own phone: their totals first, their line marked in everyone's sheet.
    if me := phone_player(party, claim_of(request, party)):
        context["my_row"] = next((r for r in context["sheet"] if r.player.pk == me.pk), None)
    if request.user.is_authenticated and request.user.pk == party.host_id:
        context["csv_url"] = reverse("party_csv", args=[party.code])
        context["share_url"] = request.build_absolute_uri(
            reverse("party_results", args=[results_token(party)])
        )
    return render(request, "parties/sheet.html", context)


@require_GET
def results(request: HttpRequest, token: str) -> HttpResponse:
    """The night's results for anyone with the link the host shared (nothing to change)."""
    try:
        code = signing.loads(token, salt=RESULTS_SALT)
    except signing.BadSignature:
        raise Http404("That results link is not valid.") from None
    return render(request, "parties/sheet.html", _sheet_context(get_party(code)))


@host_only
@require_GET
def blank_sheets(request: HttpRequest, party: Party) -> HttpResponse:
    """Score sheets to print for a night played on paper: one per player, and a few blank."""
    names = list(
        party.players.filter(active=True)
        .exclude(kind=Player.Kind.GHOST)
        .order_by("name")
        .values_list("name", flat=True)
    )
    names += [""] * 4
    rounds = range(1, (party.rounds or 6) + 1)
    return render(
        request, "parties/blank_sheets.html", {"party": party, "names": names, "rounds": rounds}
    )


@host_only
@require_GET
def night_csv(request: HttpRequest, party: Party) -> HttpResponse:
    """The night as a spreadsheet: a row per player, a column per round."""
    context = _sheet_context(party)
    prizes = {a.player_id: a.name for a in context["awards"]}
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="bunko-night-{party.code}.csv"'
    writer = csv.writer(response)
    rounds = context["rounds_played"]
    writer.writerow(
        ["player", *[f"round {r}" for r in rounds], "wins", "losses", "bunkos", "wipeouts", "prize"]
    )
    for row in context["sheet"]:
        name = row.player.name
        if name[:1] in "=+-@":  # a spreadsheet must not read a name as a formula
            name = "'" + name
        writer.writerow(
            [
                name,
                *[row.rounds.get(r, "") or "" for r in rounds],
                row.wins,
                row.losses,
                row.bunkos,
                row.wipeouts,
                prizes.get(row.player.pk, ""),
            ]
        )
    return response
