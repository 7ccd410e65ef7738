from __future__ import annotations

from django.urls import path

from apps.parties.consumers import PartyConsumer

websocket_urlpatterns = [
    path("ws/p/<str:code>/<str:view>/", PartyConsumer.as_asgi()),
]
