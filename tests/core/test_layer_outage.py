"""The channel layer can go away (Redis restarting, a cable pulled): what was committed stays
committed, the tap or the click that made it gets its answer, the rooms' timed moves go on,
and every screen catches up by version once its socket is back."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from apps.core import presence, scheduler
from apps.core.changes import night_change
from apps.core.models import Deadline
from apps.core.tokens import seat_cookie_name
from apps.games import services as games
from apps.games.models import RoomEvent, Seat
from apps.parties import services
from apps.parties.models import Party
from tests.games.roomkit import connect, hello, seat_header, started_room
from tests.parties.test_party_consumer import next_of_type, night, phone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def own_redis():
    """A Redis of the test's own (to stop and start) and a maker of scale-out layers on it."""
    from apps.fastpath.redis_layer import ScaleOutChannelLayer
    from config.settings import redis_layer
    from tests.servers import RedisServer

    redis = RedisServer().start()
    try:
        yield redis, lambda url=redis.url: ScaleOutChannelLayer(**redis_layer(url)["CONFIG"])
    finally:
        redis.stop()


@pytest.fixture
def layer_down(monkeypatch):
    """From now on every group send fails as channels-redis does with Redis stopped; the
    function returns the list of the sends tried."""
    tried: list[str] = []

    def go_down() -> list[str]:
        async def refused(group, message):
            tried.append(group)
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        monkeypatch.setattr(get_channel_layer(), "group_send", refused)
        return tried

    return go_down


def test_the_host_starts_a_round_while_the_layer_is_down_and_gets_the_console_back(
    client, django_user_model, layer_down
):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        services.add_player(party.code, name)
    client.force_login(host)
    layer_down()
    response = client.post(f"/p/{party.code}/host/start-round/")
    assert response.status_code == 302
    assert Party.objects.get().current_round == 1


async def test_a_tap_made_while_the_layer_is_down_is_kept_and_acknowledged(
    django_user_model, layer_down
):
    party, tokens, tables = await night(django_user_model)
    ann = await phone(party, tokens[tables[1][0]])
    tried = layer_down()
    await ann.send_json_to({"type": "action", "id": "outage-tap1", "act": {"type": "rolloff"}})
    ack = await next_of_type(ann, "ack")
    assert ack["id"] == "outage-tap1" and ack["v"] == 1_000_001
    # The table's phones and the screens would hear it: one try tells the layer is away (a
    # Redis that times out would hold the tap up once, not once per group).
    assert len(tried) == 1
    await ann.disconnect()


def test_a_bots_move_fired_while_the_layer_is_down_counts_and_the_next_is_armed(
    settings, layer_down
):
    settings.GAME_BOT_PACE = 0
    room, claims = started_room(("Ann",), bots=3)
    # Ann's phone has been gone an hour: a bot plays her seat too, and she deals first.
    games.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    layer_down()
    later = timezone.now() + timedelta(seconds=1)
    assert scheduler.run_due(later) >= 1
    assert room.events.filter(kind=RoomEvent.BOT).exists()
    assert Deadline.objects.filter(scope=room.scope).exists()  # the hand goes on


async def test_a_phone_whose_layer_read_drops_is_away_and_played_by_a_bot_after_the_takeover_time(
    settings, monkeypatch
):
    settings.GAME_BOT_TAKEOVER = 60
    room, claims = await sync_to_async(started_room)(("Ann", "Bea"))
    ann_id = claims["Ann"].seat_id
    layer = get_channel_layer()
    dropped = asyncio.Event()
    reading = layer.receive

    async def receive(channel):
        # The socket's read of the layer fails the way channels-redis does when Redis
        # closes its connection: no disconnect message ever reaches the consumer.
        read = asyncio.ensure_future(reading(channel))
        drop = asyncio.ensure_future(dropped.wait())
        done, _ = await asyncio.wait({read, drop}, return_when=asyncio.FIRST_COMPLETED)
        if drop in done:
            read.cancel()
            raise ConnectionError("Connection closed by server.")
        drop.cancel()
        return read.result()

    monkeypatch.setattr(layer, "receive", receive)
    ann = await connect(room.code, seat_header(room, claims, "Ann"))
    await hello(ann)
    assert presence.is_open_here("seat", ann_id)
    dropped.set()
    with pytest.raises(ConnectionError):
        await ann.receive_output(timeout=2)
    assert not presence.is_open_here("seat", ann_id)

    def takeover_at(seconds: int) -> list[str]:
        later = Seat.objects.get(pk=ann_id).seen_at + timedelta(seconds=seconds)
        games.stamp_seats([claims["Bea"].seat_id], later)  # Bea's phone is still here
        return games.take_over_absent_seats(room.code, later)

    assert await sync_to_async(takeover_at)(59) == []
    assert await sync_to_async(takeover_at)(61) == ["Ann"]


async def test_a_console_socket_that_crashes_stops_its_phone_dots_and_leaves_its_groups(
    django_user_model, monkeypatch
):
    from channels.testing import WebsocketCommunicator
    from django.test import Client

    from apps.parties import console as console_render
    from apps.parties import consumers
    from config.asgi import application
    from tests.parties.test_party_consumer import headers

    monkeypatch.setattr(consumers, "PHONES_EVERY", 0.02)
    party, tokens, tables = await night(django_user_model)
    client = Client()
    await sync_to_async(client.force_login)(await sync_to_async(lambda: party.host)())
    session = client.cookies["sessionid"].value
    console = WebsocketCommunicator(
        application, f"/ws/p/{party.code}/host/", headers=headers(f"sessionid={session}")
    )
    assert (await console.connect())[0]
    await console.send_json_to({"type": "hello", "since": 0})
    await next_of_type(console, "event")  # the dots come

    async def broken(self, version=None):
        raise RuntimeError("a render that fails")

    monkeypatch.setattr(consumers.PartyConsumer, "render", broken)
    layer = get_channel_layer()
    discarding = layer.group_discard
    left: list[str] = []

    async def discard(group, channel):
        left.append(group)
        await discarding(group, channel)

    monkeypatch.setattr(layer, "group_discard", discard)
    # A new version of the night to draw (a hello again with none since is answered already).
    change = night_change(party.code, party.version + 1, ["all"])
    await layer.group_send(party.group, change.message())
    with pytest.raises(RuntimeError, match="a render that fails"):
        while True:
            await console.receive_output(timeout=2)
    looks = []
    monkeypatch.setattr(console_render, "phone_states", lambda code: looks.append(code) or {})
    await asyncio.sleep(0.2)
    assert looks == []  # no loop left behind, reading the night for a socket that is gone
    assert party.screens_group in left and party.group in left


async def test_the_redis_layer_works_on_the_first_try_after_redis_restarts(own_redis):
    redis, new_layer = own_redis
    layer = new_layer()
    phone = await layer.new_channel()
    await layer.group_add("tables", phone)
    redis.stop()
    redis.start()
    # The connection kept from before the restart is closed: the layer takes a new one
    # instead of failing the phone that reconnects first.
    again = await layer.new_channel()
    await layer.group_add("tables", again)
    await layer.flush()


async def test_a_process_behind_by_more_than_a_thousand_messages_loses_none_of_them(own_redis):
    redis, new_layer = own_redis
    layer = new_layer()
    # One process's socket in a table's group; the process does not read for a while.
    phone = await layer.new_channel()
    await layer.group_add("table", phone)
    for number in range(1500):
        await layer.group_send("table", {"type": "live.table", "n": number})
    heard = []
    with contextlib.suppress(TimeoutError):
        while len(heard) < 1500:
            heard.append((await asyncio.wait_for(layer.receive(phone), 2))["n"])
    assert heard == list(range(1500))
    await layer.flush()


async def test_every_socket_of_a_process_hears_when_redis_is_lost(own_redis):
    from apps.fastpath.redis_layer import LOST

    redis, new_layer = own_redis
    layer = new_layer()
    phones = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table", phones[0])
    await layer.group_send("table", {"type": "live.table", "n": 1})
    assert (await asyncio.wait_for(layer.receive(phones[0]), 5))["n"] == 1
    redis.stop()
    for socket in phones:  # once each, whatever group it is in
        assert await asyncio.wait_for(layer.receive(socket), 10) == LOST
    redis.start()
    await layer.flush()


async def test_nights_on_two_databases_of_one_redis_hear_only_their_own(own_redis):
    redis, new_layer = own_redis
    base = redis.url.rsplit("/", 1)[0]
    ours = new_layer(f"{base}/0")
    theirs = new_layer(f"{base}/13")
    mine, other = await ours.new_channel(), await theirs.new_channel()
    await ours.group_add("party-ABCDE", mine)
    await theirs.group_add("party-ABCDE", other)
    await theirs.group_send("party-ABCDE", {"type": "live.night", "n": 13})
    assert (await asyncio.wait_for(theirs.receive(other), 5))["n"] == 13
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(ours.receive(mine), 1)
    await ours.flush()
    await theirs.flush()


async def test_a_socket_cancelled_twice_while_it_leaves_redis_logs_nothing_and_is_forgotten(
    caplog, own_redis
):
    redis, new_layer = own_redis
    layer = new_layer()
    phone = await layer.new_channel()
    reading = asyncio.ensure_future(layer.receive(phone))
    await asyncio.sleep(0.1)
    shard = layer._get_layer()._shards[0]
    # A thousand phones leave at once: this one waits its turn to unsubscribe, and the
    # server cancels its reader once more meanwhile.
    async with shard._lock:
        reading.cancel()
        await asyncio.sleep(0.05)
        reading.cancel()
        await asyncio.sleep(0.05)
    with pytest.raises(asyncio.CancelledError):
        await reading
    await asyncio.sleep(0.1)
    assert phone not in shard._subscribed_to
    assert "Unexpected exception" not in caplog.text
    await layer.flush()


# A port nothing listens on: Redis "down" without touching any Redis that runs here.
CLOSED_REDIS = "redis://127.0.0.1:6390/9"


@pytest.fixture
def redis_away(monkeypatch, settings):
    """From now on the scale-out stack, its Redis (layer and cache) out of reach; the
    function returns the layer."""
    from channels.layers import channel_layers

    from apps.fastpath.redis_layer import ScaleOutChannelLayer
    from config.settings import redis_layer

    def go_away() -> ScaleOutChannelLayer:
        layer = ScaleOutChannelLayer(**redis_layer(CLOSED_REDIS)["CONFIG"])
        monkeypatch.setitem(channel_layers.backends, "default", layer)
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": CLOSED_REDIS,
            }
        }
        return layer

    return go_away


@pytest.mark.parametrize("path", ["/ws/check/", "phone"])
async def test_a_socket_opened_while_redis_is_away_is_refused_cleanly_with_one_log_line(
    django_user_model, caplog, redis_away, path
):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.parties.test_party_consumer import headers

    cookie = ""
    if path == "phone":
        party, tokens, tables = await night(django_user_model)
        path = f"/ws/p/{party.code}/phone/"
        cookie = f"{seat_cookie_name(party.scope)}={tokens[tables[1][0]]}"
    layer = await sync_to_async(redis_away)()
    caplog.set_level("INFO")
    caplog.clear()
    socket = WebsocketCommunicator(application, path, headers=headers(cookie))
    connected, code = await socket.connect(timeout=5)
    # Refused at the handshake (the page tries again, its wait growing as after any drop),
    # not a crash of the server's handler.
    assert not connected
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(records) == 1, [r.getMessage() for r in records]
    assert records[0].exc_info is None and "Redis" in records[0].getMessage()
    assert not layer._get_layer().channels  # no queue left behind for the socket


async def test_a_socket_whose_group_redis_refuses_is_refused_at_the_handshake(
    django_user_model, caplog, monkeypatch
):
    party, tokens, tables = await night(django_user_model)
    layer = get_channel_layer()

    async def refused(group, channel):
        raise ConnectionError("Redis is out of reach")

    monkeypatch.setattr(layer, "group_add", refused)
    caplog.clear()
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.parties.test_party_consumer import headers

    cookie = f"{seat_cookie_name(party.scope)}={tokens[tables[1][0]]}"
    socket = WebsocketCommunicator(
        application, f"/ws/p/{party.code}/phone/", headers=headers(cookie)
    )
    connected, _ = await socket.connect(timeout=5)
    assert not connected
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.exc_info for r in records] == [None], [r.getMessage() for r in records]


def test_a_real_server_refuses_a_socket_while_its_redis_is_away_and_logs_one_line(tmp_path):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from tests.servers import DaphneServer, RedisServer

    redis = RedisServer().start()
    server = DaphneServer(tmp_path, env={"REDIS_URL": redis.url, "RATE_LIMITS": "off"})
    try:
        server.migrate()
        server.start()
        redis.stop()
        before = server.log.read_text()
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{server.port}/ws/check/", origin=server.url, open_timeout=10)
        assert refused.value.response.status_code == 403  # not 500
        # The line is written as the refusal goes out; on a busy machine it may take a moment
        # to reach the log. Then a moment more, for any second line to show.
        deadline = time.monotonic() + 10
        while "Redis is out of reach" not in server.log.read_text()[len(before) :]:
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)
        time.sleep(0.3)
        said = server.log.read_text()[len(before) :]
    finally:
        server.stop()
        redis.stop()
    # Besides daphne's access log ("WSCONNECTING", "WSREJECT"): the one line.
    lines = [line for line in said.splitlines() if line.strip() and '"WS' not in line]
    assert "Traceback" not in said
    assert len(lines) == 1 and "socket was refused; Redis is out of reach" in lines[0], said
