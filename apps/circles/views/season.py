"""The season's standings and each member's history, and the circle's calendar feed."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET

from apps.circles import charts, feed, mail
from apps.circles.access import Viewer
from apps.circles.selectors import current_season
from apps.circles.standings import standings
from apps.circles.tokens import read_feed_token
from apps.core.converters import row_id

from .common import circle_view, get_circle


def _season(viewer: Viewer, wanted: str | None):
    circle = viewer.circle
    if (pk := row_id(wanted)) is not None:
        season = circle.seasons.filter(pk=pk).first()
        if season is not None:
            return season
    return current_season(circle)


@require_GET
@circle_view("circle")
def standings_page(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    season = _season(viewer, request.GET.get("season"))
    table = standings(season) if season else None
    me = viewer.member.pk if viewer.member else None
    context = {
        "page": "standings",
        "circle": viewer.circle,
        "viewer": viewer,
        "season": season,
        "seasons": list(viewer.circle.seasons.all()),
        "table": table,
        "columns": [
            (_("Nights"), pgettext("Nights column", "N")),
            (_("Wins"), pgettext("Wins column", "W")),
            (_("Losses"), pgettext("Losses column", "L")),
            (_("Bunkos"), pgettext("Bunkos column", "B")),
            (_("Wipeouts"), pgettext("Wipeouts column", "Wo")),
            (_("Prizes"), pgettext("Prizes column", "P")),
        ],
        "played": [ln for ln in table.lines if ln.nights] if table else [],
        "not_played": [ln for ln in table.lines if not ln.nights] if table else [],
        "wins_chart": charts.wins_per_night(table) if table else "",
        "bunkos_chart": charts.bunkos_over_season(table, me) if table else "",
    }
    return render(request, "circles/standings.html", context)


@require_GET
@circle_view("circle")
def history(request: HttpRequest, viewer: Viewer, member_id: int) -> HttpResponse:
    member = viewer.circle.members.filter(pk=member_id).first()
    if member is None:
        raise Http404("That person is not a member of this circle.")
    season = _season(viewer, request.GET.get("season"))
    table = standings(season) if season else None
    line = table.line_of(member) if table else None
    context = {
        "page": "standings",
        "circle": viewer.circle,
        "viewer": viewer,
        "season": season,
        "seasons": list(viewer.circle.seasons.all()),
        "member": member,
        "line": line,
        "chart": charts.member_nights(line, table.nights) if line else "",
        "rank": table.lines.index(line) + 1 if line and line.nights else None,
    }
    return render(request, "circles/history.html", context)


@require_GET
def calendar(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """The circle's calendar feed (iCalendar), for a phone's calendar to subscribe to. The
    link is signed: a phone needs no login, and the admin can make a new one."""
    circle = get_circle(code)
    found = read_feed_token(token)
    if found is None or found[0] != circle.pk or found[1] != circle.feed_nonce:
        return HttpResponse(
            _(
                "This calendar link is not valid (any more). "
                "Ask the circle's admin for the new one."
            ),
            status=404,
            content_type="text/plain; charset=utf-8",
        )
    body = feed.calendar(
        circle,
        lambda month: mail.absolute(circle, reverse("circles:month", args=[circle.code, month.pk])),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="bunko-{circle.code.lower()}.ics"'
    response["Cache-Control"] = "private, max-age=3600"
    return response
