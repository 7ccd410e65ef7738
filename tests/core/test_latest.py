"""Newest-only group messages (apps/core/latest.py): in a burst, a socket hears the first at
once and then only the newest, never later than the window allows; other messages are never
held back. On both channel layers of the product."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from apps.core import latest as latest_module
from apps.core.latest import EVERY, LATEST, SLICE, Latest
from apps.fastpath.memory_layer import PartyChannelLayer

WINDOW = 0.3


def news(version: int) -> dict:
    return {"type": "live.night", "version": version, "parts": ["travelling"], LATEST: "travelling"}


async def heard(layer, channel, seconds: float) -> list[tuple[int, float]]:
    """What a socket's channel hears within ``seconds``: (version, seconds after the start)."""
    start = asyncio.get_running_loop().time()
    versions: list[tuple[int, float]] = []
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while True:
                message = await layer.receive(channel)
                versions.append((message["version"], asyncio.get_running_loop().time() - start))
    return versions


async def burst(layer, seconds: float = WINDOW * 2.5) -> list[list[tuple[int, float]]]:
    """Two sockets of a night hear a burst of four newest-only messages."""
    phones = [await layer.new_channel() for _ in range(2)]
    for channel in phones:
        await layer.group_add("night", channel)
    listening = [asyncio.ensure_future(heard(layer, c, seconds)) for c in phones]
    await asyncio.sleep(0.1)  # the sockets are reading: the layer knows their loop
    for version in (1, 2, 3, 4):
        await layer.group_send("night", news(version))
    return [await task for task in listening]


def first_at_once_then_the_newest(heard: list[tuple[int, float]]) -> bool:
    (first, first_at), (newest, newest_at) = heard
    return (first, newest) == (1, 4) and first_at < 0.1 + WINDOW / 2 <= newest_at < 0.2 + WINDOW


async def test_the_in_memory_layer_hands_over_the_first_at_once_and_then_only_the_newest():
    layer = PartyChannelLayer()
    layer.latest.every = WINDOW
    for phone in await burst(layer):
        assert first_at_once_then_the_newest(phone), phone


async def one_phone_listening(seconds: float) -> tuple[PartyChannelLayer, asyncio.Future]:
    """An in-memory layer with one socket of the night reading for ``seconds``."""
    layer = PartyChannelLayer()
    layer.latest.every = WINDOW
    phone = await layer.new_channel()
    await layer.group_add("night", phone)
    listening = asyncio.ensure_future(heard(layer, phone, seconds))
    await asyncio.sleep(0.05)  # the socket reads: the layer knows its loop
    return layer, listening


async def test_an_ordinary_group_message_is_never_held_back():
    layer, listening = await one_phone_listening(WINDOW * 0.5)
    for version in (1, 2, 3):
        await layer.group_send("night", {"type": "live.table", "version": version})
    assert [version for version, _ in await listening] == [1, 2, 3]


async def test_the_next_burst_after_a_quiet_window_starts_at_once_again():
    layer, listening = await one_phone_listening(WINDOW * 4)
    await layer.group_send("night", news(1))
    await asyncio.sleep(WINDOW * 1.5)
    await layer.group_send("night", news(2))
    assert [version for version, _ in await listening] == [1, 2]


async def test_a_big_group_hears_newest_only_news_less_often(monkeypatch):
    monkeypatch.setattr(latest_module, "RATE", 4)  # four sockets a second, as if 100 tables
    layer = PartyChannelLayer()
    for _ in range(10):
        await layer.group_add("night", await layer.new_channel())
    await layer.group_add("table", await layer.new_channel())
    assert layer.latest.every_for("night") == 2.5  # ten sockets: every 2.5 s
    assert layer.latest.every_for("table") == EVERY  # one socket: once a second still


async def test_a_big_group_waits_its_longer_turn_for_the_newest(monkeypatch):
    monkeypatch.setattr(latest_module, "RATE", 1 / WINDOW)  # two sockets: twice the window
    layer = PartyChannelLayer()
    layer.latest.every = WINDOW
    for phone in await burst(layer, seconds=WINDOW * 3.5):
        (first, first_at), (newest, newest_at) = phone
        assert (first, newest) == (1, 4)
        assert first_at < 0.1 + WINDOW / 2 and 0.1 + WINDOW * 1.5 <= newest_at < 0.2 + WINDOW * 2


@pytest.mark.django_db(transaction=True)
async def test_the_redis_layer_hands_over_the_first_at_once_and_then_only_the_newest(monkeypatch):
    from apps.fastpath.redis_layer import ScaleOutChannelLayer
    from config.settings import redis_layer
    from tests.servers import RedisServer

    redis = RedisServer().start()
    try:
        layer = ScaleOutChannelLayer(**redis_layer(redis.url)["CONFIG"])
        # The window of the process's shard (one per event loop), once the layer has it.
        await layer.new_channel()
        for shard in layer._get_layer()._shards:
            shard.latest.every = WINDOW
        for phone in await burst(layer):
            assert first_at_once_then_the_newest(phone), phone
        # A big group waits longer there too: its sockets in this process count.
        monkeypatch.setattr(latest_module, "RATE", 1)
        for _ in range(2):
            await layer.group_add("crowd", await layer.new_channel())
        here = layer._get_layer()
        crowd = here._get_group_channel_name("crowd")  # as Redis names it
        assert [shard.latest.every_for(crowd) for shard in here._shards] == [2]
        await layer.flush()
    finally:
        redis.stop()


def test_news_held_on_a_loop_that_closed_does_not_stop_the_next_news():
    delivered: list[int] = []
    latest = Latest(lambda group, message: delivered.append(message), every=0.1)

    async def offer(version: int) -> bool:
        return latest.offer("night", "travelling", version)

    assert asyncio.run(offer(1)) is True
    assert asyncio.run(offer(2)) is False  # held; its loop ends before its turn
    time.sleep(0.25)
    assert asyncio.run(offer(3)) is True  # the newer news goes out, not stuck behind it
    assert delivered == []


async def test_news_reaches_many_sockets_a_slice_at_a_time_with_the_loops_other_work_between():
    layer = PartyChannelLayer()
    phones = [await layer.new_channel() for _ in range(SLICE * 2 + 10)]
    for channel in phones:
        await layer.group_add("night", channel)
    reading = asyncio.ensure_future(layer.receive(phones[-1]))
    await asyncio.sleep(0.05)  # a socket reads: the layer knows the sockets' loop
    await layer.group_send("night", news(1))

    def holding() -> int:
        return sum(1 for c in phones[:-1] if c in layer.channels and layer.channels[c].qsize())

    queued = [holding()]
    for _turn in range(3):
        await asyncio.sleep(0)
        queued.append(holding())
    assert queued[0] == SLICE  # the first slice at once, the rest in the turns after
    assert queued[-1] == len(phones) - 1
    assert (await reading)["version"] == 1


async def test_news_arriving_out_of_order_from_several_processes_ends_with_the_newest():
    delivered: list[int] = []
    latest = Latest(lambda group, message: delivered.append(message["version"]), every=WINDOW)
    for version in (5, 8, 7):  # 8 was made after 7, but its process published it first
        if latest.offer("night", "travelling", news(version), version):
            delivered.append(version)
    assert latest.offer("night", "travelling", news(4), 4) is False  # older than the sockets'
    await asyncio.sleep(WINDOW * 1.5)
    assert delivered == [5, 8]
