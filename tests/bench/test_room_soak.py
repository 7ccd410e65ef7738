"""Do the party games wear the laptop down? Rooms of all three games played by bots for a
long time on one daphne (the embedded stack), each watched by a big screen, a finished game
followed at once by a new room of the same game: the server's memory and open files sampled
as it goes, the moves and games counted.

    BENCH_ROOM_SOAK_SECONDS=3600 .venv/bin/python -m pytest tests/bench/test_room_soak.py \\
        -q -s -p no:cacheprovider --override-ini addopts=

Goals (printed as PASS or MISS): RSS growing less than 1 MB per ten minutes over the second
half, open files flat. It asserts that the games went on (moves were made) with no error in
the server's log; a game takes a few minutes at the bots' pace.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time

import websockets

from tests.bench.test_soak import slope_per_ten_minutes, verdict
from tests.servers import DaphneServer, rss_bytes

SECONDS = float(os.environ.get("BENCH_ROOM_SOAK_SECONDS", "3600"))
SAMPLE_EVERY = float(os.environ.get("BENCH_SOAK_SAMPLE", "15"))
CHECK_EVERY = 60.0  # seconds between looks for finished games
ROOMS_PER_GAME = int(os.environ.get("BENCH_ROOMS_PER_GAME", "2"))
GAMES = {"mbogo": 4, "bonje": 4, "dschungel": 3}  # seats per room
GOAL_GROWTH_MB = 1.0

# New rooms of the given games, every seat played by a bot (the creator's seat taken over, as
# when a phone goes away), started; their codes and scopes.
NEW_ROOMS = """
import json
from apps.core.tokens import read_seat_token
from apps.games import services
from apps.games.models import Room, Seat
from apps.games.registry import get_game
from apps.games.services.common import plan_deadlines
made = []
for game, seats in %(games)r:
    room, ann = services.create_room(game, {}, "Ann", ["Ann", "Bea", "Cas", "Dot"][:seats])
    services.start_room(room.code, read_seat_token(services.seat_token(room, ann), room.scope))
    Seat.objects.filter(room=room).update(taken_over=True)
    room.refresh_from_db()
    entry = get_game(room.game)
    plan_deadlines(room, entry, entry.load_state(room.state))
    made.append([game, room.code])
print(json.dumps(made))
"""
# Which of these rooms finished, and the moves made in all rooms so far.
PROGRESS = """
import json
from apps.games.models import RoomEvent, Room
codes = %(codes)r
done = list(Room.objects.filter(code__in=codes, status=Room.Status.FINISHED)
            .values_list("code", flat=True))
print(json.dumps({"done": done, "moves": RoomEvent.objects.count(),
                  "rooms": Room.objects.count()}))
"""


def test_rooms_played_by_bots_for_an_hour_keep_the_servers_memory_flat(tmp_path):
    server = DaphneServer(
        tmp_path, env={"RATE_LIMITS": "off", "DATABASE_URL": None, "REDIS_URL": None}
    )
    server.migrate()
    server.start()
    try:
        result = asyncio.run(soak(server))
    finally:
        server.stop()
    errors = [
        line
        for line in server.log.read_text(errors="replace").splitlines()
        if line.startswith(("Traceback", "ERROR", "CRITICAL"))
    ]
    print()
    print(report(result))
    assert result["moves"] > 0, "no move was made"
    assert not errors, "\n".join(errors[:5])


def new_rooms(server: DaphneServer, games: list[tuple[str, int]]) -> list[list[str]]:
    return json.loads(server.python(NEW_ROOMS % {"games": games}).splitlines()[-1])


async def watch(server: DaphneServer, code: str, stop: asyncio.Event) -> None:
    """A big screen on the room: reads every message until the room is replaced."""
    url = server.url.replace("http", "ws") + f"/ws/rooms/{code}/screen/"
    with contextlib.suppress(Exception):
        async with websockets.connect(url, origin=server.url, max_size=None) as socket:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(socket.recv(), 1.0)


async def soak(server: DaphneServer) -> dict:
    games = [(game, seats) for game, seats in GAMES.items() for _ in range(ROOMS_PER_GAME)]
    rooms = {code: game for game, code in await asyncio.to_thread(new_rooms, server, games)}
    watchers = {
        code: (stop := asyncio.Event(), asyncio.create_task(watch(server, code, stop)))
        for code in rooms
    }
    samples: list[tuple[float, int, int]] = []
    finished = moves = 0
    start = time.perf_counter()
    next_sample = next_check = 0.0
    while (now := time.perf_counter() - start) < SECONDS:
        if now >= next_sample:
            samples.append((now, rss_bytes(server.process.pid), open_files(server.process.pid)))
            next_sample += SAMPLE_EVERY
        if now >= next_check:  # a Django shell of its own: once a minute is enough
            next_check += CHECK_EVERY
            progress = json.loads(
                (
                    await asyncio.to_thread(server.python, PROGRESS % {"codes": list(rooms)})
                ).splitlines()[-1]
            )
            moves = progress["moves"]
            if progress["done"]:
                finished += len(progress["done"])
                again = [
                    (rooms.pop(code), GAMES[game])
                    for code in progress["done"]
                    for game in [rooms[code]]
                ]
                for code in progress["done"]:
                    stop, task = watchers.pop(code)
                    stop.set()
                    await task
                for game, code in await asyncio.to_thread(new_rooms, server, again):
                    rooms[code] = game
                    stop = asyncio.Event()
                    watchers[code] = (stop, asyncio.create_task(watch(server, code, stop)))
        await asyncio.sleep(1.0)
    for stop, task in watchers.values():
        stop.set()
        await task
    return {
        "samples": samples,
        "games": finished,
        "moves": moves,
        "seconds": SECONDS,
        "rooms": len(games),
    }


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def report(result: dict) -> str:
    s, mb = result["samples"], 2**20
    second_half = [(t, rss / mb) for t, rss, _ in s if t >= result["seconds"] / 2]
    growth = slope_per_ten_minutes(second_half)
    files = [f for _, _, f in s]
    half_files = [f for t, _, f in s if t >= result["seconds"] / 2]
    lines = [
        f"== room soak: {result['rooms']} rooms at once for {result['seconds'] / 60:.0f} min, "
        f"{result['games']} games finished, {result['moves']:,} moves",
        f"  {'min':>6} {'RSS MB':>8} {'files':>6}",
    ]
    step = max(1, len(s) // 24)
    for t, rss, f in [*s[::step], *([s[-1]] if s and (len(s) - 1) % step else [])]:
        lines.append(f"  {t / 60:6.1f} {rss / mb:8.1f} {f:6}")
    lines += [
        f"  RSS: {s[0][1] / mb:.1f} MB at the start, {s[-1][1] / mb:.1f} MB at the end, "
        f"{growth:+.2f} MB per ten minutes over the second half",
        f"  open files: {min(files)} to {max(files)}",
        "  goals:",
        f"    {verdict(growth < GOAL_GROWTH_MB)}  RSS growth {growth:+.2f} MB per ten minutes "
        f"< {GOAL_GROWTH_MB:.0f} MB over the second half",
        f"    {verdict(bool(half_files) and max(half_files) <= files[0] + 10)}  open files in "
        "the second half within 10 of the start",
    ]
    return "\n".join(lines)
