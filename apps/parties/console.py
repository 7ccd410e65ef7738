"""The host's console, drawn: a table's card with the host's ways in, the round's status,
the players and their phones, the night's log (render.py draws the phones, big_screen.py
the big screen; the console's cards share their tables' cards with them)."""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.core.links import rooms_of_night
from apps.parties import awards
from apps.parties.caches import FRAGMENTS, LOG_LINES
from apps.parties.models import Party, Player
from apps.parties.night_log import entries_by_id, newest_entries
from apps.parties.presenter import log_line
from apps.parties.render import (
    card_key,
    card_of,
    current_rows,
    night_flags,
    party_at,
    render_part,
)
from apps.parties.rules.table import DONE
from apps.parties.selectors import (
    Night,
    TableRow,
    expected_of,
    night_at,
    players_of,
    table_at,
    table_states,
    waiting_requests,
)

NO_HOST_AWARDS = '<section id="host-awards" hidden></section>'


@lru_cache(maxsize=256)
def _table_part_urls(code: str, pk: int) -> dict[str, str]:
    """Where the console fetches a table's tools and correction form: each is the same all
    night, and reversing them was a quarter of drawing a table's card. Every round seats
    new tables, so only the round in play's are kept (at most a hundred tables), not the
    night's every past table."""
    return {
        part: reverse("party_table_part", args=(code, pk, part)) for part in ("tools", "correct")
    }


def host_card(night: Night, row: TableRow) -> str:
    """A table on the console: its card, the host's tools, and since when it waits."""
    row, _state = table_at(row)
    changed_ms = row.changed_ms
    context = {
        "t": card_of(night, row),
        "party": night.party,
        "changed_ms": changed_ms,
        "urls": _table_part_urls(night.party.code, row.pk),
    }
    return FRAGMENTS.get(
        ("host-card", *card_key(night, row), night.party.status, changed_ms),
        lambda: render_to_string("parties/_host_table.html", context),
    )


def host_status(night: Night, rows: list[TableRow] | None = None) -> str:
    """The console's line about the round (STOP, the tables still playing), from this
    round's tables at the versions given (the night's own list if none); drawn again only
    when what it says changes, not at every change of a table."""
    rows = night.tables if rows is None else rows
    flags = night_flags(night, rows)
    states = table_states(rows)
    waiting = tuple(
        row.number for row, state in zip(rows, states, strict=True) if state.phase != DONE
    )
    key = (
        "status",
        night.party.code,
        night.party.version,
        flags["stop_called"],
        flags["round_over"],
        waiting,
    )
    context = {**flags, "waiting": list(waiting)}
    return FRAGMENTS.get(key, lambda: render_part("parties/host.html", "status", context))


PHONE_SEEN = timedelta(seconds=20)  # a phone seen this recently counts as here
PHONE_TEXTS = {
    "here": gettext_lazy("Phone connected"),
    "away": gettext_lazy("Phone joined, not connected now"),
    "none": gettext_lazy("No phone yet"),
}


def _phone_state(seen_at, claimed: bool, recent) -> str:
    if seen_at and seen_at >= recent:
        return "here"
    return "away" if claimed else "none"


def phone_states(code: str) -> dict[str, list[int]]:
    """Each player's phone now, for the console's dots: {"here": [ids], "away": [...], ...}."""
    recent = timezone.now() - PHONE_SEEN
    states: dict[str, list[int]] = {state: [] for state in PHONE_TEXTS}
    for pk, seen_at, claimed in Player.objects.filter(party__code=code).values_list(
        "pk", "seen_at", "claimed"
    ):
        states[_phone_state(seen_at, claimed, recent)].append(pk)
    return states


def player_rows(night: Night) -> list[dict]:
    """The console's compact list: where each player sits, and whether their phone is here."""
    seats = {pid: (row.number, seat) for row in night.tables for seat, pid in enumerate(row.seats)}
    resting = {p.pk for p in night.sitting_out}
    recent = timezone.now() - PHONE_SEEN
    rows = []
    for player in night.listed:
        if player.pk in seats:
            number, seat = seats[player.pk]
            where = _("Table {number}, seat {seat}").format(number=number, seat=seat + 1)
        elif player.pk in resting:
            where = _("Sits out")
        elif not player.active:
            where = _("Left")
        elif night.party.current_round:
            where = _("Next round")
        else:
            where = ""
        phone = _phone_state(player.seen_at, player.claimed, recent)
        rows.append(
            {"player": player, "where": where, "phone": phone, "phone_text": PHONE_TEXTS[phone]}
        )
    return rows


def host_waiting(night: Night) -> str:
    """The phones waiting for the host's OK to join, and how many players the night expects."""
    party = night.party
    context = {
        **night_flags(night),
        "waiting": waiting_requests(party),
        "expected": expected_of(party),
        "players_count": players_of(party),
    }
    return render_part("parties/host.html", "waiting", context)


def host_players(night: Night) -> str:
    context = {**night_flags(night), "rows": player_rows(night)}
    return render_part("parties/host.html", "players", context)


def host_log(night: Night) -> str:
    """The console's log: the night's newest entries, each said once per language (and
    again only if its player is renamed); only the entries not said yet are read whole."""
    newest = newest_entries(night.party, 14)
    unsaid = [pk for pk, name, number in newest if LOG_LINES.peek((pk, name, number)) is None]
    entries = entries_by_id(unsaid)

    def say(pk: int, name: str | None, number: int | None) -> str:
        entry = entries.get(pk) or entries_by_id([pk])[pk]  # said meanwhile, then forgotten
        return log_line(entry, number, name)

    lines = [
        LOG_LINES.get((pk, name, number), lambda k=(pk, name, number): say(*k))
        for pk, name, number in newest
    ]
    return render_part("parties/host.html", "log", {"log": lines})


def host_awards(night: Night) -> str:
    provider = awards.provider()
    if provider is None or night.party.status != Party.Status.ENDED:
        return NO_HOST_AWARDS
    return provider.host(night.party)


def host_night(night: Night) -> str:
    context = {**night_flags(night), "rooms": rooms_of_night(night.party.code)}
    context["languages"] = settings.LANGUAGES
    context["cards"] = [host_card(night, row) for row in current_rows(night)]
    return (
        render_part("parties/host.html", "banner", context)
        + host_status(night, current_rows(night))
        + host_awards(night)
        + host_waiting(night)
        + host_players(night)
        + render_part("parties/host.html", "tables", context)
        + host_log(night)
    )


def render_host(code: str) -> tuple[str, Night]:
    night = night_at(party_at(code))
    return host_night(night), night
