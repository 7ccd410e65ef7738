"""Channel-layer group names, made in one place.

One group per night (night-wide moments), per table of a night, per game room, and per seat
for what only that seat may see (DESIGN.md's groups).
"""

from __future__ import annotations


def night(code: str) -> str:
    return f"party-{code}"


def night_screens(code: str) -> str:
    return f"party-{code}-screens"


def night_table(code: str, round_number: int, number: int) -> str:
    return f"party-{code}-r{round_number}-t{number}"


def room(code: str) -> str:
    return f"room-{code}"


def seat(scope: str, seat_id: int) -> str:
    return f"seat-{scope.replace(':', '-')}-{seat_id}"
