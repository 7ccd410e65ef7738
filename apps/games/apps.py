from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "apps.games"

    def ready(self) -> None:
        from apps.core import presence, scheduler
        from apps.games import services

        scheduler.register("room", services.fire_deadline)
        scheduler.register_sweep(services.take_over_everywhere)
        presence.register("seat", services.stamp_seats)
