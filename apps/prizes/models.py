"""A night's prize categories, in the host's order, each with its physical prize."""

from __future__ import annotations

from django.db import models

from apps.prizes.rules.categories import KINDS


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


class Award(models.Model):
    """A prize given at the end of a night, in the order the awards were settled."""

    party = models.ForeignKey("parties.Party", on_delete=models.CASCADE, related_name="awards")
    position = models.PositiveSmallIntegerField()  # the order of settlement
    kind = models.CharField(max_length=20, choices=list(KINDS.items()))
    name = models.CharField(max_length=60)  # the category's name that night
    prize = models.CharField(max_length=80, blank=True, default="")
    player = models.ForeignKey("parties.Player", on_delete=models.PROTECT, related_name="awards")
    # Given to this player because the winner kept another prize (the runner-up).
    runner_up_of = models.ForeignKey(
        "parties.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Every round of the roll-off that settled a tie: [{name: die, ...}, ...].
    rolloff = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["party", "position"], name="unique_award_position"),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.player} ({self.party.code})"


class Ceremony(models.Model):
    """The awards at the end of a night: the settlement's state (apps.prizes.rules.settlement),
    its seed, and which player each of its seats is."""

    party = models.OneToOneField("parties.Party", on_delete=models.CASCADE, related_name="ceremony")
    state = models.JSONField()
    seed = models.BigIntegerField()
    version = models.PositiveIntegerField(default=0)
    players = models.JSONField()  # the settlement's seats: player ids, in seat order
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Awards of {self.party.code}"

    @property
    def scope(self) -> str:
        return f"awards:{self.party.code}"
