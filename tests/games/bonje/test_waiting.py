"""WAIT, and the number order in which waiting cards are played."""

from __future__ import annotations

import pytest

from apps.core.protocol import IllegalAction
from apps.games.bonje import rules
from apps.games.bonje.state import PAUSE
from tests.games.bonje import (
    BULLS,
    ELEPHANTS,
    FULL,
    HENS,
    MAD_COWS,
    MARES,
    STALLIONS,
    TRUCKS,
    elephant_against_truck,
    play,
    position,
)


def test_a_player_may_wait_instead_of_playing():
    """Ruling: "A player may press WAIT instead." """
    state = position([[[], [], []], [[], [], []]], held=[MARES[0], HENS[0]], stacks=[[1], [2]])
    assert {"type": "wait"} in rules.legal_actions(state, 0)
    state = play(state, 0, {"type": "wait"})
    assert state.waiting == [True, False]
    assert rules.view(state, None)["players"][0]["waiting"] is True
    assert state.log[-1] == {"type": "wait", "seat": 0, "card": MARES[0]}


def test_the_rulebooks_example_the_elephant_is_played_before_the_waiting_truck():
    """ "Player A has an elephant and player B has a transport truck. ... Player B also wants to
    wait. Because the elephant shows number 3 and the transport truck number 6, player A must
    play their elephant first. Then player B plays their transport truck." """
    state = position(
        [[[STALLIONS[0]], [], []], [[], [BULLS[0]], [HENS[0]]]],
        held=[ELEPHANTS[0], TRUCKS[0]],
        stacks=[[1], [2]],
    )
    state = play(state, 0, {"type": "wait"})
    assert rules.view(state, None)["due"] is None  # B has not played nor waited yet
    state = play(state, 1, {"type": "wait"})
    seen = rules.view(state, None)
    assert (seen["due"], seen["waiting_order"]) == (0, [0, 1])
    assert rules.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="number order"):
        play(
            state,
            1,
            {
                "type": "truck",
                "from_seat": 0,
                "from_stable": 0,
                "animal": "stallion",
                "to_seat": None,
                "to_stable": None,
            },
        )
    assert rules.legal_actions(state, 0) == [{"type": "elephant", "seat": 1, "stable": 0}]
    state = play(state, 0, {"type": "elephant", "seat": 1, "stable": 0})
    assert rules.view(state, None)["due"] == 1
    state = play(
        state,
        1,
        {
            "type": "truck",
            "from_seat": 1,
            "from_stable": 0,
            "animal": "elephant",
            "to_seat": 0,
            "to_stable": 1,
        },
    )
    assert state.stables[0][1].cards == [ELEPHANTS[0]]
    assert state.phase == PAUSE


def test_unnumbered_cards_are_played_before_numbered_ones():
    """ "Cards without a number count as the lowest numbers." """
    state = position([[[], [], []], [[], [], []]], held=[ELEPHANTS[0], MARES[0]], stacks=[[1], [2]])
    state = play(state, 0, {"type": "wait"})
    state = play(state, 1, {"type": "wait"})
    assert rules.view(state, None)["waiting_order"] == [1, 0]
    assert rules.view(state, None)["due"] == 1


def test_equal_numbers_are_played_in_the_order_the_cards_were_taken():
    """Ruling: "equal numbers by take order"."""
    state = position(
        [[[HENS[0]], [], []], [[], [], []], [[], [], []]],
        held=[TRUCKS[0], TRUCKS[1], MARES[0]],
        took_from=[0, 1, 2],
        stacks=[[1], [2], [3]],
    )
    state.take_order = [1, 0, 2]  # Bea took her truck before Ann
    state = play(state, 0, {"type": "wait"})
    state = play(state, 1, {"type": "wait"})
    assert rules.view(state, None)["due"] is None
    state = play(state, 2, {"type": "place", "stable": 0})
    assert rules.view(state, None)["waiting_order"] == [1, 0]
    assert rules.view(state, None)["due"] == 1


def test_a_wait_cannot_be_taken_back():
    state = position([[[], [], []], [[], [], []]], held=[MARES[0], HENS[0]], stacks=[[1], [2]])
    state = play(state, 0, {"type": "wait"})
    assert rules.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="already waiting"):
        play(state, 0, {"type": "wait"})
    with pytest.raises(IllegalAction, match="chose to wait"):
        play(state, 0, {"type": "place", "stable": 0})


def test_waiting_cards_wait_until_every_other_card_is_taken_and_played():
    """ "When everyone who has not waited has played": a player still to take has not played."""
    state = position(
        [[[], [], []], [[], [], []], [[], [], []]],
        face_up=[MARES[0], STALLIONS[0], HENS[0]],
        stacks=[[1], [2], [3]],
    )
    state = play(state, 0, {"type": "take", "from": 1})
    state = play(state, 0, {"type": "wait"})
    assert rules.view(state, None)["due"] is None
    state = play(state, 1, {"type": "take", "from": 0})
    assert state.held == [STALLIONS[0], MARES[0], HENS[0]]  # Cal got the last card
    state = play(state, 1, {"type": "place", "stable": 0})
    assert rules.view(state, None)["due"] is None
    state = play(state, 2, {"type": "place", "stable": 0})
    assert rules.view(state, None)["due"] == 0
    assert rules.legal_actions(state, 0) == [{"type": "place", "stable": i} for i in range(3)]


def test_a_waiting_card_that_can_no_longer_be_played_is_removed_when_its_turn_comes():
    """ "If a player cannot play a card, they remove it from the game." Ruling: "automatically
    and visibly"."""
    state = position(
        [[[], [], []], [[], [HENS[0]], [HENS[1]]]],
        held=[ELEPHANTS[0], MARES[0]],
        stacks=[[1], [2]],
    )
    state = play(state, 0, {"type": "wait"})
    state = play(state, 1, {"type": "place", "stable": 0})  # Bea fills her last empty stable
    assert ELEPHANTS[0] in state.removed
    assert state.log[-1] == {
        "type": "removed",
        "seat": 0,
        "card": ELEPHANTS[0],
        "reason": "no_empty_stable",
        "waited": True,
    }
    assert state.phase == PAUSE


def test_a_held_card_that_loses_its_last_target_is_removed_at_once():
    state = position(
        [[[], [HENS[0]], [HENS[1]]], [[], [], []]],
        held=[STALLIONS[0], ELEPHANTS[0]],
        stacks=[[1], [2]],
    )
    state = play(state, 0, {"type": "place", "stable": 0})  # Ann fills her last empty stable
    assert state.held == [None, None]
    assert state.log[-1] == {
        "type": "removed",
        "seat": 1,
        "card": ELEPHANTS[0],
        "reason": "no_empty_stable",
    }


# --- a card with no target yet ---------------------------------------------------------------

TRUCK_OUT_OF_CALS_STABLE = {
    "type": "truck",
    "from_seat": 2,
    "from_stable": 0,
    "animal": "hen",
    "to_seat": None,
    "to_stable": None,
}


def test_a_card_with_no_target_yet_may_wait_while_a_held_truck_could_make_one():
    """ "If one or more players want to wait with playing in order to let others go first":
    the waiting tactic is for any taken card. Bea's truck could still empty a stable, so Ann
    keeps her elephant and may WAIT."""
    state = elephant_against_truck()
    assert state.held[0] == ELEPHANTS[0] and ELEPHANTS[0] not in state.removed
    assert rules.legal_actions(state, 0) == [{"type": "wait"}]
    state = play(state, 0, {"type": "wait"})
    state = play(state, 1, TRUCK_OUT_OF_CALS_STABLE)  # Cal's stable 1 is empty now
    assert rules.view(state, None)["due"] == 0
    assert rules.legal_actions(state, 0) == [{"type": "elephant", "seat": 2, "stable": 0}]
    state = play(state, 0, {"type": "elephant", "seat": 2, "stable": 0})
    assert state.stables[2][0].cards == [ELEPHANTS[0]] and state.phase == PAUSE


def test_a_card_that_still_has_no_target_when_its_turn_comes_is_removed_visibly():
    """Ruling: "A card that cannot legally be played is removed from the game, automatically
    and visibly", when its turn in the waiting order comes."""
    state = play(elephant_against_truck(), 0, {"type": "wait"})
    truck_from_ann = {**TRUCK_OUT_OF_CALS_STABLE, "from_seat": 0, "animal": "stallion"}
    state = play(state, 1, truck_from_ann)  # only Ann's own stable is empty: no place for it
    assert ELEPHANTS[0] in state.removed and state.held[0] is None
    assert state.log[-1] == {
        "type": "removed",
        "seat": 0,
        "card": ELEPHANTS[0],
        "reason": "no_empty_stable",
        "waited": True,
    }
    assert state.phase == PAUSE


def test_a_card_is_removed_at_once_when_nothing_still_held_could_make_a_target():
    """A hen can empty no stable, and a truck that waits is played after the elephant (number
    6 after 3): neither could give the elephant a place, so it leaves the game at once."""
    state = position(
        FULL,
        face_up=[ELEPHANTS[0], None, None],
        held=[None, HENS[1], None],
        took_from=[None, 1, None],
        stacks=[[1], [2], [3]],
    )
    state = play(state, 0, {"type": "take", "from": 0})
    assert ELEPHANTS[0] in state.removed
    assert state.log[-1]["type"] == "removed" and "waited" not in state.log[-1]
    state = elephant_against_truck()
    state = play(state, 1, {"type": "wait"})
    assert ELEPHANTS[0] in state.removed and state.held == [None, TRUCKS[0], None]
    assert rules.view(state, None)["due"] == 1


def test_a_card_that_loses_its_target_may_wait_for_a_held_card_that_could_bring_one_back():
    """The same for a card whose last target another play took away: a mad cow with no cow
    stable left keeps waiting while Cal holds a bull he can still put in a stable."""
    state = position(
        [[[], [], []], [[BULLS[0]], [], []], [[], [], []]],
        held=[MAD_COWS[0], TRUCKS[0], BULLS[1]],
        stacks=[[1], [2], [3]],
    )
    truck_the_bull = {
        "type": "truck",
        "from_seat": 1,
        "from_stable": 0,
        "animal": "bull",
        "to_seat": None,
        "to_stable": None,
    }
    state = play(state, 1, truck_the_bull)  # no cow stable is left for Ann's mad cow
    assert state.held[0] == MAD_COWS[0]
    assert rules.legal_actions(state, 0) == [{"type": "wait"}]
    state = play(state, 2, {"type": "place", "stable": 0})  # Cal's bull makes a cow stable
    assert rules.legal_actions(state, 0)[0] == {"type": "mad", "seat": 2, "stable": 0}
