"""The embedded defaults, and clear messages when a configured service is unreachable."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import connection

from apps.core.network import join_url
from tests.servers import ROOT


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """Run manage.py on the embedded stack, changed only by ``env``."""
    full_env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.skipif("DATABASE_URL" in os.environ, reason="the embedded SQLite stack only")
@pytest.mark.django_db
def test_the_embedded_database_is_sqlite_in_wal_mode_with_immediate_transactions():
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        # The test database lives in memory, where SQLite reports "memory"; the file
        # database of `make run` reports "wal" (checked by the serve test below).
        assert cursor.fetchone()[0] in {"wal", "memory"}
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5


@pytest.mark.skipif("REDIS_URL" in os.environ, reason="the embedded stack only")
def test_the_embedded_channel_layer_is_in_memory():
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("PartyChannelLayer")


@pytest.mark.parametrize(
    ("fast_path", "layers"),
    [
        ("on", ["apps.fastpath.memory_layer.PartyChannelLayer",
                "apps.fastpath.redis_layer.ScaleOutChannelLayer"]),
        ("off", ["channels.layers.InMemoryChannelLayer",
                 "channels_redis.pubsub.RedisPubSubChannelLayer"]),
    ],
)  # fmt: skip
def test_without_the_fast_path_the_server_runs_on_channels_stock_layers(fast_path, layers):
    code = (
        "from django.conf import settings; from config import settings as s; "
        "print(settings.FAST_PATH, settings.CHANNEL_LAYERS['default']['BACKEND'], "
        "s.redis_layer('redis://127.0.0.1:6379/0')['BACKEND'])"
    )
    result = run_manage("shell", "--no-imports", "-c", code, FAST_PATH=fast_path)
    assert result.stdout.split() == [str(fast_path == "on"), *layers], result.stderr


def test_an_unreachable_database_url_names_what_failed_and_how_to_fix_it(tmp_path):
    result = run_manage(
        "preflight",
        DATABASE_URL="postgres://bunko:secret@127.0.0.1:1/bunko",
        BUNKO_DATA_DIR=str(tmp_path),
    )
    assert result.returncode != 0
    assert "Cannot reach the database in DATABASE_URL" in result.stderr
    assert "postgres://bunko:***@127.0.0.1:1/bunko" in result.stderr
    assert "secret" not in result.stderr
    assert "unset DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unreachable_redis_url_names_what_failed_and_how_to_fix_it(tmp_path):
    env = {"REDIS_URL": "redis://127.0.0.1:1/0", "BUNKO_DATA_DIR": str(tmp_path)}
    result = run_manage("preflight", **env)
    assert result.returncode != 0
    assert "Cannot reach Redis in REDIS_URL (redis://127.0.0.1:1/0)" in result.stderr
    assert "unset REDIS_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_migrates_creates_a_host_login_and_says_phones_cannot_reach_loopback(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(BUNKO_DATA_DIR=str(tmp_path), PYTHONUNBUFFERED="1")
    from tests.servers import free_port

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    try:
        for line in process.stdout:
            lines.append(line)
            if line.startswith("On this laptop:"):
                break
    finally:
        process.terminate()
        process.wait(timeout=10)
    output = "".join(lines)
    assert "username: host" in output
    assert f"Bunko Night is ready at http://127.0.0.1:{port}/" in output
    assert "It listens on 127.0.0.1 only, so phones cannot join" in output
    import sqlite3

    mode = sqlite3.connect(tmp_path / "bunko.sqlite3").execute("PRAGMA journal_mode").fetchone()
    assert mode[0] == "wal"


def test_the_join_address_on_all_interfaces_is_a_lan_address_not_localhost():
    url = join_url("0.0.0.0", 8000)
    assert url.startswith("http://") and url.endswith(":8000/")
    assert "0.0.0.0" not in url


def test_the_host_and_port_environment_variables_choose_where_to_serve(monkeypatch):
    from apps.core.management.commands.serve import Command

    monkeypatch.setenv("HOST", "127.0.0.9")
    monkeypatch.setenv("PORT", "9123")
    options = Command().create_parser("manage.py", "serve").parse_args([])
    assert (options.host, options.port) == ("127.0.0.9", 9123)


def test_by_default_serve_listens_on_every_interface_at_port_8000(monkeypatch):
    from apps.core.management.commands.serve import Command

    monkeypatch.delenv("HOST", raising=False)
    monkeypatch.delenv("PORT", raising=False)
    options = Command().create_parser("manage.py", "serve").parse_args([])
    assert (options.host, options.port) == ("0.0.0.0", 8000)


LOOP_OF_DAPHNE = "import daphne.server; print(type(daphne.server.twisted_loop).__module__)"


def test_manage_py_serves_on_uvloops_event_loop():
    # Django imports daphne's server (which makes its loop) as it loads the apps: manage.py
    # chooses the loop before that, for `make run`.
    result = run_manage("shell", "--no-imports", "-c", LOOP_OF_DAPHNE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "uvloop"


def test_the_daphne_command_of_the_scale_out_stack_serves_on_uvloop():
    code = f"import config.server; config.server.use_uvloop(); {LOOP_OF_DAPHNE}"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "uvloop"


def test_choosing_the_loop_after_daphne_made_its_own_is_refused():
    code = "import daphne.server, config.server; config.server.use_uvloop()"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "must run before daphne.server is imported" in result.stderr
