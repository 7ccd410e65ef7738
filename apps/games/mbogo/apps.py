from django.apps import AppConfig


class MbogoConfig(AppConfig):
    """Mbogo's package is an app only so that its templates and static files are found."""

    name = "apps.games.mbogo"
    label = "mbogo"
