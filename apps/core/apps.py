from django.apps import AppConfig
from django.urls import register_converter


class CoreConfig(AppConfig):
    name = "apps.core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from apps.core.converters import CodeConverter

        # Before any URLconf (HTTP or socket routes) is read: they all spell codes <code:...>.
        register_converter(CodeConverter, "code")
