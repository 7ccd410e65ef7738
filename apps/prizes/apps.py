from django.apps import AppConfig


class PrizesConfig(AppConfig):
    name = "apps.prizes"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from apps.core import scheduler
        from apps.parties import awards
        from apps.prizes.render import CeremonyScreens
        from apps.prizes.services import ceremonies

        scheduler.register("awards", ceremonies.fire_deadline)
        awards.provide(CeremonyScreens())
