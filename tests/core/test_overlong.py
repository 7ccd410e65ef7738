"""A request too long for the server (a 100 kB address, headers past their bound) gets a
short page that says so, 414 or 431, on a real daphne: never a dropped connection."""

from __future__ import annotations

import socket
import time

import pytest

from tests.servers import DaphneServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    daphne = DaphneServer(tmp_path_factory.mktemp("overlong"), env={"RATE_LIMITS": "off"})
    daphne.migrate()
    daphne.start()
    yield daphne
    daphne.stop()


def ask(server: DaphneServer, request: bytes) -> bytes:
    """Send ``request`` whole and read the answer to its end (b"" for a dropped connection)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


def get(path: bytes, headers: bytes = b"") -> bytes:
    if b"Connection:" not in headers:
        headers += b"Connection: close\r\n"
    return b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + b"\r\n"


def status(answer: bytes) -> int:
    assert answer, "the connection was dropped"
    return int(answer.split(b" ", 2)[1])


def test_a_100_kb_address_is_answered_414_with_a_short_page(server):
    answer = ask(server, get(b"/" + b"a" * 100_000))
    assert status(answer) == 414
    head, page = answer.split(b"\r\n\r\n", 1)
    assert b"Content-Type: text/html" in head and b"Connection: close" in head
    assert b"too long" in page and len(page) < 2000


def test_a_socket_opened_at_a_100_kb_address_is_answered_414(server):
    upgrade = b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    assert status(ask(server, get(b"/ws/check/?" + b"a" * 100_000, upgrade))) == 414


@pytest.mark.parametrize(
    "headers",
    [
        b"Cookie: " + b"b" * 100_000 + b"\r\n",  # one header past the bound
        b"".join(b"X-Note-%d: %s\r\n" % (i, b"c" * 1000) for i in range(40)),  # 40 kB of them
    ],
    ids=["one-long-header", "many-headers"],
)
def test_headers_past_their_bound_are_answered_431(server, headers):
    answer = ask(server, get(b"/", headers))
    assert status(answer) == 431 and b"too long" in answer.split(b"\r\n\r\n", 1)[1]


def test_an_address_within_the_bound_is_served_as_ever(server):
    assert status(ask(server, get(b"/" + b"a" * 8000))) == 404
    answer = ask(server, get(b"/", b"Cookie: " + b"d" * 8000 + b"\r\n"))
    assert status(answer) == 200


def test_the_refusals_leave_no_error_in_the_servers_log(server):
    ask(server, get(b"/" + b"a" * 100_000))
    ask(server, get(b"/", b"Cookie: " + b"b" * 20_000 + b"\r\n"))
    time.sleep(0.5)
    said = server.log.read_text()
    assert "Traceback" not in said and "ERROR" not in said, said[-3000:]
    assert said.count("a request too long for the server answered") >= 2
