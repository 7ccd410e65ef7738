"""A night's prize categories, in the host's order, each with its physical prize."""

from __future__ import annotations

from django.db import models

from apps.prizes.categories import KINDS


class PrizeCategory(models.Model):
    party = models.ForeignKey(
        "parties.Party", on_delete=models.CASCADE, related_name="prize_categories"
    )
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, choices=list(KINDS.items()))
    name = models.CharField(max_length=60)
    prize = models.CharField(max_length=80, blank=True, default="")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["party", "position"], name="unique_prize_position"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.party.code})"
