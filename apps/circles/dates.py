"""Dates of a season (pure: no Django imports)."""

from __future__ import annotations

import calendar
from datetime import date

LAST = 5  # the circle's week "last" (the fifth week when a month has one is not asked for)


def add_months(day: date, months: int) -> date:
    """The first of the month ``months`` after ``day``'s month."""
    total = day.year * 12 + day.month - 1 + months
    return date(total // 12, total % 12 + 1, 1)


def season_months(start: date) -> list[date]:
    """The firsts of the twelve months of a season starting in ``start``'s month."""
    return [add_months(start, i) for i in range(12)]


def usual_date(first: date, week: int, weekday: int) -> date:
    """The circle's usual night in a month: the ``week``-th (1-4, or 5 = last) ``weekday``
    (0 = Monday)."""
    days = calendar.monthrange(first.year, first.month)[1]
    matching = [
        d for d in range(1, days + 1) if date(first.year, first.month, d).weekday() == weekday
    ]
    day = matching[-1] if week >= LAST else matching[week - 1]
    return date(first.year, first.month, day)
