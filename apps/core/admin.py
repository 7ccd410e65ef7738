from __future__ import annotations

from django.contrib import admin

from apps.core.models import Deadline


@admin.register(Deadline)
class DeadlineAdmin(admin.ModelAdmin):
    """Pending timed moves. The payload names a move or a bot's seat, never a hidden card."""

    list_display = ["scope", "key", "due_at"]
    search_fields = ["scope"]
    readonly_fields = ["scope", "key", "due_at", "payload", "created"]
