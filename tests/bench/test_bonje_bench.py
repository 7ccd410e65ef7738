"""Bonje in de Stal's speed: the engine (legal_actions + apply + view per action) against a
bare replay of the same choices; and a whole short game of four phones and the big screen on
a real daphne server, each tap timed, beside a bare echo on the same server.

Run with `make bench`; not part of the normal suite.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import time
from html import unescape

from apps.games.bonje import rules
from tests.bench.harness import (
    SocketReader,
    engine_against_bare,
    measure_echo,
    open_socket,
    percentile,
    record_games,
    shell,
    summary,
)
from tests.servers import DaphneServer

GAMES = 120
NAMES = ["Ann", "Bea", "Cal", "Dee"]
# A goal, printed as PASS or MISS: the figure depends on the machine's cores, so a slow
# machine's bench still runs to its end.
GOAL_RATE = 10_000


def options_for(seed: int) -> dict:
    return {"length": "full" if seed % 4 == 0 else "short", "bonus": seed % 2 == 0}


def choose(rules, state, chooser: random.Random) -> tuple[int | None, int]:
    """Any seat that may move (the clock too) takes any of its legal actions."""
    movers = [s for s in (None, *range(len(state.players))) if rules.legal_actions(state, s)]
    seat = chooser.choice(movers)
    return seat, chooser.randrange(len(rules.legal_actions(state, seat)))


def test_bonje_legal_actions_apply_and_view_speed():
    games = record_games(
        rules, range(GAMES), lambda seed: (NAMES[: 2 + seed % 3], options_for(seed)), choose
    )
    print(engine_against_bare(f"Bonje in de Stal: {GAMES} games", rules, games, GOAL_RATE))


# --- a turn on a real server -------------------------------------------------------------------

LIVE_SETUP = """
import json
from apps.core.tokens import read_seat_token
from apps.games import services
room, first = services.create_room("bonje", {"length": "short", "reveal_ms": 0}, "P0")
seats = [first] + [services.take_seat(room.code, slot, f"P{slot}") for slot in (1, 2, 3)]
claim = read_seat_token(services.seat_token(room, first), room.scope)
services.start_room(room.code, claim)
tokens = [services.seat_token(room, seat) for seat in seats]
print(json.dumps({"code": room.code, "scope": room.scope, "tokens": tokens}))
"""

SERVER_TIMES = """
import json
from apps.games.models import Room
room = Room.objects.get(code=%r)
print(json.dumps([[a.kind, a.data.get("type"), a.created.timestamp()] for a in room.events.all()]))
"""

ACT = re.compile(r'<button\b[^>]*\bclass="(bj-take|bj-target)"[^>]*\bvalue="([^"]+)"')
PICK = re.compile(r'data-pick="([^"]+)"')


class Reader(SocketReader):
    """Keeps a socket's newest page and the answers to its taps."""

    def __init__(self, socket):
        self.version = -1
        self.html = ""
        self.answers: dict[str, tuple[float, str]] = {}
        super().__init__(socket)

    def heard(self, raw: str) -> bool:
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "fragments" and message.get("version", -1) > self.version:
            self.version, self.html = message["version"], message["html"]
        elif kind in ("ack", "error"):
            self.answers[message["id"]] = (time.perf_counter(), kind)
        return True


def next_move(html: str) -> dict | None:
    """The first card this phone may grab, or the first place its card may go (a truck takes
    the first animal it may move out of the game)."""
    found = ACT.search(html)
    if found:
        return json.loads(unescape(found.group(2)))
    pick = PICK.search(html)
    if pick:
        target = {"to_seat": None, "to_stable": None}
        return {"type": "truck", **json.loads(unescape(pick.group(1))), **target}
    return None


async def play_turns(server: DaphneServer, room: dict) -> dict[str, list[float]]:
    """Four phones and the big screen on one room: every turn, each phone grabs a card and
    plays it, one tap at a time; each tap is timed until its phone has the answer and until
    all five screens show it."""
    cookie = "seat_" + room["scope"].replace(":", "_")
    path = f"/ws/rooms/{room['code']}/"
    phones = [
        Reader(await open_socket(server, path, f"{cookie}={t}", since=-1, first=False))
        for t in room["tokens"]
    ]
    screen = Reader(await open_socket(server, path + "screen/", since=-1, first=False))
    screens = [*phones, screen]
    answer, shown = [], []
    taps = 0
    while 'data-testid="results"' not in screen.html:
        # The flip: every phone can grab a card, or the game is over.
        await asyncio.wait_for(
            screen.until(lambda: "bj-take" in phones[0].html or "results" in screen.html), 10
        )
        moved = True
        while moved:
            moved = False
            for phone in phones:
                move = next_move(phone.html)
                if move is None:
                    continue
                moved = True
                taps += 1
                took, seen = await tap(phone, screens, move, f"bench-{taps:06d}")
                answer.append(took)
                if seen is not None:
                    shown.append(seen)
    for reader in screens:
        await reader.close()
    return {"answer": answer, "shown": shown}


async def tap(phone: Reader, screens: list[Reader], move: dict, tap_id: str):
    """One tap: milliseconds until its phone has the answer, and, when it was applied, until
    every screen shows it (None when it was refused: another tap got there first)."""
    before = max(s.version for s in screens)
    started = time.perf_counter()
    await phone.socket.send(json.dumps({"type": "action", "id": tap_id, "act": move}))
    await asyncio.wait_for(phone.until(lambda: tap_id in phone.answers), 5)
    answered, kind = phone.answers[tap_id]
    if kind != "ack":
        return (answered - started) * 1000, None
    seen = await asyncio.wait_for(
        asyncio.gather(*(s.until(lambda s=s: s.version > before) for s in screens)), 5
    )
    return (answered - started) * 1000, (max(seen) - started) * 1000


def server_turns(actions: list) -> tuple[list[float], list[float]]:
    """From the server's log: how long after a turn's last card each flip came (900 ms asked),
    and how long each turn took from its flip to its last card."""
    late, turns = [], []
    flip_at = None
    for previous, action in zip(actions, actions[1:], strict=False):
        kind, what, at = action
        if what == "flip":
            if flip_at is not None:
                late.append((at - previous[2]) * 1000 - 900)
                turns.append((previous[2] - flip_at) * 1000)
            flip_at = at
    return late, turns


def test_a_turn_of_four_phones_on_a_real_server_beside_a_bare_echo(tmp_path):
    server = DaphneServer(tmp_path, env={"BUNKO_FIXED_SEED": "7", "GAME_BOT_PACE": "0"})
    server.migrate()
    room = shell(server, LIVE_SETUP)
    server.start()
    try:
        echo = asyncio.run(measure_echo(server, 300))
        taps = asyncio.run(play_turns(server, room))
        echo_after = asyncio.run(measure_echo(server, 300))
    finally:
        server.stop()
    late, turns = server_turns(shell(server, SERVER_TIMES % room["code"]))
    print()
    print("Bonje in de Stal on one daphne: four phones and the big screen on one room")
    print(summary("bare echo on /ws/check/ (ping -> pong)", echo + echo_after))
    print(summary("tap -> answer to the phone that tapped", taps["answer"]))
    print(summary("tap -> 4 phones + big screen show it", taps["shown"]))
    print(summary("flip later than the 900 ms asked (server log)", late))
    print(summary("flip -> last card played (server log)", turns))
    ratio = statistics.median(taps["answer"]) / statistics.median(echo + echo_after)
    print(f"  tap answer / bare echo, median: {ratio:.1f}x")
    assert len(taps["answer"]) > 60
    # A tap's round trip stays far below 200 ms; the slowest tenth still below it.
    assert statistics.median(taps["answer"]) < 50
    assert statistics.median(taps["shown"]) < 100
    assert percentile(taps["answer"], 0.9) < 200
