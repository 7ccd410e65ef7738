from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from config.preflight import ServiceUnreachable, check_services


class Command(BaseCommand):
    help = "Check that the database and channel layer configured are reachable."

    def handle(self, *args, **options) -> None:
        try:
            check_services()
        except ServiceUnreachable as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS("Database and channel layer are reachable."))
