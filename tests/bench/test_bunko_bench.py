"""How fast the Bunko engine plays a big night (run with ``pytest tests/bench -s``)."""

from __future__ import annotations

import random
import time

from apps.parties.rules.simulator import simulate_night

PLAYERS = 400  # 100 tables
ROUNDS = 6


def count_rolls(night: dict) -> int:
    return sum(len(t["rolls"]) for r in night["rounds"] for t in r["tables"])


def bare_dice_loop(rolls: int, seed: int) -> float:
    """Seconds to roll three dice ``rolls`` times, the way the engine rolls them."""
    rand = random.Random(seed).random
    start = time.perf_counter()
    for _ in range(rolls):
        [int(rand() * 6) + 1, int(rand() * 6) + 1, int(rand() * 6) + 1]
    return time.perf_counter() - start


def timed_night(seed: int) -> tuple[float, int]:
    start = time.perf_counter()
    night = simulate_night(PLAYERS, ROUNDS, seed)
    return time.perf_counter() - start, count_rolls(night)


def test_a_100_table_night_rolls_fast_next_to_bare_dice() -> None:
    seconds, rolls = min(timed_night(seed) for seed in (1, 2, 3))
    bare = min(bare_dice_loop(rolls, seed) for seed in (1, 2, 3))
    engine_rate = rolls / seconds
    bare_rate = rolls / bare
    print()
    print(f"Bunko night: {PLAYERS} players, {PLAYERS // 4} tables, {ROUNDS} rounds")
    print(f"  {rolls} rolls in {seconds:.3f} s: {engine_rate:,.0f} rolls/s (the whole engine)")
    print(f"  bare loop of 3 random dice: {bare_rate:,.0f} rolls/s")
    print(f"  the engine costs {bare_rate / engine_rate:.1f}x a bare roll")
    assert seconds < 1.0, "a 400-player night should play in well under a second"


def test_a_400_player_night_plays_in_well_under_a_second() -> None:
    best = min(timed_night(seed)[0] for seed in (7, 8, 9))
    print(f"\n400-player night of {ROUNDS} rounds: {best * 1000:.0f} ms (best of 3)")
    assert best < 1.0
