"""`make run`: check, migrate, make sure a host can sign in, print the address, serve."""

from __future__ import annotations

import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from apps.core.network import join_url
from apps.core.qr import qr_terminal
from config.preflight import ServiceUnreachable, check_services


class Command(BaseCommand):
    help = "Serve Bunko Night with daphne on HOST:PORT (default 0.0.0.0:8000)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--no-qr", action="store_true", help="Don't draw the QR code.")

    def handle(self, *args, host: str, port: int, no_qr: bool, **options) -> None:
        try:
            check_services()
        except ServiceUnreachable as error:
            raise CommandError(str(error)) from None
        call_command("migrate", interactive=False, verbosity=0)
        # Compressed, content-named copies the phones may keep for a year.
        call_command("collectstatic", interactive=False, verbosity=0)
        self.ensure_host()

        url = join_url(host, port)
        self.stdout.write(self.style.SUCCESS(f"\nBunko Night is ready at {url}"))
        self.stdout.write(
            "Phones on the same Wi-Fi: open that address or scan this code.\n"
            f"On this laptop: http://localhost:{port}/\n"
        )
        if not no_qr:
            self.stdout.write(qr_terminal(url))
        self.stdout.flush()

        from daphne.cli import CommandLineInterface

        CommandLineInterface().run(["-b", host, "-p", str(port), "config.asgi:application"])

    def ensure_host(self) -> None:
        """A fresh install gets one host login, printed once."""
        User = get_user_model()
        if User.objects.exists():
            return
        password = secrets.token_urlsafe(9)
        User.objects.create_superuser("host", password=password)
        self.stdout.write(
            self.style.WARNING(
                "\nA host login was created for this laptop:\n"
                f"  username: host\n  password: {password}\n"
                "Sign in at /signin/. Change it with:\n"
                "  .venv/bin/python manage.py changepassword host"
            )
        )
