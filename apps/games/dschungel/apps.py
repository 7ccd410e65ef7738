from django.apps import AppConfig


class DschungelConfig(AppConfig):
    """Dschungelparty's package is an app only so that its templates and static files are
    found."""

    name = "apps.games.dschungel"
    label = "dschungel"
