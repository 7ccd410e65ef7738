"""Mbogo bots: legal moves, decided from the seat's own view."""

from __future__ import annotations

import random

import pytest

from apps.games.mbogo import rules
from apps.games.mbogo.bots import choose_heuristic, choose_random
from tests.games.mbogo import (
    CAGES,
    ELEPHANTS,
    GORILLAS,
    HUNTERS,
    LIONS,
    MBOGO,
    NAMES,
    hand_state,
    match_of,
)


def play_hand(bots, seed: int) -> rules.MatchState:
    rng = random.Random(seed)
    state = rules.setup(NAMES[: len(bots)], {"target": 0, "dealer": seed % len(bots)}, rng)
    while rules.hand_result(state) is None:
        seat = rules.to_act(state)
        action = bots[seat](state, seat, rng)
        assert action in rules.legal_actions(state, seat)
        state = rules.apply(state, seat, action, rng)
    return state


@pytest.mark.parametrize("bot", [choose_random, choose_heuristic])
def test_bots_play_whole_hands_with_legal_actions(bot):
    for seed in range(20):
        play_hand([bot] * (2 + seed % 4), seed)


@pytest.mark.parametrize("bot", [choose_random, choose_heuristic])
def test_a_bot_with_nothing_to_do_returns_none(bot):
    state = rules.setup(NAMES[:3], {}, random.Random(0))
    assert bot(state, 1, random.Random(0)) is None


def test_the_heuristic_bot_scores_at_least_as_well_as_the_random_bot():
    totals = {"heuristic": 0, "random": 0}
    for seed in range(40):
        bots = [choose_heuristic, choose_random] if seed % 2 else [choose_random, choose_heuristic]
        scores = rules.hand_result(play_hand(bots, seed))["scores"]
        me = bots.index(choose_heuristic)
        totals["heuristic"] += scores[me]
        totals["random"] += scores[1 - me]
    assert totals["heuristic"] >= totals["random"] * 0.9


def test_the_heuristic_bot_hunts_when_it_can():
    hand = hand_state(
        [[HUNTERS[0], LIONS[0], CAGES[0]], [GORILLAS[0]]],
        cages=[[(CAGES[1], [ELEPHANTS[0]])], []],
        centre=[ELEPHANTS[1]],
    )
    action = choose_heuristic(match_of(hand), 0, random.Random(0))
    assert action == {"type": "hunt", "hunter": HUNTERS[0], "animal": ELEPHANTS[1], "cage": 0}


def test_the_heuristic_bot_fills_a_cage_of_its_kind_before_an_empty_one():
    hand = hand_state(
        [[LIONS[0], GORILLAS[1]], [GORILLAS[0]]],
        cages=[[(CAGES[0], []), (CAGES[1], [LIONS[1]])], []],
    )
    action = choose_heuristic(match_of(hand), 0, random.Random(0))
    assert action == {"type": "animal", "animal": LIONS[0], "cage": 1}


def test_the_heuristic_bot_releases_the_kind_a_rival_already_cages():
    hand = hand_state(
        [[LIONS[0], ELEPHANTS[0]], [GORILLAS[0]]],
        cages=[[(CAGES[0], [GORILLAS[1]])], [(CAGES[2], LIONS[2:5])]],
    )
    action = choose_heuristic(match_of(hand), 0, random.Random(0))
    assert action == {"type": "release", "animal": LIONS[0]}


def test_the_heuristic_bot_sends_mbogo_to_the_fullest_cage():
    hand = hand_state(
        [[MBOGO], [GORILLAS[0]]],
        cages=[[(CAGES[0], LIONS[:2]), (CAGES[1], ELEPHANTS[:4]), (CAGES[2], [])], []],
        phase="mbogo_attack",
    )
    hand.attack = {"chooser": 1, "drawer": 0}
    assert choose_heuristic(match_of(hand), 1, random.Random(0)) == {"type": "attack", "cage": 1}


@pytest.mark.parametrize("bot", [choose_random, choose_heuristic])
def test_bots_decide_from_their_own_view_only(bot):
    """Bots "only use what that seat's view would show": the same view, the same choice,
    whatever the hidden cards are."""
    rng = random.Random(3)
    state = rules.setup(NAMES[:3], {}, rng)
    for _ in range(40):
        seat = rules.to_act(state)
        other = rules.MatchState.from_json(state.to_json())
        # Exchange the other two hands wholesale (same sizes) and the face-down card's place.
        a, b = [s for s in range(3) if s != seat]
        if len(other.hand.hands[a]) == len(other.hand.hands[b]):
            other.hand.hands[a], other.hand.hands[b] = other.hand.hands[b], other.hand.hands[a]
        assert rules.view(other, seat) == rules.view(state, seat)
        assert bot(other, seat, random.Random(9)) == bot(state, seat, random.Random(9))
        state = rules.apply(state, seat, bot(state, seat, rng), rng)
        if rules.hand_result(state) is not None:
            break
