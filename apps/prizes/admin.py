from __future__ import annotations

from django.contrib import admin

from apps.prizes.models import Award, PrizeCategory


@admin.register(PrizeCategory)
class PrizeCategoryAdmin(admin.ModelAdmin):
    list_display = ["party", "position", "kind", "name", "prize"]
    list_filter = ["kind"]


@admin.register(Award)
class AwardAdmin(admin.ModelAdmin):
    list_display = ["party", "position", "name", "player", "runner_up_of"]
