"""Short join codes that are easy to read aloud and type on a phone."""

from __future__ import annotations

import secrets

# No 0/O, 1/I/L: a code read off the big screen across a dim room must not be ambiguous.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def new_code(length: int = 5) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """What a player typed, as a code: spaces and dashes gone, upper case."""
    return "".join(ch for ch in text.upper() if ch.isalnum())[:12]
