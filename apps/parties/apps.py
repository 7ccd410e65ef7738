from django.apps import AppConfig


class PartiesConfig(AppConfig):
    name = "apps.parties"
