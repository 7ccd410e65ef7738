"""One ASGI application for HTTP and WebSockets, served by daphne."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402

from apps.core import heap, overlong, scheduler, slow_readers  # noqa: E402
from apps.core.security import SameOriginValidator, SocketRouter  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(SocketRouter(websocket_urlpatterns))),
    }
)

# What waits for a socket's reader is bounded (daphne builds its sockets' protocol later).
slow_readers.install()
# A request too long for daphne is answered 414 or 431, not dropped.
overlong.install()

# Timed moves, bots and presence: fired from this process's event loop once daphne runs.
scheduler.start_with_server()
# After the caches' sweeps: what they let go goes back to the system (see apps.core.heap).
scheduler.register_sweep(heap.give_back)

# Last: everything loaded so far lives as long as the server (see apps.core.heap).
heap.settle()
