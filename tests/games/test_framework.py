"""The game framework, shown with a toy race (Snap): simultaneous moves in commit order,
timed system moves from the database, several bots at once, and a room that finishes only
when the rules' outcome says so."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from apps.core import presence, scheduler
from apps.core.changes import room_change
from apps.core.errors import Refused
from apps.core.models import Deadline
from apps.games import services
from apps.games.models import Room, RoomEvent
from apps.games.selectors import replay
from tests.games.roomkit import claim_of, connect, hello, receive_until, seat_header

pytestmark = pytest.mark.django_db


def snap_room(names=("Ann", "Bea"), bots: int = 0, **options):
    room, creator = services.create_room("snap", options, names[0])
    claims = {names[0]: claim_of(creator)}
    for slot, name in enumerate(names[1:], start=1):
        claims[name] = claim_of(services.take_seat(room.code, slot, name))
    for slot in range(len(names), len(names) + bots):
        services.set_seat_bot(room.code, claims[names[0]], slot, True, "quick")
    services.start_room(room.code, claims[names[0]])
    room.refresh_from_db()
    return room, claims


def deadlines(room: Room) -> dict[str, Deadline]:
    """The room's pending deadlines by what they will do: "system:reveal", "bot:2"."""
    named = {}
    for deadline in scheduler.pending(room.scope):
        payload = deadline.payload
        what = payload["action"]["type"] if "action" in payload else str(payload["player"])
        named[f"{payload['kind']}:{what}"] = deadline
    return named


def phase(room: Room) -> str:
    room.refresh_from_db()
    return room.state["phase"]


def test_a_timed_system_move_fires_once_its_delay_has_passed_and_not_before(snap):
    room, claims = snap_room(reveal_ms=1500)
    reveal = deadlines(room)["system:reveal"]
    assert abs(reveal.due_at - reveal.created - timedelta(milliseconds=1500)) < timedelta(
        milliseconds=100
    )
    assert scheduler.run_due(reveal.due_at - timedelta(milliseconds=5)) == 0
    assert phase(room) == "waiting"
    assert scheduler.run_due(reveal.due_at) == 1
    assert phase(room) == "racing"
    logged = room.events.get(kind=RoomEvent.SYSTEM)
    assert logged.seat is None and logged.data == {"type": "reveal", "round": 1}


def test_two_seats_taking_different_cards_at_once_both_succeed_and_the_same_card_goes_to_the_first(
    snap,
):
    room, claims = snap_room(("Ann", "Bea", "Cal"))
    scheduler.run_due(timezone.now() + timedelta(seconds=2))
    # Both phones drew their buttons at the same version; neither move is stale.
    services.perform_action(room.code, claims["Ann"], "ann-take-2", {"type": "take", "card": 2})
    services.perform_action(room.code, claims["Bea"], "bea-take-4", {"type": "take", "card": 4})
    with pytest.raises(Refused, match="Ann took that card first"):
        services.perform_action(room.code, claims["Cal"], "cal-take-2", {"type": "take", "card": 2})
    room.refresh_from_db()
    assert room.state["taken"][2] == 0 and room.state["taken"][4] == 1
    assert [a.seat for a in room.events.filter(kind=RoomEvent.MOVE)] == [0, 1]


def test_a_countdown_keeps_its_time_while_other_moves_change_the_state(snap):
    room, claims = snap_room(close_ms=2000)
    scheduler.run_due(timezone.now() + timedelta(seconds=2))
    close = deadlines(room)["system:close"]
    services.perform_action(room.code, claims["Ann"], "ann-take-0", {"type": "take", "card": 0})
    assert deadlines(room)["system:close"].due_at == close.due_at
    assert scheduler.run_due(close.due_at) == 1
    room.refresh_from_db()
    assert room.state["round"] == 2 and room.state["phase"] == "waiting"
    assert "system:reveal" in deadlines(room)


def test_the_room_finishes_when_the_outcome_says_so_and_not_while_nobody_may_move(snap):
    room, claims = snap_room(rounds=1)
    # Cards face down: no seat has a move, only the system, and the room plays on.
    assert room.status == Room.Status.PLAYING
    assert phase(room) == "waiting"
    scheduler.run_until_quiet(now=timezone.now() + timedelta(minutes=1))
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert not scheduler.pending(room.scope)
    with pytest.raises(Refused, match="over"):
        services.perform_action(
            room.code, claims["Ann"], "too-late-01", {"type": "take", "card": 1}
        )


def test_several_bots_have_their_moves_due_at_once_and_all_are_made(snap):
    room, claims = snap_room(("Ann",), bots=3)
    scheduler.run_due(timezone.now() + timedelta(seconds=2))
    bots = [d for d in scheduler.pending(room.scope) if d.key.startswith("bot:")]
    assert sorted(d.payload["player"] for d in bots) == [1, 2, 3]
    assert scheduler.run_due(max(d.due_at for d in bots)) == 3
    room.refresh_from_db()
    assert sorted(s for s in room.state["taken"] if s is not None) == [1, 2, 3]


def test_a_whole_game_with_system_and_bot_moves_replays_from_its_log(snap):
    room, claims = snap_room(("Ann",), bots=2, rounds=3)
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    scheduler.run_until_quiet(now=timezone.now() + timedelta(hours=1))
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    kinds = set(room.events.values_list("kind", flat=True))
    assert kinds == {RoomEvent.START, RoomEvent.SYSTEM, RoomEvent.BOT}
    assert replay(room).to_json() == room.state


def test_options_are_the_games_own_and_are_checked_when_the_room_is_made(snap):
    room, _ = services.create_room("snap", {"rounds": "3", "colour": "red"}, "Ann")
    assert room.options == {"rounds": 3, "reveal_ms": 1500, "close_ms": 2000}
    with pytest.raises(Refused, match="Rounds: at most 5"):
        services.create_room("snap", {"rounds": 9}, "Bea")


@pytest.mark.django_db(transaction=True)
async def test_the_scheduler_loop_fires_deadlines_on_time_from_the_event_loop(snap, settings):
    settings.PRESENCE_HEARTBEAT = 60
    room, claims = await database_sync_to_async(snap_room)(reveal_ms=300, close_ms=400, rounds=1)
    loop = scheduler.Scheduler()
    loop.start()
    started = time.monotonic()
    try:
        while (await database_sync_to_async(phase)(room)) != "over":
            assert time.monotonic() - started < 10, "the deadlines did not fire"
            await asyncio.sleep(0.02)
    finally:
        loop.task.cancel()
    took = time.monotonic() - started
    assert 0.65 <= took < 1.5  # 300 ms + 400 ms, fired by the loop without polling delay


@pytest.mark.django_db(transaction=True)
async def test_a_consumer_that_crashes_no_longer_counts_as_the_seats_open_socket(snap, monkeypatch):
    room, claims = await database_sync_to_async(snap_room)()
    from apps.games.consumers import RoomConsumer

    ann_id = claims["Ann"].seat_id
    socket = await connect(room.code, seat_header(room, claims, "Ann"))
    await hello(socket)
    assert presence.is_open_here("seat", ann_id)

    async def broken(self):
        raise RuntimeError("a render that fails")

    monkeypatch.setattr(RoomConsumer, "render", broken)
    # A new version to draw (a hello again with none since is answered already).
    await get_channel_layer().group_send(
        room.group, room_change(room.code, room.version + 1).message()
    )
    with pytest.raises(RuntimeError, match="a render that fails"):
        await socket.receive_output(timeout=2)
    assert not presence.is_open_here("seat", ann_id)
    seen = await database_sync_to_async(lambda: room.seats.get(pk=ann_id).seen_at)()
    assert timezone.now() - seen < timedelta(seconds=5)  # the takeover clock runs from now


@pytest.mark.django_db(transaction=True)
async def test_two_phones_tapping_one_card_in_the_same_instant_get_one_winner_on_every_screen(
    snap,
):
    room, claims = await database_sync_to_async(snap_room)(("Ann", "Bea"))
    await database_sync_to_async(scheduler.run_due)(timezone.now() + timedelta(seconds=2))
    ann = await connect(room.code, seat_header(room, claims, "Ann"))
    bea = await connect(room.code, seat_header(room, claims, "Bea"))
    screen = await connect(room.code, query="screen/")
    for socket in (ann, bea, screen):
        await hello(socket)
    take = {"type": "take", "card": 3}
    await asyncio.gather(
        ann.send_json_to({"type": "action", "id": "ann-grabs-3", "act": take}),
        bea.send_json_to({"type": "action", "id": "bea-grabs-3", "act": take}),
    )
    answers = {
        name: await receive_until(phone, lambda m: m["type"] in ("ack", "error"))
        for name, phone in (("Ann", ann), ("Bea", bea))
    }
    assert sorted(a["type"] for a in answers.values()) == ["ack", "error"]
    winner = next(name for name, a in answers.items() if a["type"] == "ack")
    loser = next(a for a in answers.values() if a["type"] == "error")
    assert loser["message"] == f"{winner} took that card first."
    fresh = await database_sync_to_async(Room.objects.get)(pk=room.pk)
    assert fresh.state["taken"][3] == ["Ann", "Bea"].index(winner)
    shown = await receive_until(screen, lambda m: m["type"] == "fragments")
    assert shown["version"] == fresh.version
    for socket in (ann, bea, screen):
        await socket.disconnect()
