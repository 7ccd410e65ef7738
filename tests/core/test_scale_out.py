"""The scale-out stack: several daphne processes share one Redis channel layer."""

from __future__ import annotations

import json
import os
import time

import pytest
from websockets.sync.client import connect

from tests.servers import DaphneServer, fresh_database_url

pytestmark = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (the scale-out stack of .ci/run)"
)


def check_socket(server: DaphneServer):
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/check/",
        origin=f"http://127.0.0.1:{server.port}",
        open_timeout=10,
    )


def say_hello(socket) -> None:
    socket.send(json.dumps({"type": "hello", "since": 0}))
    assert json.loads(socket.recv(timeout=10))["type"] == "fragments"


def test_a_group_message_sent_in_one_daphne_reaches_a_socket_of_another(tmp_path):
    env = {"REDIS_URL": os.environ["REDIS_URL"]}
    if url := fresh_database_url("scale"):
        env["DATABASE_URL"] = url
    first = DaphneServer(tmp_path / "a", env=env)
    second = DaphneServer(tmp_path / "b", env=env)
    for server in (first, second):
        server.data_dir.mkdir()
        server.migrate()
        server.start()
    try:
        with check_socket(first) as ann, check_socket(second) as bea:
            say_hello(ann)
            say_hello(bea)
            ann.send(
                json.dumps(
                    {"type": "action", "id": "scaleout-01", "act": {"type": "wave", "name": "Ann"}}
                )
            )
            # Bea is connected to the other process: only the shared Redis layer can bring it.
            wave = json.loads(bea.recv(timeout=10))
            assert wave["type"] == "fragments"
            assert "Ann waved" in wave["html"]
    finally:
        first.stop()
        second.stop()


def test_sockets_idle_for_thirty_seconds_on_redis_stay_open(tmp_path):
    """No read of the layer may outlast its socket timeout, or every idle phone is cut off
    every few seconds (channels-redis's default layer read for 5 s at a time)."""
    env = {"REDIS_URL": os.environ["REDIS_URL"]}
    if url := fresh_database_url("idle"):
        env["DATABASE_URL"] = url
    server = DaphneServer(tmp_path, env=env)
    server.migrate()
    server.start()
    try:
        with check_socket(server) as phone:
            say_hello(phone)
            time.sleep(30)
            phone.send(json.dumps({"type": "ping", "sent": 1}))
            # (A wave from the other test of this module, on the same Redis, may come first.)
            while (heard := json.loads(phone.recv(timeout=10)))["type"] != "pong":
                assert heard["type"] == "fragments"
        log = server.log.read_text()
        assert "Traceback" not in log and "1011" not in log
    finally:
        server.stop()
