"""The room services: create, join, seats, start, and actions applied once, in order, or not
at all with a clear reason."""

from __future__ import annotations

import random

import pytest

from apps.core.errors import Refused
from apps.core.tokens import SeatClaim
from apps.games import services
from apps.games.models import Room, RoomEvent
from apps.games.registry import all_games, get_game
from apps.games.selectors import replay
from tests.games.roomkit import actor, claim_for_player, claim_of, play_randomly, started_room

pytestmark = pytest.mark.django_db


def test_a_new_room_has_a_code_the_creator_in_the_first_seat_and_empty_seats_up_to_the_max():
    room, seat = services.create_room("mbogo", {}, "  Ann  ")
    assert len(room.code) == 5
    assert room.status == Room.Status.LOBBY
    assert seat.name == "Ann" and seat.is_creator and seat.claimed and seat.slot == 0
    assert room.seats.count() == all_games()["mbogo"].max_players == 5
    assert room.options == {"target": 50}


def test_a_room_made_for_a_party_keeps_the_pre_listed_names_and_the_party_code():
    room, seat = services.create_room(
        "mbogo", {}, "Bea", prelisted=["Ann", "Bea", "Cal"], party_code="PARTY1"
    )
    names = [(s.name, s.prelisted, s.claimed) for s in room.seats.all()]
    assert names[:3] == [("Ann", True, False), ("Bea", False, True), ("Cal", True, False)]
    assert seat.slot == 1
    assert room.party_code == "PARTY1"


def test_an_unknown_game_or_too_many_names_is_refused_with_a_reason():
    with pytest.raises(Refused, match="no game called 'chess'"):
        services.create_room("chess", {}, "Ann")
    with pytest.raises(Refused, match="at most 5 players"):
        services.create_room("mbogo", {}, "Ann", prelisted=list("BCDEF"))
    with pytest.raises(Refused, match="Type your name"):
        services.create_room("mbogo", {}, "   ")
    assert Room.objects.count() == 0


def test_a_player_sits_on_an_empty_seat_or_claims_a_pre_listed_name():
    room, _ = services.create_room("mbogo", {}, "Ann", prelisted=["Ann", "Cal"])
    bea = services.take_seat(room.code, 2, "Bea")
    cal = services.take_seat(room.code.lower(), 1, "whatever")
    assert (bea.name, bea.claimed) == ("Bea", True)
    assert (cal.name, cal.claimed) == ("Cal", True)
    with pytest.raises(Refused, match="Bea already sits there"):
        services.take_seat(room.code, 2, "Dot")
    with pytest.raises(Refused, match="already called Bea"):
        services.take_seat(room.code, 3, "bea")
    with pytest.raises(Refused, match="no room with the code ZZZZZ"):
        services.take_seat("ZZZZZ", 3, "Dot")


def test_only_the_creator_adds_bots_and_starts_and_only_with_enough_players():
    room, ann = services.create_room("mbogo", {}, "Ann")
    ann_claim = claim_of(ann)
    bea_claim = claim_of(services.take_seat(room.code, 1, "Bea"))
    with pytest.raises(Refused, match="Only the player who made the room can start"):
        services.start_room(room.code, bea_claim)
    with pytest.raises(Refused, match="Only the player who made the room can add bots"):
        services.set_seat_bot(room.code, bea_claim, 2, True)
    services.set_seat_bot(room.code, ann_claim, 2, True)
    services.set_seat_bot(room.code, ann_claim, 3, True)
    services.set_seat_bot(room.code, ann_claim, 3, False)
    with pytest.raises(Refused, match="Only an empty seat"):
        services.set_seat_bot(room.code, ann_claim, 1, True)
    services.start_room(room.code, ann_claim)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    players = [(s.player, s.name) for s in room.seats.all() if s.player is not None]
    assert players == [(0, "Ann"), (1, "Bea"), (2, "Bot Kiki")]
    assert room.state["players"] == ["Ann", "Bea", "Bot Kiki"]
    with pytest.raises(Refused, match="already started"):
        services.start_room(room.code, ann_claim)


def test_a_room_cannot_start_below_the_games_minimum():
    room, ann = services.create_room("mbogo", {}, "Ann")
    version = Room.objects.get().version
    with pytest.raises(Refused, match="needs at least 2 players and 1 sits so far"):
        services.start_room(room.code, claim_of(ann))
    room.refresh_from_db()
    assert room.status == Room.Status.LOBBY and room.version == version


def test_an_action_is_applied_logged_and_bumps_the_version():
    room, claims = started_room()
    player, legal = actor(room)
    before = room.version
    result = services.perform_action(
        room.code, claim_for_player(room, claims, player), "first-move", legal[0]
    )
    room.refresh_from_db()
    assert result.version == room.version == before + 1
    logged = room.events.get(action_id="first-move")
    assert (logged.version, logged.seat, logged.data) == (before, player, legal[0])


def test_a_retried_action_id_is_applied_once_and_acknowledged_again():
    room, claims = started_room()
    player, legal = actor(room)
    claim = claim_for_player(room, claims, player)
    first = services.perform_action(room.code, claim, "tap-000001", legal[0])
    again = services.perform_action(room.code, claim, "tap-000001", legal[0])
    assert again.duplicate and again.version == first.version
    assert room.events.filter(kind=RoomEvent.MOVE).count() == 1


def unchanged(room: Room):
    """A context check: the room's version, state and log are the same afterwards."""
    room.refresh_from_db()
    snapshot = (room.version, room.state, room.events.count())

    class Check:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            room.refresh_from_db()
            assert (room.version, room.state, room.events.count()) == snapshot
            return False

    return Check()


def test_a_move_by_the_wrong_player_is_refused_in_words_and_changes_nothing():
    room, claims = started_room()
    player, legal = actor(room)
    other = claim_for_player(room, claims, 1 - player)
    with unchanged(room), pytest.raises(Refused, match="turn"):
        services.perform_action(room.code, other, "wrong-seat", legal[0])


def test_a_move_is_not_refused_because_the_room_changed_since_the_phone_drew_it():
    room, claims = started_room(("Ann", "Bea", "Cal"))
    player, legal = actor(room)
    services.perform_action(
        room.code, claim_for_player(room, claims, player), "move-0001", legal[0]
    )
    room.refresh_from_db()
    player, legal = actor(room)
    # The phone drew its buttons at an older version; the move is still legal, so it counts.
    result = services.perform_action(
        room.code, claim_for_player(room, claims, player), "move-0002", legal[0]
    )
    assert not result.duplicate
    assert room.events.filter(kind=RoomEvent.MOVE).count() == 2


def test_forged_foreign_stale_and_missing_tokens_are_refused():
    room, claims = started_room()
    player, legal = actor(room)
    real = claim_for_player(room, claims, player)
    other_room, _ = services.create_room("mbogo", {}, "Zed")
    cases = [
        (None, "watching this table"),
        (SeatClaim(other_room.scope, real.seat_id, real.nonce), "another room"),
        (SeatClaim(room.scope, 999_999, real.nonce), "not in this room"),
        (SeatClaim(room.scope, real.seat_id, "0" * 16), "given to someone else"),
    ]
    for claim, reason in cases:
        with unchanged(room), pytest.raises(Refused, match=reason):
            services.perform_action(room.code, claim, "forged-01", legal[0])


@pytest.mark.parametrize(
    "action, reason",
    [
        ({"type": "release", "animal": 60}, "Mbogo can never be played"),
        ({"type": "fly"}, "not a move in Mbogo"),
        ("release", "not a move in this game"),
    ],
)
def test_an_illegal_action_gets_the_rules_reason_and_changes_nothing(action, reason):
    room, claims = started_room()
    player, _ = actor(room)
    with unchanged(room), pytest.raises(Refused, match=reason) as error:
        services.perform_action(
            room.code, claim_for_player(room, claims, player), "bad-0001", action
        )
    assert str(error.value)


def test_actions_before_the_start_are_refused():
    room, ann = services.create_room("mbogo", {}, "Ann")
    with pytest.raises(Refused, match="not started"):
        services.perform_action(room.code, claim_of(ann), "early-001", {"type": "skip"})


def test_a_whole_hand_replays_from_the_seed_and_the_log_to_the_same_state():
    room, claims = started_room(("Ann", "Bea", "Cal"))
    moves = play_randomly(room, claims, random.Random(7))
    room.refresh_from_db()
    assert moves > 10
    assert room.status == Room.Status.FINISHED  # a single-hand match (target 0)
    assert replay(room).to_json() == room.state
    halfway = room.events.order_by("version")[moves // 2].version
    assert replay(room, halfway).to_json() != room.state


def test_only_the_next_dealer_deals_the_next_hand():
    # Six kinds of animal make at most 60 points in a hand: a match to 100 goes on after the
    # first (to 50, a deal where both reach 51 ended it).
    room, claims = started_room(options={"target": 100})
    play_randomly(room, claims, random.Random(3), until=lambda state: state.hand.phase == "over")
    room.refresh_from_db()
    state = get_game("mbogo").load_state(room.state)
    assert state.hand.phase == "over" and not state.over
    assert room.status == Room.Status.PLAYING  # the match goes on: outcome is still None
    # The next dealer is seat 1 (Bea); Ann may not deal for her.
    with unchanged(room), pytest.raises(Refused, match="Bea deals the next hand"):
        services.perform_action(room.code, claims["Ann"], "next-hand-0", {"type": "next_hand"})
    services.perform_action(room.code, claims["Bea"], "next-hand-1", {"type": "next_hand"})
    room.refresh_from_db()
    assert room.state["hand_number"] == 2
    assert RoomEvent.objects.get(action_id="next-hand-1").seat == 1
