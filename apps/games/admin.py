from __future__ import annotations

from django.contrib import admin

from apps.games.models import Action, Room, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    exclude = ["nonce"]


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ["code", "game", "status", "version", "party_code", "created_at"]
    list_filter = ["game", "status"]
    search_fields = ["code", "party_code"]
    inlines = [SeatInline]
    # The state holds every hidden card: the admin is for hosts debugging, not for players.
    readonly_fields = ["seed", "version", "state"]


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ["room", "version", "kind", "player", "action_id", "created_at"]
    list_filter = ["kind"]
