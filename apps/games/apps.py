from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "apps.games"

    def ready(self) -> None:
        from apps.core import links, presence, scheduler
        from apps.games import links as room_links
        from apps.games import services

        links.provide_rooms(room_links.rooms_of_night)
        links.provide_invitations(room_links.invitations_for)
        links.on_round_started(services.seated_at_the_night)
        scheduler.register("room", services.fire_deadline)
        scheduler.register("seat", services.fire_unopened)
        scheduler.register_sweep(services.take_over_everywhere)
        presence.register("seat", services.stamp_seats)
