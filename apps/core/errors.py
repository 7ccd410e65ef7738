"""The one error type of a refused request, for the night and the game rooms alike."""

from __future__ import annotations


class Refused(Exception):
    """A request that was not carried out: the message says why, in words the person who
    asked reads, and nothing changed."""
