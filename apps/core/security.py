"""WebSocket origin check that works for a laptop reached by any LAN address tonight."""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.routing import URLRouter
from django.conf import settings
from django.http.request import split_domain_port, validate_host


class SameOriginValidator:
    """Refuse sockets opened by pages of other sites.

    A deployment may set ALLOWED_HOSTS to "*", which would let any web page a guest visits
    open a socket to the laptop with the guest's cookies. So the Origin must name the very
    host the socket was opened to, and that host must be allowed by ALLOWED_HOSTS.
    """

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin", b"").decode("latin1")
        host = headers.get(b"host", b"").decode("latin1")
        # Read at every socket: the laptop's addresses change with the Wi-Fi.
        allowed = settings.ALLOWED_HOSTS
        if not origin:
            # Browsers always send Origin; a client without one is not a page of another site.
            if "*" in allowed:
                return await self.application(scope, receive, send)
            return await self.deny(receive, send)
        if not host or urlsplit(origin).netloc.lower() != host.lower():
            return await self.deny(receive, send)
        domain, _ = split_domain_port(host)
        if not domain or not validate_host(domain, allowed):
            return await self.deny(receive, send)
        return await self.application(scope, receive, send)

    async def deny(self, receive, send):
        message = await receive()
        assert message["type"] == "websocket.connect"
        await send({"type": "websocket.close", "code": 4403})


class SocketRouter(URLRouter):
    """Channels' URL router, but a socket to a path nobody serves is closed with 4404
    instead of ending in a server error."""

    async def __call__(self, scope, receive, send):
        path = scope.get("path_remaining", scope.get("path", "")).lstrip("/")
        if not any(route.pattern.match(path) for route in self.routes):
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 4404})
            return None
        return await super().__call__(scope, receive, send)
