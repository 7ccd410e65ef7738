"""Group messages that only say what is newest, handed to a process's sockets at a bounded rate.

Some night-wide news only matters as it stands now: who holds the travelling prizes. At 250
tables a Bunko or a wipeout moves a prize about twice a second, and each move told every
socket of the night: a thousand phones redrawing a line about strangers, which cost the
server more than the taps themselves. A message that carries ``latest`` (a key: what it is
the newest of) is handed to a process's sockets at once if that group heard no such message
for ``every`` seconds; otherwise it waits, and at the end of that time the newest message
that waited is handed over instead of all of them. Nothing newest is ever dropped: the last
message of a burst always arrives, at most ``every`` seconds late.

A big group waits longer: a process hands such news to about ``RATE`` sockets a second per
group (``every`` is at least the group's sockets in this process over ``RATE``), so the
redraws it costs stay a small part of the night however many phones are in it: once a
second up to 25 tables, every 4 s at 100 tables on one process, every 2.5 s at 250 tables
over four. Whoever the news is about hears it at once by a message of their own.

Each channel layer of the product (the in-memory one and the Redis one) keeps one ``Latest``
per event loop and calls ``offer`` for each group message it is about to hand to its
sockets, and hands such news over ``in_slices``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

LATEST = "latest"  # the message field: what the message is the newest of
EVERY = 1.0  # seconds between two messages of one key to one group, in one process, at least
RATE = 100  # sockets a second a process hands one group's newest-only news to, at most
SLICE = 50  # sockets handed newest-only news in one turn of the event loop


def in_slices(channels: list[str], hand: Callable[[str], None]) -> None:
    """Hand news to ``channels`` SLICE at a time, a turn of the event loop apart. Each socket
    redraws what it is handed in the next turn; a tap that arrives meanwhile is read and
    answered between two slices instead of after the redraws of all 400 (at 100 tables,
    those made the taps' p99)."""
    for channel in channels[:SLICE]:
        hand(channel)
    if len(channels) > SLICE:
        asyncio.get_running_loop().call_soon(in_slices, channels[SLICE:], hand)


class Latest:
    """The newest-only messages of one process: when each (group, key) last went out, and
    the newest one waiting for its turn."""

    def __init__(
        self,
        deliver: Callable[[str, Any], None],
        every: float = EVERY,
        audience: Callable[[str], int] | None = None,
    ) -> None:
        self.deliver = deliver  # (group, message as the layer keeps it): to its sockets now
        self.every = every
        self.audience = audience  # a group's sockets in this process
        self.sent_at: dict[tuple[str, str], float] = {}
        self.sent_order: dict[tuple[str, str], int] = {}  # the order of the last handed over
        # The newest message waiting for its turn: when that turn is, the message, its order.
        self.waiting: dict[tuple[str, str], tuple[float, Any, int]] = {}

    def offer(self, group: str, key: str, message: Any, order: int = 0) -> bool:
        """Whether to hand ``message`` over now; if not, it is kept (unless a newer one
        waits) and handed over when the group's time comes. ``order`` (the message's version)
        says which of two is newer: the messages of several server processes can arrive in
        another order than they were made in."""
        loop = asyncio.get_running_loop()
        slot = (group, key)
        now = loop.time()
        every = self.every_for(group)
        if order < self.sent_order.get(slot, order):
            return False  # older than what the sockets have: they would keep it out anyway
        waiting = self.waiting.get(slot)
        if waiting is not None:
            due, held, held_order = waiting
            if now < due + every:  # its turn is still to come
                if order >= held_order:
                    self.waiting[slot] = (due, message, order)
                return False
            # A turn long past was planned on a loop that has closed since (a test's): the
            # newer of the two goes now.
            del self.waiting[slot]
            if held_order > order:
                self._hand_over(slot, held, held_order)
                return False
        last = self.sent_at.get(slot)
        if last is None or now - last >= every:
            self.sent_at[slot], self.sent_order[slot] = now, order
            return True
        self.waiting[slot] = (last + every, message, order)
        loop.call_at(last + every, self._due, slot)
        return False

    def every_for(self, group: str) -> float:
        """Seconds between two newest-only messages to ``group``'s sockets here."""
        if self.audience is None:
            return self.every
        return max(self.every, self.audience(group) / RATE)

    def _due(self, slot: tuple[str, str]) -> None:
        waiting = self.waiting.pop(slot, None)
        if waiting is not None:
            self._hand_over(slot, waiting[1], waiting[2])

    def _hand_over(self, slot: tuple[str, str], message: Any, order: int) -> None:
        self.sent_at[slot] = asyncio.get_running_loop().time()
        self.sent_order[slot] = order
        self.deliver(slot[0], message)
