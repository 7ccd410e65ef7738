"""Check the configured services before serving, and say plainly what is wrong."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit


class ServiceUnreachable(Exception):
    """A configured service can't be reached; the message says what failed and the fix."""


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return parts._replace(netloc=netloc).geturl()
    return url


def check_database(timeout: int = 5) -> None:
    from django.db import connection

    url = os.environ.get("DATABASE_URL")
    try:
        if connection.vendor == "postgresql":
            # One connection of its own, not the pool's: the pool would wait its whole
            # DATABASE_POOL_WAIT for a server that refused at once.
            import psycopg

            params = connection.get_connection_params()
            with psycopg.connect(**params, connect_timeout=timeout):
                pass
        else:
            connection.ensure_connection()
    except Exception as error:  # every driver raises its own kind
        if url:
            raise ServiceUnreachable(
                f"Cannot reach the database in DATABASE_URL ({_redact(url)}): "
                f"{' '.join(str(error).split())}\n"
                "Start PostgreSQL, create the database, or correct DATABASE_URL; "
                "or unset DATABASE_URL to use the built-in SQLite database."
            ) from error
        raise ServiceUnreachable(
            f"Cannot open the built-in SQLite database: {error}\n"
            "Check that the data folder (BUNKO_DATA_DIR, default .data/) is writable."
        ) from error


def check_redis(timeout: float = 3.0) -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    parts = urlsplit(url)
    host, port = parts.hostname or "localhost", parts.port or 6379
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.sendall(b"PING\r\n")
            reply = conn.recv(64)
    except OSError as error:
        raise ServiceUnreachable(
            f"Cannot reach Redis in REDIS_URL ({_redact(url)}): {error.strerror or error}\n"
            "Start Redis or correct REDIS_URL, or unset REDIS_URL to use the built-in "
            "in-memory channel layer (one server process only)."
        ) from error
    if not reply.startswith((b"+PONG", b"-NOAUTH")):
        raise ServiceUnreachable(
            f"REDIS_URL ({_redact(url)}) answered, but not like Redis: {reply[:40]!r}\n"
            "Point REDIS_URL at a Redis server, or unset it."
        )


def check_services() -> None:
    check_database()
    check_redis()
