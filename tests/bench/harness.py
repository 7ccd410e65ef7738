"""What the party games' benches share: an engine timed against a bare replay of the same
choices (the baseline measured in the same run), and the figures of a timed list."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from tests.servers import ROOT, DaphneServer


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(name: str, values: list[float], width: int = 46) -> str:
    return (
        f"  {name:<{width}} median {statistics.median(values):7.2f} ms   "
        f"p99 {percentile(values, 0.99):7.2f} ms   n={len(values)}"
    )


def engine_against_bare(
    title: str,
    recorded: Any,
    run_engine: Callable[[Any], int],
    run_bare: Callable[[Any], int],
    goal_rate: float | None = None,
    games: int | None = None,
) -> str:
    """Play the recorded games through the engine (legal_actions, apply, view), then the same
    choices with no engine (indexing into lists); the report, with the goal's verdict.
    ``games``: how many games were recorded, to say games a second too."""
    start = time.perf_counter()
    engine_actions = run_engine(recorded)
    engine_seconds = time.perf_counter() - start
    start = time.perf_counter()
    bare_actions = run_bare(recorded)
    bare_seconds = time.perf_counter() - start
    assert engine_actions == bare_actions
    engine_rate = engine_actions / engine_seconds
    bare_rate = bare_actions / bare_seconds
    per_game = games is not None
    lines = [
        f"\n{title}, {engine_actions} actions",
        "  engine (legal_actions + apply + view): "
        + (f"{games / engine_seconds:,.0f} games/s, " if per_game else "")
        + f"{engine_rate:,.0f} actions/s",
        "  bare replay of the same choices:       "
        + (f"{games / bare_seconds:,.0f} games/s, " if per_game else "")
        + f"{bare_rate:,.0f} actions/s",
        f"  ratio bare/engine: {bare_rate / engine_rate:,.0f}x",
    ]
    if goal_rate is not None:
        verdict = "PASS" if engine_rate >= goal_rate else "MISS"
        lines.append(f"  {verdict}  engine >= {goal_rate:,} actions/s")
    return "\n".join(lines)


def shell(server: DaphneServer, code: str) -> object:
    """Run Python in a Django shell of the server's settings; the JSON its last line printed."""
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=server.env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])
