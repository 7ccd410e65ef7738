from django.apps import AppConfig


class PrizesConfig(AppConfig):
    name = "apps.prizes"
    default_auto_field = "django.db.models.BigAutoField"
