from __future__ import annotations

from django.contrib import admin

from apps.core.models import Deadline


def superusers_only(request) -> bool:
    """The admin reads and writes every row, so it is the laptop owner's alone: a host or a
    circle member with a login (even one marked staff) uses the product's own pages."""
    return request.user.is_active and request.user.is_superuser


admin.site.has_permission = superusers_only


@admin.register(Deadline)
class DeadlineAdmin(admin.ModelAdmin):
    """Pending timed moves. The payload names a move or a bot's seat, never a hidden card."""

    list_display = ["scope", "key", "due_at"]
    search_fields = ["scope"]
    readonly_fields = ["scope", "key", "due_at", "payload", "created"]
