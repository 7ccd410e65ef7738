"""Scoring a hand: 1 per caged animal, 3 per kind only you have, 10 for all seven."""

from __future__ import annotations

from apps.games.mbogo import rules
from apps.games.mbogo.scoring import score_hand
from tests.games.mbogo import CAGES, ELEPHANTS, GORILLAS, LIONS, MBOGO, hand_state, match_of


def test_each_caged_animal_scores_one_point_and_a_shared_kind_no_bonus():
    """ "1 point for each animal the player has in a cage." """
    scores, breakdown = score_hand({0: {"lion": 2}, 1: {"lion": 3}})
    assert scores == {0: 2, 1: 3}
    assert breakdown[0] == {"animals": 2, "sole_kinds": [], "all_seven": []}


def test_a_kind_only_one_player_has_caged_scores_three_more():
    """ "3 points for each type of animal that only that player has." """
    scores, breakdown = score_hand({0: {"lion": 2, "gorilla": 1}, 1: {"lion": 1}, 2: {}})
    assert scores == {0: 2 + 1 + 3, 1: 1, 2: 0}
    assert breakdown[0]["sole_kinds"] == ["gorilla"]


def test_all_seven_of_a_kind_score_ten_instead_of_three():
    """ "10 points (instead of 3) for each type of animal that the player has captured all
    seven of." """
    scores, breakdown = score_hand({0: {"elephant": 7, "lion": 1}, 1: {"gorilla": 2}})
    assert scores == {0: 7 + 10 + 1 + 3, 1: 2 + 3}
    assert breakdown[0] == {"animals": 8, "sole_kinds": ["lion"], "all_seven": ["elephant"]}


def test_cards_in_hand_score_nothing_and_only_own_cages_count():
    """Ruling: "Cards in hand score nothing." """
    hand = hand_state(
        [[LIONS[5], LIONS[6], MBOGO], []],
        cages=[
            [(CAGES[0], LIONS[:2]), (CAGES[1], LIONS[2:4]), (CAGES[2], [])],
            [(CAGES[3], ELEPHANTS[:7]), (CAGES[4], [GORILLAS[0]])],
        ],
    )
    hand.phase = "over"
    hand.ended_by = "cards"
    result = rules.hand_result(match_of(hand))
    assert result["caged"] == {0: {"lion": 4}, 1: {"elephant": 7, "gorilla": 1}}
    assert result["scores"] == {0: 4 + 3, 1: 8 + 10 + 3}
    assert result["breakdown"][1] == {
        "animals": 8,
        "sole_kinds": ["gorilla"],
        "all_seven": ["elephant"],
    }
