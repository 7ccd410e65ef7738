"""Reads of the prizes app."""

from __future__ import annotations

from apps.parties.models import Party
from apps.prizes.rules.categories import DEFAULT, Category


def categories_of(party: Party) -> list[Category]:
    """The night's categories in the host's order; the default seven until the host (or the
    night's circle) chose others."""
    rows = list(party.prize_categories.all())
    if not rows:
        return list(DEFAULT)
    return [Category(r.kind, r.name, r.prize) for r in rows]


def awards_of(party: Party) -> list:
    """The prizes given at the end of the night, in the order they were settled (none until
    the host has run the awards)."""
    return list(party.awards.select_related("player", "runner_up_of"))
