"""The one error type of a refused request, for the night and the game rooms alike."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from apps.core.protocol import IllegalAction


class Refused(Exception):
    """A request that was not carried out: the message says why, in words the person who
    asked reads, and nothing changed."""


@contextmanager
def refused_by_rules() -> Iterator[None]:
    """A move the rules refuse (``IllegalAction``) is a refused request, in the rules' own
    sentence: ``with refused_by_rules(): new = apply(...)``."""
    try:
        yield
    except IllegalAction as error:
        raise Refused(str(error)) from None
