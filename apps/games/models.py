"""Game rooms: a game with its seats, its state, its seed and its append-only action log."""

from __future__ import annotations

from django.db import models

from apps.core import groups
from apps.core.models import LogEntry


class Room(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    code = models.CharField(max_length=12, unique=True)
    game = models.CharField(max_length=30)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    state = models.JSONField(null=True, blank=True)
    seed = models.BigIntegerField()
    # Bumped by every change a viewer could see (lobby changes included), so live pages know
    # what they have missed; the log keeps the version each action was applied at.
    version = models.PositiveIntegerField(default=0)
    # A party night's code, kept as text: rooms must outlive (and not depend on) a party.
    party_code = models.CharField(max_length=12, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.game} {self.code}"

    @property
    def scope(self) -> str:
        """The seat-token scope of this room, and the scope of its deadlines."""
        return f"room:{self.code}"

    @property
    def group(self) -> str:
        return groups.room(self.code)


class Seat(models.Model):
    """A place at the table: a phone's player, a pre-listed name, a bot, or still empty."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    slot = models.PositiveSmallIntegerField()  # lobby order
    player = models.PositiveSmallIntegerField(null=True, blank=True)  # the rules' seat, at start
    name = models.CharField(max_length=30, blank=True, default="")
    nonce = models.CharField(max_length=32, blank=True, default="")
    is_creator = models.BooleanField(default=False)
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=20, blank=True, default="")
    prelisted = models.BooleanField(default=False)
    claimed = models.BooleanField(default=False)  # a phone holds this seat's token
    # Presence: the last moment a socket of this seat's phone was known to be open (stamped
    # on connect, on close, and by every server process's heartbeat while open).
    seen_at = models.DateTimeField(null=True, blank=True)
    taken_over = models.BooleanField(default=False)  # a bot plays for an absent player

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "slot"], name="unique_room_slot"),
        ]
        ordering = ["slot"]

    def __str__(self) -> str:
        return f"{self.room.code} seat {self.slot}: {self.name or 'empty'}"

    @property
    def is_empty(self) -> bool:
        return not self.is_bot and not self.claimed and not self.prelisted

    @property
    def bot_plays(self) -> bool:
        """Whether a bot makes this seat's moves now (a bot seat, or standing in for a player)."""
        return self.is_bot or self.taken_over or not self.claimed

    @property
    def bot_for(self) -> str:
        """The player a bot stands in for ("Bot playing for Ann"), or ""."""
        return self.name if (not self.is_bot and self.bot_plays) else ""


class RoomEvent(LogEntry):
    """One entry of a room's log, as ``parties.Event`` is of a night's: the start (``data`` =
    players and options), then every applied move (``data`` = the move), by a seat, a bot
    or the system."""

    START = "start"
    MOVE = "move"
    BOT = "bot"
    SYSTEM = "system"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events")

    class Meta(LogEntry.Meta):
        constraints = [
            models.UniqueConstraint(fields=["room", "version"], name="unique_room_version"),
            models.UniqueConstraint(fields=["room", "action_id"], name="unique_room_action_id"),
        ]

    def __str__(self) -> str:
        return f"{self.room.code} v{self.version} {self.kind} {self.data}"
