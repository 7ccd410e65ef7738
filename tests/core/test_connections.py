"""A long night does not wear out the database's connections: thousands of page loads and
socket sessions, and a burst of page loads at once, on a real daphne of whichever stack the
suite runs. On PostgreSQL the connections stay within the pool's bound; on SQLite the open
files stay flat."""

from __future__ import annotations

import os
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from tests.servers import DaphneServer, LiveSocket, fresh_database_url

POOL = 5  # a small pool, so a bound that did not hold would show at once

SETUP = """
from django.contrib.auth import get_user_model
from apps.parties import services
host = get_user_model().objects.create_user("connections", password="x")
print(services.create_party(host, name="Connections", rounds=2).code)
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = {"RATE_LIMITS": "off", "DATABASE_POOL_SIZE": str(POOL)}
    if url := fresh_database_url("connections"):
        env["DATABASE_URL"] = url
    daphne = DaphneServer(tmp_path_factory.mktemp("connections"), env=env)
    daphne.migrate()
    daphne.code = daphne.python(SETUP).splitlines()[-1]
    daphne.start()
    yield daphne
    daphne.stop()


def held(server: DaphneServer) -> int:
    """Connections the server holds to its database: PostgreSQL's backends for it, or its
    open handles on the SQLite file."""
    url = server.env.get("DATABASE_URL")
    if url:
        import psycopg

        with psycopg.connect(url) as conn:
            query = "SELECT count(*) - 1 FROM pg_stat_activity WHERE datname = %s"
            return conn.execute(query, [urlsplit(url).path.lstrip("/")]).fetchone()[0]
    folder = f"/proc/{server.process.pid}/fd"
    return sum(1 for fd in os.listdir(folder) if _target(f"{folder}/{fd}").endswith(".sqlite3"))


def open_files(server: DaphneServer) -> int:
    return len(os.listdir(f"/proc/{server.process.pid}/fd"))


def _target(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""


def load(server: DaphneServer, path: str) -> int:
    with urllib.request.urlopen(f"{server.url}{path}", timeout=60) as response:
        response.read()
        return response.status


def settled(server: DaphneServer, most: int, seconds: float = 10) -> int:
    """What the server holds once its answered requests are finished: a request lets go of
    its connection a moment after its answer is sent."""
    deadline = time.monotonic() + seconds
    while (now := held(server)) > most and time.monotonic() < deadline:
        time.sleep(0.1)
    return now


def bound(server: DaphneServer) -> int:
    # SQLite: the sockets' shared connection and a request's, each a handle on the file.
    return POOL if server.env.get("DATABASE_URL") else 3


def test_thousands_of_page_loads_and_socket_sessions_hold_a_bounded_number_of_connections(
    server,
):
    pages = [f"/join/?code={server.code}", f"/p/{server.code}/screen/"]
    files_before = open_files(server)
    most = 0
    for i in range(2000):
        assert load(server, pages[i % 2]) == 200
        if i % 100 == 0:
            most = max(most, held(server))
    for _ in range(150):
        screen = LiveSocket(f"/ws/p/{server.code}/screen/")
        assert screen.open(server)["type"] == "fragments"
        screen.close()
    most = max(most, held(server))
    assert most <= bound(server)
    # Sockets closing take a moment to be let go of.
    assert open_files(server) <= files_before + 15


def test_a_burst_of_200_page_loads_at_once_waits_for_a_connection_instead_of_failing(server):
    # On SQLite a burst's closed connections keep their files until the garbage collector
    # frees the last of their statements (docs/architecture.md); only PostgreSQL's pool
    # bounds them at once.
    path = f"/join/?code={server.code}"
    with ThreadPoolExecutor(max_workers=200) as pool:
        answers = list(pool.map(lambda _: load(server, path), range(200)))
    assert answers == [200] * 200
    if server.env.get("DATABASE_URL"):
        assert settled(server, bound(server)) <= bound(server)
