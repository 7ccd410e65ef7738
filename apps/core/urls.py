from __future__ import annotations

from django.urls import path

from apps.core import views

urlpatterns = [
    path("", views.home, name="home"),
    path("check/", views.phone_check, name="phone_check"),
    path("qr.svg", views.qr_code, name="qr_code"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("how/<slug:game>/", views.how_to_play, name="how_to_play"),
]
