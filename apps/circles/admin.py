"""The admin for circles: every model of the app, for whoever runs the laptop."""

from __future__ import annotations

from django.contrib import admin

from apps.circles.models import (
    Activity,
    Circle,
    Hosting,
    Member,
    Month,
    NightSeat,
    Rsvp,
    Season,
    SubstituteAsk,
    SwapRequest,
)


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    fields = ["name", "kind", "position", "email", "active"]


class HostingInline(admin.TabularInline):
    model = Hosting
    extra = 0


@admin.register(Circle)
class CircleAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "admin", "timezone", "created"]
    search_fields = ["name", "code"]
    readonly_fields = ["code", "invite_nonce", "feed_nonce"]
    inlines = [MemberInline]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["name", "circle", "kind", "position", "email", "user", "active"]
    list_filter = ["kind", "active", "circle"]
    search_fields = ["name", "email"]
    exclude = ["nonce"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["circle", "start", "planned_at"]
    list_filter = ["circle"]


@admin.register(Month)
class MonthAdmin(admin.ModelAdmin):
    list_display = ["__str__", "date", "time", "place", "party", "fill"]
    list_filter = ["season__circle", "fill"]
    inlines = [HostingInline]


@admin.register(Hosting)
class HostingAdmin(admin.ModelAdmin):
    list_display = ["month", "member", "position"]


@admin.register(Rsvp)
class RsvpAdmin(admin.ModelAdmin):
    list_display = ["month", "member", "answer", "updated"]
    list_filter = ["answer"]


@admin.register(SubstituteAsk)
class SubstituteAskAdmin(admin.ModelAdmin):
    list_display = ["month", "member", "status", "asked_at", "due_at", "answered_at"]
    list_filter = ["status"]
    exclude = ["nonce"]


@admin.register(SwapRequest)
class SwapRequestAdmin(admin.ModelAdmin):
    list_display = ["from_month", "from_member", "to_month", "to_member", "status", "created"]
    list_filter = ["status"]


@admin.register(NightSeat)
class NightSeatAdmin(admin.ModelAdmin):
    list_display = ["month", "member", "player"]


@admin.register(Activity)
class ActivityAdmin(admin.ModelAdmin):
    list_display = ["created", "circle", "month", "__str__"]
    list_filter = ["circle"]
