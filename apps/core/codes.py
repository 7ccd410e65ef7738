"""Short join codes that are easy to read aloud and type on a phone."""

from __future__ import annotations

import secrets
import unicodedata

# No 0/O, 1/I/L: a code read off the big screen across a dim room must not be ambiguous.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def new_code(length: int = 5) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """What a player typed, as a code: spaces and dashes gone, upper case. A phone keyboard's
    full-width letters count as the letters they look like; other scripts' letters are not
    part of any code."""
    text = unicodedata.normalize("NFKC", str(text or "")).upper()
    return "".join(ch for ch in text if ch.isascii() and ch.isalnum())[:12]
