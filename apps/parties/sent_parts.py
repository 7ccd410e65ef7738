"""What many sockets show alike after a change, drawn once for every server process.

On the scale-out stack the four phones of a table are most often on different processes, and
each process drew the table's scores, dice and log again (at 250 tables on four processes,
a seventh of all their work); when a travelling prize changed hands, each process read the
whole night to draw who holds it now. So the process that makes a change draws those parts
once it is committed, in the language of whoever made it, and they travel with the change's
message (services/log.py); a process that receives them keeps them under the key it would
have drawn them under, and its sockets in that language use them as they are. A socket in
another language, or a table whose names changed since (a rename), draws its own as before.
"""

from __future__ import annotations

from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from apps.parties import render
from apps.parties.caches import FRAGMENTS
from apps.parties.presenter import table_card
from apps.parties.selectors import TableRow, keep_sent_state
from apps.parties.services.log import TRAVELLING


def _row_and_key(message: dict, names: tuple[str, ...]) -> tuple[TableRow, tuple]:
    version = message["stamp"] % 1_000_000
    seats = tuple(message["seats"])
    row = TableRow(message["table"], message["round"], message["number"], version, seats)
    return row, (row.pk, row.version, names)  # render.card_key's shape


def drawn_for_a_table(message: dict) -> dict:
    """The shared parts of a committed change, to add to its message (log.record_table)."""
    state = keep_sent_state(message)
    if state is None:
        return {}
    names = tuple(state.players)
    row, key = _row_and_key(message, names)
    # A card of its own, not cached: the cached card also says where the teams move next,
    # which needs the number of tables, and the scores, dice and log do not.
    card = table_card(row, state, list(names))
    top, log = render.phone_table_parts(card, key)
    return {"parts": {"language": get_language(), "names": list(names), "top": top, "log": log}}


def keep_sent_parts(event: dict) -> None:
    """Keep the parts a change's message brought, where this process's phones look first."""
    parts = event.get("parts")
    if not parts:
        return
    _row, key = _row_and_key(event, tuple(parts["names"]))
    language = parts["language"]
    # Drawn by this product's own templates in another of its processes; through Redis they
    # arrive as plain text, which the phone's template would otherwise escape.
    FRAGMENTS.put_in(language, ("phone-top", *key), mark_safe(parts["top"]))
    FRAGMENTS.put_in(language, ("phone-log", *key), mark_safe(parts["log"]))


def drawn_for_the_night(message: dict) -> dict:
    """Who holds the travelling prizes, as a phone and the big screen show it, to add to the
    message that says they changed hands (other night-wide news is drawn by each socket)."""
    if message["parts"] != [TRAVELLING]:
        return {}
    night = render.night_of(message["code"], message["version"])
    if night.party.version != message["version"]:
        return {}  # the night moved on already: each socket draws it as it is
    phone, screen = render.phone_travelling(night), render.screen_travelling(night)
    return {"drawn": {"language": get_language(), "phone": phone, "screen": screen}}


def keep_sent_travelling(event: dict) -> None:
    """Keep who holds the prizes as a night-wide message brought it drawn."""
    drawn = event.get("drawn")
    if not drawn:
        return
    code, version, language = event["code"], event["version"], drawn["language"]
    FRAGMENTS.put_in(language, ("travelling", code, version), mark_safe(drawn["phone"]))
    FRAGMENTS.put_in(language, ("tv-travelling", code, version), mark_safe(drawn["screen"]))
