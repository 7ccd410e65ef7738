"""Bots: they fill empty seats, play whole hands, stand in for a player whose phone has gone,
and hand the seat back when the phone returns."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from apps.games import bots, services
from apps.games.models import Room
from apps.games.registry import get_game
from apps.games.selectors import render_room
from tests.games.roomkit import actor, claim_for_player, claim_of, started_room


@pytest.fixture(autouse=True)
def bot_settings(settings):
    settings.GAME_BOT_DELAY = 0
    settings.GAME_BOT_TAKEOVER = 60


def hand_over(room: Room) -> bool:
    room.refresh_from_db()
    return get_game(room.game).load_state(room.state).hand.phase == "over"


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
        bot_moves += bots.play_bots(room.code)
        if hand_over(room):
            break
        player, legal = actor(room)
        assert player == 0, "the bots left a move undone"
        services.perform_action(room.code, claims["Ann"], f"ann-{ann_moves:05d}", rng.choice(legal))
        ann_moves += 1
    assert bot_moves > 10 and ann_moves > 3
    assert room.status == Room.Status.FINISHED
    assert room.actions.filter(action_id__startswith=f"bot:{room.code}:").count() == bot_moves


@pytest.mark.django_db
def test_bots_never_deal_the_next_hand_so_the_scores_stay_up_until_a_person_moves_on():
    room, claims = started_room(("Ann",), bots=1, options={"target": 50})
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    bots.play_bots(room.code)
    assert hand_over(room)
    assert bots.play_bots(room.code) == 0
    assert "Score of hand 1" in render_room(room, None)


@pytest.mark.django_db
def test_a_player_gone_longer_than_the_takeover_time_is_played_by_a_bot_until_back():
    room, claims = started_room(("Ann", "Bea"))
    ann = room.seats.get(name="Ann")
    services.seat_connected(room.code, room.seats.get(name="Bea").id)  # Bea stays
    services.seat_connected(room.code, ann.id)
    services.seat_disconnected(room.code, ann.id)
    gone_at = room.seats.get(name="Ann").left_at
    assert services.take_over_absent_seats(room.code, gone_at + timedelta(seconds=59)) == []
    assert services.take_over_absent_seats(room.code, gone_at + timedelta(seconds=61)) == ["Ann"]
    room.refresh_from_db()
    assert "Bot playing for Ann" in render_room(room, None)
    # Ann deals, so the first move is hers: the bot makes it.
    assert actor(room)[0] == 0
    assert bots.play_bot_move(room.code)
    room.refresh_from_db()
    assert room.actions.filter(action_id__startswith="bot:", player=0).count() == 1
    services.seat_connected(room.code, ann.id)
    room.refresh_from_db()
    assert "Bot playing for" not in render_room(room, None)
    assert not room.seats.get(name="Ann").bot_plays


@pytest.mark.django_db
def test_a_bot_move_for_a_player_who_came_back_meanwhile_is_dropped():
    room, claims = started_room(("Ann", "Bea"))
    ann = room.seats.get(name="Ann")
    services.seat_disconnected(room.code, ann.id)
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(minutes=5))
    room.refresh_from_db()
    player, action = bots.next_bot_move(room)
    services.seat_connected(room.code, ann.id)  # back before the bot's delay ran out
    room.refresh_from_db()
    move_id = f"bot:{room.code}:{room.version}"
    assert services.perform_bot_action(room.code, player, room.version, action, move_id) is None


@pytest.mark.django_db
def test_the_same_bot_move_from_two_timers_is_applied_once_and_a_stale_one_not_at_all():
    room, claims = started_room(("Ann",), bots=1)
    services.take_over_absent_seats(room.code, timezone.now() + timedelta(hours=1))
    room.refresh_from_db()
    player, action = bots.next_bot_move(room)
    version = room.version
    move_id = f"bot:{room.code}:{version}"
    first = services.perform_bot_action(room.code, player, version, action, move_id)
    second = services.perform_bot_action(room.code, player, version, action, move_id)
    assert first is not None and second is not None and second.duplicate
    assert services.perform_bot_action(room.code, player, version, action, "bot:other") is None
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


@pytest.mark.django_db(transaction=True)
def test_with_real_timers_bots_take_over_absent_players_and_finish_the_hand(settings):
    settings.GAME_BOT_TAKEOVER = 0
    room, claims = started_room(("Ann", "Bea"), bots=1)
    # Neither phone ever opened the table: the takeover clock started at the deal.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if hand_over(room):
                break
        except OperationalError:
            pass  # the in-memory test database is briefly locked by a bot's write
        time.sleep(0.05)
    else:
        raise AssertionError("the bots did not finish the hand")
    assert room.status == Room.Status.FINISHED
    assert set(room.seats.filter(player__isnull=False).values_list("taken_over", flat=True)) == {
        True,
        False,  # the bot's own seat is a bot, not taken over
    }
