"""Mbogo engine speed: apply + view per action, against a bare replay of the same choices.

Run with `pytest tests/bench -s`; not part of the normal suite.
"""

from __future__ import annotations

import random

from apps.games.mbogo import rules
from tests.bench.harness import engine_against_bare

HANDS = 300
NAMES = ["Ann", "Bea", "Cal", "Dee", "Eve"]


def record_hands() -> list[tuple[int, int, list[int]]]:
    """Play seeded random hands once, keeping (seed, players, index of each chosen action)."""
    recorded = []
    for seed in range(HANDS):
        rng = random.Random(seed)  # the engine's randomness, replayed below
        chooser = random.Random(-seed - 1)  # the players' choices, kept apart from it
        players = 2 + seed % 4
        state = rules.setup(NAMES[:players], {"target": 0}, rng)
        choices = []
        while rules.outcome(state) is None:
            seat = rules.to_act(state)
            actions = rules.legal_actions(state, seat)
            choice = chooser.randrange(len(actions))
            choices.append(choice)
            state = rules.apply(state, seat, actions[choice], rng)
        recorded.append((seed, players, choices))
    return recorded


def run_engine(recorded: list[tuple[int, int, list[int]]]) -> int:
    actions_done = 0
    for seed, players, choices in recorded:
        rng = random.Random(seed)
        state = rules.setup(NAMES[:players], {"target": 0}, rng)
        for choice in choices:
            seat = rules.to_act(state)
            action = rules.legal_actions(state, seat)[choice]
            state = rules.apply(state, seat, action, rng)
            rules.view(state, seat)
            actions_done += 1
        assert rules.outcome(state) is not None
    return actions_done


def run_bare(recorded: list[tuple[int, int, list[int]]]) -> int:
    """The same choices without the engine: only indexing into pre-recorded lists."""
    options = [[{"type": "skip"}] * 8 for _ in range(4)]
    actions_done = 0
    picked = None
    for _seed, _players, choices in recorded:
        for i, choice in enumerate(choices):
            picked = options[i % 4][choice % 8]
            actions_done += 1
    assert picked is not None
    return actions_done


def test_mbogo_apply_and_view_speed():
    recorded = record_hands()
    print(engine_against_bare(f"Mbogo: {HANDS} hands", recorded, run_engine, run_bare, None))
