from django.apps import AppConfig


class PartiesConfig(AppConfig):
    name = "apps.parties"

    def ready(self) -> None:
        from apps.core import presence
        from apps.core.links import provide_night
        from apps.parties.links import night_link
        from apps.parties.models import Player
        from apps.parties.services.log import draw_with_table_changes
        from apps.parties.table_parts import drawn_for_the_message

        provide_night(night_link)
        draw_with_table_changes(drawn_for_the_message)
        presence.register(
            "player", lambda ids, now: Player.objects.filter(pk__in=list(ids)).update(seen_at=now)
        )
