"""Randomness for live games: secret per game, reproducible per action.

A game stores a seed drawn from the OS at creation; the rng of each action is derived from
the seed and the version the action is applied at. So a live game replays exactly from its
seed and its action log, and a restarted server continues the same sequence.
"""

from __future__ import annotations

import os
import random
import secrets


def new_seed() -> int:
    """A secret seed; BUNKO_FIXED_SEED makes every new game replayable (tests, demos)."""
    if fixed := os.environ.get("BUNKO_FIXED_SEED"):
        return int(fixed)
    return secrets.randbits(63)


def rng_for(seed: int, version: int) -> random.Random:
    return random.Random(f"{seed}:{version}")
