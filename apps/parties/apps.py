from django.apps import AppConfig


class PartiesConfig(AppConfig):
    name = "apps.parties"

    def ready(self) -> None:
        from apps.core.links import provide_night
        from apps.parties.links import night_link

        provide_night(night_link)
