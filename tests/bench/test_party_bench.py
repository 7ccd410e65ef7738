"""Tap to update: with 12 tables of phones connected, how long from a phone's tap until the
other three phones at its table and the big screen show it; beside a bare Channels echo and
a bare group fan-out measured in the same run, on the same daphne server.

Run with `make bench`. Prints median and 99th percentile in milliseconds.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

from tests.bench.harness import PACE, SocketReader, open_socket, ping, shell, summary
from tests.servers import DaphneServer

TABLES = 12
TAPS = 300
ECHOES = 100


SETUP = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
host = get_user_model().objects.create_user("benchhost", password="x")
party = services.create_party(host, name="Bench", rounds=None)
tokens = {}
for i in range(%d):
    player, token = services.join_party(party.code, new_name=f"Player {i:03d}")
    tokens[player.id] = token
services.start_next_round(party.code)
party.refresh_from_db()
tables = [[tokens[pid] for pid in t.seats] for t in party.tables.filter(round=1)]
print(json.dumps({"code": party.code, "scope": party.scope, "tables": tables}))
"""


def create_night(server: DaphneServer) -> dict:
    return shell(server, SETUP % (TABLES * 4))


async def drain(socket) -> None:
    try:
        while True:
            await asyncio.wait_for(socket.recv(), timeout=0.02)
    except TimeoutError:
        pass


async def measure_echo(server: DaphneServer) -> tuple[list[float], list[float]]:
    """The same server's floor: a ping answered by its consumer, and a group message (a wave
    on the phone check) reaching four of as many sockets as the night has."""
    sockets = [await open_socket(server, "/ws/check/") for _ in range(TABLES * 4 + 1)]
    echo, fanout = [], []
    for index in range(ECHOES):
        await asyncio.sleep(PACE)
        echo.append(await ping(sockets[0], index))
    readers = [WaveReader(s) for s in sockets]
    for index in range(ECHOES):
        await asyncio.sleep(PACE)
        seen = [r.waves for r in readers[1:5]]
        started = time.perf_counter()
        await sockets[0].send(
            json.dumps(
                {"type": "action", "id": f"wave{index:06d}", "act": {"type": "wave", "name": "Ann"}}
            )
        )
        await asyncio.gather(*(r.more_than(n) for r, n in zip(readers[1:5], seen, strict=True)))
        fanout.append((time.perf_counter() - started) * 1000)
        # Let the other sockets' copies arrive before the next wave.
        await asyncio.gather(*(r.more_than(index) for r in readers[5:]))
    for reader in readers:
        await reader.close()
    return echo, fanout


class WaveReader(SocketReader):
    def __init__(self, socket):
        self.waves = 0
        super().__init__(socket)

    def heard(self, raw: str) -> bool:
        if "waved" not in raw:
            return False
        self.waves += 1
        return True

    async def more_than(self, count: int) -> None:
        await self.until(lambda: self.waves > count)


def test_tap_to_update_latency_with_twelve_tables_of_phones(tmp_path):
    server = DaphneServer(tmp_path, env={"BUNKO_FIXED_SEED": "7", "RATE_LIMITS": "off"})
    server.migrate()
    night = create_night(server)
    server.start()
    try:
        echo, fanout = asyncio.run(measure_echo(server))
        taps = asyncio.run(measure_rolls(server, night))
    finally:
        server.stop()
    print()
    print(f"{TABLES} tables, {TABLES * 4} phones and the big screen connected")
    print(summary_of("bare Channels echo (ping -> pong)", echo))
    print(summary_of(f"bare group message to {TABLES * 4 + 1} sockets", fanout))
    print(summary_of("tap -> 3 phones + big screen updated", taps))
    ratio = statistics.median(taps) / statistics.median(fanout)
    print(f"tap / bare group message, median: {ratio:.1f}x")
    assert statistics.median(taps) < 250


class Reader(SocketReader):
    """Counts a phone's updates: a whole page carries the night's version, a table's own
    update only the table's data-v, so the count of messages heard is what says "something
    new arrived"."""

    def __init__(self, socket):
        self.version = 0  # updates heard
        self.html = ""  # the latest html holding this phone's table
        super().__init__(socket)

    def heard(self, raw: str) -> bool:
        message = json.loads(raw)
        if message.get("type") != "fragments":
            return False
        self.version += 1
        if 'id="table"' in message.get("html", ""):
            self.html = message["html"]
        return True

    async def newer_than(self, version: int) -> float:
        return await self.until(lambda: self.version > version)


async def measure_rolls(server: DaphneServer, night: dict) -> list[float]:
    """The roller of each table in turn taps ROLL; the clock stops when the table's other
    three phones and the big screen have the new version."""
    cookie_name = "seat_" + night["scope"].replace(":", "_")
    path = f"/ws/p/{night['code']}/phone/"
    tables = [
        [Reader(await open_socket(server, path, f"{cookie_name}={token}")) for token in table]
        for table in night["tables"]
    ]
    screen = Reader(await open_socket(server, f"/ws/p/{night['code']}/screen/"))
    for number, phones in enumerate(tables):
        await phones[0].socket.send(
            json.dumps({"type": "action", "id": f"rolloff{number:04d}", "act": {"type": "rolloff"}})
        )
    await asyncio.sleep(2)
    latencies: list[float] = []
    for index in range(TAPS):
        phones = tables[index % TABLES]
        roller = next((p for p in phones if 'value="roll"' in p.html), None)
        if roller is None:
            continue  # this table has finished its game
        observers = [p for p in phones if p is not roller] + [screen]
        heard = {id(o): o.version for o in [*observers, roller]}
        started = time.perf_counter()
        await roller.socket.send(
            json.dumps({"type": "action", "id": f"roll{index:07d}", "act": {"type": "roll"}})
        )
        arrived = await asyncio.wait_for(
            asyncio.gather(*(o.newer_than(heard[id(o)]) for o in observers)), timeout=10
        )
        latencies.append((max(arrived) - started) * 1000)
        await roller.newer_than(heard[id(roller)])
    for reader in [screen, *(p for t in tables for p in t)]:
        await reader.close()
    return latencies


def summary_of(name: str, values: list[float]) -> str:
    return summary(name, values, width=44).removeprefix("  ")
