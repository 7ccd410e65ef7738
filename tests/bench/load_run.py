"""One size of the load bench, start to end: open every page of the night, measure the bare
baselines on the same servers, play for the set time, settle, then check every page against
a fresh render and against the database. ``play_night`` returns the raw figures."""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import websockets

from tests.bench.load_check import check_database, compare_fresh, tally_taps, versions
from tests.bench.load_play import (
    PACE,
    Host,
    Phone,
    Play,
    Screen,
    Socket,
    connect,
    fresh_page,
    limited,
    say_hello,
)
from tests.bench.load_stack import TICK, Stack
from tests.servers import DaphneServer

SETTLE_SECONDS = 120.0  # at most, for the last answers and a quiet moment after the play
QUIET = 1.5  # no fragment for this long: everything the play set off has arrived
SEND_EVERY = 0.11  # seconds between a baseline socket's messages (pace.py: ten a second)
# Runs beside the play, given the play and when it started (perf_counter).
Watch = Callable[[Play, float], Awaitable[None]]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# --- the bare baselines -----------------------------------------------------------------------


class WaveSocket:
    def __init__(self, ws, state: dict) -> None:
        self.ws = ws
        self.state = state
        self.waves = 0
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                if "waved" in raw:
                    self.waves += 1
                    state = self.state
                    if self.waves == state["target"]:
                        state["arrived"] += 1
                        if state["arrived"] == state["count"]:
                            state["last"] = time.perf_counter()
                            state["done"].set()
        except Exception:
            pass


async def close_quietly(ws) -> None:
    try:
        await asyncio.wait_for(ws.close(), 5)
    except Exception:
        ws.transport.abort()


async def open_check(server: DaphneServer):
    ws = await connect(server, "/ws/check/")
    await say_hello(ws)
    return ws


async def measure_baselines(
    servers: list[DaphneServer], count: int, budget: float = 30.0
) -> dict[str, list[float] | int]:
    """A ping answered by the phone check's consumer (echo), and a wave on the phone check
    reaching all of ``count`` sockets spread over the servers (fan-out); milliseconds."""
    echo: list[float] = []
    problems: list[str] = []
    pingers = [await open_check(s) for s in servers]
    deadline = time.perf_counter() + budget / 3
    try:
        for index in range(300):
            ws = pingers[index % len(pingers)]
            # At the pace a page may send (apps/core/pace.py): faster, past a burst of forty,
            # the socket's messages are dropped and the echo would wait for nothing.
            await asyncio.sleep(SEND_EVERY / len(pingers))
            started = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "sent": index}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
                pass
            echo.append((time.perf_counter() - started) * 1000)
            if time.perf_counter() > deadline:
                break
    except (TimeoutError, websockets.WebSocketException) as error:
        problems.append(f"echo stopped after {len(echo)} pings: {error!r}")
    finally:
        await asyncio.gather(*(ws.close() for ws in pingers), return_exceptions=True)

    state = {"target": 0, "arrived": 0, "count": count, "done": asyncio.Event(), "last": 0.0}
    sockets: list[WaveSocket] = []

    async def open_one(server: DaphneServer) -> None:
        sockets.append(WaveSocket(await open_check(server), state))

    fanout: list[float] = []
    lost = 0
    try:
        await limited(open_one(servers[i % len(servers)]) for i in range(count))
        deadline = time.perf_counter() + budget * 2 / 3
        for index in range(200):
            state.update(target=index + 1, arrived=0)
            state["done"].clear()
            started = time.perf_counter()
            act = {"type": "wave", "name": "Ann"}
            wave = {"type": "action", "id": f"wave{index:06d}", "act": act}
            await asyncio.sleep(SEND_EVERY)  # one socket sends every wave: at a page's pace
            await sockets[0].ws.send(json.dumps(wave))
            try:
                await asyncio.wait_for(state["done"].wait(), 10)
            except TimeoutError:
                lost += 1
                break
            fanout.append((state["last"] - started) * 1000)
            if time.perf_counter() > deadline:
                break
    except (TimeoutError, websockets.WebSocketException) as error:
        problems.append(f"fan-out stopped after {len(fanout)} waves: {error!r}")
    finally:
        # A few at a time, as people leave a page: the bench's own baseline must not set off
        # a storm of disconnections in the middle of the night it measures.
        await limited(close_quietly(s.ws) for s in sockets)
        for s in sockets:
            s.task.cancel()
    return {"echo": echo, "fanout": fanout, "fanout_lost": lost, "problems": problems}


# --- the figures of one size ------------------------------------------------------------------


@dataclass
class Figures:
    tables: int
    label: str
    sockets: int
    seconds: float = 0.0
    open_seconds: float = 0.0
    taps: int = 0
    taps_per_s: float = 0.0
    to_screens: list[float] = field(default_factory=list)  # ms, tap -> 3 phones + big screen
    tapped_at: list[float] = field(default_factory=list)  # s into the play, beside to_screens
    # The table's version in its round after each tap, beside to_screens: how long the round's
    # log was, which a tap's work grows with (the state it saves and every process decodes).
    tap_steps: list[int] = field(default_factory=list)
    to_phones: list[float] = field(default_factory=list)  # ms, tap -> the 3 other phones
    to_screen: list[float] = field(default_factory=list)  # ms, tap -> the big screen
    to_host: list[float] = field(default_factory=list)
    to_ack: list[float] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # taps some page never showed
    echo: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    fanout_lost: int = 0
    server_cpu: float = 0.0  # seconds, daphne process(es), during the play
    services_cpu: float | None = None  # PostgreSQL + Redis, whole servers
    client_cpu: float = 0.0
    loop_lag: list[float] = field(default_factory=list)  # ms
    rss_growth: int = 0
    screen_sizes: list[int] = field(default_factory=list)
    host_sizes: list[int] = field(default_factory=list)
    phone_sizes: list[int] = field(default_factory=list)
    hello_bytes: dict[str, int] = field(default_factory=dict)
    races: Counter = field(default_factory=Counter)  # refusals of a genuine race, by reason
    refusals: list[str] = field(default_factory=list)  # refusals of a legal tap, no race
    refusal_stories: list[str] = field(default_factory=list)
    unanswered: int = 0
    protocol_errors: list[str] = field(default_factory=list)
    client_errors: list[str] = field(default_factory=list)
    dropped_sockets: list[str] = field(default_factory=list)  # closed by the server
    resent: int = 0  # taps sent again after their socket was closed
    relabelled: list[tuple] = field(default_factory=list)  # newer data-v, nothing new shown
    rewinds: list[tuple] = field(default_factory=list)  # newer data-v, older state drawn
    redrawn: list[tuple] = field(default_factory=list)  # same data-v, something else drawn
    notes: list[str] = field(default_factory=list)  # what the bench could not measure
    events: Counter = field(default_factory=Counter)
    rounds: list = field(default_factory=list)
    page_rules: Counter = field(default_factory=Counter)
    phones_differing: int = 0
    differences: Counter = field(default_factory=Counter)
    difference_example: str = ""
    version_only: Counter = field(default_factory=Counter)  # parts alike but for data-v
    screen_examples: dict[str, str] = field(default_factory=dict)  # one per kind of part
    screens_differing: list[str] = field(default_factory=list)
    behind_database: Counter = field(default_factory=Counter)
    database_example: str = ""
    log_problems: Counter = field(default_factory=Counter)
    log_example: str = ""
    settle_seconds: float = 0.0
    settled: bool = True
    table_changes: int = 0  # table versions the database moved through during the play
    updates_heard: dict[str, int] = field(default_factory=dict)
    machine: dict[str, float] = field(default_factory=dict)
    race_examples: dict[str, str] = field(default_factory=dict)


async def play_night(stack: Stack, seconds: float, watch: Watch | None = None) -> Figures:
    """Open every page of the night, measure the baselines, play, settle and check.
    ``watch(play, start)``, if given, runs beside the play (the soak's sampler) and is
    cancelled when the play ends."""
    play = Play(asyncio.get_running_loop())
    night, servers = stack.night, stack.servers
    phone_path = f"/ws/p/{night.code}/phone/"
    screen_path = f"/ws/p/{night.code}/screen/"
    figures = Figures(len(night.tables), stack.label, len(night.tables) * 4 + 2)

    # Every process has drawn each kind of page once: the memory after is the sockets' own.
    first_cookie = f"{night.cookie_name}={night.tables[0][0][1]}"
    for server in servers:
        await fresh_page(server, phone_path, first_cookie, cards=False)
        await fresh_page(server, screen_path, None, cards=True)
    rss_before = stack.rss()
    play.screen = Screen(play, servers[0], screen_path)
    play.host = Host(play, servers[-1], f"/ws/p/{night.code}/host/", f"sessionid={night.session}")
    phones: list[Phone] = []
    for table in night.tables:
        for player, token in table:
            server = servers[len(phones) % len(servers)]  # a table's phones on both processes
            cookie = f"{night.cookie_name}={token}"
            phones.append(Phone(play, server, phone_path, cookie, player))
    pages: list[Socket] = [play.screen, play.host, *phones]
    try:
        started = time.perf_counter()
        await limited(page.open() for page in pages)
        figures.open_seconds = time.perf_counter() - started
        figures.rss_growth = stack.rss() - rss_before
        figures.hello_bytes = {
            "phone": round(median([p.hello_bytes for p in phones])),
            "screen": play.screen.hello_bytes,
            "host": play.host.hello_bytes,
        }

        baselines = await measure_baselines(servers, len(pages))
        figures.echo, figures.fanout = baselines["echo"], baselines["fanout"]
        figures.fanout_lost = baselines["fanout_lost"]
        figures.notes += baselines["problems"]

        at_start = versions(await asyncio.to_thread(stack.snapshot))
        start, end = await measure_play(stack, play, phones, seconds, figures, watch)
        tally_taps(play, figures, start, end)
        gather_figures(play, phones, pages, figures)

        snapshot = await asyncio.to_thread(stack.snapshot)
        figures.table_changes = sum(
            v - at_start.get(key, 0) for key, v in versions(snapshot).items()
        )
        check_database(play, phones, snapshot, figures)
        await compare_fresh(play, phones, figures)
        figures.protocol_errors = play.protocol_errors + play.unexpected
        figures.client_errors = play.client_errors
        figures.dropped_sockets = [
            f"{label} at {when - start:+.1f} s (close code {code})"
            for label, when, code in play.dropped_sockets
        ]
    finally:
        play.playing = False
        for task in list(play.sends):
            task.cancel()
        # A few at a time, as people leave: a storm of disconnections set off by the bench
        # would end up in the servers' logs as if the night had caused it.
        await limited(page.close() for page in pages)
    return figures


async def watch_lag(into: list[float], every: float = 0.05) -> None:
    """How late this client's event loop wakes (ms), every ``every`` seconds, into ``into``."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(every)
        into.append((loop.time() - before - every) * 1000)


async def measure_play(
    stack: Stack,
    play: Play,
    phones: list[Phone],
    seconds: float,
    figures: Figures,
    watch: Watch | None = None,
) -> tuple[float, float]:
    """Play for ``seconds``, then settle; what it cost the servers, the client and the
    machine. Returns when the play started and ended."""
    with open("/proc/loadavg") as load:
        figures.machine["load average"] = float(load.read().split()[0])
    machine_before = machine_ticks()
    cpu_before = stack.cpu()
    services_before = await asyncio.to_thread(stack.services_cpu)
    client_before = time.process_time()
    lag_task = asyncio.create_task(watch_lag(figures.loop_lag))
    play.playing = play.recording = True
    start = time.perf_counter()
    watching = asyncio.create_task(watch(play, start)) if watch else None
    if mark := os.environ.get("BENCH_PLAY_MARK"):
        # For a profiler: the moment the play starts, after every page is open.
        Path(mark).write_text(str(os.getpid()))
    try:
        for phone in phones:
            phone.schedule(*PACE)
        await asyncio.sleep(seconds)
    finally:
        play.playing = False
        lag_task.cancel()
        if watching is not None:
            watching.cancel()
        for phone in phones:
            if phone.timer is not None:
                phone.timer.cancel()
    end = time.perf_counter()
    figures.seconds = end - start
    figures.settled = await settle(play)
    figures.settle_seconds = time.perf_counter() - end
    play.recording = False
    figures.server_cpu = stack.cpu() - cpu_before
    services_after = await asyncio.to_thread(stack.services_cpu)
    if services_before is not None:
        figures.services_cpu = services_after - services_before
    figures.client_cpu = time.process_time() - client_before
    busy, total = machine_ticks()
    cores = os.cpu_count() or 1
    window = (total - machine_before[1]) / cores  # ticks of one core over the window
    figures.machine.update(
        cores=cores, busy=(busy - machine_before[0]) / window / cores, window=window / TICK
    )
    return start, end


def gather_figures(play: Play, phones: list[Phone], pages: list[Socket], figures: Figures) -> None:
    figures.screen_sizes = play.screen.sizes
    figures.host_sizes = play.host.sizes
    figures.phone_sizes = [n for p in phones for n in p.sizes]
    figures.events = play.events
    figures.rounds = play.rounds_started
    for page in pages:
        figures.page_rules["older messages dropped"] += page.page.dropped_messages
        figures.page_rules["older parts kept out"] += page.page.older_parts
        figures.page_rules["parts for ids not on the page"] += page.page.orphans
    figures.updates_heard = {
        "phones": sum(p.table_updates for p in phones),
        "big screen": play.screen.table_updates,
        "host console": play.host.table_updates,
    }
    figures.resent = sum(1 for t in play.taps.values() if t.resent)
    figures.relabelled = play.relabelled
    figures.rewinds = play.rewinds


async def settle(play: Play) -> bool:
    """Until every tap is answered, the host's last click is done and no fragment came for a
    moment (bounded); whether that moment came."""
    deadline = time.perf_counter() + SETTLE_SECONDS
    while time.perf_counter() < deadline:
        now = time.perf_counter()
        waiting = any(t.answered is None for t in play.taps.values()) or play.sends
        if not waiting and now - play.last_fragment > QUIET:
            return True
        await asyncio.sleep(0.1)
    return False


def machine_ticks() -> tuple[int, int]:
    """(busy, all) CPU ticks of the whole machine, every core."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)
