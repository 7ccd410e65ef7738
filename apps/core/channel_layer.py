"""The in-memory channel layer of the embedded stack, made to carry a big night.

Channels' own in-memory layer sweeps every channel and every group for expired messages on
each send and receive; with hundreds of phones connected that sweep costs more than the
messages themselves. Here the sweep runs at most once a second (messages still expire after
``expiry`` seconds), and a group send puts the message on each member's queue directly
instead of starting a task per socket.
"""

from __future__ import annotations

import contextlib
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

SWEEP_EVERY = 1.0  # seconds


class PartyChannelLayer(InMemoryChannelLayer):
    _swept = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            # A socket that stopped reading must not hold up the others.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
