"""The admin for game rooms. A running game's state holds every hidden card, so the admin
never shows it: only what any player could see (seats, status, the log of moves)."""

from __future__ import annotations

from django.contrib import admin

from apps.games.models import Room, RoomEvent, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["slot", "player", "name", "is_creator", "is_bot", "bot_level", "claimed"]
    readonly_fields = fields
    can_delete = False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ["code", "game", "status", "version", "party_code", "created_at"]
    list_filter = ["game", "status"]
    search_fields = ["code", "party_code"]
    inlines = [SeatInline]
    # Not the state, not the seed: either would reveal the hands of a running game.
    fields = ["code", "game", "options", "status", "version", "party_code"]
    readonly_fields = ["code", "game", "options", "status", "version", "party_code"]


@admin.register(RoomEvent)
class RoomEventAdmin(admin.ModelAdmin):
    list_display = ["room", "version", "kind", "seat", "action_id", "created"]
    list_filter = ["kind"]
    readonly_fields = ["room", "version", "kind", "seat", "action_id", "data", "created"]

    def get_fields(self, request, obj=None):
        # A move may name a card only its player saw (a card passed, a choice made face
        # down): what the moves were is shown once the game is over.
        fields = ["room", "version", "kind", "seat", "action_id", "created"]
        if obj is not None and obj.room.status == Room.Status.FINISHED:
            fields.append("data")
        return fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
