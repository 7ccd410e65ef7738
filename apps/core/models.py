"""What every app shares in the database: the shape of an action log, and timed moves."""

from __future__ import annotations

from django.db import models


class LogEntry(models.Model):
    """One entry of an append-only log (a night's or a game room's): what was done, by which
    seat, at which version. Replaying the rules entries in version order rebuilds the game."""

    version = models.PositiveIntegerField()
    # The id the phone made for its tap, so a retried tap is applied once (or a system id).
    action_id = models.CharField(max_length=80, null=True, blank=True)
    kind = models.CharField(max_length=30)
    # The rules' seat that acted (None: the system, the host or the app).
    seat = models.SmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["version"]


class Deadline(models.Model):
    """A move due at a time: a rules module's timed system move, a bot's move, a takeover.

    Kept in the database, so a restart (or another server process) fires what was due. A
    deadline belongs to a scope ("room:ABCDE"); its key names the move, so the same move
    offered by the next state keeps its time instead of starting over.
    """

    scope = models.CharField(max_length=40)
    key = models.CharField(max_length=200)
    due_at = models.DateTimeField(db_index=True)
    payload = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="unique_deadline_key"),
        ]
        indexes = [models.Index(fields=["scope"], name="deadline_scope")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} at {self.due_at:%H:%M:%S.%f}"
