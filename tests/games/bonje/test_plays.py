"""Where each card may be played: ordinary animals, elephants, mad cows and mad stallions,
transport trucks; and the automatic removal of a card that cannot be played."""

from __future__ import annotations

import pytest

from apps.core.protocol import IllegalAction
from apps.games.bonje import rules
from tests.games.bonje import (
    BOARS,
    BULLS,
    COWS,
    ELEPHANTS,
    EWES,
    HENS,
    MAD_COWS,
    MAD_STALLIONS,
    MARES,
    RAMS,
    ROOSTERS,
    SOWS,
    STALLIONS,
    TRUCKS,
    play,
    position,
)

EMPTY3 = [[], [], []]


def holding(card: int, mine: list[list[int]], theirs: list[list[int]] | None = None, **kw):
    """Ann holds ``card``; Bea holds a hen she has not played yet."""
    return position(
        [mine, theirs if theirs is not None else [list(s) for s in EMPTY3]],
        held=[card, HENS[-1]],
        stacks=[[1], [2]],
        **kw,
    )


def targets(state, seat: int = 0) -> list[dict]:
    return [a for a in rules.legal_actions(state, seat) if a["type"] not in ("wait", "complete")]


# --- ordinary animals ------------------------------------------------------------------------


def test_an_animal_goes_into_an_own_empty_stable_or_one_that_holds_its_kind():
    """ "They may choose either an empty stable, or a stable that already holds animals of the
    same kind." """
    state = holding(MARES[0], [[STALLIONS[0]], [], [BULLS[0]]])
    assert targets(state) == [{"type": "place", "stable": 0}]
    state = holding(STALLIONS[1], [[COWS[0]], [], [BULLS[0]]])
    assert targets(state) == [{"type": "place", "stable": 1}]
    state = play(state, 0, {"type": "place", "stable": 1})
    assert state.stables[0][1].cards == [STALLIONS[1]]
    assert state.log[-1] == {"type": "placed", "seat": 0, "card": STALLIONS[1], "stable": 1}


def test_an_animal_may_not_join_a_stable_of_another_kind():
    """ "Only animals of 1 kind may be in a stable." """
    state = holding(MARES[0], [[STALLIONS[0]], [COWS[0]], []])
    with pytest.raises(IllegalAction, match="only animals of one kind"):
        play(state, 0, {"type": "place", "stable": 1})
    assert state.stables[0][1].cards == [COWS[0]]


def test_a_female_may_not_open_an_empty_stable_when_a_stable_of_her_kind_exists():
    """ "Note: it is not allowed to place a female animal of a kind that the player already has
    in an empty stable." """
    state = holding(MARES[1], [[MARES[0]], [], []])
    assert targets(state) == [{"type": "place", "stable": 0}]
    with pytest.raises(IllegalAction, match="must start with the male"):
        play(state, 0, {"type": "place", "stable": 1})


def test_a_male_may_open_a_second_stable_of_his_kind():
    """ "It is allowed to have several stables with the same kind of animal, but the first
    animal in the second and every following stable with the same kind must be the male." """
    state = holding(STALLIONS[1], [[STALLIONS[0], MARES[0]], [], [HENS[0]]])
    assert targets(state) == [{"type": "place", "stable": 0}, {"type": "place", "stable": 1}]


def test_a_surplus_male_that_fits_must_be_placed_even_into_a_brawl():
    """ "A player may not voluntarily remove a surplus male animal from the game if, under the
    rules, they can place it in one of their stables." """
    state = holding(BOARS[1], [[BOARS[0], SOWS[0]], [HENS[0]], [EWES[0]]])
    assert targets(state) == [{"type": "place", "stable": 0}]
    for refused in ({"type": "discard"}, {"type": "remove"}):
        with pytest.raises(IllegalAction, match="not a move"):
            play(state, 0, refused)
    state = play(state, 0, {"type": "place", "stable": 0})
    assert state.stables[0][0].brawl


def test_an_animal_that_fits_nowhere_is_removed_automatically_and_visibly():
    """ "If the player cannot place the animal (because all their stables contain animals of
    other kinds), they remove the taken card from the game." """
    state = position(
        [[[HENS[0]], [EWES[0]], [ELEPHANTS[0]]], [list(s) for s in EMPTY3]],
        face_up=[None, COWS[0]],
        held=[None, HENS[1]],
        took_from=[None, 0],
        stacks=[[1], [2]],
    )
    state = play(state, 0, {"type": "take", "from": 1})
    assert state.held[0] is None
    assert COWS[0] in state.removed
    assert state.log[-1] == {"type": "removed", "seat": 0, "card": COWS[0], "reason": "no_stable"}
    seen = rules.view(state, 1)["log"][-1]
    assert seen["type"] == "removed" and seen["card"]["name"] == "cow"


def test_an_animal_is_placed_only_in_its_players_own_stables():
    """ "Transport trucks are the only way ... to place or move ordinary animals into the
    stables of other players." """
    state = holding(ROOSTERS[0], [[HENS[0]], [EWES[0]], [RAMS[0]]], [[], [], []])
    assert targets(state) == [{"type": "place", "stable": 0}]
    with pytest.raises(IllegalAction, match="You hold a rooster"):
        play(state, 0, {"type": "elephant", "seat": 1, "stable": 0})


# --- elephants -------------------------------------------------------------------------------


def test_an_elephant_goes_into_an_empty_stable_of_another_player():
    """ "A player who takes an elephant must place it in an empty stable of another player." """
    state = holding(ELEPHANTS[0], [[], [], []], [[HENS[0]], [], [RAMS[0]]])
    assert targets(state) == [{"type": "elephant", "seat": 1, "stable": 1}]
    with pytest.raises(IllegalAction, match="another player"):
        play(state, 0, {"type": "elephant", "seat": 0, "stable": 0})
    with pytest.raises(IllegalAction, match="not empty"):
        play(state, 0, {"type": "elephant", "seat": 1, "stable": 0})
    state = play(state, 0, {"type": "elephant", "seat": 1, "stable": 1})
    assert state.stables[1][1].cards == [ELEPHANTS[0]]


def test_a_stable_with_an_elephant_is_full_and_never_complete():
    """ "A stable holding an elephant is full, but does not count as a complete stable." """
    state = holding(MARES[0], [[ELEPHANTS[0]], [STALLIONS[0]], [HENS[0]]])
    assert targets(state) == [{"type": "place", "stable": 1}]
    stable = rules.view(state, None)["players"][0]["stables"][0]
    assert (stable["status"], stable["complete"], stable["value"]) == ("elephant", False, 0)


def test_an_elephant_is_removed_when_no_other_player_has_an_empty_stable():
    """ "If none of the other players has an empty stable, the player removes the elephant." """
    state = position(
        [[[], [], []], [[HENS[0]], [RAMS[0]], [COWS[0]]]],
        face_up=[None, ELEPHANTS[0]],
        held=[None, HENS[1]],
        took_from=[None, 0],
        stacks=[[1], [2]],
    )
    state = play(state, 0, {"type": "take", "from": 1})
    assert ELEPHANTS[0] in state.removed
    assert state.log[-1]["reason"] == "no_empty_stable"


# --- mad cows and mad stallions ----------------------------------------------------------------

MAD = [(MAD_COWS[0], BULLS, COWS, "cow"), (MAD_STALLIONS[0], STALLIONS, MARES, "horse")]


@pytest.mark.parametrize(("mad", "males", "females", "kind"), MAD)
def test_a_mad_animal_empties_another_players_stable_of_its_kind(mad, males, females, kind):
    """ "A player who takes a mad cow must place it in the cow stable of another player (a stable
    holding at least 1 bull and/or cow) ... Remove all animals from that stable (including the
    mad cow) from the game. The stable is then immediately available for new animals." """
    theirs = [[males[0], females[0], females[1]], [females[2]], []]
    state = holding(mad, [[], [], []], theirs)
    assert targets(state) == [
        {"type": "mad", "seat": 1, "stable": 0},
        {"type": "mad", "seat": 1, "stable": 1},
    ]
    state = play(state, 0, {"type": "mad", "seat": 1, "stable": 0})
    assert state.stables[1][0].cards == []
    assert {mad, males[0], females[0], females[1]} <= set(state.removed)
    assert state.log[-1]["type"] == "mad" and state.log[-1]["cards"] == theirs[0]
    assert {"type": "place", "stable": 0} in rules.legal_actions(state, 1)  # Bea's hen


@pytest.mark.parametrize(("mad", "males", "females", "kind"), MAD)
def test_a_mad_animal_may_end_a_brawl_in_an_own_stable_of_its_kind(mad, males, females, kind):
    """ "Or the player may place the mad cow in their own stable (to resolve a brawl in that
    stable)." Ruling: "or into an own cow stable with a brawl"."""
    mine = [[males[0], males[1], females[0]], [males[2], females[1]], []]
    state = holding(mad, mine, [[HENS[0]], [], []])
    assert targets(state) == [{"type": "mad", "seat": 0, "stable": 0}]
    with pytest.raises(IllegalAction, match="only end a brawl"):
        play(state, 0, {"type": "mad", "seat": 0, "stable": 1})
    state = play(state, 0, {"type": "mad", "seat": 0, "stable": 0})
    assert state.stables[0][0].cards == []


@pytest.mark.parametrize(("mad", "males", "females", "kind"), MAD)
def test_a_mad_animal_without_a_stable_of_its_kind_to_hit_is_removed(mad, males, females, kind):
    """ "If none of the other players has a cow stable, and the player does not want to place
    the mad cow in their own stable, the player removes the card from the game." """
    other = MAD[1][1] if males is MAD[0][1] else MAD[0][1]  # the other kind's males
    state = position(
        [[[males[0], females[0]], [], []], [[other[0]], [], []]],
        face_up=[None, mad],
        held=[None, HENS[1]],
        took_from=[None, 0],
        stacks=[[1], [2]],
    )
    state = play(state, 0, {"type": "take", "from": 1})
    assert mad in state.removed
    assert state.log[-1]["reason"] == f"no_{kind}_stable"


def test_a_mad_cow_does_not_touch_a_horse_stable():
    state = holding(MAD_COWS[0], [[], [], []], [[STALLIONS[0]], [BULLS[0]], []])
    assert targets(state) == [{"type": "mad", "seat": 1, "stable": 1}]
    with pytest.raises(IllegalAction, match="only into a cow stable"):
        play(state, 0, {"type": "mad", "seat": 1, "stable": 0})


# --- transport trucks --------------------------------------------------------------------------


def truck(from_seat, from_stable, animal, to_seat=None, to_stable=None) -> dict:
    return {
        "type": "truck",
        "from_seat": from_seat,
        "from_stable": from_stable,
        "animal": animal,
        "to_seat": to_seat,
        "to_stable": to_stable,
    }


def test_a_truck_moves_an_animal_to_an_empty_stable_or_one_of_its_kind_anywhere():
    """ "A player who takes a transport truck may move one animal of their choice (from one of
    their own stables or from the stable of another player) to another stable ... ordinary
    animals to a stable holding animals of the same kind, or to an empty stable." """
    state = holding(TRUCKS[0], [[STALLIONS[0]], [HENS[0]], [SOWS[0]]], [[STALLIONS[1]], [], []])
    offered = targets(state)
    assert truck(0, 0, "stallion", 1, 0) in offered  # a brawl for Bea
    assert truck(0, 0, "stallion", 1, 1) in offered
    assert truck(0, 0, "stallion", 0, 1) not in offered
    assert truck(0, 0, "stallion", 0, 0) not in offered  # "to another stable"
    state = play(state, 0, truck(0, 0, "stallion", 1, 0))
    assert state.stables[1][0].cards == [STALLIONS[1], STALLIONS[0]]
    assert state.stables[0][0].cards == []
    assert TRUCKS[0] in state.removed  # a used truck leaves the game


def test_a_truck_may_remove_an_animal_from_the_game():
    state = holding(TRUCKS[0], [[], [], []], [[BULLS[0], COWS[0]], [], []])
    state = play(state, 0, truck(1, 0, "bull"))
    assert state.stables[1][0].cards == [COWS[0]]
    assert BULLS[0] in state.removed
    assert state.log[-1]["animal"] == BULLS[0] and state.log[-1]["to_seat"] is None


def test_a_truck_ends_a_brawl_by_taking_a_male_away():
    """ "A player can resolve this situation only by using a transport truck, a mad stallion
    (horse stable) or a mad cow (cow stable)." """
    state = holding(TRUCKS[0], [[RAMS[0], RAMS[1], EWES[0]], [], [HENS[0]]])
    state = play(state, 0, truck(0, 0, "ram", 0, 1))
    assert [s.brawl for s in state.stables[0]] == [False, False, False]
    assert state.stables[0][0].cards == [RAMS[1], EWES[0]]


def test_a_truck_moves_an_elephant_only_into_an_empty_stable():
    """ "An elephant to an empty stable"; trucks are "the only way to get rid of elephants"."""
    state = holding(TRUCKS[0], [[ELEPHANTS[0]], [HENS[0]], []], [[RAMS[0]], [], []])
    elephant_moves = [a for a in targets(state) if a["animal"] == "elephant"]
    assert elephant_moves == [
        truck(0, 0, "elephant", 0, 2),
        truck(0, 0, "elephant", 1, 1),
        truck(0, 0, "elephant", 1, 2),
        truck(0, 0, "elephant"),
    ]
    with pytest.raises(IllegalAction, match="only into an empty stable"):
        play(state, 0, truck(0, 0, "elephant", 1, 0))


def test_a_truck_may_not_open_a_second_stable_of_a_kind_with_a_female():
    """The stable rule holds for trucks too: "the first animal in the second and every following
    stable with the same kind must be the male of that kind." """
    state = holding(TRUCKS[0], [[MARES[0]], [], []], [[MARES[1]], [], []])
    offered = targets(state)
    assert truck(0, 0, "mare", 1, 1) not in offered  # Bea has a horse stable already
    assert truck(0, 0, "mare", 1, 0) in offered
    assert truck(0, 0, "mare", 0, 1) in offered  # Ann's only horse stable is left empty
    with pytest.raises(IllegalAction, match="must start with the male"):
        play(state, 0, truck(0, 0, "mare", 1, 1))


def test_a_truck_names_an_animal_that_is_there():
    state = holding(TRUCKS[0], [[MARES[0]], [], []])
    with pytest.raises(IllegalAction, match="no such animal in your stable 1"):
        play(state, 0, truck(0, 0, "stallion"))
    with pytest.raises(IllegalAction, match="no such stable"):
        play(state, 0, truck(1, 5, "mare"))
    with pytest.raises(IllegalAction, match="another stable"):
        play(state, 0, truck(0, 0, "mare", 0, 0))


def test_a_truck_is_removed_when_no_stable_holds_an_animal_and_no_card_could_bring_one():
    state = position(
        [[[], [], []], [[], [], []]],
        face_up=[None, TRUCKS[0]],
        held=[None, None],  # Bea has played her card
        took_from=[None, 0],
        stacks=[[1], [2]],
    )
    state = play(state, 0, {"type": "take", "from": 1})
    assert state.log[-1] == {"type": "removed", "seat": 0, "card": TRUCKS[0], "reason": "no_animal"}


def test_a_truck_with_no_animal_yet_may_wait_for_an_animal_still_to_be_placed():
    """ "If one or more players want to wait with playing in order to let others go first":
    Bea's hen, once placed, gives the truck an animal to move."""
    state = position(
        [[[], [], []], [[], [], []]],
        face_up=[None, TRUCKS[0]],
        held=[None, HENS[1]],
        took_from=[None, 0],
        stacks=[[1], [2]],
    )
    state = play(state, 0, {"type": "take", "from": 1})
    assert rules.legal_actions(state, 0) == [{"type": "wait"}]
    state = play(play(state, 0, {"type": "wait"}), 1, {"type": "place", "stable": 0})
    assert {
        "type": "truck",
        "from_seat": 1,
        "from_stable": 0,
        "animal": "hen",
        "to_seat": None,
        "to_stable": None,
    } in rules.legal_actions(state, 0)


def test_the_legal_actions_carry_every_target_a_screen_needs_to_show():
    state = holding(TRUCKS[0], [[BULLS[0], COWS[0]], [], []], [[HENS[0]], [], []])
    moves = targets(state)
    cow = [a for a in moves if a["animal"] == "cow"]
    assert {(a["to_seat"], a["to_stable"]) for a in cow} == {(None, None), (1, 1), (1, 2)}
    bull = [a for a in moves if a["animal"] == "bull"]
    assert {(a["to_seat"], a["to_stable"]) for a in bull} == {
        (None, None),
        (0, 1),
        (0, 2),
        (1, 1),
        (1, 2),
    }


def test_a_stray_key_in_a_sent_play_changes_nothing():
    state = holding(MARES[0], [[STALLIONS[0]], [], []])
    state = play(state, 0, {"type": "place", "stable": 0, "note": "hi"})
    assert state.stables[0][0].cards == [STALLIONS[0], MARES[0]]


def test_a_stable_filled_by_an_elephant_takes_nothing_else():
    state = holding(MARES[0], [[ELEPHANTS[0]], [STALLIONS[0]], []], [[ELEPHANTS[1]], [], []])
    with pytest.raises(IllegalAction, match="An elephant fills your stable 1"):
        play(state, 0, {"type": "place", "stable": 0})
    state = holding(TRUCKS[0], [[ELEPHANTS[0]], [STALLIONS[0]], []], [[ELEPHANTS[1]], [], []])
    with pytest.raises(IllegalAction, match="An elephant fills that stable"):
        play(state, 0, truck(0, 1, "stallion", 1, 0))


def test_a_mad_animal_whose_only_target_is_an_own_brawl_must_be_played_there():
    """Ruling: "A player may not discard a card they can legally play", and an own cow stable
    with a brawl is a legal target; so the card is not removed."""
    state = holding(MAD_COWS[0], [[BULLS[0], BULLS[1]], [], []], [[HENS[0]], [], []])
    assert state.held[0] == MAD_COWS[0]
    assert rules.legal_actions(state, 0) == [
        {"type": "mad", "seat": 0, "stable": 0},
        {"type": "wait"},
    ]


def test_a_special_stable_takes_any_kind_like_any_stable():
    """A special stable is "complete only when the animals in it are of the kind shown", so
    other animals may stand in it."""
    state = holding(SOWS[0], [[HENS[0]], [EWES[0]], [], []], specials={(0, 3): "horse"})
    state.stables[0][2].cards = [RAMS[0]]
    assert targets(state) == [{"type": "place", "stable": 3}]


def test_a_special_stable_holding_its_kind_counts_for_the_female_rule():
    state = holding(MARES[1], [[MARES[0]], [], [], []], specials={(0, 0): "horse"})
    assert targets(state) == [{"type": "place", "stable": 0}]


@pytest.mark.parametrize(
    "card", [MARES[0], ELEPHANTS[0], MAD_COWS[0], MAD_STALLIONS[0], TRUCKS[0]], ids=str
)
def test_a_sent_play_missing_a_field_is_refused_in_words_or_read_as_its_default(card):
    """A phone's move is whatever it sends: a field left out never breaks the game."""
    state = holding(
        card, [[STALLIONS[0]], [COWS[0]], []], [[BULLS[0], COWS[1]], [STALLIONS[1]], []]
    )
    for action in rules.legal_actions(state, 0):
        for key in set(action) - {"type"}:
            partial = {k: v for k, v in action.items() if k != key}
            try:
                after = play(state, 0, partial)
            except IllegalAction as refused:
                assert str(refused)[:1].isupper() and str(refused).endswith(".")
            else:
                assert rules.legal_actions(state, 0) and after.held[0] is None
