"""Bonje in de Stal engine speed: legal_actions + apply + view per action, against a bare
replay of the same choices.

Run with `pytest tests/bench -s`; not part of the normal suite.
"""

from __future__ import annotations

import random
import time

from apps.core.protocol import without_delay
from apps.games.bonje import rules

GAMES = 120
NAMES = ["Ann", "Bea", "Cal", "Dee"]
MIN_RATE = 10_000

Recorded = list[tuple[int, int, dict, list[tuple[int | None, int]]]]


def options_for(seed: int) -> dict:
    return {"length": "full" if seed % 4 == 0 else "short", "bonus": seed % 2 == 0}


def record_games() -> Recorded:
    """Play seeded random games once, keeping (seed, players, options, and each move as the
    seat that made it with the index of its action among that seat's legal actions)."""
    recorded = []
    for seed in range(GAMES):
        engine = random.Random(seed)  # the engine's randomness, replayed below
        chooser = random.Random(-seed - 1)  # the players' choices, kept apart from it
        players = 2 + seed % 3
        options = options_for(seed)
        state = rules.setup(NAMES[:players], options, engine)
        moves: list[tuple[int | None, int]] = []
        while rules.outcome(state) is None:
            movers = [s for s in (None, *range(players)) if rules.legal_actions(state, s)]
            seat = chooser.choice(movers)
            actions = rules.legal_actions(state, seat)
            choice = chooser.randrange(len(actions))
            moves.append((seat, choice))
            action = actions[choice]
            state = rules.apply(
                state, seat, without_delay(action) if seat is None else action, engine
            )
        recorded.append((seed, players, options, moves))
    return recorded


def run_engine(recorded: Recorded) -> int:
    actions_done = 0
    for seed, players, options, moves in recorded:
        engine = random.Random(seed)
        state = rules.setup(NAMES[:players], options, engine)
        for seat, choice in moves:
            action = rules.legal_actions(state, seat)[choice]
            if seat is None:
                action = without_delay(action)
            state = rules.apply(state, seat, action, engine)
            rules.view(state, seat)
            actions_done += 1
        assert rules.outcome(state) is not None
    return actions_done


def run_bare(recorded: Recorded) -> int:
    """The same choices without the engine: only indexing into pre-recorded lists."""
    options = [[{"type": "take"}] * 64 for _ in range(5)]
    actions_done = 0
    picked = None
    for _seed, _players, _options, moves in recorded:
        for seat, choice in moves:
            picked = options[0 if seat is None else seat + 1][choice % 64]
            actions_done += 1
    assert picked is not None
    return actions_done


def test_bonje_legal_actions_apply_and_view_speed():
    recorded = record_games()
    start = time.perf_counter()
    engine_actions = run_engine(recorded)
    engine_seconds = time.perf_counter() - start
    start = time.perf_counter()
    bare_actions = run_bare(recorded)
    bare_seconds = time.perf_counter() - start
    assert engine_actions == bare_actions
    engine_rate = engine_actions / engine_seconds
    bare_rate = bare_actions / bare_seconds
    print(
        f"\nBonje in de Stal: {GAMES} games, {engine_actions} actions\n"
        f"  engine (legal_actions + apply + view): {engine_rate:,.0f} actions/s\n"
        f"  bare replay of the same choices:       {bare_rate:,.0f} actions/s\n"
        f"  ratio bare/engine: {bare_rate / engine_rate:,.0f}x"
    )
    assert engine_rate >= MIN_RATE
