"""The channel layer of the scale-out stack: Redis publish/subscribe between daphne processes.

Channels-redis's default layer keeps one queue per process in Redis and fetches it one message
per round trip; at 250 tables a process fell seconds behind and, once its queue held a
thousand messages, lost updates without a word. With publish/subscribe a process subscribes
once to each group its sockets are in and Redis pushes every message as it is sent: the same
fan-out, a message per group instead of per process, nothing queued in Redis (``make bench``
at 250 tables on four processes: 126 taps/s instead of 89, p99 2.8 s instead of 7.8 s, 12.7 ms
of CPU per tap instead of 18).

What publish/subscribe does not do is tell a socket that Redis went away: its messages just
stop. So when a process loses Redis, every socket it serves is closed (as the default layer's
failed reads closed them); the phones say "Reconnecting…", cannot open again until Redis is
back, and then catch up by version like any phone that dropped off the Wi-Fi.

A newest-only group message (apps/core/latest.py) is published like any other; each process
hands it to its own sockets at most once a second per group (less often in a big group).
A group's message is decoded once per process, not once per socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)

from apps.core.latest import LATEST, Latest, in_slices

log = logging.getLogger(__name__)

# What a socket hears when its process has lost Redis (LiveConsumer.layer_lost closes it).
LOST = {"type": "layer.lost"}
# Seconds between tries to read from Redis while it is away, and between quick looks whether
# it is back when a socket needs it.
AWAY_RETRY = 0.5
PROBE_EVERY = 0.2


class WatchedShard(RedisSingleShardConnection):
    """One Redis connection's subscriptions, whose reader tells every socket of the process
    when Redis is lost (once per outage). While it is lost, a send, a new socket's
    subscription or a closing socket's unsubscription fails at once (after one quick look
    every PROBE_EVERY seconds), instead of each waiting its turn for Redis's retries."""

    lost = False
    probed = 0.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.latest = Latest(self._hand_to_group, audience=self._audience)

    def _audience(self, group: str) -> int:
        return len(self.channel_layer.groups.get(group, ()))

    async def _reachable(self) -> bool:
        if not self.lost:
            return True
        now = asyncio.get_running_loop().time()
        if now - self.probed < PROBE_EVERY:
            return False
        self.probed = now
        try:
            self._ensure_redis()
            await self._redis.ping()
        except Exception:
            return False
        self.lost = False
        log.warning("live: Redis is back")
        return True

    async def publish(self, channel, message):
        if not await self._reachable():
            raise ConnectionError("Redis is out of reach")
        await super().publish(channel, message)

    async def subscribe(self, channel):
        if not await self._reachable():
            raise ConnectionError("Redis is out of reach")
        await super().subscribe(channel)

    async def unsubscribe(self, channel):
        if await self._reachable():
            # A closing socket's reader is cancelled, and when a thousand phones leave at
            # once the cancel can come again while it waits its turn to unsubscribe: the
            # unsubscription goes on to its end by itself, so Redis forgets the channel
            # and no traceback is logged for a socket that simply closed.
            done = asyncio.ensure_future(super().unsubscribe(channel))
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(done)
            return
        # Forget it here, so that it is not subscribed again when Redis is back.
        self._subscribed_to.discard(channel)
        if self._pubsub is not None:
            for key in (channel, channel.encode()):
                self._pubsub.channels.pop(key, None)

    async def _do_receiving(self) -> None:
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except Exception:
                if not self.lost:
                    log.warning("live: Redis is out of reach; this process's sockets close")
                    self.lost, self.probed = True, asyncio.get_running_loop().time()
                    self._tell_every_socket(LOST)
                await asyncio.sleep(AWAY_RETRY)
            else:
                if self.lost:
                    log.warning("live: Redis is back")
                self.lost = False

    def _receive_message(self, message) -> None:
        if message is None:
            return
        name, data = message["channel"], message["data"]
        name = name.decode() if isinstance(name, bytes) else name
        layer = self.channel_layer
        if name not in layer.groups:
            super()._receive_message(message)  # one socket's own message
            return
        # A group's message is decoded once for all of this process's sockets in it (each
        # decoded its own copy before), which only read it (ScaleOutChannelLayer.deserialize).
        decoded = layer.channel_layer.deserialize(data)
        if key := decoded.get(LATEST):
            if self.latest.offer(name, key, decoded, decoded.get("version", 0)):
                self._hand_to_group(name, decoded)
            return
        channels = layer.channels
        for channel in layer.groups[name]:
            if channel in channels:
                channels[channel].put_nowait(decoded)

    def _hand_to_group(self, group: str, decoded: dict) -> None:
        """Newest-only news to this process's sockets in the group, a slice at a time."""
        channels = self.channel_layer.channels

        def hand(channel: str) -> None:
            if channel in channels:  # still open
                channels[channel].put_nowait(decoded)

        in_slices(list(self.channel_layer.groups.get(group, ())), hand)

    def _tell_every_socket(self, message: dict) -> None:
        for queue in list(self.channel_layer.channels.values()):
            queue.put_nowait(message)


class LayerAway(ConnectionError):
    """A new socket's channel could not be made: Redis is out of reach."""


class ScaleOutChannelLayer(RedisPubSubChannelLayer):
    async def new_channel(self, prefix: str = "specific.") -> str:
        # channels-redis's own, but a channel Redis refused leaves no queue behind (one per
        # refused socket otherwise, for as long as the process runs) and says why it failed.
        layer = self._get_layer()
        channel = f"{layer.prefix}{prefix}{uuid.uuid4().hex}"
        try:
            await layer._subscribe_to_channel(channel)
        except Exception as error:
            layer.channels.pop(channel, None)
            raise LayerAway(str(error)) from None
        return channel

    def deserialize(self, message):
        # A socket's queue holds a group's message decoded already (WatchedShard), or the
        # bytes of a message sent to that socket alone.
        if isinstance(message, dict):
            return message
        return super().deserialize(message)

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        new = loop not in self._layers
        layer = super()._get_layer()
        if new:  # before its first use: its shards are watched ones
            layer._shards = [WatchedShard(shard.host, layer) for shard in layer._shards]
        return layer
