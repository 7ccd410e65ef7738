from __future__ import annotations

from django.urls import path

from apps.parties.consumers import PartyConsumer

websocket_urlpatterns = [
    path("ws/p/<str:code>/phone/", PartyConsumer.as_asgi(), {"view": "phone"}, name="party_socket"),
    path(
        "ws/p/<str:code>/screen/",
        PartyConsumer.as_asgi(),
        {"view": "screen"},
        name="party_screen_socket",
    ),
    path(
        "ws/p/<str:code>/host/", PartyConsumer.as_asgi(), {"view": "host"}, name="party_host_socket"
    ),
]
