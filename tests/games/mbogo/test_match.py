"""A match: hands until someone has 50, the dealer moving to the left."""

from __future__ import annotations

import json

import pytest

from apps.games.mbogo import rules
from apps.games.mbogo.rules import IllegalAction, MatchState
from tests.games.mbogo import CAGES, GORILLAS, LIONS, NAMES, hand_state, match_of, rng


def finishing_hand(dealer: int = 0):
    """A hand one play from its end: Ann cages her last lion, Bea alone keeps cards."""
    return hand_state(
        [[LIONS[0]], [GORILLAS[0], GORILLAS[1]], []],
        cages=[[(CAGES[0], [LIONS[1]])], [], []],
        dealer=dealer,
    )


def finish(state: MatchState) -> MatchState:
    return rules.apply(state, 0, {"type": "animal", "animal": LIONS[0], "cage": 0}, rng())


def test_hand_scores_are_added_to_the_match_totals_and_the_dealer_moves_left():
    """ "Players should play several hands, rotating the dealer clockwise, and adding points
    cumulatively"; ruling: "the dealer moving to the left"."""
    state = finish(match_of(finishing_hand(dealer=0), target=50, totals=[10, 20, 30]))
    result = rules.hand_result(state)
    assert result["scores"] == {0: 5, 1: 0, 2: 0}
    assert result["match"]["totals"] == {0: 15, 1: 20, 2: 30}
    assert result["match"]["over"] is False and result["match"]["winners"] == []
    assert state.history == [[5, 0, 0]]
    # The next dealer (Bea, to the dealer's left) deals; nobody else, not even the system.
    assert rules.legal_actions(state, 1) == [{"type": "next_hand"}]
    assert rules.legal_actions(state, 0) == []
    assert rules.legal_actions(state, None) == []
    assert rules.outcome(state) is None  # the match goes on
    for seat in (2, None):
        with pytest.raises(IllegalAction, match="Bea deals the next hand."):
            rules.apply(state, seat, {"type": "next_hand"}, rng())
    after = rules.apply(state, 1, {"type": "next_hand"}, rng())
    assert after.hand.dealer == 1 and after.hand.turn == 1 and after.hand_number == 2
    assert rules.hand_result(after) is None


def test_the_dealer_after_the_last_seat_is_the_first():
    state = finish(match_of(finishing_hand(dealer=2), target=50))
    assert rules.apply(state, 0, {"type": "next_hand"}, rng()).hand.dealer == 0


def test_the_match_ends_when_a_player_has_fifty_or_more_after_a_hand():
    """Ruling: "until a player has 50 or more after a hand: the most points win"."""
    state = finish(match_of(finishing_hand(), target=50, totals=[45, 49, 0]))
    result = rules.hand_result(state)
    assert result["match"]["over"] is True
    assert result["match"]["totals"] == {0: 50, 1: 49, 2: 0}
    assert result["match"]["winners"] == [0]
    assert rules.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="The match is over."):
        rules.apply(state, 1, {"type": "next_hand"}, rng())


def test_players_tied_on_the_most_points_share_the_win():
    """Ruling: "the most points win (ties share)"."""
    state = finish(match_of(finishing_hand(), target=50, totals=[47, 52, 10]))
    assert rules.hand_result(state)["match"]["winners"] == [0, 1]


def test_a_target_of_zero_plays_a_single_hand():
    state = rules.setup(NAMES[:2], {"target": 0}, rng())
    assert state.max_hands == 1
    state = finish(match_of(finishing_hand()))
    assert rules.hand_result(state)["match"]["over"] is True
    assert rules.view(state, None)["match"]["winners"] == [0]


def test_only_the_target_the_lobby_offers_ends_a_match_no_count_of_hands():
    """The lobby offers "Play to" alone, so a setting no room can make changes nothing: a
    match to 50 is played to 50, whatever else is sent along."""
    state = rules.setup(NAMES[:2], {"target": 50, "hands": 1}, rng())
    assert (state.target, state.max_hands) == (50, None)


def test_a_whole_match_to_fifty_replays_from_its_seed_and_round_trips_through_json():
    def play_match(seed: int) -> MatchState:
        r = rng(seed)
        state = rules.setup(NAMES[:3], {"target": 50, "dealer": 1}, r)
        dealers = [state.hand.dealer]
        while not state.over:
            seat = rules.view(state, None)["to_act"]
            if seat is None:  # between hands: the next dealer deals
                dealer = (state.hand.dealer + 1) % 3
                state = rules.apply(state, dealer, {"type": "next_hand"}, r)
                dealers.append(state.hand.dealer)
                continue
            state = rules.apply(state, seat, r.choice(rules.legal_actions(state, seat)), r)
            restored = MatchState.from_json(json.dumps(state.to_json()))
            assert restored.to_json() == state.to_json()
        assert dealers == [(1 + i) % 3 for i in range(len(dealers))]
        return state

    first, again = play_match(11), play_match(11)
    assert first.to_json() == again.to_json()
    assert max(first.totals) >= 50
    assert first.totals == [sum(h[s] for h in first.history) for s in range(3)]
    winners = [s for s, t in enumerate(first.totals) if t == max(first.totals)]
    assert rules.hand_result(first)["match"]["winners"] == winners
    result = rules.outcome(first)
    assert result["winners"] == winners and result["ranking"][0] == winners
    assert result["scores"] == dict(enumerate(first.totals))
