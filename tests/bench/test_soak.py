"""Does a whole night wear the laptop down? The load bench's night, played for a long time
at a human pace, sampled as it goes: the servers' memory, open files and database
connections, the size of what the night stores, and the p99 of its first and last five
minutes side by side.

    BENCH_SOAK_SECONDS=1200 make bench                # 20 minutes of play (the default)
    BENCH_SOAK_SECONDS=14400 BENCH_SOAK_SIZES=30      # a whole four-hour night
    BENCH_SOAK_SIZES=30,100,pg30,pg100                # the sizes (pgN: the scale-out stack)
    BENCH_SOAK_PROGRESS=/tmp/soak.txt                  # a line per sample while it plays

It asserts a correct night, as the load bench does, and prints the goals as PASS or MISS:
RSS growing less than 1 MB per ten minutes over the second half, open files and
connections flat, the last five minutes' p99 within 10% of the first five's. Then the host
ends the night, every phone has left, and each server process's memory is watched for
``BENCH_SOAK_AFTER_END`` seconds (11 minutes: what no page asks for is let go after ten).
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import os
import time
from dataclasses import dataclass, field

import pytest

from tests.bench.load_check import after
from tests.bench.load_play import host_button
from tests.bench.load_run import Figures, percentile, play_night, watch_lag
from tests.bench.load_stack import Stack
from tests.bench.test_load import correctness_problems, report
from tests.servers import rss_bytes

SIZES = {"30": (30, False), "100": (100, False), "pg30": (30, True), "pg100": (100, True)}
SECONDS = float(os.environ.get("BENCH_SOAK_SECONDS", "1200"))
SAMPLE_EVERY = float(os.environ.get("BENCH_SOAK_SAMPLE", "15"))
WINDOW = min(300.0, SECONDS / 4)  # the first and last five minutes (a quarter of a short run)
DEADLINE = SECONDS + 900
AFTER_END = float(os.environ.get("BENCH_SOAK_AFTER_END", "660"))
PROGRESS = os.environ.get("BENCH_SOAK_PROGRESS", "")

GOAL_GROWTH_MB = 1.0  # RSS growth per ten minutes over the second half
GOAL_P99_DRIFT = 0.10  # last window's p99 against the first window's


def chosen_sizes() -> list[str]:
    names = [n.strip() for n in os.environ.get("BENCH_SOAK_SIZES", "30").split(",") if n.strip()]
    unknown = [n for n in names if n not in SIZES]
    if unknown:
        raise ValueError(f"BENCH_SOAK_SIZES: unknown {unknown}; choose from {', '.join(SIZES)}")
    return names


@dataclass
class Sample:
    at: float  # seconds into the play
    rss: int
    files: int
    connections: int
    stored: int
    taps: int
    redis_keys: int | None = None


@dataclass
class Soak:
    samples: list[Sample] = field(default_factory=list)
    rows_before: dict[str, int] = field(default_factory=dict)
    rows_after: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    ended: str = ""  # the answer to the host's "End the night", and the night's status after
    after_end: list[tuple[float, list[int]]] = field(default_factory=list)  # (s, RSS each)


@pytest.mark.parametrize("size", chosen_sizes())
def test_a_long_night_keeps_its_memory_files_connections_and_pace(size, tmp_path):
    tables, scale_out = SIZES[size]
    if scale_out and (problem := Stack.scale_out_problem()):
        pytest.skip(problem)
    stack = Stack(tmp_path, tables, scale_out)
    soak = Soak()
    try:
        stack.start()
        soak.rows_before = stack.kept_rows()
        figures = asyncio.run(run_bounded(stack, soak))
        soak.rows_after = stack.kept_rows()
        if AFTER_END > 0:
            watch_after_the_end(stack, soak)
    finally:
        stack.stop()
    figures.log_problems, figures.log_example = stack.log_problems()
    print()
    print(report(size, figures))
    print(soak_report(size, figures, soak))
    problems = correctness_problems(figures) + soak.problems
    assert not problems, "\n".join(problems)


async def run_bounded(stack: Stack, soak: Soak) -> Figures:
    async def sample(play, start: float) -> None:
        progress = Progress(stack)
        lateness = asyncio.create_task(watch_lag(progress.late))
        gc.callbacks.append(progress.on_collection)
        try:
            while True:
                try:
                    answered = progress.count_answered(play)
                    reading = await asyncio.to_thread(read_sample, stack, play, start, answered)
                    soak.samples.append(reading)
                    if PROGRESS:
                        progress.write(play, start, soak.samples[-1])
                    # What this client holds of the night (every tap, every version each
                    # page saw) only grows: it leaves the collector's view, or the client's
                    # full collections, longer as it grows, would stop every phone's clock at
                    # once and count as the servers' lateness.
                    gc.freeze()
                except Exception as error:  # a reading that failed is said, not fatal
                    soak.problems.append(f"a sample failed: {error!r}")
                await asyncio.sleep(SAMPLE_EVERY)
        finally:
            lateness.cancel()
            gc.callbacks.remove(progress.on_collection)

    async with asyncio.timeout(DEADLINE):
        return await play_night(stack, SECONDS, watch=sample)


def watch_after_the_end(stack: Stack, soak: Soak) -> None:
    """The host ends the night (its phones have gone already); each process's RSS, once a
    minute for ``AFTER_END`` seconds."""
    code, cookie = stack.night.code, f"sessionid={stack.night.session}"
    answer = host_button(stack.servers[-1], code, cookie, "end")
    soak.ended = f"HTTP {answer}, the night {stack.snapshot()['status']}"
    start = time.perf_counter()
    while True:
        at = time.perf_counter() - start
        soak.after_end.append((at, [rss_bytes(pid) for pid in stack.pids]))
        if at >= AFTER_END:
            return
        time.sleep(min(60.0, AFTER_END - at))


class Progress:
    """A line per sample in the file ``BENCH_SOAK_PROGRESS``, for watching a long run as it
    goes: the p99 of the taps of the last interval (to their ack, and to every screen), the
    CPU the servers and this client spent in it, and how late this client's own event loop
    ran and how long its collector paused it. A drift shows when it starts, and whether it
    is the servers' or the client's: the client keeps every tap of the night, so it must not
    walk them all at each sample, and its collector's pauses grow with what it keeps."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.server_cpu = stack.cpu()
        self.client_cpu = time.process_time()
        self.seen = 0  # the taps taken from play.taps so far (a dict: in the order sent)
        self.pending: list = []  # taken, not yet written (sent too recently)
        self.unanswered: list = []  # taken, not yet answered when last counted
        self.answered = 0
        self.late: list[float] = []  # ms this client's loop woke late, since the last line
        self.paused: list[float] = []  # ms of each collection of its oldest generation
        self.collecting: float | None = None

    def new_taps(self, play) -> list:
        taps = list(itertools.islice(play.taps.values(), self.seen, None))
        self.seen += len(taps)
        return taps

    def count_answered(self, play) -> int:
        """The taps answered so far, counting only the ones not counted before."""
        fresh = self.new_taps(play)
        self.pending.extend(fresh)
        waiting = self.unanswered + fresh
        self.unanswered = [t for t in waiting if t.v is None]
        self.answered += len(waiting) - len(self.unanswered)
        return self.answered

    def on_collection(self, phase: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self.collecting = time.perf_counter()
        elif self.collecting is not None:
            self.paused.append((time.perf_counter() - self.collecting) * 1000)
            self.collecting = None

    def write(self, play, start: float, sample: Sample) -> None:
        # Taps sent up to SAMPLE_EVERY ago: their screens have had time to show them.
        until = sample.at - SAMPLE_EVERY
        ready = [t for t in self.pending if t.sent - start < until]
        self.pending = [t for t in self.pending if t.sent - start >= until]
        taps = [t for t in ready if t.v is not None]  # each written once: taken from pending
        acks = [(t.answered - t.sent) * 1000 for t in taps]
        screens = [
            after(
                t,
                None if None in (a := [o.first_held(t.key, t.v) for o in t.observers]) else max(a),
            )
            for t in taps
        ]
        server, client = self.stack.cpu(), time.process_time()
        late = self.late[:]
        self.late.clear()  # in place: watch_lag holds this list
        paused, self.paused = self.paused, []
        line = (
            f"{sample.at / 60:7.1f} min {len(taps):6} taps  ack p99 {percentile(acks, 0.99):6.0f}"
            f"  screens p99 {percentile(screens, 0.99):6.0f} max {max(screens, default=0):6.0f}"
            f"  RSS {sample.rss / 2**20:6.1f} MB  server CPU {server - self.server_cpu:5.1f} s"
            f"  client CPU {client - self.client_cpu:5.1f} s"
            f"  client late p99 {percentile(late, 0.99):5.1f} max {max(late, default=0):6.1f}"
            f"  full collections {len(paused)} {sum(paused):6.1f} ms\n"
        )
        with open(PROGRESS, "a") as out:
            out.write(line)
        self.server_cpu, self.client_cpu = server, client


def read_sample(stack: Stack, play, start: float, answered: int) -> Sample:
    return Sample(
        at=time.perf_counter() - start,
        rss=stack.rss(),
        files=stack.open_files(),
        connections=stack.database_connections(),
        stored=stack.stored_bytes(),
        taps=answered,
        redis_keys=stack.redis_keys(),
    )


# --- what is printed ------------------------------------------------------------------------


def slope_per_ten_minutes(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of (seconds, value), per 600 s."""
    if len(points) < 2:
        return float("nan")
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    if not spread:
        return float("nan")
    return sum((t - mean_t) * (v - mean_v) for t, v in points) / spread * 600


def window_taps(f: Figures, since: float, until: float, steps: range | None = None) -> list:
    """The tap -> screens latencies of the taps made between ``since`` and ``until``;
    ``steps``: of those alone that brought their table to one of these versions of its round."""
    return [
        v
        for t, v, step in zip(f.tapped_at, f.to_screens, f.tap_steps, strict=True)
        if since <= t < until and (steps is None or step in steps)
    ]


def window_p99(f: Figures, since: float, until: float, steps: range | None = None) -> float:
    values = window_taps(f, since, until, steps)
    return percentile(values, 0.99) if values else float("nan")


# How far into its round a tap's table was (its version): a tap saves its table's whole game
# and every server process decodes it, so a tap late in a long round costs more than an early
# one, and the rounds' lengths vary with the dice (26 to 115 rolls in one night). Two windows
# of a night hold different rounds: their p99 are compared at like points of their rounds too.
STAGES = (range(1, 41), range(41, 81), range(81, 10**6))
LIKE_POINTS = STAGES[0]  # a stage every round reaches


def stages_report(f: Figures) -> list[str]:
    """The first and the last window's p99 at each stage of the taps' rounds."""
    lines = []
    for steps in STAGES:
        first = window_taps(f, 0, WINDOW, steps)
        last = window_taps(f, f.seconds - WINDOW, f.seconds + 1, steps)
        p99s = [percentile(v, 0.99) if v else float("nan") for v in (first, last)]
        name = f"{steps.start}-{steps.stop - 1}" if steps.stop < 10**6 else f"{steps.start}+"
        lines.append(
            f"    versions {name:>6}: {p99s[0]:6.0f} ms -> {p99s[1]:6.0f} ms "
            f"({len(first):,} and {len(last):,} taps)"
        )
    return lines


def soak_report(size: str, f: Figures, soak: Soak) -> str:
    s = soak.samples
    mb = 2**20
    second_half = [x for x in s if x.at >= f.seconds / 2]
    growth = slope_per_ten_minutes([(x.at, x.rss / mb) for x in second_half])
    first = window_p99(f, 0, WINDOW)
    last = window_p99(f, f.seconds - WINDOW, f.seconds + 1)
    drift = (last - first) / first if first else float("nan")
    like_first = window_p99(f, 0, WINDOW, LIKE_POINTS)
    like_last = window_p99(f, f.seconds - WINDOW, f.seconds + 1, LIKE_POINTS)
    like_drift = (like_last - like_first) / like_first if like_first else float("nan")
    lines = [
        f"== soak {size}: {f.seconds / 60:.0f} min of play, {f.taps:,} taps, sampled every "
        f"{SAMPLE_EVERY:.0f} s",
        f"  {'min':>6} {'taps':>9} {'RSS MB':>8} {'files':>6} {'DB conns':>9} "
        f"{'stored MB':>10} {'Redis keys':>11}",
    ]
    step = max(1, len(s) // 24)  # about two dozen rows, and the last
    for x in [*s[::step], *([s[-1]] if s and (len(s) - 1) % step else [])]:
        lines.append(
            f"  {x.at / 60:6.1f} {x.taps:9,} {x.rss / mb:8.1f} {x.files:6} {x.connections:9} "
            f"{x.stored / mb:10.1f} {'' if x.redis_keys is None else x.redis_keys:>11}"
        )
    if s:
        lines += [
            f"  RSS: {s[0].rss / mb:.1f} MB at the start, {s[-1].rss / mb:.1f} MB at the end, "
            f"{growth:+.2f} MB per ten minutes over the second half",
            f"  open files: {min(x.files for x in s)} to {max(x.files for x in s)}; database "
            f"connections: {min(x.connections for x in s)} to {max(x.connections for x in s)}",
            f"  stored: {s[-1].stored / mb:.1f} MB, "
            f"{slope_per_ten_minutes([(x.at, x.stored / mb) for x in s]):.2f} MB per ten minutes",
        ]
    lines.append(f"  rows kept: {soak.rows_before} before, {soak.rows_after} after")
    lines += (
        f"  p99 tap -> screens: {first:.0f} ms in the first {WINDOW / 60:.0f} min, {last:.0f} ms "
        f"in the last {WINDOW / 60:.0f} min ({drift:+.0%}); by how far into its round the "
        "tap's table was:",
        *stages_report(f),
    )
    if soak.after_end:
        (_, first), (last_at, last) = soak.after_end[0], soak.after_end[-1]
        each = ", ".join(f"{a / mb:.1f} -> {b / mb:.1f}" for a, b in zip(first, last, strict=True))
        lines.append(
            f'  after the host\'s "End the night" ({soak.ended}; every phone gone): '
            f"RSS of each process {each} MB in {last_at / 60:.0f} min"
        )
    for problem in soak.problems[:5]:
        lines.append(f"  NOTE: {problem}")
    files_flat = bool(second_half) and max(x.files for x in second_half) <= s[0].files + 10
    lines += [
        "  goals:",
        f"    {verdict(growth < GOAL_GROWTH_MB)}  RSS growth {growth:+.2f} MB per ten minutes "
        f"< {GOAL_GROWTH_MB:.0f} MB over the second half",
        f"    {verdict(files_flat)}  open files in the second half within 10 of the start",
        f"    {verdict(drift <= GOAL_P99_DRIFT)}  p99 of the last {WINDOW / 60:.0f} min "
        f"within {GOAL_P99_DRIFT:.0%} of the first",
        f"    {verdict(like_drift <= GOAL_P99_DRIFT)}  the same at like points of their rounds "
        f"(versions {LIKE_POINTS.start}-{LIKE_POINTS.stop - 1}): {like_first:.0f} ms -> "
        f"{like_last:.0f} ms ({like_drift:+.0%})",
    ]
    return "\n".join(lines)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"
