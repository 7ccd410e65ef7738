from django.apps import AppConfig


class PartiesConfig(AppConfig):
    name = "apps.parties"

    def ready(self) -> None:
        from apps.core import presence, scheduler
        from apps.core.links import provide_night
        from apps.parties import caches, sent_parts
        from apps.parties.links import night_link
        from apps.parties.models import Player
        from apps.parties.services.log import draw_with

        provide_night(night_link)
        draw_with("live.table", sent_parts.drawn_for_a_table)
        draw_with("live.night", sent_parts.drawn_for_the_night)
        presence.register(
            "player", lambda ids, now: Player.objects.filter(pk__in=list(ids)).update(seen_at=now)
        )
        # What no page asked for in ten minutes (a night that ended) leaves this process.
        scheduler.register_sweep(caches.sweep_idle)
