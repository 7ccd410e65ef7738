from django.apps import AppConfig


class BonjeConfig(AppConfig):
    """Bonje in de Stal's package is an app only so that its templates and static files are
    found."""

    name = "apps.games.bonje"
    label = "bonje"
