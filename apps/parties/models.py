"""A party night: its players, the tables of each round, and its event log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.core import groups
from apps.core.changes import stamp
from apps.core.codes import new_code
from apps.core.dice import new_seed
from apps.core.models import LogEntry


def _nonce() -> str:
    return secrets.token_urlsafe(8)


class Party(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", _("Players are joining")
        PLAYING = "playing", _("Playing")
        PAUSED = "paused", _("Paused")
        ENDED = "ended", _("Ended")

    class DiceMode(models.TextChoices):
        VIRTUAL = "virtual", _("Virtual dice, rolled on the phones")
        PHYSICAL = "physical", _("Real dice, tapped in on the phones")

    class Attendance(models.TextChoices):
        GHOSTS = "ghosts", _("Ghost seats (the app rolls for them)")
        SITOUTS = "sitouts", _("Sit-outs (players rest a round in turn)")
        SUBSTITUTES = "substitutes", _("Substitutes (the host adds them)")

    class Seating(models.TextChoices):
        RANDOM = "random", _("At random")
        ROLL = "roll", _("By a roll of the die (highest at the head table)")

    code = models.CharField(max_length=8, unique=True, default=new_code)
    name = models.CharField(max_length=80)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: open end")
    dice_mode = models.CharField(max_length=10, choices=DiceMode.choices, default=DiceMode.VIRTUAL)
    attendance = models.CharField(
        max_length=12, choices=Attendance.choices, default=Attendance.GHOSTS
    )
    seating = models.CharField(max_length=8, choices=Seating.choices, default=Seating.RANDOM)
    classic = models.BooleanField(default=False)
    seed = models.BigIntegerField(default=new_seed)
    # One version for the whole night: every write bumps it, every screen catches up to it.
    version = models.PositiveIntegerField(default=0)
    current_round = models.PositiveSmallIntegerField(default=0)
    # How many entries the host has corrected: the only way a past round's table changes,
    # so the screens read the past rounds once per (round, corrections).
    corrections = models.PositiveIntegerField(default=0)
    # Who holds the travelling prizes right now (the latest Bunko and wipeout rolled).
    travelling_bunko = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    travelling_wipeout = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result = models.JSONField(default=dict, blank=True)
    # A party game the host shows on the big screen (a room's code), or "".
    screen_room = models.CharField(max_length=12, blank=True, default="")
    # The big screen's language: the host's when the night was made, changed on the console.
    language = models.CharField(max_length=8, default="en")
    # How many players the host expects: a new name beyond it waits for the host's OK.
    # Empty: derived (apps/parties/rules/doors.py).
    expected_players = models.PositiveSmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    @property
    def scope(self) -> str:
        return f"party:{self.code}"

    @property
    def group(self) -> str:
        return groups.night(self.code)

    @property
    def screens_group(self) -> str:
        """The big screens and the host's console: they show every table."""
        return groups.night_screens(self.code)


class Player(models.Model):
    class Kind(models.TextChoices):
        PLAYER = "player", _("Player")
        SUBSTITUTE = "substitute", _("Substitute")
        GHOST = "ghost", _("Ghost")

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=30)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLAYER)
    # Changes when the host removes the player or frees the name, so an old phone goes stale.
    nonce = models.CharField(max_length=16, default=_nonce)
    claimed = models.BooleanField(default=False, help_text="A phone has joined as this player")
    active = models.BooleanField(default=True, help_text="Plays the next round")
    joined_round = models.PositiveSmallIntegerField(default=1)
    # The last moment a socket of this player's phone was known open (the heartbeat).
    seen_at = models.DateTimeField(null=True, blank=True)
    # The language this player's phone chose (en/nl/de), kept with the seat: a phone that
    # loses its language cookie gets it back when it comes back to its place. Empty: the
    # phone's own cookie or browser decides.
    language = models.CharField(max_length=8, blank=True, default="")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["party", "name"], name="unique_player_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_ghost(self) -> bool:
        return self.kind == self.Kind.GHOST


class JoinRequest(models.Model):
    """A phone that asked to join beyond the players the host expects: it waits for the
    host to let it in (it becomes a player) or to turn it away."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        LET_IN = "let_in", _("Let in")
        TURNED_AWAY = "turned_away", _("Turned away")

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="join_requests")
    name = models.CharField(max_length=30)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.WAITING)
    # Binds the waiting phone's token to this request: only that phone follows it in.
    nonce = models.CharField(max_length=16, default=_nonce)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["party", "status"], name="join_request_waiting")]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class Table(models.Model):
    """One table of one round: its seats and the rules' state (whose entries replay it).

    ``version`` counts the table's changes: a tap locks only its table and bumps only this,
    so the taps of a hundred tables never wait for each other.
    """

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()  # 1 is the head table
    seats = models.JSONField()  # player ids in seat order 1-4
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    # When the table last changed: the host sees how long a stalled table has waited.
    changed = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["party", "round", "number"], name="unique_table"),
        ]

    def __str__(self) -> str:
        return f"Round {self.round}, table {self.number}"

    @property
    def group(self) -> str:
        return groups.night_table(self.party.code, self.round, self.number)

    @property
    def stamp(self) -> int:
        """The table's version as its fragments carry it (``data-v``): it grows across rounds
        too, so a phone never takes last round's table for a newer one."""
        return stamp(self.round, self.version)


class SitOut(models.Model):
    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="sit_outs")
    round = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE)

    def __str__(self) -> str:
        return f"{self.player} sits out round {self.round}"


class Event(LogEntry):
    """The night's append-only log: what happened, by whose tap. A table's entries carry the
    table's version (``table`` set), the night's own entries the night's version."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="events")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta(LogEntry.Meta):
        ordering = ["created", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["party", "version"],
                condition=models.Q(table__isnull=True),
                name="unique_night_event_version",
            ),
            models.UniqueConstraint(
                fields=["table", "version"],
                condition=models.Q(table__isnull=False),
                name="unique_table_event_version",
            ),
            models.UniqueConstraint(fields=["party", "action_id"], name="unique_event_action_id"),
        ]
        # The console's log reads a night's newest entries after every change.
        indexes = [models.Index(fields=["party", "-id"], name="event_party_newest")]

    def __str__(self) -> str:
        return f"{self.party.code} v{self.version} {self.kind}"
