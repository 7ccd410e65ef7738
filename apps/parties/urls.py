from __future__ import annotations

from django.urls import path

from apps.parties.views import host, player, screen, sheets

urlpatterns = [
    path("join/", player.join, name="join"),
    path("p/", host.my_nights, name="my_nights"),
    path("p/new/", host.new_party, name="party_new"),
    path("p/<code:code>/", player.phone, name="party_phone"),
    path("p/<code:code>/join/", player.party_join, name="party_join"),
    path("p/<code:code>/screen/", screen.screen, name="party_screen"),
    path("p/<code:code>/sheet/", sheets.sheet, name="party_sheet"),
    path("results/<str:token>/", sheets.results, name="party_results"),
    path("p/<code:code>/host/blank-sheets/", sheets.blank_sheets, name="party_blank_sheets"),
    path("p/<code:code>/host/night.csv", sheets.night_csv, name="party_csv"),
    path("p/<code:code>/host/", host.console, name="party_host"),
    path("p/<code:code>/host/correct/", host.correct, name="party_correct"),
    path("p/<code:code>/host/table/", host.host_move, name="party_host_move"),
    path("p/<code:code>/host/player/<int:player_id>/", host.player_menu, name="party_player_menu"),
    path(
        "p/<code:code>/host/table/<int:table_id>/<slug:part>/",
        host.table_part,
        name="party_table_part",
    ),
    path("p/<code:code>/host/<slug:action>/", host.act, name="party_act"),
]
