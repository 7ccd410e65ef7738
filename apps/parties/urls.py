from __future__ import annotations

from django.urls import path

from apps.parties.views import host, player, screen

urlpatterns = [
    path("join/", player.join, name="join"),
    path("p/", host.my_nights, name="my_nights"),
    path("p/new/", host.new_party, name="party_new"),
    path("p/<str:code>/", player.phone, name="party_phone"),
    path("p/<str:code>/join/", player.party_join, name="party_join"),
    path("p/<str:code>/screen/", screen.screen, name="party_screen"),
    path("p/<str:code>/sheet/", screen.sheet, name="party_sheet"),
    path("p/<str:code>/host/", host.console, name="party_host"),
    path("p/<str:code>/host/correct/", host.correct, name="party_correct"),
    path("p/<str:code>/host/table/", host.host_move, name="party_host_move"),
    path("p/<str:code>/host/<slug:action>/", host.act, name="party_act"),
]
