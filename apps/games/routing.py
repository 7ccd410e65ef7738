from __future__ import annotations

from django.urls import path

from apps.games.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/rooms/<code:code>/", RoomConsumer.as_asgi(), {"screen": False}, name="room_socket"),
    path(
        "ws/rooms/<code:code>/screen/",
        RoomConsumer.as_asgi(),
        {"screen": True},
        name="room_screen_socket",
    ),
]
