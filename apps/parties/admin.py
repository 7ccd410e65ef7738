"""The admin for party nights. Bunko hides nothing but what is still to come: the night's seed
(it would tell every virtual roll before it is made) is never shown."""

from __future__ import annotations

from django.contrib import admin

from apps.parties.models import Event, Party, Player, SitOut, Table


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "kind", "claimed", "active", "joined_round"]


@admin.register(Party)
class PartyAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "host", "status", "current_round", "version", "created"]
    list_filter = ["status", "dice_mode", "attendance"]
    search_fields = ["code", "name"]
    inlines = [PlayerInline]
    exclude = ["seed"]
    readonly_fields = ["code", "version", "result"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "party", "kind", "claimed", "active"]
    list_filter = ["kind", "active"]
    search_fields = ["name", "party__code"]
    exclude = ["nonce"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["party", "round", "number"]
    list_filter = ["round"]
    # The rules' state is the game's machinery, shown on the night's own pages.
    exclude = ["state"]
    readonly_fields = ["seats", "actions"]


@admin.register(SitOut)
class SitOutAdmin(admin.ModelAdmin):
    list_display = ["party", "round", "player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["party", "version", "kind", "seat", "player", "table", "created"]
    list_filter = ["kind"]
    readonly_fields = ["party", "version", "kind", "seat", "action_id", "data", "table", "player"]
