"""`make run`: check, migrate, make sure a host can sign in, print the address, serve."""

from __future__ import annotations

import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from apps.core.network import is_loopback, join_url, listen_on
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

        # The pages advertise only an address this server answers on.
        listen_on(host)
        self.stdout.write(banner(host, port, qr=not no_qr))
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


def banner(host: str, port: int, *, qr: bool = True) -> str:
    """What the terminal says before serving: where phones join, and when they cannot."""
    url = join_url(host, port)
    ready = f"\nBunko Night is ready at {url}\n"
    here = f"On this laptop: http://localhost:{port}/\n"
    if is_loopback(host):
        # No QR code: a phone that scans it opens nothing.
        return (
            ready + f"It listens on {host} only, so phones cannot join: only a browser on "
            "this laptop reaches it.\n"
            "For phones on the same Wi-Fi, serve on every interface: make run "
            "(or HOST=0.0.0.0 make run).\n" + here
        )
    text = ready + "Phones on the same Wi-Fi: open that address or scan this code.\n" + here
    return text + qr_terminal(url) if qr else text
