"""The page of this server a form or a link may send a browser back to."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def local_path(request: HttpRequest, target: object, fallback: str) -> str:
    """``target`` when it is a path on this server ("/c/ABC/?season=2"), else ``fallback``.

    Only a path: a bare word would be taken for a URL name by ``redirect()`` ("logout"), and
    a full address names a host the asker chose. ``url_has_allowed_host_and_scheme`` turns
    away what browsers read as another site ("//evil", "/\\evil", control characters)."""
    if not isinstance(target, str) or not target.startswith("/") or len(target) > 2000:
        return fallback
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return fallback
    return target
