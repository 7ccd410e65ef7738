from __future__ import annotations

from django.urls import path

from apps.parties.consumers import PartyConsumer

websocket_urlpatterns = [
    path(
        f"ws/p/<code:code>/{view}/",
        PartyConsumer.as_asgi(),
        {"view": view},
        name=name,
    )
    for view, name in [
        ("phone", "party_socket"),
        ("screen", "party_screen_socket"),
        ("host", "party_host_socket"),
    ]
]
