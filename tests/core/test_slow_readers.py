"""Sockets that send but never read, against a real daphne: what they are sent cannot pile up
in the server's memory, and they are closed."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
import time

import pytest
import websockets

from apps.core import live, pace
from tests.servers import DaphneServer, LiveSocket, rss_bytes

SETUP = """
from django.contrib.auth import get_user_model
from apps.parties import services
host = get_user_model().objects.create_user("readers", password="x")
code = services.create_party(host, name="Readers", rounds=2).code
for number in range(100):  # 25 tables: the big screen's page is some 20 kB
    services.join_party(code, new_name=f"Player {number}")
services.start_next_round(code)
print(code)
"""
# The bound on what may wait for one reader, small for this test: Twisted stops reading from
# a socket once 64 kB wait for it, so a flood of questions is read in batches.
BACKLOG = 32 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # The embedded stack on both runs: what is measured is daphne's own memory.
    env = {"SOCKET_SEND_BACKLOG": str(BACKLOG), "DATABASE_URL": None, "REDIS_URL": None}
    daphne = DaphneServer(tmp_path_factory.mktemp("readers"), env=env)
    daphne.migrate()
    daphne.code = daphne.python(SETUP).splitlines()[-1]
    daphne.start()
    yield daphne
    daphne.stop()


def rss_mb(server: DaphneServer) -> float:
    return rss_bytes(server.process.pid) / 2**20


class NonReader:
    """A WebSocket client that sends and never reads (a script, or a page frozen in a tab),
    with a small receive buffer so the server's side fills quickly."""

    def __init__(self, server: DaphneServer, path: str):
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.socket.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Origin: {server.url}\r\n\r\n"
            ).encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.socket.recv(1)  # the handshake only, byte by byte
        assert answer.startswith(b"HTTP/1.1 101"), answer
        self.closed = False

    def send(self, text: str) -> None:
        """Send one text frame; a server that has cut the socket off makes it closed."""
        if self.closed:
            return
        payload = text.encode()
        mask = os.urandom(4)
        if len(payload) < 126:
            header = struct.pack("!BB", 0x81, 0x80 | len(payload))
        else:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        try:
            self.socket.settimeout(0.5)
            self.socket.sendall(header + mask + masked)
        except TimeoutError:
            pass  # the server reads no more of it for now
        except OSError:
            self.closed = True  # reset: cut off

    def ended(self, timeout: float = 5) -> bool:
        """Whether the server has ended the connection: reading what it holds meets the end
        (or a reset) within ``timeout``, not a socket that goes on."""
        self.socket.settimeout(timeout)
        try:
            while self.socket.recv(65536):
                pass
        except TimeoutError:
            return self.closed
        except OSError:
            pass
        self.closed = True
        return True

    def close(self) -> None:
        self.socket.close()


def flood(sockets: list[NonReader], message: str, every: float, seconds: float) -> float:
    """Send ``message`` on every socket every ``every`` seconds until all are closed or the
    time is up; how long it took."""
    start = time.monotonic()
    while time.monotonic() - start < seconds and not all(s.closed for s in sockets):
        for s in sockets:
            s.send(message)
        time.sleep(every)
    return time.monotonic() - start


async def test_sockets_flooding_hellos_without_reading_are_closed_and_leave_memory_as_it_was(
    server,
):
    # As a script would: a library's sockets, sending every 50 ms and never asking for what
    # came (the library stops reading once a few messages wait).
    path = f"/ws/p/{server.code}/screen/"
    drawn = LiveSocket(path)
    assert drawn.open(server)["type"] == "fragments"  # the screen drawn once
    drawn.close()
    before = rss_mb(server)
    flooders = [
        await websockets.connect(f"ws://127.0.0.1:{server.port}{path}", origin=server.url)
        for _ in range(6)
    ]
    hello = json.dumps({"type": "hello", "since": -1})
    deadline = time.monotonic() + 25
    while time.monotonic() < deadline and any(ws.close_code is None for ws in flooders):
        for ws in flooders:
            with contextlib.suppress(websockets.ConnectionClosed, TimeoutError):
                await asyncio.wait_for(ws.send(hello), 0.5)
        await asyncio.sleep(0.05)
    await asyncio.sleep(1)
    after = rss_mb(server)
    codes = [ws.close_code for ws in flooders]
    for ws in flooders:
        await ws.close()
    assert after - before < 20, (before, after)
    assert codes == [live.FLOODING] * len(flooders)
    # The night's screen opens as before.
    assert drawn.open(server)["type"] == "fragments"
    drawn.close()


def test_a_reader_that_falls_behind_is_closed_and_its_backlog_let_go(server):
    # A pong says back what the ping sent: each answer is as big as its question, so a
    # socket that asks at a phone's pace and never reads falls behind quickly.
    ping = '{"type":"ping","sent":"' + "x" * 15_000 + '"}'
    reader = NonReader(server, "/ws/check/")
    before = rss_mb(server)
    # At the pace's rate: the kernel's buffers on both sides take some megabytes first.
    took = flood([reader], ping, every=1.1 / pace.RATE, seconds=60)
    print(f"closed after {took:.1f} s")
    time.sleep(2)  # a second for the close to be answered, then it is cut off
    after = rss_mb(server)
    assert reader.ended(), f"still open after {took:.0f} s"
    reader.close()
    assert after - before < 20, (before, after)
    assert "fell behind" in server.log.read_text()
