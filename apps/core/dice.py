"""Randomness for live games: secret per game, reproducible per action.

A game stores a seed drawn from the OS at creation; the rng of each action is derived from
the seed and the version the action is applied at. So a live game replays exactly from its
seed and its action log, and a restarted server continues the same sequence.
"""

from __future__ import annotations

import random
import secrets


def new_seed() -> int:
    return secrets.randbits(63)


def rng_for(seed: int, version: int) -> random.Random:
    return random.Random(f"{seed}:{version}")
