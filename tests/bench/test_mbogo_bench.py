"""Mbogo engine speed: apply + view per action, against a bare replay of the same choices.

Run with `pytest tests/bench -s`; not part of the normal suite.
"""

from __future__ import annotations

import random

from apps.games.mbogo import rules
from tests.bench.harness import engine_against_bare, record_games

HANDS = 300
NAMES = ["Ann", "Bea", "Cal", "Dee", "Eve"]


def choose(rules, state, chooser: random.Random) -> tuple[int, int]:
    """The seat whose turn it is takes any of its legal actions."""
    seat = rules.to_act(state)
    return seat, chooser.randrange(len(rules.legal_actions(state, seat)))


def test_mbogo_apply_and_view_speed():
    games = record_games(
        rules, range(HANDS), lambda seed: (NAMES[: 2 + seed % 4], {"target": 0}), choose
    )
    print(engine_against_bare(f"Mbogo: {HANDS} hands", rules, games))
