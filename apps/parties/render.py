"""What each screen of a night shows, as HTML fragments for pages and live updates alike.

Fragments are made per part and cached by what makes them true: a table's card by the
table's version (one render serves the big screen and every console), a seat's controls by
the table's version and the seat, the night's parts by the night's version. So a tap's work
is its own table's fragments, whatever the size of the night.

Fragment ids: ``banner``, ``seat``, ``table``, ``standings``, ``travelling`` on a phone;
``banner``, ``lobby``, ``tables``, ``t-<round>-<n>`` (a table card), ``side``,
``travelling`` on the big screen (big_screen.py); ``banner``, ``status``, ``players``,
``tables``, ``h-<round>-<n>`` (a table with its corrections) and ``log`` on the host's
console (console.py). This module draws the phone's, and the parts all three share.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from apps.core.links import invitations_for
from apps.core.tokens import SeatClaim
from apps.parties import awards
from apps.parties.caches import FRAGMENTS, SHEET_PAST
from apps.parties.models import Party, Player, Table
from apps.parties.presenter import (
    seat_panel,
    table_card,
)
from apps.parties.rules.state import partner_of
from apps.parties.selectors import (
    NIGHTS,
    Night,
    TableRow,
    night_at,
    round_state,
    table_at,
    table_rows,
    table_summaries,
)


def party_at(code: str) -> Party:
    return Party.objects.get(code=code)


def night_of(code: str, version: int) -> Night:
    """The night at a version a message named (read now if no longer cached)."""
    return NIGHTS.get((code, version), lambda: night_at(party_at(code)))


def current_rows(night: Night) -> list[TableRow]:
    """This round's tables at their versions now (the night's own list is as of its
    version; the tables have moved on since)."""
    return table_rows(night.party)


def phone_player(party: Party, claim: SeatClaim | None) -> Player | None:
    if claim is None:
        return None
    player = party.players.filter(pk=claim.seat_id).first()
    if player is None or player.nonce != claim.nonce:
        return None
    return player


def render_part(template: str, part: str, context: dict) -> str:
    return render_to_string(f"{template}#{part}", context)


def card_key(night: Night, row: TableRow) -> tuple:
    """What a table's card depends on: the table's version and who sits where by name (a
    swap or a rename changes the names at the same table version)."""
    return (row.pk, row.version, tuple(night.names(row)))


def card_of(night: Night, row: TableRow) -> dict:
    """A table's card (presenter.table_card), once per table version (the version of the
    state it shows: see table_at)."""
    row, state = table_at(row)
    return FRAGMENTS.get(
        ("card", *card_key(night, row)),
        lambda: table_card(row, state, night.names(row), len(night.tables)),
    )


def _previous(night: Night, kind: str) -> Player | None:
    holders = night.holders.get(kind) or []
    return night.players.get(holders[1]) if len(holders) > 1 else None


def night_flags(night: Night, rows: list[TableRow] | None = None) -> dict:
    """What every screen of the night draws from: the round's state, the prizes' holders.
    As of the night's own tables, worked out once per night (each phone's every redraw
    asks: keyed by the versions of 250 tables, finding it again cost more than the rest of
    a phone's table); as of ``rows``, once per their versions. Read it, never change it."""
    if rows is None:
        flags = night.memo.get("flags")
        if flags is None:
            flags = night.memo["flags"] = night_flags(night, night.tables)
        return flags
    stopped, over = FRAGMENTS.get(
        ("flags", night.party.code, night.party.version, tuple(r.version for r in rows)),
        lambda: round_state(rows),
    )
    party = night.party
    return {
        "party": party,
        "night": night,
        "stop_called": stopped,
        "round_over": over,
        "last_round": bool(party.rounds) and party.current_round >= party.rounds,
        "travelling_bunko": night.players.get(party.travelling_bunko_id),
        "travelling_wipeout": night.players.get(party.travelling_wipeout_id),
        # Whom the holder takes it from: the one who held it before the latest roll.
        "bunko_from": _previous(night, "bunko"),
        "wipeout_from": _previous(night, "wipeout"),
    }


# --- a player's phone ---------------------------------------------------------------------------


@dataclass
class Phone:
    """One phone's place at one moment: the night, the player, their table this round."""

    night: Night
    player: Player | None
    row: TableRow | None

    @property
    def seat(self) -> int | None:
        if self.row is None or self.player is None:
            return None
        return self.row.seats.index(self.player.id)


def _claimed(night: Night, claim: SeatClaim | None) -> Player | None:
    """The night's player a phone's seat token names, if the token is still theirs."""
    player = night.players.get(claim.seat_id) if claim is not None else None
    if player is not None and player.nonce != claim.nonce:
        return None
    return player


def phone_seat(
    code: str, claim: SeatClaim | None, version: int | None
) -> tuple[int, TableRow | None]:
    """The night's version (``version``, or now) and the table its player sits at then: what
    a phone's socket listens to before it reads the table (``consumers`` ``render``)."""
    night = night_at(party_at(code)) if version is None else night_of(code, version)
    player = _claimed(night, claim)
    return night.party.version, night.table_of(player.id) if player else None


def phone_at(party: Party, claim: SeatClaim | None) -> Phone:
    night = night_at(party)
    player = _claimed(night, claim)
    row = night.table_of(player.id) if player else None
    if row is not None:
        # The night is read as of its version; the table has moved on since.
        version, seats = Table.objects.values_list("version", "seats").get(pk=row.pk)
        row = TableRow(row.pk, row.round, row.number, version, tuple(seats))
    return Phone(night, player, row)


def _phone_table_context(phone: Phone, row: TableRow) -> dict:
    row, state = table_at(row)
    card = card_of(phone.night, row)
    seat = phone.seat
    key = card_key(phone.night, row)
    flags = night_flags(phone.night)
    # After the last round, or once the night is over, there is no next round to tell of.
    more = phone.night.party.status != Party.Status.ENDED and not flags["last_round"]
    panel = FRAGMENTS.get(
        ("panel", *key, seat, more), lambda: seat_panel(card, state, seat, next_round=more)
    )
    top, log = phone_table_parts(card, key)
    return {"t": card, "me": panel, "row": row, "table_top": top, "table_log": log}


def phone_table_parts(card: dict, key: tuple) -> tuple[str, str]:
    """What all four phones at a table show alike (its scores and dice, its log), drawn once
    per table version (``key``: card_key), not once per phone (see fanout.py)."""
    top = FRAGMENTS.get(
        ("phone-top", *key), lambda: render_part("parties/phone.html", "table_top", {"t": card})
    )
    log = FRAGMENTS.get(
        ("phone-log", *key), lambda: render_part("parties/phone.html", "table_log", {"t": card})
    )
    return top, log


def phone_table(phone: Phone, row: TableRow | None = None, with_banner: bool = False) -> str:
    """The phone's #table, drawn for its seat at the table's version (or later, when that
    version is gone by: the fragment is stamped with the version it shows). ``with_banner``:
    drawn because the table changed; between STOP and the round's end the #banner comes
    too, for it says whether this table is tied, and a tied table plays on."""
    row = row or phone.row
    context = {**night_flags(phone.night), "player": phone.player, "my_table": None}
    if row is not None and phone.player is not None:
        context.update(_phone_table_context(phone, row), my_table=True)
    html = render_part("parties/phone.html", "table", context)
    if with_banner and context["stop_called"] and not context["round_over"]:
        html = render_part("parties/phone.html", "banner", context) + html
    return html


def phone_standings(phone: Phone, row: TableRow | None = None) -> str:
    """The phone's own score sheet, like the punched paper one it replaces: a row per round
    (table, partner, a hole for a win or a loss, Bunkos, wipeouts, a rest) and running
    totals; this round's row from the table as it is now. The past rounds' rows are drawn
    once a round for each player (late in a long night they are most of the sheet, and at
    STOP every phone's sheet is drawn at once)."""
    context = {**night_flags(phone.night), "player": phone.player, "sheet_rows": []}
    player = phone.player
    if player is not None:
        night = phone.night
        past = {t.round: (t, s) for t, s in night.past_rounds.played(player.id)}
        rested = {r for r, pid in night.rests if pid == player.id}
        totals = {"wins": 0, "losses": 0, "bunkos": 0, "wipeouts": 0}
        lines = [
            _sheet_line(night, player, n, past.get(n), n in rested, totals)
            for n in range(1, night.party.current_round)
        ]
        # The rows are this module's own drawings, escaped when they were drawn.
        context["sheet_past"] = mark_safe(_sheet_past(night, player, lines).html)
        row = row or phone.row
        played = None
        if row is not None:
            [summary] = table_summaries([row])
            played = (row, summary)
        number = night.party.current_round
        if number:
            rest = number in rested and played is None
            context["sheet_rows"] = [_sheet_line(night, player, number, played, rest, totals)]
        context["my_tally"] = totals
    return render_part("parties/phone.html", "standings", context)


@dataclass(frozen=True)
class SheetPast:
    """A player's score sheet's rows of the past rounds, each drawn once."""

    corrections: int  # the night's count of host's corrections they were drawn after
    partners: tuple[str, ...]  # the partner's name in each row
    # The rows, one after another, compressed: one object a player, not one a row (made at a
    # round change amid the drawing of every phone, hundreds of small long-lived strings
    # would each keep a block of the allocator's that the drawings had used). Every row is
    # the same markup around a few words, so compressed a sheet keeps about a tenth of its
    # size: drawn plain, a 100-table night's sheets grew every server process by 65 KB a
    # round, all night (7 KB compressed).
    packed: bytes

    @property
    def html(self) -> str:
        return zlib.decompress(self.packed).decode() if self.packed else ""


def _packed(html: str) -> bytes:
    return zlib.compress(html.encode(), 6) if html else b""


def _sheet_past(night: Night, player: Player, lines: list[dict]) -> SheetPast:
    """The past rounds' rows, drawn once a round for each player. A new round draws only
    the row of the round just played onto the rows drawn before it: a past round's row
    changes only with a host's correction or a partner's new name, and only then is the
    whole sheet drawn again. (Drawn whole, every phone's sheet at every round change made
    each round change cost more than the one before: two seconds of drawing at round 91 of
    a 30-table night, in every server process.)"""
    party = night.party
    partners = tuple(line.get("partner", "") for line in lines)
    version = (party.current_round, party.corrections, partners)

    def draw() -> SheetPast:
        slot = (translation.get_language(), party.code, player.id)
        before = SHEET_PAST.newest_before(slot, version)
        kept, html = 0, ""
        if (
            before is not None
            and before.corrections == party.corrections
            and before.partners == partners[: len(before.partners)]
        ):
            kept, html = len(before.partners), before.html
        new = lines[kept:]
        if new:
            html += render_part("parties/phone.html", "sheet_lines", {"sheet_rows": new})
        return SheetPast(party.corrections, partners, _packed(html))

    return SHEET_PAST.get(((party.code, player.id), version), draw)


def _sheet_line(
    night: Night, player: Player, number: int, played, rest: bool, totals: dict
) -> dict:
    """One round's row of a player's score sheet; ``totals`` counts it in."""
    line = {"round": number, "rest": rest}
    if played is not None:
        table, summary = played
        seat = table.seats.index(player.id)
        won = summary.winners is not None and seat in summary.winners
        lost = summary.winners is not None and not won
        line.update(
            table=table.number,
            partner=night.names(table)[partner_of(seat)],
            won=won,
            lost=lost,
            bunkos=summary.bunkos[seat],
            wipeouts=summary.wipeouts[seat],
        )
        totals["wins"] += won
        totals["losses"] += lost
        totals["bunkos"] += line["bunkos"]
        totals["wipeouts"] += line["wipeouts"]
    line["totals"] = dict(totals)
    return line


def travelling_context(night: Night) -> dict:
    """Who holds the travelling prizes; once the awards settle one, whom they gave it to
    (``settled``): the holder may have kept another prize and passed this one on, and the
    screens must not name her beside the ceremony that names the runner-up."""
    settled = {}
    provider = awards.provider()
    if provider is not None and night.party.status == Party.Status.ENDED:
        settled = provider.travelling(night.party)
    return {**night_flags(night), "settled": settled}


def phone_travelling(night: Night) -> str:
    return FRAGMENTS.get(
        ("travelling", night.party.code, night.party.version),
        lambda: render_part("parties/phone.html", "travelling", travelling_context(night)),
    )


def travelling_drawn(code: str, version: int, view: str) -> str | None:
    """The travelling prizes at a night's version if some socket has drawn them already: a
    prize changing hands is news for every phone of the night, and all but the first find
    it here without a trip to the database thread."""
    return FRAGMENTS.peek(("travelling" if view == "phone" else "tv-travelling", code, version))


def phone_night(phone: Phone) -> str:
    """The phone's night parts: the banner and where to sit."""
    context = {
        **night_flags(phone.night),
        "player": phone.player,
        "resting": phone.player in phone.night.sitting_out if phone.player else False,
        "my_table": None,
    }
    if phone.row is not None and phone.player is not None:
        context.update(_phone_table_context(phone, phone.row), my_table=True)
    # Once the night is over, the awards come before where the player sat.
    return (
        render_part("parties/phone.html", "banner", context)
        + phone_awards(phone)
        + render_part("parties/phone.html", "seat", context)
    )


def phone_invitations(phone: Phone, shared: bool = False) -> str:
    """The party games that keep a seat for this phone's player (``shared``: see
    ``render_phone``)."""
    rooms = []
    if phone.player is not None and phone.night.party.status != Party.Status.ENDED:
        rooms = invitations_for(phone.night.party.code, phone.player.name, shared=shared)
    return render_part("parties/phone.html", "invitations", {"invitations": rooms})


NO_AWARDS = '<section id="awards" hidden></section>'


def phone_awards(phone: Phone) -> str:
    """The awards ceremony on a phone, once the night is over (see apps.parties.awards)."""
    provider = awards.provider()
    if provider is None or phone.night.party.status != Party.Status.ENDED:
        return NO_AWARDS
    return provider.phone(phone.night.party, phone.player)


def render_phone(
    code: str, claim: SeatClaim | None, version: int | None = None, shared: bool = False
) -> tuple[str, Phone]:
    """Every fragment of a phone's page, with the night at ``version`` (now if None).
    ``shared``: drawn for a night-wide change. Every phone of the night redraws for it at
    once (400 at a round change of a big night), so they share this process's reads of the
    night at that version and of the rooms that keep seats for its players, instead of each
    reading them again."""
    party = party_at(code) if version is None else night_of(code, version).party
    phone = phone_at(party, claim)
    html = phone_night(phone) + phone_invitations(phone, shared=shared)
    html += phone_table(phone)
    return html + phone_standings(phone) + phone_travelling(phone.night), phone


def phone_context(party: Party, claim: SeatClaim | None) -> dict:
    """The whole phone page's context (its first load over HTTP)."""
    phone = phone_at(party, claim)
    return {"phone_html": render_phone(party.code, claim)[0], "party": party, "phone": phone}
