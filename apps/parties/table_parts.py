"""What the phones at a table show alike, drawn once per change for every server process.

On the scale-out stack the four phones of a table are most often on different processes, and
each process drew the table's scores, dice and log again (at 250 tables on four processes,
a seventh of all their work). So the process that makes a change draws those parts once it
is committed, in the language of whoever made it, and they travel with the change's message
(services/log.py); a process that receives them keeps them under the key it would have
drawn them under, and its phones in that language use them as they are. A phone in another
language, or a table whose names changed since (a rename), draws its own as before.
"""

from __future__ import annotations

from django.utils.translation import get_language

from apps.parties import render
from apps.parties.presenter import table_card
from apps.parties.selectors import TableRow, keep_sent_state


def _row_and_key(message: dict, names: tuple[str, ...]) -> tuple[TableRow, tuple]:
    version = message["stamp"] % 1_000_000
    seats = tuple(message["seats"])
    row = TableRow(message["table"], message["round"], message["number"], version, seats)
    return row, (row.pk, row.version, names)  # render.card_key's shape


def drawn_for_the_message(message: dict) -> dict:
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
    render.FRAGMENTS.put_in(language, ("phone-top", *key), parts["top"])
    render.FRAGMENTS.put_in(language, ("phone-log", *key), parts["log"])
