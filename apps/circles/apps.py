from django.apps import AppConfig


class CirclesConfig(AppConfig):
    name = "apps.circles"

    def ready(self) -> None:
        from apps.circles import services
        from apps.core import scheduler

        # A substitute who did not answer in time, and the reminder before a night.
        scheduler.register("circle", services.fire_deadline)
