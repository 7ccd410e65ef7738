"""Timed moves and bots live in the database: a server killed with kill -9 and started again
fires what was due, and a phone that dropped with the server is played by a bot after the
restart. Real daphne processes, on whichever stack the suite runs (SQLite or PostgreSQL)."""

from __future__ import annotations

import json
import time

import pytest
from websockets.sync.client import connect

from tests.servers import DaphneServer, fresh_database_url

MAKE_ROOM = """
from apps.games import services
from apps.core.tokens import read_seat_token
room, ann = services.create_room("snap", {OPTIONS}, "Ann")
bea = services.take_seat(room.code, 1, "Bea")
claim = read_seat_token(services.seat_token(room, ann), room.scope)
services.start_room(room.code, claim)
print(room.code, services.seat_token(room, ann))
"""

READ_ROOM = """
from apps.games.models import Room
room = Room.objects.get(code="{code}")
print(room.state["phase"], room.state["taken"], room.seats.get(name="Ann").taken_over)
"""


OVERDUE = """
from datetime import timedelta
from django.utils import timezone
from apps.core.models import Deadline
Deadline.objects.filter(scope="room:{code}").update(due_at=timezone.now() - timedelta(seconds=1))
"""


@pytest.fixture
def server(tmp_path):
    env = {"BUNKO_EXTRA_GAMES": "tests.games.toy", "PRESENCE_HEARTBEAT": "0.5"}
    if url := fresh_database_url("restart"):
        env["DATABASE_URL"] = url
    daphne = DaphneServer(tmp_path, env=env)
    daphne.migrate()
    yield daphne
    daphne.stop()


def read(server: DaphneServer, code: str) -> tuple[str, list, bool]:
    phase, rest = server.python(READ_ROOM.format(code=code)).split(" ", 1)
    taken, taken_over = rest.rsplit(" ", 1)
    return phase, json.loads(taken.replace("None", "null")), taken_over == "True"


def wait_for(check, seconds: float = 20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if result := check():
            return result
        time.sleep(0.2)
    raise AssertionError("it did not happen in time")


def test_a_deadline_pending_when_the_server_is_killed_fires_after_the_restart(server):
    server.start()
    # A reveal far off, so the server cannot fire it before the kill however slow the machine.
    code, _ = server.python(MAKE_ROOM.replace("{OPTIONS}", '{"reveal_ms": 60000}')).split()
    server.kill()
    server.python(OVERDUE.format(code=code))  # the minute passes while no server runs
    assert read(server, code)[0] == "waiting"
    server.start()  # nobody connects: the restarted process fires it by itself
    wait_for(lambda: read(server, code)[0] == "racing", seconds=10)


def test_a_phone_that_dropped_with_the_server_is_played_by_a_bot_after_the_restart(server):
    server.env.update(GAME_BOT_TAKEOVER="2", GAME_BOT_PACE="0.2")
    server.start()
    options = '{"reveal_ms": 4000, "close_ms": 60000}'
    code, token = server.python(MAKE_ROOM.replace("{OPTIONS}", options)).split()
    with connect(
        f"ws://127.0.0.1:{server.port}/ws/rooms/{code}/",
        origin=server.url,
        additional_headers={"Cookie": f"seat_room_{code}={token}"},
        open_timeout=10,
        close_timeout=1,
    ) as phone:
        phone.send(json.dumps({"type": "hello", "since": -1}))
        assert json.loads(phone.recv(timeout=10))["type"] == "fragments"
        server.kill()  # the phone's socket dies with the server and never comes back
    server.start()

    def ann_took_a_card():
        phase, taken, taken_over = read(server, code)
        return phase == "racing" and taken_over and 0 in taken

    wait_for(ann_took_a_card)
