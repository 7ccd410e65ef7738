from __future__ import annotations

from django.urls import path

from apps.parties.views import host, player, screen, sheets

urlpatterns = [
    path("join/", player.join, name="join"),
    path("p/", host.my_nights, name="my_nights"),
    path("p/new/", host.new_party, name="party_new"),
    path("p/<str:code>/", player.phone, name="party_phone"),
    path("p/<str:code>/join/", player.party_join, name="party_join"),
    path("p/<str:code>/screen/", screen.screen, name="party_screen"),
    path("p/<str:code>/sheet/", sheets.sheet, name="party_sheet"),
    path("results/<str:token>/", sheets.results, name="party_results"),
    path("p/<str:code>/host/blank-sheets/", sheets.blank_sheets, name="party_blank_sheets"),
    path("p/<str:code>/host/night.csv", sheets.night_csv, name="party_csv"),
    path("p/<str:code>/host/", host.console, name="party_host"),
    path("p/<str:code>/host/correct/", host.correct, name="party_correct"),
    path("p/<str:code>/host/table/", host.host_move, name="party_host_move"),
    path("p/<str:code>/host/player/<int:player_id>/", host.player_menu, name="party_player_menu"),
    path(
        "p/<str:code>/host/table/<int:table_id>/<slug:part>/",
        host.table_part,
        name="party_table_part",
    ),
    path("p/<str:code>/host/<slug:action>/", host.act, name="party_act"),
]
