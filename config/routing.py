"""WebSocket routes of every app, gathered in one list."""

from __future__ import annotations

from apps.core.routing import websocket_urlpatterns as core_routes
from apps.games.routing import websocket_urlpatterns as games_routes
from apps.parties.routing import websocket_urlpatterns as parties_routes

websocket_urlpatterns = [*core_routes, *games_routes, *parties_routes]
