"""Snap's bot: takes the first card it may."""

from __future__ import annotations

from apps.core.protocol import BotLevel

from . import rules

LEVELS = {"quick": BotLevel("Quick", think_ms=(50, 100)), "slow": BotLevel("Slow", (800, 900))}


def choose(state, seat, level, rng):
    legal = rules.legal_actions(state, seat)
    return legal[0] if legal else None
