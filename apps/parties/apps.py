from django.apps import AppConfig


class PartiesConfig(AppConfig):
    name = "apps.parties"

    def ready(self) -> None:
        from apps.core import presence, scheduler
        from apps.core.links import provide_night
        from apps.parties import caches
        from apps.parties.links import night_link
        from apps.parties.models import Player

        provide_night(night_link)
        presence.register(
            "player", lambda ids, now: Player.objects.filter(pk__in=list(ids)).update(seen_at=now)
        )
        # What no page asked for in ten minutes (a night that ended) leaves this process.
        scheduler.register_sweep(caches.sweep_idle)
