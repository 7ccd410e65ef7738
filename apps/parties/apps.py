from django.apps import AppConfig


class PartiesConfig(AppConfig):
    name = "apps.parties"

    def ready(self) -> None:
        from apps.core import presence
        from apps.core.links import provide_night
        from apps.parties.links import night_link
        from apps.parties.models import Player

        provide_night(night_link)
        presence.register(
            "player", lambda ids, now: Player.objects.filter(pk__in=list(ids)).update(seen_at=now)
        )
