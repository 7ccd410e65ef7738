from __future__ import annotations


class PartyError(Exception):
    """A request the night can't take; the message is shown next to what caused it."""
