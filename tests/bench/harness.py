"""What the party games' benches share: random games recorded once and replayed through the
engine, timed against a bare replay of the same choices and dice (the baseline measured in
the same run), and the figures of a timed list."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from apps.core.protocol import without_delay
from tests.servers import ROOT, DaphneServer


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(name: str, values: list[float], width: int = 46) -> str:
    return (
        f"  {name:<{width}} median {statistics.median(values):7.2f} ms   "
        f"p99 {percentile(values, 0.99):7.2f} ms   n={len(values)}"
    )


class CountingRandom(random.Random):
    """The engine's randomness, counting the dice it rolls, so a bare replay rolls as many."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws = 0

    def randrange(self, *args, **kwargs) -> int:  # type: ignore[override]
        self.draws += 1
        return super().randrange(*args, **kwargs)


@dataclass
class Game:
    """One random game, played once and kept to be replayed: each move as the seat that made
    it (None for a system move), its index among that seat's legal actions, and how many
    dice the engine rolled for it."""

    seed: int
    names: list[str]
    options: dict
    moves: list[tuple[int | None, int, int]] = field(default_factory=list)


# A game's next move, chosen by the bench: (seat, index among that seat's legal actions).
Chooser = Callable[[Any, Any, random.Random], tuple[int | None, int]]


def record_games(
    rules: Any, seeds: range, setup: Callable[[int], tuple[list[str], dict]], choose: Chooser
) -> list[Game]:
    """Play a seeded random game per seed through ``rules``: ``setup(seed)`` gives its names
    and options, ``choose(rules, state, chooser)`` its moves. The players' choices come from
    a random source of their own, kept apart from the engine's dice."""
    games = []
    for seed in seeds:
        names, options = setup(seed)
        game = Game(seed, names, options)
        dice = CountingRandom(seed)
        chooser = random.Random(-seed - 1)
        state = rules.setup(names, options, dice)
        while rules.outcome(state) is None:
            before = dice.draws
            seat, index = choose(rules, state, chooser)
            action = rules.legal_actions(state, seat)[index]
            state = rules.apply(
                state, seat, without_delay(action) if seat is None else action, dice
            )
            game.moves.append((seat, index, dice.draws - before))
        games.append(game)
    return games


def replay_engine(rules: Any, games: list[Game]) -> int:
    """Every move again through the engine: legal_actions, apply, and the mover's view."""
    done = 0
    for game in games:
        dice = random.Random(game.seed)
        state = rules.setup(game.names, game.options, dice)
        for seat, index, _ in game.moves:
            action = rules.legal_actions(state, seat)[index]
            state = rules.apply(
                state, seat, without_delay(action) if seat is None else action, dice
            )
            rules.view(state, seat)
            done += 1
        assert rules.outcome(state) is not None
    return done


def replay_bare(games: list[Game]) -> int:
    """The same dice rolled from the same seeds and the same choices picked, without rules:
    only indexing into lists."""
    options = [[{"type": "pass"}] * 64 for _ in range(9)]
    done = 0
    picked = None
    for game in games:
        dice = random.Random(game.seed)
        for seat, index, draws in game.moves:
            for _ in range(draws):
                dice.randrange(6)
            picked = options[0 if seat is None else seat + 1][index % 64]
            done += 1
    assert picked is not None
    return done


def engine_against_bare(
    title: str, rules: Any, games: list[Game], goal_rate: float | None = None
) -> str:
    """Replay the recorded games through the engine, then the same choices with no engine;
    the report, with the goal's verdict."""
    start = time.perf_counter()
    engine_actions = replay_engine(rules, games)
    engine_seconds = time.perf_counter() - start
    start = time.perf_counter()
    bare_actions = replay_bare(games)
    bare_seconds = time.perf_counter() - start
    assert engine_actions == bare_actions
    engine_rate = engine_actions / engine_seconds
    bare_rate = bare_actions / bare_seconds
    lines = [
        f"\n{title}, {engine_actions} actions",
        "  engine (legal_actions + apply + view): "
        f"{len(games) / engine_seconds:,.0f} games/s, {engine_rate:,.0f} actions/s",
        "  bare replay of the same choices:       "
        f"{len(games) / bare_seconds:,.0f} games/s, {bare_rate:,.0f} actions/s",
        f"  ratio bare/engine: {bare_rate / engine_rate:,.0f}x",
    ]
    if goal_rate is not None:
        verdict = "PASS" if engine_rate >= goal_rate else "MISS"
        lines.append(f"  {verdict}  engine >= {goal_rate:,} actions/s")
    return "\n".join(lines)


async def open_socket(
    server: DaphneServer, path: str, cookie: str | None = None, since: int = 0, first: bool = True
):
    """A socket to the server as a page opens it: its hello sent (``since`` the version it
    holds) and, if ``first``, the whole page it is answered with read."""
    import websockets

    socket = await websockets.connect(
        f"ws://127.0.0.1:{server.port}{path}",
        origin=f"http://127.0.0.1:{server.port}",
        additional_headers={"Cookie": cookie} if cookie else {},
        max_size=2**22,
    )
    await socket.send(json.dumps({"type": "hello", "since": since}))
    if first:
        await socket.recv()
    return socket


# A socket is read at most ten messages a second after a burst of forty (apps/core/pace.py):
# a bench's pings and taps go at the pace a page may send, or the server drops them.
PACE = 0.11  # seconds


async def ping(socket, index: int) -> float:
    """One ping answered by the consumer of ``socket`` (a bare echo): milliseconds."""
    started = time.perf_counter()
    await socket.send(json.dumps({"type": "ping", "sent": index}))
    while json.loads(await socket.recv())["type"] != "pong":
        pass
    return (time.perf_counter() - started) * 1000


async def measure_echo(server: DaphneServer, count: int) -> list[float]:
    """The server's floor: ``count`` pings on the phone check's socket, at a page's pace."""
    socket = await open_socket(server, "/ws/check/")
    echo = []
    for index in range(count):
        await asyncio.sleep(PACE)
        echo.append(await ping(socket, index))
    await socket.close()
    return echo


class SocketReader(ABC):
    """Reads one socket all the time, so no socket's buffer fills; ``heard`` keeps what a
    bench wants of each message and says whether something new came."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self.run())

    @abstractmethod
    def heard(self, raw: str) -> bool:
        """Keep what the bench wants of one message; whether something new came."""

    async def run(self) -> None:
        import websockets

        try:
            async for raw in self.socket:
                if self.heard(raw):
                    self.changed.set()
        except websockets.ConnectionClosed:
            pass

    async def until(self, ready: Callable[[], bool]) -> float:
        """When ``ready()`` first held."""
        while not ready():
            self.changed.clear()
            await self.changed.wait()
        return time.perf_counter()

    async def close(self) -> None:
        await self.socket.close()
        await self.task


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
