"""The in-memory channel layer of the embedded stack, made to carry a big night.

Channels' own in-memory layer sweeps every channel and every group for expired messages on
each send and receive; with hundreds of phones connected that sweep costs more than the
messages themselves. Here the sweep runs at most once a second (messages still expire after
``expiry`` seconds), and a group send puts one copy of the message on each member's queue
directly instead of starting a task and making a copy per socket. A newest-only group
message (apps/core/latest.py) reaches the sockets at most once a second per group (less
often in a big group).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from copy import deepcopy

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from apps.core.latest import LATEST, Latest, in_slices

SWEEP_EVERY = 1.0  # seconds


class PartyChannelLayer(InMemoryChannelLayer):
    _swept = 0.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.latest = Latest(
            self._hand_to_group, audience=lambda group: len(self.groups.get(group, ()))
        )
        # The loop the sockets receive on (the server's): a message held back waits on it.
        # A send from a loop of its own (a command's, gone once it has sent) is never held.
        self.home: asyncio.AbstractEventLoop | None = None

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        super()._clean_expired()

    async def receive(self, channel):
        self.home = asyncio.get_running_loop()
        return await super().receive(channel)

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        key = message.get(LATEST)
        at_home = asyncio.get_running_loop() is self.home
        order = message.get("version", 0)
        if key and at_home and not self.latest.offer(group, key, message, order):
            return  # held back: the newest of its kind goes out when its turn comes
        self._hand_to_group(group, message)

    def _hand_to_group(self, group: str, message: dict) -> None:
        channels = list(self.groups.get(group, ()))
        # One copy for the whole group, as a layer that serializes sends one message per
        # group: the sender may change its dict afterwards, the sockets only read theirs (a
        # copy per socket was a twentieth of the night's work at 100 tables).
        message = deepcopy(message)
        # Slices only on the sockets' own loop: a command's loop may close before the next.
        if message.get(LATEST) and asyncio.get_running_loop() is self.home:
            in_slices(channels, lambda channel: self._put_or_skip(channel, message))
            return
        for channel in channels:
            self._put_or_skip(channel, message)

    def _put_or_skip(self, channel: str, message: dict) -> None:
        # A socket that stopped reading must not hold up the others.
        with contextlib.suppress(ChannelFull):
            self._put(channel, message)

    def _put(self, channel: str, message: dict) -> None:
        # InMemoryChannelLayer.send without its await: the same queue and expiry (the message
        # is the group's copy).
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, message))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None
