"""Database connections over a long night: each HTTP request hands its connection back.

Under ASGI every request runs in a context (and a thread) of its own, so the connection it
opens is never used by another request. Kept open for CONN_MAX_AGE, as the embedded stack's
settings keep the sockets' shared connection, each request's connection would stay open
until the garbage collector found it: a burst of 200 page loads left 200 SQLite files open.
Django's own closing at ``request_finished`` runs in another context than the view's and
does not see it, so the request's middleware closes it, where the view opened it. The
sockets' database calls share one thread and its connection, which stays open. On
PostgreSQL the pool (config/settings.py) takes each connection back the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connections
from django.http import HttpRequest, HttpResponse


class CloseConnectionsMiddleware:
    """Closes the request's database connections once its answer is made (a test's
    transaction, which wraps its requests, keeps its own)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            for connection in connections.all(initialized_only=True):
                if not connection.in_atomic_block:
                    connection.close()
