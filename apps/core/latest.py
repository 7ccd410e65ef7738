"""Group messages that only say what is newest, handed to a process's sockets at a bounded rate.

Some night-wide news only matters as it stands now: who holds the travelling prizes. At 250
tables a Bunko or a wipeout moves a prize about twice a second, and each move told every
socket of the night: a thousand phones redrawing a line about strangers, which cost the
server more than the taps themselves. A message that carries ``latest`` (a key: what it is
the newest of) is handed to a process's sockets at once if that group heard no such message
for ``every`` seconds; otherwise it waits, and at the end of that time the newest message
that waited is handed over instead of all of them. Nothing newest is ever dropped: the last
message of a burst always arrives, at most ``every`` seconds late.

Each channel layer of the product (the in-memory one and the Redis one) keeps one ``Latest``
per event loop and calls ``offer`` for each group message it is about to hand to its
sockets, and hands such news over ``in_slices``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

LATEST = "latest"  # the message field: what the message is the newest of
EVERY = 1.0  # seconds between two messages of one key to one group, in one process
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

    def __init__(self, deliver: Callable[[str, Any], None], every: float = EVERY) -> None:
        self.deliver = deliver  # (group, message as the layer keeps it): to its sockets now
        self.every = every
        self.sent_at: dict[tuple[str, str], float] = {}
        # The newest message waiting for its turn, and when that turn is.
        self.waiting: dict[tuple[str, str], tuple[float, Any]] = {}

    def offer(self, group: str, key: str, message: Any) -> bool:
        """Whether to hand ``message`` over now; if not, it is kept (replacing an older one
        that waits) and handed over when the group's time comes."""
        loop = asyncio.get_running_loop()
        slot = (group, key)
        now = loop.time()
        waiting = self.waiting.get(slot)
        # (A turn long past was planned on a loop that has closed since: a test's.)
        if waiting is not None and now < waiting[0] + self.every:
            self.waiting[slot] = (waiting[0], message)
            return False
        self.waiting.pop(slot, None)
        last = self.sent_at.get(slot)
        if last is None or now - last >= self.every:
            self.sent_at[slot] = now
            return True
        due = last + self.every
        self.waiting[slot] = (due, message)
        loop.call_at(due, self._due, slot)
        return False

    def _due(self, slot: tuple[str, str]) -> None:
        waiting = self.waiting.pop(slot, None)
        if waiting is None:
            return
        self.sent_at[slot] = asyncio.get_running_loop().time()
        self.deliver(slot[0], waiting[1])
