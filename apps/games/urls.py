from __future__ import annotations

from django.urls import path

from apps.games import views

app_name = "games"

urlpatterns = [
    path("games/", views.lobby, name="lobby"),
    path("games/new/", views.create, name="create"),
    path("games/join/", views.join, name="join"),
    path("rooms/<code:code>/", views.room, name="room"),
    path("rooms/<code:code>/sit/", views.sit, name="sit"),
    path("rooms/<code:code>/invited/", views.invited, name="invited"),
    path("rooms/<code:code>/screen/", views.screen, name="screen"),
]
