"""A Bunko night and a party game beside it survive the faults of a real party: a server
killed with kill -9 mid-round and mid-game, a phone that drops and comes back, one of two
scale-out processes dying. Real daphne processes and sockets, on whichever stack the suite
runs; the two-process test needs the scale-out stack (PostgreSQL and Redis)."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.servers import DaphneServer, LiveSocket, RedisServer, fresh_database_url

# A night of one table, and beside it an Mbogo hand of Ann and three bots: bots think fast,
# a phone gone for a second is played by a bot (the heartbeat allows no less).
QUICK = {"GAME_BOT_PACE": "0.05", "GAME_BOT_TAKEOVER": "1", "PRESENCE_HEARTBEAT": "0.5"}
NAMES = ["Ann", "Bea", "Cal", "Dot"]

SETUP = """
import json
from django.contrib.auth import get_user_model
from apps.core.tokens import read_seat_token, seat_cookie_name
from apps.games import services as rooms
from apps.parties import services as nights
NAMES = ["Ann", "Bea", "Cal", "Dot"]
host = get_user_model().objects.get_or_create(username="faults")[0]
party = nights.create_party(host, name="Faults", rounds=2)
tokens = {n: nights.join_party(party.code, new_name=n)[1] for n in NAMES}
nights.start_next_round(party.code)
room, ann = rooms.create_room("mbogo", {"target": 0}, "Ann")
claim = read_seat_token(rooms.seat_token(room, ann), room.scope)
for slot in (1, 2, 3):
    rooms.set_seat_bot(room.code, claim, slot, True)
rooms.start_room(room.code, claim)
print(json.dumps({
    "party": party.code, "cookie": seat_cookie_name(party.scope), "tokens": tokens,
    "room": room.code, "ann": f"{seat_cookie_name(room.scope)}={rooms.seat_token(room, ann)}",
}))
"""

READ_BACK = """
import json
from apps.games.models import Room
from apps.parties.models import Event
room = Room.objects.get(code=ROOM)
print(json.dumps({
    "status": room.status, "version": room.version,
    "taken_over": room.seats.get(name="Ann").taken_over,
    "actions": list(Event.objects.filter(party__code=PARTY).values_list("action_id", flat=True)),
}))
"""

MOVES = ("rolloff", "grab", "roll")


@pytest.fixture(scope="module")
def setup(tmp_path_factory) -> tuple:
    """One database and data folder (its secret key, so every process reads every phone's
    token) for the module's servers, migrated once."""
    env = dict(QUICK)
    if url := fresh_database_url("faults"):
        env["DATABASE_URL"] = url
    folder = tmp_path_factory.mktemp("faults")
    DaphneServer(folder, env=env).migrate()
    return folder, env


def servers(setup, count: int, **env: str) -> list[DaphneServer]:
    folder, shared = setup
    return [DaphneServer(folder, env={**shared, **env}).start() for _ in range(count)]


def set_up_night(server: DaphneServer) -> dict:
    return json.loads(server.python(SETUP))


def phones_of(night: dict) -> list[LiveSocket]:
    code = night["party"]
    return [
        LiveSocket(f"/ws/p/{code}/phone/", f"{night['cookie']}={night['tokens'][name]}")
        for name in NAMES
    ]


def tap_on(phones: list[LiveSocket], needed: bool = True) -> tuple[LiveSocket, dict] | None:
    """The table's next move, from whichever phone may make it now: who, and its
    acknowledgement (None when none of these phones may move, and none had to)."""
    for phone in phones:
        for move in MOVES:
            answer = phone.tap({"type": move})
            if answer["type"] == "ack":
                return phone, answer
    assert not needed, "no phone at the table could move"
    return None


def drop_a_phone(phones: list[LiveSocket], mover: LiveSocket) -> tuple[LiveSocket, dict]:
    """Close the socket of a phone whose move the table does not wait for, and let the
    others make a move meanwhile: the dropped phone and the last acknowledgement."""
    for phone in phones:
        if phone is mover:
            continue
        phone.close()
        if (made := tap_on([p for p in phones if p is not phone], needed=False)) is not None:
            return phone, made[1]
        phone.open(phone.server)
    raise AssertionError("the table waited for every phone")


def stamp_shown(fragments: dict) -> int:
    """The table's version the phone's page shows (its data-v)."""
    return max(int(v) for v in re.findall(r'id="table"[^>]*data-v="(\d+)"', fragments["html"]))


def read_back(server: DaphneServer, night: dict) -> dict:
    code = f"ROOM, PARTY = {night['room']!r}, {night['party']!r}\n"
    return json.loads(server.python(code + READ_BACK))


def wait_for_results(screen: LiveSocket, seconds: float = 30, text='data-testid="results"'):
    """Until the party game's big screen shows the final standings (or ``text``)."""
    deadline = time.monotonic() + seconds
    while True:
        html = screen.next("fragments", deadline - time.monotonic())["html"]
        if text in html:
            return


def room_screen(night: dict, server: DaphneServer) -> LiveSocket:
    screen = LiveSocket(f"/ws/rooms/{night['room']}/screen/")
    screen.open(server)
    return screen


def wait_for_version(screen: LiveSocket, version: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while screen.version < version:
        screen.next("fragments", max(0.01, deadline - time.monotonic()))


def test_a_server_killed_mid_round_and_mid_game_loses_no_acknowledged_tap_and_plays_on(setup):
    (server,) = servers(setup, 1)
    try:
        night = set_up_night(server)
        phones = phones_of(night)
        for phone in phones:
            phone.open(server)
        screen = room_screen(night, server)
        for _ in range(4):
            mover, last = tap_on(phones)

        # A phone drops: the table plays on without it, and it comes back where it was.
        dropped, last = drop_a_phone(phones, mover)
        assert stamp_shown(dropped.open(server)) == last["v"]

        # kill -9 in the middle of the round and of the bots' hand.
        wait_for_version(screen, 6)
        assert "Final standings" not in screen.html
        server.kill()
        server.start()
        for phone in phones:
            assert stamp_shown(phone.open(server)) == last["v"]
        for _ in range(3):
            tap_on(phones)

        wait_for_results(room_screen(night, server))
        state = read_back(server, night)
        assert state["status"] == "finished"
        acked = [a for phone in phones for a in phone.acked]
        assert len(acked) == 8 and set(acked) <= set(state["actions"])
    finally:
        server.kill()


@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (the scale-out stack of .ci/run)"
)
def test_one_of_two_processes_killed_mid_round_its_phones_go_on_at_the_other(setup):
    first, second = servers(setup, 2, REDIS_URL=os.environ["REDIS_URL"])
    try:
        night = set_up_night(first)
        phones = phones_of(night)
        for phone, server in zip(phones, (first, second, first, second), strict=True):
            phone.open(server)
        # Ann plays her own seat of the party game, from a phone on the first process.
        ann = LiveSocket(f"/ws/rooms/{night['room']}/", night["ann"])
        ann.open(first)
        screen = room_screen(night, second)
        for _ in range(5):
            last = tap_on(phones)[1]
        assert "Final standings" not in screen.html  # the hand waits for Ann
        first.kill()

        # The first process's phones reconnect to the second and catch up; nothing
        # acknowledged is lost, and the table plays on.
        for phone in phones:
            if phone.server is first:
                assert stamp_shown(phone.open(second)) == last["v"]
        for _ in range(3):
            tap_on(phones)
        # Ann's socket died with the first process: the second sees her seat go quiet and a
        # bot takes it over. She comes back with the last version she saw: caught up, the seat
        # hers again. She leaves for good: the bot again, and the deadlines are fired at the
        # second process to the game's end.
        wait_for_results(screen, text="Bot playing for Ann")
        seen = ann.version
        back = ann.open(second)
        assert ann.version > seen and "Bot playing for" not in back["html"]
        ann.close()
        wait_for_results(screen)
        state = read_back(second, night)
        assert state["status"] == "finished"
        acked = [a for phone in phones for a in phone.acked]
        assert len(acked) == 8 and set(acked) <= set(state["actions"])
        assert "Traceback" not in second.log.read_text()
    finally:
        first.kill()
        second.kill()


@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (the scale-out stack of .ci/run)"
)
def test_redis_stopped_and_started_again_the_night_and_its_game_go_on(setup):
    redis = RedisServer().start()
    (server,) = servers(setup, 1, REDIS_URL=redis.url)
    try:
        night = set_up_night(server)
        phones = phones_of(night)
        for phone in phones:
            phone.open(server)
        # Ann plays her seat of the party game: the bots' hand waits for her.
        LiveSocket(f"/ws/rooms/{night['room']}/", night["ann"]).open(server)
        for _ in range(3):
            last = tap_on(phones)[1]

        redis.stop()
        stopped = time.monotonic()
        # The sockets end (the phones show "Reconnecting…") and cannot open again yet, but
        # the server still answers pages, and the party game goes on in the database: Ann's
        # socket ended with the others, so a bot takes her seat and the hand is played on.
        with pytest.raises(ConnectionClosed):
            while True:
                phones[0].next("*", timeout=15)  # a busy machine: the layer's retries first
        with pytest.raises((InvalidStatus, ConnectionClosed)):
            phones[0].open(server, timeout=5)
        with urllib.request.urlopen(server.url + "/", timeout=5) as page:
            assert page.status == 200
        version = read_back(server, night)["version"]
        # Three seconds: the server's side does not depend on the length (the browser test
        # stops Redis for ten, where the phone's backoff grows with it).
        time.sleep(max(0.0, 3 - (time.monotonic() - stopped)))
        assert read_back(server, night)["version"] > version
        redis.start()

        # The first try of each phone opens: no connection the server kept from before the
        # outage fails it.
        for phone in phones:
            assert stamp_shown(phone.open(server)) == last["v"]
        mover, last = tap_on(phones)
        for phone in phones:
            if phone is not mover:  # the others hear the tap through Redis again
                assert f'data-v="{last["v"]}"' in phone.next("fragments")["html"]
        screen = room_screen(night, server)
        if 'data-testid="results"' not in screen.html:
            wait_for_results(screen)
        acked = [a for phone in phones for a in phone.acked]
        assert set(acked) <= set(read_back(server, night)["actions"])
    finally:
        server.kill()
        redis.stop()
