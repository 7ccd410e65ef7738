"""The load bench's client: every phone of a night, its big screen and its host console, on
one asyncio loop, playing at a human pace and timing what each tap reaches.

Each socket keeps its page as the browser would (``load_page.Page``) and notes, per table,
when it first held each newer version of that table (``seen``); the latencies are read from
those notes at the end, so playing costs the client a regex or two per message.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import http.client
import json
import random
import re
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field

import websockets

from tests.bench.load_page import SEAT, Page, moves, table_of
from tests.servers import DaphneServer

OPEN_TIMEOUT = 30.0
PACE = (0.5, 1.5)  # a tap comes this long (uniform) after the table last changed
HOST_PACE = (2.0, 4.0)  # the host starts the next round this long after the last table ends
# What a phone taps, most urgent first: any phone grabs, the roller rolls, one seat rolls off.
PRIORITY = ("grab", "roll", "rolloff")
CARD_ID = re.compile(r"[th]-(\d+)-(\d+)$")
ROUND_OF_STATUS = re.compile(r'id="status-title"[^>]*>Round (\d+)')
OPENING = 16  # sockets opened at once


async def connect(server: DaphneServer, path: str, cookie: str | None = None):
    return await websockets.connect(
        f"ws://127.0.0.1:{server.port}{path}",
        origin=f"http://127.0.0.1:{server.port}",
        additional_headers={"Cookie": cookie} if cookie else {},
        open_timeout=OPEN_TIMEOUT,
        close_timeout=2,
        max_size=2**24,
        compression=None,  # daphne does not compress; nor should the client spend on it
        ping_interval=None,  # a browser does not ping either
    )


async def limited(coroutines, limit: int = OPENING) -> None:
    """Run ``coroutines``, ``limit`` at a time: pages open (and close) a few at a time, as
    people arrive and leave, not all in the same instant."""
    gate = asyncio.Semaphore(limit)

    async def one(coroutine):
        async with gate:
            return await coroutine

    await asyncio.gather(*(one(c) for c in coroutines))


async def say_hello(ws) -> tuple[dict, str]:
    """Hello, and the first fragments message that answers it."""
    await ws.send(json.dumps({"type": "hello", "since": 0}))
    while True:
        raw = await asyncio.wait_for(ws.recv(), OPEN_TIMEOUT)
        message = json.loads(raw)
        if message.get("type") == "fragments":
            return message, raw


async def fresh_page(server: DaphneServer, path: str, cookie: str | None, cards: bool) -> Page:
    """The page a browser opened now would show."""
    ws = await connect(server, path, cookie)
    try:
        message, _ = await say_hello(ws)
    finally:
        await ws.close()
    page = Page(cards=cards)
    page.apply(message, first=True)
    return page


@dataclass
class Tap:
    id: str
    phone: Phone
    key: tuple[int, int]  # (round, table number)
    base: int  # the table's stamp the phone showed when it tapped
    kind: str
    sent: float
    observers: list[Socket]  # the table's other phones and the big screen
    answered: float | None = None
    v: int | None = None
    error: str | None = None
    at: str = ""  # the table's state version the move was drawn for
    message: str = ""
    resent: bool = False  # sent again on a new socket (the first one was closed)


class Socket:
    """One open page: its socket, its page, and when it first held each table version."""

    cards = False
    # How a table's live update starts, to count the ones this page hears.
    table_update = ""

    def __init__(self, play: Play, server: DaphneServer, path: str, cookie: str | None = None):
        self.play = play
        self.server = server
        self.path = path
        self.cookie = cookie
        self.page = Page(cards=self.cards)
        self.seen: dict[tuple[int, int], tuple[list[int], list[float]]] = {}
        self.sizes: list[int] = []  # bytes of each message heard while the night plays
        self.hello_bytes = 0
        self.table_updates = 0  # live table updates heard while the night plays
        self.whole_page = True  # whether the last fragments message was a whole page
        self.ws = None
        self.task: asyncio.Task | None = None
        self.closing = False

    async def open(self) -> None:
        self.ws = await connect(self.server, self.path, self.cookie)
        message, raw = await say_hello(self.ws)
        self.hello_bytes = len(raw)
        self.changed(self.page.apply(message, first=True), time.perf_counter())
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        while True:
            try:
                async for raw in self.ws:
                    self.hear(raw)
            except websockets.ConnectionClosed:
                pass
            except Exception as error:  # a bug of the client: say it, don't hang
                self.play.client_errors.append(f"{self.label}: {error!r}")
                return
            if self.closing:
                return
            self.play.dropped_sockets.append((self.label, time.perf_counter(), self.ws.close_code))
            if not await self.reconnect():
                return

    async def reconnect(self) -> bool:
        """As live.js does: back off with jitter, open again, say the last version seen and
        send again what was not answered."""
        for attempt in range(6):
            base = min(15.0, 0.5 * 2**attempt)
            await asyncio.sleep(base / 2 + random.random() * base / 2)
            if self.closing:
                return False
            try:
                self.ws = await connect(self.server, self.path, self.cookie)
                await self.ws.send(json.dumps({"type": "hello", "since": self.page.version}))
            except (OSError, TimeoutError, websockets.WebSocketException):
                continue
            self.reopened()
            return True
        return False

    def reopened(self) -> None:
        """The socket is open again (a phone resends its unanswered tap)."""

    @property
    def label(self) -> str:
        return type(self).__name__.lower()

    def hear(self, raw: str) -> None:
        now = time.perf_counter()
        play = self.play
        play.messages += 1
        if play.recording:
            self.sizes.append(len(raw))  # json.dumps escapes non-ASCII: characters = bytes
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "fragments":
            play.last_fragment = now
            if play.recording and self.table_update and "version" not in message:
                self.table_updates += message["html"].count(self.table_update)
            changed = self.page.apply(message)
            self.whole_page = "version" in message
            if changed:
                self.changed(changed, now)
        elif kind in ("ack", "error"):
            play.answer(self, message, now)
        elif kind == "event":
            play.events[message.get("name")] += 1
        else:
            play.unexpected.append(raw[:200])

    def changed(self, ids: list[str], now: float) -> None:
        for part_id in ids:
            found = CARD_ID.match(part_id)
            if found:
                self.note((int(found.group(1)), int(found.group(2))), self.page.v(part_id), now)

    def note(self, key: tuple[int, int], stamp: int | None, now: float) -> None:
        if stamp is None:
            return
        stamps, times = self.seen.setdefault(key, ([], []))
        if not stamps or stamp > stamps[-1]:
            stamps.append(stamp)
            times.append(now)

    def first_held(self, key: tuple[int, int], stamp: int, above: bool = False) -> float | None:
        """When this page first held table ``key`` at ``stamp`` or later (later only, if
        ``above``)."""
        stamps, times = self.seen.get(key, ((), ()))
        index = (bisect.bisect_right if above else bisect.bisect_left)(stamps, stamp)
        return times[index] if index < len(stamps) else None

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            try:
                await asyncio.wait_for(self.ws.close(), 5)
            except Exception:
                self.ws.transport.abort()
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, 5)
            except Exception:
                self.task.cancel()


class Screen(Socket):
    cards = True
    table_update = '<article id="t-'


class Host(Socket):
    """The host console: it starts the next round when every table is done."""

    cards = True
    table_update = '<article id="h-'

    def changed(self, ids: list[str], now: float) -> None:
        super().changed(ids, now)
        if "status" in ids:
            status = self.page.html("status")
            found = ROUND_OF_STATUS.search(status)
            if found and "All tables are done." in status:
                self.play.round_over(int(found.group(1)), self)


class Phone(Socket):
    table_update = '<section id="table"'

    @property
    def label(self) -> str:
        return f"phone of player {self.player}"

    def __init__(self, play: Play, server: DaphneServer, path: str, cookie: str, player: int):
        super().__init__(play, server, path, cookie)
        self.player = player
        self.seat: int | None = None
        self.key: tuple[int, int] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.in_flight: Tap | None = None
        self.deferred = False
        # The #table as a person sees it (all but its data-v), and a count of its changes: a
        # person reacts to what the table shows, not to a version number.
        self.content = ""
        self.shown = -1  # the data-v of that content
        self.generation = 0
        self.latest_at: dict[tuple[int, int], tuple[int, int | None]] = {}

    def changed(self, ids: list[str], now: float) -> None:
        if "seat" in ids:
            found = SEAT.search(self.page.html("seat"))
            self.seat = int(found.group(1)) if found else None
        if "table" in ids:
            key = table_of(self.page.parts.get("table"))
            if key != self.key:
                self.play.seated(self, self.key, key)
                self.key = key
            stamp = self.page.v("table")
            if key is not None:
                self.note(key, stamp, now)
            html = self.page.html("table")
            content = html[html.find(">") + 1 :]
            content_changed = content != self.content
            if content_changed:
                self.content = content
                self.generation += 1
                self.check_order(key, stamp)
                self.schedule(*PACE)
            elif stamp is not None and stamp > self.shown and self.play.recording:
                # A newer version that shows nothing new: the older one showed it already.
                self.play.relabelled.append((self.player, key, self.shown, stamp))
            if (
                content_changed
                and stamp == self.shown
                and self.play.recording
                and not self.whole_page
            ):
                # A table's own update drawn again at the version already shown, differently.
                self.play.redrawn.append((self.player, key, stamp))
            if stamp is not None:
                self.shown = stamp

    def check_order(self, key: tuple[int, int] | None, stamp: int | None) -> None:
        """A move's "at" is the table's state version: a newer data-v drawing an older state
        than one shown before means the page went back in time."""
        ats = [int(f["at"]) for f, _ in moves(self.content) if f.get("at", "").isdigit()]
        if not ats or key is None or not self.play.recording:
            return
        at = max(ats)
        latest = self.latest_at.get(key)
        if latest is not None and at < latest[0]:
            self.play.rewinds.append((self.player, key, latest[1], latest[0], stamp, at))
        if latest is None or at > latest[0]:
            self.latest_at[key] = (at, stamp)

    def move(self) -> dict[str, str] | None:
        """The move this phone's player makes now, if any (the buttons on the #table)."""
        offered = {fields.get("type"): fields for fields, _ in moves(self.page.html("table"))}
        for kind in PRIORITY:
            if kind in offered:
                if kind == "rolloff" and self.seat != 1:
                    return None  # one tap rolls for the table: seat 1 makes it
                return offered[kind]
        return None

    def schedule(self, low: float, high: float) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.play.playing and self.move() is not None:
            delay = random.uniform(low, high)
            self.timer = self.play.loop.call_later(delay, self.fire, self.generation)

    def fire(self, generation: int) -> None:
        self.timer = None
        if not self.play.playing or self.generation != generation:
            return
        if self.in_flight is not None:
            self.deferred = True  # the button is held down until the answer comes
            return
        fields = self.move()
        if fields is None:
            return
        now = time.perf_counter()
        tap = Tap(
            id=secrets.token_hex(12),
            phone=self,
            key=self.key,
            base=self.page.v("table"),
            kind=fields["type"],
            at=fields.get("at", ""),
            sent=now,
            observers=[*self.play.others_at(self), self.play.screen],
        )
        self.in_flight = tap
        self.play.taps[tap.id] = tap
        act = {k: v for k, v in fields.items() if k != "target"}
        message = {"type": "action", "id": tap.id, "act": act, "target": "table"}
        tap.message = json.dumps(message)
        self.play.send(self, tap.message)

    def reopened(self) -> None:
        if self.in_flight is not None:
            self.in_flight.resent = True
            self.play.send(self, self.in_flight.message)

    def answered(self, tap: Tap) -> None:
        self.in_flight = None
        if tap.error is not None:
            # A person taps again after a refusal, if the button is still there.
            self.schedule(*PACE)
        elif self.deferred:
            self.deferred = False
            # A person taps again once the page shows what their tap did: when the answer
            # outruns the table's update, that update schedules the next tap instead.
            if self.page.v("table") != tap.base:
                self.fire(self.generation)


@dataclass
class Play:
    """The state of one size's play, shared by its sockets."""

    loop: asyncio.AbstractEventLoop
    playing: bool = False
    recording: bool = False
    messages: int = 0
    last_fragment: float = 0.0
    taps: dict[str, Tap] = field(default_factory=dict)
    events: Counter = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    protocol_errors: list[str] = field(default_factory=list)
    client_errors: list[str] = field(default_factory=list)
    dropped_sockets: list[tuple[str, float, int | None]] = field(default_factory=list)
    rounds_started: list[tuple[int, float, int | str]] = field(default_factory=list)
    requested_rounds: set = field(default_factory=set)
    screen: Screen | None = None
    host: Host | None = None
    tables: dict[tuple[int, int], set] = field(default_factory=dict)
    sends: set = field(default_factory=set)
    # (player, table, data-v shown, newer data-v) where a newer version showed nothing new
    relabelled: list[tuple] = field(default_factory=list)
    # (player, table, data-v) where a table update came again at the same data-v, different
    redrawn: list[tuple] = field(default_factory=list)
    # (player, table, data-v, its state version, newer data-v, older state version drawn)
    rewinds: list[tuple] = field(default_factory=list)

    def seated(self, phone: Phone, old, new) -> None:
        if old is not None:
            self.tables.get(old, set()).discard(phone)
        if new is not None:
            self.tables.setdefault(new, set()).add(phone)

    def others_at(self, phone: Phone) -> list[Phone]:
        return [p for p in self.tables.get(phone.key, ()) if p is not phone]

    def send(self, socket: Socket, text: str) -> None:
        async def send() -> None:
            # A closed socket's tap is sent again when the socket is open again.
            with contextlib.suppress(websockets.ConnectionClosed):
                await socket.ws.send(text)

        task = asyncio.create_task(send())
        self.sends.add(task)
        task.add_done_callback(self.sends.discard)

    def answer(self, socket: Socket, message: dict, now: float) -> None:
        tap = self.taps.get(message.get("id"))
        if tap is None or tap.phone is not socket:
            self.protocol_errors.append(json.dumps(message)[:300])
            return
        tap.answered = now
        if message["type"] == "ack":
            tap.v = message.get("v")
        else:
            tap.error = str(message.get("message"))
        tap.phone.answered(tap)

    def round_over(self, number: int, host: Host) -> None:
        """The host waits a moment, as a person would, then starts the next round."""
        if not self.playing or number in self.requested_rounds:
            return
        self.requested_rounds.add(number)

        async def start() -> None:
            await asyncio.sleep(random.uniform(*HOST_PACE))
            if not self.playing:
                return
            started = time.perf_counter()
            outcome = await asyncio.to_thread(start_round, host)
            self.rounds_started.append((number + 1, time.perf_counter() - started, outcome))

        task = asyncio.create_task(start())
        self.sends.add(task)
        task.add_done_callback(self.sends.discard)


def start_round(host: Host) -> int | str:
    """The host's "Rotate and start round N" button."""
    return host_button(host.server, host.path.split("/")[3], host.cookie, "start-round")


def host_button(server: DaphneServer, code: str, cookie: str, action: str) -> int | str:
    """One of the host console's buttons (``start-round``, ``end``): a form POST with the
    host's session cookie; the answer's status, or the error that kept it from coming."""
    token = secrets.token_hex(16)  # a CSRF secret of Django's 32 allowed characters
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(
            "POST",
            f"/p/{code}/host/{action}/",
            body=f"csrfmiddlewaretoken={token}",
            headers={
                "Cookie": f"{cookie}; csrftoken={token}",
                "Origin": server.url,
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError as error:
        return repr(error)
    finally:
        connection.close()
