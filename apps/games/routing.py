from __future__ import annotations

from django.urls import path

from apps.games.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
]
