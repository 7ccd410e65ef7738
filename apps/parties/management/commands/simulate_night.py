"""python manage.py simulate_night --players 12 --rounds 6 --seed 7 [--json] [--ghosts |
--sitouts] [--classic] [--prizes default|none]"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.parties.rules.simulator import PRIZES, format_night, simulate_night


class Command(BaseCommand):
    help = "Play a whole Bunko night with a seeded rng and print it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=12)
        parser.add_argument("--rounds", type=int, default=6)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print the night as JSON")
        attendance = parser.add_mutually_exclusive_group()
        attendance.add_argument("--ghosts", action="store_true", help="fill tables with ghosts")
        attendance.add_argument("--sitouts", action="store_true", help="players rest in turn")
        parser.add_argument("--classic", action="store_true", help="classic Bunco scoring")
        parser.add_argument(
            "--prizes",
            choices=PRIZES,
            default="default",
            help="settle the seven default prize categories (default), or none",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        attendance = "sitouts" if options["sitouts"] else "ghosts"
        try:
            night = simulate_night(
                options["players"],
                options["rounds"],
                options["seed"],
                attendance=attendance,
                classic=options["classic"],
                prizes=options["prizes"],
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        if options["json"]:
            self.stdout.write(json.dumps(night))
        else:
            self.stdout.write(format_night(night))
