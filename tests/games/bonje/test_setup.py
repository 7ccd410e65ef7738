"""The deck, the deal, the options: Bonje in de Stal's set-up."""

from __future__ import annotations

from collections import Counter

import pytest

from apps.core.protocol import DELAY, IllegalAction
from apps.games.bonje import rules
from apps.games.bonje.cards import (
    CARD_DATA,
    DECK_SIZE,
    FOUR_PLAYER_CARDS,
    NAME_OF,
    NUMBER,
    deck_for,
    is_animal,
)
from tests.games.bonje import NAMES, rng


def test_illegal_action_is_the_protocols_exception():
    from apps.core.protocol import IllegalAction as ProtocolIllegalAction

    assert rules.IllegalAction is ProtocolIllegalAction


def test_the_deck_has_the_rulings_84_playing_cards():
    """Ruling: "The 84 playing cards are: 4 stallions, 7 mares, 4 bulls, 7 cows, 5 boars,
    10 sows, 5 rams, 10 ewes, 6 roosters, 12 hens, 3 elephants, 2 mad cows, 2 mad stallions,
    7 transport trucks." """
    assert DECK_SIZE == 84
    assert Counter(NAME_OF) == {
        "stallion": 4,
        "mare": 7,
        "bull": 4,
        "cow": 7,
        "boar": 5,
        "sow": 10,
        "ram": 5,
        "ewe": 10,
        "rooster": 6,
        "hen": 12,
        "elephant": 3,
        "mad_cow": 2,
        "mad_stallion": 2,
        "truck": 7,
    }


def test_eighteen_cards_carry_the_four_player_symbol_leaving_66():
    """Ruling: "18 do, leaving 66 for 2 or 3 players: 1 stallion, 1 mare, 1 bull, 1 cow,
    1 boar, 3 sows, 1 ram, 3 ewes, 1 rooster, 3 hens, 1 elephant, 1 transport truck." """
    assert len(FOUR_PLAYER_CARDS) == 18
    assert Counter(NAME_OF[c] for c in FOUR_PLAYER_CARDS) == {
        "stallion": 1,
        "mare": 1,
        "bull": 1,
        "cow": 1,
        "boar": 1,
        "sow": 3,
        "ram": 1,
        "ewe": 3,
        "rooster": 1,
        "hen": 3,
        "elephant": 1,
        "truck": 1,
    }
    assert len(deck_for(2)) == len(deck_for(3)) == 66
    assert deck_for(4) == list(range(84))


def test_cards_carry_the_rulings_numbers_and_ordinary_animals_none():
    """Ruling: "elephant 3, mad cow 4, mad stallion 5, transport truck 6. Ordinary animals have
    no number and count as lowest." """
    numbers = {NAME_OF[c]: NUMBER[c] for c in range(DECK_SIZE)}
    assert numbers["elephant"] == 3
    assert numbers["mad_cow"] == 4
    assert numbers["mad_stallion"] == 5
    assert numbers["truck"] == 6
    assert all(NUMBER[c] is None for c in range(DECK_SIZE) if is_animal(c))
    assert CARD_DATA[0] == {
        "id": 0,
        "name": "stallion",
        "label": "stallion",
        "kind": "horse",
        "sex": "male",
        "number": None,
    }


@pytest.mark.parametrize(("players", "share"), [(2, 33), (3, 22), (4, 21)])
def test_the_cards_are_dealt_evenly_into_face_down_stacks(players, share):
    """ "Shuffle the deck of cards and then deal them evenly among the players. Each player
    places their cards in front of them as a face-down stack." Ruling: "84/4 = 21, 66/3 = 22,
    66/2 = 33." With 2 or 3 players the four-player cards are out of the game."""
    state = rules.setup(NAMES[:players], {}, rng(players))
    assert [len(stack) for stack in state.stacks] == [share] * players
    dealt = sorted(c for stack in state.stacks for c in stack)
    assert dealt == deck_for(players)
    if players < 4:
        assert not set(dealt) & FOUR_PLAYER_CARDS
    seen = rules.view(state, None)
    assert [p["stack"] for p in seen["players"]] == [share] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_three_empty_stables_and_the_rest_stay_in_the_box(players):
    """ "Each player receives 3 stables ... Return the remaining stables to the box." (20)"""
    state = rules.setup(NAMES[:players], {}, rng())
    assert [len(row) for row in state.stables] == [3] * players
    assert all(not s.cards and s.special is None for row in state.stables for s in row)
    assert state.box == 20 - 3 * players
    assert rules.view(state, 0)["box"] == {"stables": 20 - 3 * players, "special": []}


@pytest.mark.parametrize("players", [1, 5])
def test_bonje_is_for_two_to_four_players(players):
    with pytest.raises(IllegalAction, match="2 to 4 players"):
        rules.setup(["P"] * players, {}, rng())


def test_the_options_are_the_game_length_the_bonus_variant_and_the_reveal_delay():
    by_name = {option.name: option for option in rules.OPTIONS}
    assert set(by_name) == {"length", "bonus", "reveal_ms"}
    assert by_name["length"].default == "full"
    assert [c for c, _ in by_name["length"].choices] == ["full", "short"]
    assert by_name["bonus"].default is False
    assert 1000 <= by_name["reveal_ms"].default <= 1500


def test_setup_takes_the_defaults_for_missing_options():
    state = rules.setup(NAMES[:2], {"bonus": True}, rng())
    assert state.options == {"length": "full", "bonus": True, "reveal_ms": 1200}
    assert state.special_box == ["horse", "cow"]
    assert rules.setup(NAMES[:2], {}, rng()).options["bonus"] is False
    assert rules.setup(NAMES[:2], None, rng()).options["length"] == "full"


def test_options_from_a_form_are_cleaned_and_bad_ones_refused():
    state = rules.setup(NAMES[:3], {"length": "short", "bonus": "True", "reveal_ms": "800"}, rng())
    assert state.options == {"length": "short", "bonus": True, "reveal_ms": 800}
    with pytest.raises(IllegalAction):
        rules.setup(NAMES[:3], {"length": "forever"}, rng())
    with pytest.raises(IllegalAction):
        rules.setup(NAMES[:3], {"reveal_ms": 99_999}, rng())


def test_the_deal_comes_from_the_rng_passed_in():
    first = rules.setup(NAMES[:4], {}, rng(7))
    again = rules.setup(NAMES[:4], {}, rng(7))
    other = rules.setup(NAMES[:4], {}, rng(8))
    assert first.to_json() == again.to_json()
    assert first.stacks != other.stacks


def test_a_round_starts_with_a_timed_flip_and_nobody_may_take_yet():
    state = rules.setup(NAMES[:3], {}, rng())
    assert rules.legal_actions(state, None) == [
        {"type": "flip", "round": 1, "turn": 1, DELAY: rules.FIRST_FLIP_MS}
    ]
    assert all(rules.legal_actions(state, seat) == [] for seat in range(3))
    with pytest.raises(IllegalAction, match="next cards"):
        rules.apply(state, 0, {"type": "take", "from": 1}, rng())
