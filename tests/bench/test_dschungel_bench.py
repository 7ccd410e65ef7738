"""Dschungelparty engine speed: legal_actions + apply + view per action, beside a bare loop
over the same dice (the same random draws, no rules).

And one mark on a real server: from Ann's tap to her ack and to the new version on both
phones and the big screen, beside a bare echo on the same server.

Run with `make bench`; not part of the normal suite.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from statistics import median

from apps.games.dschungel import rules
from tests.bench.harness import SocketReader, engine_against_bare, open_socket, ping, record_games

GAMES = 200
NAMES = ["Ann", "Bea", "Cal", "Dee"]
TIMEOUT_CHANCE = 0.03
# A goal, printed as PASS or MISS: the figure depends on the machine's cores, so a slow
# machine's bench still runs to its end.
GOAL_RATE = 10_000


def choose(rules, state, chooser: random.Random) -> tuple[int | None, int]:
    """Now and then the countdown runs out; else a seat whose turn it is takes any of its
    actions but an undo."""
    if rules.legal_actions(state, None) and chooser.random() < TIMEOUT_CHANCE:
        return None, 0
    seat = chooser.choice(rules.to_act(state))
    actions = rules.legal_actions(state, seat)
    return seat, chooser.choice([i for i, a in enumerate(actions) if a["type"] != "undo"])


def test_dschungel_legal_actions_apply_and_view_speed():
    games = record_games(rules, range(GAMES), lambda seed: (NAMES[: 1 + seed % 4], {}), choose)
    title = f"Dschungelparty: {GAMES} random games of 1-4 players"
    print(engine_against_bare(title, rules, games, GOAL_RATE))


# --- one mark, on a real server ------------------------------------------------------------

MARKS = 150
ROOM = """
import json
from apps.core.tokens import read_seat_token
from apps.games import services
from apps.games.dschungel import rules
from tests.bench.harness import engine_against_bare
from apps.games.registry import get_game
from apps.games.services.common import plan_deadlines
room, ann = services.create_room("dschungel", {}, "Ann")
bea = services.take_seat(room.code, 1, "Bea")
services.start_room(room.code, read_seat_token(services.seat_token(room, ann), room.scope))
room.refresh_from_db()
state = get_game("dschungel").load_state(room.state)
# Ann has rolled three bananas and two jokers and taken purple: every bunch can be crossed.
state.dice = ["purple-banana"] * 3 + ["joker"] * 2
state.phase = "active"
state.choices[0] = rules.usable_colours(state, 0)
room.state = state.to_json()
room.save()
plan_deadlines(room, get_game("dschungel"), state)
services.perform_action(
    room.code, read_seat_token(services.seat_token(room, ann), room.scope), "bench-take-purple",
    {"type": "choose", "colour": "purple"},
)
print(json.dumps({"code": room.code, "scope": room.scope,
                  "tokens": [services.seat_token(room, ann), services.seat_token(room, bea)]}))
"""
MARK = {"type": "mark", "area": "purple", "crate": 0, "bunch": 0, "field": "purple-0-0"}


async def measure_marks(server, room: dict) -> tuple[list[float], list[float], list[float]]:
    """Ann crosses a bunch and takes it back, again and again. For each cross: the time to
    her ack, and to the new version on all three screens; beside a bare ping on the same
    server."""

    cookie = "seat_" + room["scope"].replace(":", "_")
    path = f"/ws/rooms/{room['code']}/"
    ann = Listener(await open_socket(server, path, f"{cookie}={room['tokens'][0]}"))
    bea = Listener(await open_socket(server, path, f"{cookie}={room['tokens'][1]}"))
    screen = Listener(await open_socket(server, path + "screen/"))
    echo_socket = await open_socket(server, "/ws/check/")
    echo, acked, shown = [], [], []
    for index in range(MARKS):
        # Ann's phone sends two moves an index: at the pace a page may send (apps/core/pace.py).
        await asyncio.sleep(0.25)
        echo.append(await ping(echo_socket, index))
        for act in (MARK, {"type": "undo"}):
            before = max(r.version for r in (ann, bea, screen))
            action_id = f"bench-{index:05d}-{act['type']}"
            started = time.perf_counter()
            await ann.socket.send(json.dumps({"type": "action", "id": action_id, "act": act}))
            ack, *arrived = await asyncio.wait_for(
                asyncio.gather(
                    ann.acked(action_id), *(r.newer_than(before) for r in (ann, bea, screen))
                ),
                timeout=10,
            )
            if act is MARK:
                acked.append((ack - started) * 1000)
                shown.append((max(arrived) - started) * 1000)
    await echo_socket.close()
    for listener in (ann, bea, screen):
        await listener.close()
    return echo, acked, shown


class Listener(SocketReader):
    """The versions a room socket is shown and the acks it hears."""

    def __init__(self, socket) -> None:
        self.version = -1
        self.acks: dict[str, float] = {}
        super().__init__(socket)

    def heard(self, raw: str) -> bool:
        message = json.loads(raw)
        kind = message.get("type")
        assert kind != "error", message
        if kind == "fragments" and message.get("version", -1) > self.version:
            self.version = message["version"]
            return True
        if kind == "ack":
            self.acks[message["id"]] = time.perf_counter()
            return True
        return False

    async def newer_than(self, version: int) -> float:
        return await self.until(lambda: self.version > version)

    async def acked(self, action_id: str) -> float:
        await self.until(lambda: action_id in self.acks)
        return self.acks.pop(action_id)


def test_dschungel_mark_round_trip_with_two_phones_and_the_big_screen(tmp_path):
    from tests.bench.harness import summary
    from tests.servers import DaphneServer

    server = DaphneServer(tmp_path, env={"BUNKO_FIXED_SEED": "7", "GAME_BOT_PACE": "0"})
    server.migrate()
    room = json.loads(server.python(ROOM).splitlines()[-1])
    server.start()
    try:
        echo, acked, shown = asyncio.run(measure_marks(server, room))
    finally:
        server.stop()
    print()
    print("Dschungelparty on one daphne: two phones and the big screen connected")
    print(summary("bare echo on the same server (ping -> pong)", echo))
    print(summary("mark -> ack to the phone that tapped", acked))
    print(summary("mark -> 2 phones + big screen redrawn", shown))
    print(f"mark redrawn everywhere / bare echo, median: {median(shown) / median(echo):.1f}x")
    assert median(shown) < 250
