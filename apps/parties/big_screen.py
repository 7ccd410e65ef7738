"""What the room's big screen shows: a card per table, the standings in pages that take
turns, who holds the travelling prizes, the join area before round 1 and the awards after
the last. The host's console draws its tables with the same cards (``screen_card``).

Made from the same reads and caches as a phone's fragments (render.py), and cached the
same way: a card by its table's version, the rest by the night's version.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse

from apps.core.links import rooms_of_night
from apps.parties import awards
from apps.parties.caches import FRAGMENTS
from apps.parties.models import Party
from apps.parties.presenter import correction_menu, grid_of, standings_pages
from apps.parties.render import (
    card_key,
    card_of,
    current_rows,
    night_flags,
    party_at,
    render_part,
    travelling_context,
)
from apps.parties.selectors import (
    Night,
    TableRow,
    night_at,
    rows_of,
    table_at,
    table_summaries,
    tallies_of,
)


def screen_card(night: Night, row: TableRow) -> str:
    row, _state = table_at(row)
    return FRAGMENTS.get(
        ("screen-card", *card_key(night, row)),
        lambda: render_to_string("parties/_table_card.html", {"t": card_of(night, row)}),
    )


def table_card_now(party: Party, table_id: int) -> dict | None:
    """The card of one of the night's tables as it is now, with its correction menu (for
    its parts fetched on opening)."""
    rows = rows_of(party.tables.filter(pk=table_id))
    if not rows:
        return None
    night = night_at(party)
    row, state = table_at(rows[0])
    return {**card_of(night, row), **correction_menu(state, night.names(row))}


def _standings(night: Night, rows: list[TableRow]) -> list:
    """Everyone's tally with this round's tables counted in."""
    played = zip(rows, table_summaries(rows), strict=True)
    current = tallies_of(night.players, played, [], marks=False)
    for pid, tally in night.past.items():
        now = current[pid]
        now.wins += tally.wins
        now.losses += tally.losses
        now.bunkos += tally.bunkos
        now.wipeouts += tally.wipeouts
    people = [
        t
        for t in current.values()
        if not t.player.is_ghost and (t.player.active or t.wins or t.losses)
    ]
    return sorted(people, key=lambda t: (-t.wins, t.losses, t.player.name.casefold()))


def screen_side(night: Night, rows: list[TableRow] | None = None) -> str:
    """The big screen's standings, in pages that take turns, from this round's tables at
    the versions given (the night's own list if none)."""
    rows = night.tables if rows is None else rows
    key = ("side", night.party.code, night.party.version, tuple(r.version for r in rows))

    def make() -> str:
        sheet = _standings(night, rows)
        context = {**night_flags(night, rows), "sheet": sheet, "pages": standings_pages(sheet)}
        return render_part("parties/screen.html", "side", context)

    return FRAGMENTS.get(key, make)


def screen_travelling(night: Night) -> str:
    return FRAGMENTS.get(
        ("tv-travelling", night.party.code, night.party.version),
        lambda: render_part("parties/screen.html", "travelling", travelling_context(night)),
    )


def screen_lobby(night: Night, base: str) -> str:
    """The big screen's join area (its tables part before round 1)."""
    return screen_night(night, base, parts=("tables",))


def screen_night(night: Night, base: str, parts: tuple[str, ...] = ("banner", "tables")) -> str:
    party = night.party
    context = {
        **night_flags(night),
        "join_url": base + reverse("party_join", args=[party.code]),
        "joined": [p for p in night.listed if p.claimed and p.active],
    }
    if party.screen_room:
        rooms = {room.code: room for room in rooms_of_night(party.code)}
        context["screen_room"] = rooms.get(party.screen_room)
    if party.current_round:
        rows = current_rows(night)
        context["cards"] = [screen_card(night, row) for row in rows]
        context["grid"] = grid_of(len(rows))
    if party.status == Party.Status.ENDED:
        provider = awards.provider()
        context["awards_html"] = provider.screen(party) if provider else ""
        sheet = {t.player.name: t for t in _standings(night, current_rows(night))}
        context["winner_tally"] = sheet.get(party.result.get("winner") or "")
        context["loser_tally"] = sheet.get(party.result.get("loser") or "")
    return "".join(render_part("parties/screen.html", part, context) for part in parts)


def render_screen(code: str, base: str) -> tuple[str, Night]:
    """The whole big screen, made once per state of what it shows: the big screen is public,
    so a socket saying hello again and again must cost a lookup, not a render."""
    night = night_at(party_at(code))
    party = night.party

    def make() -> str:
        side = screen_side(night, current_rows(night))
        return screen_night(night, base) + side + screen_travelling(night)

    if party.status == Party.Status.ENDED:  # the awards' countdowns move on their own
        return make(), night
    rows = current_rows(night) if party.current_round else []
    room = None
    if party.screen_room:
        room = next((r for r in rooms_of_night(party.code) if r.code == party.screen_room), None)
    key = ("screen", party.code, party.version, base, tuple(r.version for r in rows), room)
    return FRAGMENTS.get(key, make), night
