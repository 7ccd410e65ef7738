"""Bots: they fill empty seats, play whole hands, stand in for a player whose phone has gone,
and hand the seat back when the phone returns. Their moves are deadlines in the database,
fired by the scheduler like any timed move."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.models import Deadline
from apps.games import services
from apps.games.models import Room, RoomEvent
from apps.games.registry import get_game
from apps.games.selectors import render_room
from apps.games.services.common import plan_deadlines
from tests.games.roomkit import actor, claim_for_player, claim_of, started_room


@pytest.fixture(autouse=True)
def bot_settings(settings):
    settings.GAME_BOT_PACE = 0
    settings.GAME_BOT_TAKEOVER = 60


def hand_over(room: Room) -> bool:
    room.refresh_from_db()
    return get_game(room.game).load_state(room.state).hand.phase == "over"


def bot_deadline(room: Room, player: int) -> Deadline | None:
    return Deadline.objects.filter(scope=room.scope, key=f"bot:{player}").first()


@pytest.mark.django_db
def test_bots_fill_the_chosen_seats_and_play_a_whole_hand_with_a_person():
    room, claims = started_room(("Ann",), bots=3)
    assert [s.name for s in room.seats.filter(player__isnull=False)] == [
        "Ann",
        "Bot Kiki",
        "Bot Juma",
        "Bot Zuri",
    ]
    rng, bot_moves, ann_moves = random.Random(5), 0, 0
    while not hand_over(room):
        bot_moves += services.play_bots(room.code)
        if hand_over(room):
            break
        player, legal = actor(room)
        assert player == 0, "the bots left a move undone"
        services.perform_action(room.code, claims["Ann"], f"ann-{ann_moves:05d}", rng.choice(legal))
        ann_moves += 1
    assert bot_moves > 10 and ann_moves > 3
    assert room.status == Room.Status.FINISHED
    assert room.events.filter(kind=RoomEvent.BOT).count() == bot_moves


@pytest.mark.django_db
def test_a_bot_waits_its_think_time_as_a_deadline_and_fires_when_due(settings):
    settings.GAME_BOT_PACE = 1
    room, claims = started_room(("Ann",), bots=1, options={"target": 50})
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    deadline = bot_deadline(room, 0)  # Ann deals and plays first: her bot thinks
    assert deadline is not None
    think = deadline.due_at - deadline.created
    assert timedelta(milliseconds=500) <= think <= timedelta(milliseconds=2200)
    assert scheduler.run_due(deadline.due_at - timedelta(milliseconds=1)) == 0
    assert scheduler.run_due(deadline.due_at) == 1
    assert room.events.filter(kind=RoomEvent.BOT, seat=0).count() == 1


@pytest.mark.django_db
def test_only_the_next_dealer_deals_and_a_bot_dealer_pauses_so_the_scores_stay_up(settings):
    # A match to 100 goes on after its first hand (at most 60 points in a hand).
    room, claims = started_room(("Ann",), bots=1, options={"target": 100})
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    while not hand_over(room):
        scheduler.run_due(timezone.now() + timedelta(minutes=1))
    state = get_game("mbogo").load_state(room.state)
    dealer = (state.hand.dealer + 1) % 2
    assert get_game("mbogo").rules.legal_actions(state, dealer) == [{"type": "next_hand"}]
    assert get_game("mbogo").rules.legal_actions(state, 1 - dealer) == []
    assert get_game("mbogo").rules.legal_actions(state, None) == []
    assert "Score of hand 1" in render_room(room, None)
    settings.GAME_BOT_PACE = 1
    room.refresh_from_db()
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    scheduler.clear(room.scope)
    plan_deadlines(room, get_game("mbogo"), state)
    deadline = bot_deadline(room, dealer)
    assert deadline.due_at - deadline.created >= timedelta(seconds=7)


@pytest.mark.django_db
def test_a_player_gone_longer_than_the_takeover_time_is_played_by_a_bot_until_back():
    room, claims = started_room(("Ann", "Bea"))
    ann = room.seats.get(name="Ann")
    services.seat_connected(room.code, room.seats.get(name="Bea").id)  # Bea stays
    services.seat_connected(room.code, ann.id)
    services.seat_left(ann.id)
    gone_at = room.seats.get(name="Ann").seen_at
    later = gone_at + timedelta(seconds=61)
    services.stamp_seats([room.seats.get(name="Bea").id], later)  # Bea's heartbeat
    assert services.take_over_absent_seats(room.code, gone_at + timedelta(seconds=59)) == []
    assert services.take_over_absent_seats(room.code, later) == ["Ann"]
    room.refresh_from_db()
    assert "Bot playing for Ann" in render_room(room, None)
    # Ann deals, so the first move is hers: the bot makes it.
    assert actor(room)[0] == 0
    assert bot_deadline(room, 0) is not None
    assert services.play_bots(room.code, limit=1) == 1
    room.refresh_from_db()
    assert room.events.filter(kind=RoomEvent.BOT, seat=0).count() == 1
    services.seat_connected(room.code, ann.id)
    room.refresh_from_db()
    assert "Bot playing for" not in render_room(room, None)
    assert not room.seats.get(name="Ann").bot_plays


@pytest.mark.django_db
def test_a_bot_move_for_a_player_who_came_back_meanwhile_is_dropped():
    room, claims = started_room(("Ann", "Bea"))
    ann = room.seats.get(name="Ann")
    services.seat_left(ann.id)
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(minutes=5))
    deadline = bot_deadline(room, 0)
    assert deadline is not None
    services.seat_connected(room.code, ann.id)  # back before the bot's think ran out
    room.refresh_from_db()
    version = room.version
    assert not services.fire_deadline(deadline.pk, room.scope, timezone.now())
    room.refresh_from_db()
    assert room.version == version
    assert not room.events.filter(kind=RoomEvent.BOT).exists()


@pytest.mark.django_db
def test_the_same_deadline_fired_by_two_processes_is_applied_once():
    room, claims = started_room(("Ann",), bots=1)
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    deadline = bot_deadline(room, 0)
    room.refresh_from_db()
    version = room.version
    assert services.fire_deadline(deadline.pk, room.scope, timezone.now())
    assert not services.fire_deadline(deadline.pk, room.scope, timezone.now())
    room.refresh_from_db()
    assert room.version == version + 1


@pytest.mark.django_db
def test_a_pre_listed_name_is_played_by_a_bot_until_its_player_claims_the_seat():
    room, ann = services.create_room("mbogo", {"target": 0}, "Ann", prelisted=["Ann", "Bea"])
    services.start_room(room.code, claim_of(ann))
    room.refresh_from_db()
    assert "Bot playing for Bea" in render_room(room, None)
    bea = services.take_seat(room.code, 1)
    assert bea.claimed and not bea.bot_plays
    room.refresh_from_db()
    assert "Bot playing for Bea" not in render_room(room, None)
    assert claim_for_player(room, {"Bea": claim_of(bea)}, 1).seat_id == bea.id
    assert bot_deadline(room, 1) is None


@pytest.mark.django_db
def test_the_creator_chooses_a_kind_of_bot_per_seat():
    room, ann = services.create_room("mbogo", {"target": 0}, "Ann")
    services.set_seat_bot(room.code, claim_of(ann), 1, True, "random")
    services.set_seat_bot(room.code, claim_of(ann), 2, True)
    levels = dict(room.seats.filter(is_bot=True).values_list("slot", "bot_level"))
    assert levels == {1: "random", 2: "steady"}
    with pytest.raises(Refused, match="no bot of that kind"):
        services.set_seat_bot(room.code, claim_of(ann), 3, True, "genius")
