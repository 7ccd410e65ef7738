"""Shared helpers for the room tests: make rooms, seat players, play legal moves."""

from __future__ import annotations

import random

from apps.core.tokens import SeatClaim, read_seat_token
from apps.games import services
from apps.games.models import Room, Seat
from apps.games.registry import get_game


def claim_of(seat: Seat) -> SeatClaim:
    seat.refresh_from_db()
    claim = read_seat_token(services.seat_token(seat.room, seat), seat.room.scope)
    assert claim is not None
    return claim


def started_room(
    names: tuple[str, ...] = ("Ann", "Bea"), bots: int = 0, options: dict | None = None
) -> tuple[Room, dict[str, SeatClaim]]:
    """A started Mbogo room: the first name made it, the others sat, ``bots`` bots added."""
    room, creator = services.create_room("mbogo", {"target": 0, **(options or {})}, names[0])
    claims = {names[0]: claim_of(creator)}
    for slot, name in enumerate(names[1:], start=1):
        claims[name] = claim_of(services.take_seat(room.code, slot, name))
    for slot in range(len(names), len(names) + bots):
        services.set_seat_bot(room.code, claims[names[0]], slot, True)
    services.start_room(room.code, claims[names[0]])
    room.refresh_from_db()
    return room, claims


def actor(room: Room) -> tuple[int, list[dict]]:
    """The first player who may act now and their legal actions."""
    entry = get_game(room.game)
    state = entry.load_state(room.state)
    for player in range(len(state.players)):
        legal = entry.rules.legal_actions(state, player)
        if legal:
            return player, legal
    raise AssertionError("nobody can act")


def claim_for_player(room: Room, claims: dict[str, SeatClaim], player: int) -> SeatClaim:
    seat = room.seats.get(player=player)
    return claims[seat.name]


def play_randomly(
    room: Room, claims: dict[str, SeatClaim], rng: random.Random, limit=2000, until=None
) -> int:
    """Random legal moves through the service until the game is over (or ``until(state)``);
    how many moves."""
    entry = get_game(room.game)
    done = until or (lambda state: entry.rules.outcome(state) is not None)
    moves = 0
    while moves < limit:
        room.refresh_from_db()
        if done(entry.load_state(room.state)):
            return moves
        player, legal = actor(room)
        services.perform_action(
            room.code,
            claim_for_player(room, claims, player),
            f"move-{moves:06d}",
            rng.choice(legal),
        )
        moves += 1
    raise AssertionError("the hand did not end")


# -- sockets ------------------------------------------------------------------------------------


def seat_header(room: Room, claims: dict[str, SeatClaim], name: str) -> tuple[bytes, bytes]:
    from apps.core.tokens import make_seat_token, seat_cookie_name

    claim = claims[name]
    token = make_seat_token(room.scope, claim.seat_id, claim.nonce)
    return (b"cookie", f"{seat_cookie_name(room.scope)}={token}".encode())


async def connect(code: str, cookie: tuple[bytes, bytes] | None = None, query: str = ""):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append(cookie)
    communicator = WebsocketCommunicator(application, f"/ws/rooms/{code}/{query}", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def receive_until(communicator, wanted, timeout: float = 5) -> dict:
    """Messages are read (and dropped) until one matches ``wanted``."""
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if wanted(message):
            return message


async def hello(communicator) -> dict:
    await communicator.send_json_to({"type": "hello", "since": -1})
    return await receive_until(communicator, lambda m: m["type"] == "fragments")
