from __future__ import annotations

from django.urls import path

from apps.core.consumers import PhoneCheckConsumer

websocket_urlpatterns = [
    path("ws/check/", PhoneCheckConsumer.as_asgi(), name="check_socket"),
]
