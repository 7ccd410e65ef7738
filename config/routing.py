"""WebSocket routes of every app, gathered in one list.

The module doubles as a URLconf (``urlpatterns``), so socket paths are reversed by name like
any other URL: ``apps.core.live.socket_url("room_socket", code=...)``.
"""

from __future__ import annotations

from apps.core.routing import websocket_urlpatterns as core_routes
from apps.games.routing import websocket_urlpatterns as games_routes
from apps.parties.routing import websocket_urlpatterns as parties_routes

websocket_urlpatterns = [*core_routes, *games_routes, *parties_routes]
urlpatterns = websocket_urlpatterns
