"""The circle's activity in the reader's language. A change is kept as its kind and its data
(names as people typed them, months by their first day, a night's date and time), and the
sentence is made when the line is shown, from the tables below: an admin reading in Dutch
reads Dutch day and month names, whoever acted and in whatever language (as
apps.parties.presenter tells a night's log). Lines kept before that have only their English
text, shown as it is."""

from __future__ import annotations

from datetime import date, time

from django.db.models import Model
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.circles.mail import names_and
from apps.circles.models import (
    Activity,
    Circle,
    Month,
    Season,
    month_name,
    season_name,
    usual_night,
)
from apps.core.i18n import N_

LINES = {
    "created": N_("{name} started the circle."),
    "season_added": N_("The {season} season was added."),
    "invite_links": N_("New invite links were made; the old ones no longer work."),
    "joined": N_("{name} joined."),
    "joined_substitute": N_("{name} joined as a substitute."),
    "added_member": N_("{name} was added as a member."),
    "added_substitute": N_("{name} was added as a substitute."),
    "now_member": N_("{name} is now a member."),
    "now_substitute": N_("{name} is now a substitute."),
    "left": N_("{name} left the circle."),
    "night_moved": N_("{month}'s night is now on {day} at {time}."),
    "night_moved_place": N_("{month}'s night is now on {day} at {time}, at {place}."),
    "hosts_set": N_("The admin made {names} the host of {month}."),
    "hosts_cleared": N_("The admin left {month} without a host."),
    "swap_asked": N_("{name} asked {other} to swap {month} for {other_month}."),
    "swap_declined": N_("{name} declined to swap {month} for {other_month}."),
    "swap_withdrawn": N_("{name} no longer asks {other} to swap {month} for {other_month}."),
    "swapped": N_("Swapped: {name} now hosts {month}, {other} hosts {other_month}."),
    "sub_asked": N_("{name} was asked to fill a seat in {month}."),
    "sub_declined": N_("{name} can't come in {month}."),
    "sub_accepted": N_("{name} fills a seat in {month}."),
    "sub_expired": N_("{name} did not answer in time for {month}."),
    "subs_ran_out": N_("The list of substitutes ran out for {month}."),
    # (A night starts with at least four players: the sentence needs no singular.)
    "night_started": N_("{month}'s night started with {count} players."),
}
# Lines that count something: their words follow the number ({count}).
COUNTED = {
    "invitations_mailed": lambda count: ngettext(
        "An invitation was mailed to {count} address.",
        "Invitations were mailed to {count} addresses.",
        count,
    ),
    "months_moved": lambda count: ngettext(
        "{count} month to come now has its night {night}.",
        "{count} months to come now have their night {night}.",
        count,
    ),
    "planned": lambda count: ngettext(
        "The schedule of {season} was made ({count} month).",
        "The schedule of {season} was made ({count} months).",
        count,
    ),
}
# A second sentence when months were left without a host ({unhosted}).
UNHOSTED = {
    "left": N_("No host now: {unhosted}."),
    "planned": N_("Nobody can host {unhosted}: choose a host by hand."),
}
KINDS = frozenset(LINES) | frozenset(COUNTED)
# Data keys that hold a month (its first day) and are told as "March 2027".
MONTHS = ("month", "other_month")


def kept(value):
    """``value`` as the activity keeps it (JSON): a month as its first day, a season as its
    start, a date as ISO, a time as "19:00"; names and numbers as they are."""
    if isinstance(value, dict):
        return {key: kept(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [kept(v) for v in value]
    if isinstance(value, Month):
        return value.first.isoformat()
    if isinstance(value, Season):
        return value.start.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return f"{value:%H:%M}"
    if isinstance(value, Model):
        raise TypeError(f"An activity keeps names and dates, not a {type(value).__name__}.")
    return value


def words(data: dict) -> dict:
    """The kept data as the sentence says it, in the language of the moment."""
    said = dict(data)
    for key in MONTHS:
        if key in data:
            said[key] = month_name(date.fromisoformat(data[key]))
    if "unhosted" in data:
        said["unhosted"] = ", ".join(month_name(date.fromisoformat(d)) for d in data["unhosted"])
    if "season" in data:
        said["season"] = season_name(date.fromisoformat(data["season"]))
    if "day" in data:
        said["day"] = date_format(date.fromisoformat(data["day"]), "WEEKDAY_DATE_FORMAT")
    if "names" in data:
        said["names"] = names_and(list(data["names"]))
    if "week" in data:
        at = time.fromisoformat(data["at"])
        said["night"] = usual_night(int(data["week"]), int(data["weekday"]), at)
    return said


def line(activity: Activity) -> str:
    """One line of the activity in the reader's language."""
    kind = activity.kind
    if not kind or kind not in KINDS:
        return activity.text or kind.replace("_", " ").capitalize()
    data = activity.data or {}
    template = COUNTED[kind](int(data.get("count", 0))) if kind in COUNTED else _(LINES[kind])
    try:
        said = words(data)
        sentence = template.format(**said)
        if data.get("unhosted") and kind in UNHOSTED:
            sentence += " " + _(UNHOSTED[kind]).format(**said)
    except (KeyError, IndexError, TypeError, ValueError):
        # A line whose data does not fit its sentence (a catalogue's slip): its start.
        return template.split("{")[0].strip() or kind.replace("_", " ").capitalize()
    return sentence


def latest(circle: Circle, count: int = 8) -> list[Activity]:
    """The newest lines of the circle's activity, each with its sentence (``line``)."""
    found = list(circle.activities.select_related("month")[:count])
    for activity in found:
        activity.line = line(activity)
    return found
