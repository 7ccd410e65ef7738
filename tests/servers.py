"""Real daphne processes for the tests that need a real server (browser, scale-out)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fresh_database_url(suffix: str) -> str | None:
    """On the PostgreSQL stack, a new empty database for a server process of its own."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return None
    import psycopg

    parts = urlsplit(url)
    # Each pytest-xdist worker gets databases of its own ("gw0", "gw1"; "" without xdist).
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    name = f"{parts.path.lstrip('/') or 'bunko'}_{suffix}{worker}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def rss_bytes(pid: int) -> int:
    """The resident memory of a process, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class DaphneServer:
    """One daphne process serving config.asgi on 127.0.0.1, with its own data folder. In
    ``env``, a variable given as None is taken out of the environment the server inherits."""

    def __init__(self, data_dir: Path, env: dict[str, str | None] | None = None, port: int = 0):
        self.data_dir = data_dir
        self.port = port or free_port()
        merged = {**os.environ, "BUNKO_DATA_DIR": str(data_dir), **(env or {})}
        self.env = {key: value for key, value in merged.items() if value is not None}
        self.process: subprocess.Popen | None = None
        self.log = data_dir / f"daphne-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def migrate(self) -> None:
        """Set the server up as `make run` does: the database, then the static files."""
        for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run(
                [sys.executable, "manage.py", *command], cwd=ROOT, env=self.env, check=True
            )

    def manage(self, *args: str, **env: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env={**self.env, **env},
            check=True,
            capture_output=True,
        )

    def python(self, code: str) -> str:
        """Run Python in a Django shell of this server's settings; what it printed."""
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return result.stdout.strip()

    def kill(self) -> None:
        """kill -9: no clean shutdown, sockets and timers die with the process."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def start(self) -> DaphneServer:
        log = self.log.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.server",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited early:\n{self.log.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"daphne did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


class LiveSocket:
    """A phone's live socket to a real server, in the envelope of apps/core/live.py. It keeps
    the last version it saw and the taps the server acknowledged, so it can drop, open again
    (on the same server or another) and say where it was."""

    def __init__(self, path: str, cookie: str = ""):
        self.path = path
        self.cookie = cookie
        self.version = -1
        self.acked: list[str] = []
        self.html = ""  # the last fragments it got
        self.socket = None
        self.name = os.urandom(4).hex()  # action ids unique to this phone
        self.taps = 0

    def open(self, server: DaphneServer, timeout: float = 10) -> dict:
        """Connect and say hello with the last version seen; the catch-up it got."""
        from websockets.sync.client import connect

        self.close()
        self.server = server
        self.socket = connect(
            f"ws://127.0.0.1:{server.port}{self.path}",
            origin=server.url,
            additional_headers={"Cookie": self.cookie} if self.cookie else None,
            open_timeout=timeout,
            close_timeout=1,
        ).__enter__()
        self.socket.send(json.dumps({"type": "hello", "since": self.version}))
        return self.next("fragments", timeout)

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()
            self.socket = None

    def next(self, kind: str, timeout: float = 10) -> dict:
        """The next message of this kind (others are read past)."""
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] == "fragments":
                self.html = message["html"]
            if isinstance(message.get("version"), int):
                self.version = max(self.version, message["version"])
            if kind in (message["type"], "*"):
                return message

    def tap(self, act: dict, action_id: str | None = None, timeout: float = 10) -> dict:
        """Send a move; its ack or its error."""
        self.taps += 1
        action_id = action_id or f"tap-{self.name}-{self.taps:05d}"
        self.socket.send(json.dumps({"type": "action", "id": action_id, "act": act}))
        deadline = time.monotonic() + timeout
        while True:
            message = self.next("*", max(0.01, deadline - time.monotonic()))
            if message["type"] in ("ack", "error") and message.get("id") == action_id:
                if message["type"] == "ack":
                    self.acked.append(action_id)
                return message


class RedisServer:
    """A Redis of the test's own, to stop and start (never the shared one)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        command = ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen([*command, "--daemonize", "no"], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
