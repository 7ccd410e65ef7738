"""A circle's calendar feed (iCalendar): every month's night with its date, host and place,
for a phone's calendar to subscribe to."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import icalendar
from django.utils.translation import gettext as _

from apps.circles.models import Circle, Month
from apps.circles.selectors import months_of

PRODID = "-//Bunko Night//Circles//EN"


def summary(month: Month) -> str:
    hosts = [m.name for m in month.host_list]
    if not hosts:
        return _("Bunko (host to be found)")
    return _("Bunko at {names}'s").format(names=" & ".join(hosts))


def calendar(circle: Circle, link_of) -> bytes:
    """The feed; ``link_of(month)`` is the month's page on this server."""
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", f"Bunko: {circle.name}")
    cal.add("x-wr-timezone", circle.timezone)
    cal.add("refresh-interval", timedelta(hours=12), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", "PT12H")
    stamp = datetime.now(UTC)
    for season in circle.seasons.all():
        for month in months_of(season):
            event = icalendar.Event()
            event.add("uid", f"circle-{circle.code}-month-{month.pk}@bunko-night")
            event.add("dtstamp", stamp)
            event.add("dtstart", month.starts_at)
            event.add("dtend", month.ends_at)
            event.add("summary", f"{summary(month)} · {circle.name}")
            if month.where:
                event.add("location", month.where)
            hosts = ", ".join(m.name for m in month.host_list) or _("to be found")
            lines = [
                _("Host: {names}").format(names=hosts),
                _("Place: {place}").format(place=month.where or _("the host’s address (to come)")),
            ]
            if month.host_note:
                lines.append(month.host_note)
            url = link_of(month)
            lines.append(_("Answer coming or not: {url}").format(url=url))
            event.add("description", "\n".join(lines))
            event.add("url", url)
            event.add("sequence", month.revision)
            event.add("last-modified", month.updated.astimezone(UTC))
            event.add("status", "CONFIRMED" if month.host_list else "TENTATIVE")
            cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()
