"""Dschungelparty engine speed: legal_actions + apply + view per action, beside a bare loop
over the same dice (the same random draws, no rules).

Run with `pytest tests/bench -s`; not part of the normal suite.
"""

from __future__ import annotations

import random
import time

from apps.core.protocol import without_delay
from apps.games.dschungel import rules

GAMES = 200
NAMES = ["Ann", "Bea", "Cal", "Dee"]
TIMEOUT_CHANCE = 0.03
Choice = tuple[int | None, int, int]  # (seat or None for the countdown, action index, dice drawn)


class CountingRandom(random.Random):
    """A random source that counts the dice it rolls."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws = 0

    def randrange(self, *args, **kwargs) -> int:  # type: ignore[override]
        self.draws += 1
        return super().randrange(*args, **kwargs)


def record_games() -> list[tuple[int, int, list[Choice]]]:
    """Play seeded random games once, keeping for each action who took it, its index among
    the legal actions, and how many dice it rolled."""
    recorded = []
    for seed in range(GAMES):
        rng = CountingRandom(seed)  # the engine's dice, replayed below
        chooser = random.Random(-seed - 1)  # the players' choices, kept apart from the dice
        players = 1 + seed % 4
        state = rules.setup(NAMES[:players], {}, rng)
        choices: list[Choice] = []
        while rules.outcome(state) is None:
            before = rng.draws
            system = rules.legal_actions(state, None)
            if system and chooser.random() < TIMEOUT_CHANCE:
                seat, index, action = None, 0, without_delay(system[0])
            else:
                seat = chooser.choice(rules.to_act(state))
                actions = rules.legal_actions(state, seat)
                forward = [i for i, a in enumerate(actions) if a["type"] != "undo"]
                index = chooser.choice(forward)
                action = actions[index]
            state = rules.apply(state, seat, action, rng)
            choices.append((seat, index, rng.draws - before))
        recorded.append((seed, players, choices))
    return recorded


def run_engine(recorded: list[tuple[int, int, list[Choice]]]) -> int:
    actions_done = 0
    for seed, players, choices in recorded:
        rng = random.Random(seed)
        state = rules.setup(NAMES[:players], {}, rng)
        for seat, index, _draws in choices:
            action = rules.legal_actions(state, seat)[index]
            if seat is None:
                action = without_delay(action)
            state = rules.apply(state, seat, action, rng)
            rules.view(state, seat)
            actions_done += 1
        assert rules.outcome(state) is not None
    return actions_done


def run_bare(recorded: list[tuple[int, int, list[Choice]]]) -> int:
    """The same dice rolled from the same seeds and the same choices picked, without rules."""
    options = [[{"type": "pass"}] * 16 for _ in range(5)]
    actions_done = 0
    picked = None
    for seed, _players, choices in recorded:
        rng = random.Random(seed)
        for seat, index, draws in choices:
            for _ in range(draws):
                rng.randrange(6)
            picked = options[seat if seat is not None else 4][index % 16]
            actions_done += 1
    assert picked is not None
    return actions_done


def test_dschungel_legal_actions_apply_and_view_speed():
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
        f"\nDschungelparty: {GAMES} random games of 1-4 players, {engine_actions} actions\n"
        f"  engine (legal_actions + apply + view): {GAMES / engine_seconds:,.0f} games/s, "
        f"{engine_rate:,.0f} actions/s\n"
        f"  bare loop over the same dice:           {GAMES / bare_seconds:,.0f} games/s, "
        f"{bare_rate:,.0f} actions/s\n"
        f"  ratio bare/engine: {bare_rate / engine_rate:,.0f}x"
    )
    assert engine_rate >= 10_000, f"{engine_rate:,.0f} actions/s is below 10,000"
