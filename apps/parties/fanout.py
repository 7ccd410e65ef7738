"""What a night's sockets draw when a change reaches them, drawn once per version.

A change (apps/core/changes.py) reaches every socket of a table and both screens, on every
server process. What many of them show alike (a table's scores, dice and log; the big
screen's card of a table; who holds the travelling prizes) is kept in the process's caches
under the version it shows (caches.py), so the first socket to need it draws it and the
others take it as it is. A table's change carries the table's state as data, so no process
reads the table back to draw it; nothing drawn crosses the channel layer.

The drawing itself happens where it costs least: a phone's table on the event loop (the
caches hold nearly all of it), the screens' redraws on a thread of their own, anything one
drawing serves for many sockets on the database thread once (``drawn_once``).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation

from apps.core.changes import Change
from apps.parties import big_screen, console, render
from apps.parties.selectors import TableRow, keep_sent_state, moment_of

# The big screen's and the console's redraws (a few tables' cards, the standings, the log: tens
# of milliseconds at a hundred tables) run on a thread of their own, so the phones' taps and
# redraws never wait in line behind them on the database thread every tap needs.
SCREENS_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="screens")


def on_screens_thread(draw):
    return database_sync_to_async(draw, thread_sensitive=False, executor=SCREENS_THREAD)


# Fragments being drawn for many sockets of this process at once, by what they show.
_DRAWING: dict[tuple, asyncio.Future] = {}


async def drawn_once(key: tuple, draw) -> str:
    """The sockets that need the same fragment at the same moment (all phones of the night
    when a travelling prize changes hands) wait for one drawing, instead of queueing one
    each before the database thread that every tap of the night needs."""
    future = _DRAWING.get(key)
    if future is None:
        future = _DRAWING[key] = asyncio.ensure_future(database_sync_to_async(draw)())
        future.add_done_callback(lambda _done: _DRAWING.pop(key, None))
    return await asyncio.shield(future)


async def drawn_here(draw, *args) -> str:
    """A drawing that the caches usually hold everything for (a phone's table, with the state
    its change brought) is made on the event loop: handing it to the database thread cost
    more than the drawing. When it needs the database after all, Django refuses that on the
    loop and it is made again on the thread; a drawing changes nothing but the caches, so
    the second try starts from nothing half done."""
    try:
        return draw(*args)
    except SynchronousOnlyOperation:
        return await database_sync_to_async(draw)(*args)


def phone_table(phone: render.Phone | None, change: Change) -> str:
    """A phone's table at the change's version, with its score sheet when the tallies moved;
    nothing when the phone sits elsewhere now."""
    keep_sent_state(change)
    if phone is None or phone.row is None or phone.row.pk != change.payload["table"]:
        return ""
    row = replace(phone.row, version=change.version, changed=None)
    html = render.phone_table(phone, row, with_banner=True)
    if change.payload["tallies"]:
        html += render.phone_standings(phone, row)
    return html


def screen_tables(
    view: str,
    night: render.Night,
    changes: list[Change],
    tables_now,
    heard: dict[int, int],
    *,
    tallies: bool = False,
    with_log: bool = False,
) -> str:
    """The big screen's or the console's cards of the tables that changed, and once for all
    of them what they touch (the standings when the ``tallies`` moved, the console's status
    and, ``with_log``, its log). ``heard`` (table id -> newest version heard) is brought up
    to date; ``tables_now()`` gives the round's tables at those versions."""
    log = console.host_log(night) if with_log else ""
    by_pk = {r.pk: r for r in night.tables}
    rows = []
    for change in changes:
        keep_sent_state(change)
        known = by_pk.get(change.payload["table"])
        if known is None:  # a table of another round: the next night-wide redraw
            continue
        changed = moment_of(change.payload["changed"])
        rows.append(replace(known, version=change.version, changed=changed))
        heard[known.pk] = max(heard.get(known.pk, 0), change.version)
    if not rows:
        return log
    if view == "host":
        cards = "".join(console.host_card(night, row) for row in rows)
        return cards + console.host_status(night, tables_now()) + log
    html = "".join(big_screen.screen_card(night, row) for row in rows)
    if tallies:
        html += big_screen.screen_side(night, tables_now())
    return html


def rows_heard(night: render.Night, heard: dict[int, int]) -> list[TableRow]:
    """This round's tables as they are now: a screen hears every table's change, so it
    knows their versions without reading them (at 250 tables, ten times a second)."""
    return [
        r if heard.get(r.pk, 0) <= r.version else replace(r, version=heard[r.pk])
        for r in night.tables
    ]
