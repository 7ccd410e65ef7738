from __future__ import annotations

from django.urls import path

from apps.core import app_shell, views

urlpatterns = [
    path("", views.home, name="home"),
    path("check/", views.phone_check, name="phone_check"),
    path("qr.svg", views.qr_code, name="qr_code"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("how/<slug:game>/", views.how_to_play, name="how_to_play"),
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service_worker"),
    path("offline/", app_shell.offline, name="offline"),
]
