"""The servers of one load-bench size: the embedded stack (one daphne, SQLite, in-memory
channel layer) or the scale-out stack (two or more daphne processes, PostgreSQL, Redis); the night
they serve, and what the operating system says each process costs."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import socket
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from unittest import mock
from urllib.parse import urlsplit, urlunsplit

from tests.servers import ROOT, DaphneServer, fresh_database_url, rss_bytes

TICK = os.sysconf("SC_CLK_TCK")
# The last line of a traceback, or a logged error.
ERROR_LINE = re.compile(r"^([a-zA-Z_][\w.]*(Error|Exception|Full)\b|ERROR|CRITICAL)")
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bunko"
DEFAULT_REDIS = "redis://127.0.0.1:6379"


def cpu_seconds(pid: int, children: bool = False) -> float:
    """User + system CPU of a process (with its reaped children's, if asked)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICK


SETUP = """
import json
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import get_user_model
from apps.parties import services
host = get_user_model().objects.create_user("loadhost", password="x")
party = services.create_party(host, name="Load bench", rounds=None)
tokens = {}
for i in range(%(players)d):
    player, token = services.join_party(party.code, new_name=f"Player {i:03d}")
    tokens[player.id] = token
if %(past_rounds)d:
    from tests.bench.late_night import age_night
    age_night(party.code, %(past_rounds)d)
services.start_next_round(party.code)
party.refresh_from_db()
session = import_module(settings.SESSION_ENGINE).SessionStore()
session[SESSION_KEY] = str(host.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = host.get_session_auth_hash()
session.create()
tables = [
    [[pid, tokens[pid]] for pid in t.seats]
    for t in party.tables.filter(round=party.current_round).order_by("number")
]
print(json.dumps({
    "code": party.code, "scope": party.scope, "session": session.session_key, "tables": tables,
}))
"""

SNAPSHOT = """
import json
from apps.parties.models import Party
party = Party.objects.get(code=%(code)r)
tables = list(party.tables.values_list("round", "number", "version", "seats"))
print(json.dumps({
    "version": party.version, "round": party.current_round, "status": party.status,
    "tables": tables,
}))
"""

KEPT_ROWS = """
import json
from django.apps import apps
names = ("parties.Event", "games.RoomEvent", "core.Deadline")
counts = {}
for name in names:
    try:
        counts[name] = apps.get_model(name).objects.count()
    except LookupError:
        pass
print(json.dumps(counts))
"""


@dataclass
class Night:
    code: str
    scope: str
    session: str
    tables: list[list[tuple[int, str]]]  # per table, per seat: (player id, seat token)

    @property
    def cookie_name(self) -> str:
        return "seat_" + self.scope.replace(":", "_")


class Stack:
    """One size's servers: ``start`` them with a fresh night, ``stop`` them in ``finally``."""

    def __init__(
        self,
        data_dir: Path,
        tables: int,
        scale_out: bool,
        processes: int = 0,
        past_rounds: int | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.tables = tables
        self.scale_out = scale_out
        # One daphne on the embedded stack; two (or as asked) on PostgreSQL and Redis.
        self.processes = processes or (2 if scale_out else 1)
        self.servers: list[DaphneServer] = []
        self.database_url: str | None = None
        self.redis_url: str | None = None
        self.night: Night | None = None
        # Rounds played before the bench's own (late_night.py): a tap late in a long night.
        if past_rounds is None:
            past_rounds = int(os.environ.get("BENCH_PAST_ROUNDS", "0"))
        self.past_rounds = past_rounds

    @property
    def label(self) -> str:
        if self.scale_out:
            return f"scale-out: {self.processes} daphne, PostgreSQL, Redis"
        return "embedded: 1 daphne, SQLite, in-memory layer"

    # -- the services -------------------------------------------------------------------------

    @staticmethod
    def scale_out_problem() -> str | None:
        """Why the scale-out stack can't run here, or None."""
        database = urlsplit(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
        redis = urlsplit(os.environ.get("BENCH_REDIS") or DEFAULT_REDIS)
        for name, parts, port in (("PostgreSQL", database, 5432), ("Redis", redis, 6379)):
            try:
                socket.create_connection((parts.hostname, parts.port or port), timeout=3).close()
            except OSError as error:
                return f"{name} is not reachable at {parts.hostname}:{parts.port or port}: {error}"
        return None

    def _scale_out_env(self) -> dict[str, str]:
        base = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
        with mock.patch.dict(os.environ, {"DATABASE_URL": base}):
            self.database_url = fresh_database_url(f"loadbench_{self.tables}")
        # A Redis database of the bench's own (BENCH_REDIS_DB), emptied before and after.
        number = int(os.environ.get("BENCH_REDIS_DB", "13"))
        redis = (os.environ.get("BENCH_REDIS") or DEFAULT_REDIS).rstrip("/")
        self.redis_url = f"{redis}/{number}"
        self._flush_redis()
        return {
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            # Both processes must sign and read the same seat tokens and sessions.
            "SECRET_KEY": secrets.token_urlsafe(50),
        }

    def _flush_redis(self) -> None:
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_timeout=5)
        try:
            client.flushdb()
        finally:
            client.close()

    def start(self) -> Night:
        # Every phone of the bench comes from one address: the per-address limits would count
        # 1,000 phones plus the baselines' sockets as one client.
        env = {"BUNKO_FIXED_SEED": "7", "RATE_LIMITS": "off"}
        if self.scale_out:
            env.update(self._scale_out_env())
        for index in range(self.processes):
            folder = self.data_dir / f"daphne{index}"
            folder.mkdir(parents=True, exist_ok=True)
            server = DaphneServer(folder, env=env)
            if not self.scale_out:
                # The embedded stack whatever this shell's environment holds.
                server.env.pop("DATABASE_URL", None)
                server.env.pop("REDIS_URL", None)
            self.servers.append(server)
        self._python(["migrate", "-v0"])
        out = self._python(
            [
                "shell",
                "--no-imports",
                "-c",
                SETUP % {"players": self.tables * 4, "past_rounds": self.past_rounds},
            ]
        )
        data = json.loads(out.splitlines()[-1])
        self.night = Night(
            data["code"],
            data["scope"],
            data["session"],
            [[(pid, token) for pid, token in table] for table in data["tables"]],
        )
        for server in self.servers:
            server.start()
        return self.night

    def _python(self, args: list[str], timeout: float = 300) -> str:
        """manage.py with the first server's settings, bounded in time; what it printed."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.servers[0].env,
            check=True,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        return result.stdout.strip()

    def stop(self) -> None:
        for server in self.servers:
            try:
                server.stop()
            except Exception as error:  # stop the others whatever happens
                print(f"stopping daphne on port {server.port} failed: {error}")
        if self.redis_url:
            try:
                self._flush_redis()
            except Exception as error:
                print(f"emptying the bench's Redis database failed: {error}")
        if self.database_url:
            try:
                self._drop_database()
            except Exception as error:
                print(f"dropping the bench's database failed: {error}")

    def _drop_database(self) -> None:
        import psycopg

        parts = urlsplit(self.database_url)
        admin = urlunsplit(parts._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')

    # -- what the processes cost --------------------------------------------------------------

    @property
    def pids(self) -> list[int]:
        return [s.process.pid for s in self.servers if s.process]

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def rss(self) -> int:
        return sum(rss_bytes(pid) for pid in self.pids)

    def open_files(self) -> int:
        """File descriptors the servers hold: sockets, the database's files, logs."""
        return sum(len(os.listdir(f"/proc/{pid}/fd")) for pid in self.pids)

    def database_connections(self) -> int:
        """Connections to the night's database: PostgreSQL's backends for it, or the
        servers' open handles on the SQLite file."""
        if self.scale_out:
            import psycopg

            name = urlsplit(self.database_url).path.lstrip("/")
            with psycopg.connect(self.database_url, connect_timeout=5) as conn:
                # Less this reading's own connection.
                query = "SELECT count(*) - 1 FROM pg_stat_activity WHERE datname = %s"
                return conn.execute(query, [name]).fetchone()[0]
        count = 0
        for pid in self.pids:
            folder = f"/proc/{pid}/fd"
            for fd in os.listdir(folder):
                with contextlib.suppress(OSError):
                    if os.readlink(f"{folder}/{fd}").endswith("bunko.sqlite3"):
                        count += 1
        return count

    def stored_bytes(self) -> int:
        """What the night's data takes: PostgreSQL's database, or the SQLite file and its
        journal."""
        if self.scale_out:
            import psycopg

            name = urlsplit(self.database_url).path.lstrip("/")
            with psycopg.connect(self.database_url, connect_timeout=5) as conn:
                return conn.execute("SELECT pg_database_size(%s)", [name]).fetchone()[0]
        folder = self.servers[0].data_dir
        return sum(f.stat().st_size for f in folder.glob("bunko.sqlite3*"))

    def redis_keys(self) -> int | None:
        if not self.redis_url:
            return None
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_timeout=5)
        try:
            return client.dbsize()
        finally:
            client.close()

    def kept_rows(self) -> dict[str, int]:
        """Rows of the tables a night appends to: its event logs and the scheduler's deadlines."""
        return json.loads(self._python(["shell", "--no-imports", "-c", KEPT_ROWS]).splitlines()[-1])

    def services_cpu(self) -> float | None:
        """PostgreSQL (the postmaster and its exited backends) and Redis, whole servers:
        other clients of the same services count too."""
        if not self.scale_out:
            return None
        import psycopg
        import redis

        with psycopg.connect(self.database_url, connect_timeout=5) as conn:
            backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
            # Read while the backend lives: its parent is the postmaster.
            with open(f"/proc/{backend}/stat") as stat:
                postmaster = int(stat.read().rsplit(")", 1)[1].split()[1])
        total = cpu_seconds(postmaster, children=True)
        client = redis.Redis.from_url(self.redis_url, socket_timeout=5)
        try:
            info = client.info("cpu")
        finally:
            client.close()
        return total + float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    # -- what the database says, what the logs say --------------------------------------------

    def snapshot(self) -> dict:
        out = self._python(["shell", "--no-imports", "-c", SNAPSHOT % {"code": self.night.code}])
        return json.loads(out.splitlines()[-1])

    def log_problems(self) -> tuple[Counter, str]:
        """What went wrong in the servers' logs: each error's last line, counted, and the
        first traceback in full."""
        counted: Counter = Counter()
        first = ""
        for server in self.servers:
            if not server.log.exists():
                continue
            lines = server.log.read_text(errors="replace").splitlines()
            start = None
            for index, line in enumerate(lines):
                if start is None and line.startswith("Traceback"):
                    start = index
                if ERROR_LINE.match(line) and not chained(lines, index):
                    counted[f"[daphne :{server.port}] {line[:160]}"] += 1
                    if not first and start is not None:
                        first = f"[daphne :{server.port}]\n" + "\n".join(lines[start : index + 1])
                    start = None
        return counted, first


def chained(lines: list[str], index: int) -> bool:
    """Whether the error at ``index`` is followed by another in the same traceback."""
    rest = (line for line in lines[index + 1 : index + 4] if line.strip())
    following = next(rest, "")
    return following.startswith(("The above exception", "During handling"))
