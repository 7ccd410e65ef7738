"""Thousands of random legal hands of Mbogo, checked at every step."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.core.protocol import IllegalAction
from apps.games.mbogo import rules
from apps.games.mbogo.cards import ANIMAL_KINDS, KIND_OF
from apps.games.mbogo.rules import HandState, MatchState
from tests.games.mbogo import NAMES

MAX_ACTIONS = 3000  # a hand takes about 80; anything near this bound would be a loop

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=5)


def random_hand(seed: int, players: int) -> Iterator[tuple[MatchState, int | None, dict]]:
    """Play one hand with uniformly random legal actions, yielding (state, seat, action)
    before each action and the final state with seat None and an empty action."""
    rng = random.Random(seed)
    state = rules.setup(NAMES[:players], {"target": 0, "dealer": seed % players}, rng)
    for _ in range(MAX_ACTIONS):
        if rules.hand_result(state) is not None:
            yield state, None, {}
            return
        seat = rules.to_act(state)
        actions = rules.legal_actions(state, seat)
        assert actions, f"{NAMES[seat]} has no legal action in phase {state.hand.phase}"
        action = rng.choice(actions)
        yield state, seat, action
        state = rules.apply(state, seat, action, rng)
    raise AssertionError(f"the hand did not end within {MAX_ACTIONS} actions")


def every_card(hand: HandState) -> list[int]:
    cards = [c for h in hand.hands for c in h] + list(hand.centre) + list(hand.discarded)
    for row in hand.cages:
        for cage in row:
            cards.append(cage.card)
            cards.extend(cage.animals)
    if hand.face_down is not None:
        cards.append(hand.face_down)
    return cards


def recount(hand: HandState) -> dict[int, int]:
    """The scoring rule, written again from the rule text, independently of scoring.py."""
    caged = [[KIND_OF[a] for cage in row for a in cage.animals] for row in hand.cages]
    scores = {}
    for seat, mine in enumerate(caged):
        points = len(mine)
        for kind in set(mine):
            if all(kind not in theirs for s, theirs in enumerate(caged) if s != seat):
                points += 10 if mine.count(kind) == 7 else 3
        scores[seat] = points
    return scores


@settings(max_examples=1500, deadline=None)
@given(seed=seeds, players=player_counts)
def test_random_hands_keep_all_61_cards_end_and_score_as_recounted(seed, players):
    """Ruling: the deck is 61 cards, and "the hand ends when only one player has cards" or
    after two quiet rounds; the score is "1 per animal in own cages; 3 per kind that only this
    player has caged; 10 instead of 3 for a kind of which this player has caged all seven"."""
    for state, _seat, _action in random_hand(seed, players):
        cards = every_card(state.hand)
        assert sorted(cards) == list(range(61))
        for row in state.hand.cages:
            for cage in row:
                assert len({KIND_OF[a] for a in cage.animals}) <= 1
        assert all(KIND_OF[c] in ANIMAL_KINDS for c in state.hand.centre)
    result = rules.hand_result(state)
    assert result["scores"] == recount(state.hand)
    with_cards = sum(1 for h in state.hand.hands if h)
    if result["ended_by"] == "cards":
        assert with_cards == 1
    else:
        assert result["ended_by"] == "no_play" and with_cards >= 2


@settings(max_examples=150, deadline=None)
@given(seed=seeds, players=player_counts)
def test_states_round_trip_through_json_and_apply_never_mutates_its_input(seed, players):
    """Protocol: states "round-trip through JSON" and "apply never mutates the state it is
    given"; every listed legal action is accepted."""
    for step, (state, seat, _action) in enumerate(random_hand(seed, players)):
        text = json.dumps(state.to_json())
        assert MatchState.from_json(text).to_json() == state.to_json()
        assert MatchState.from_json(json.loads(text)) == state
        if seat is not None and step % 5 == 0:
            for action in rules.legal_actions(state, seat):
                rules.apply(state, seat, action, random.Random(step))
            assert json.dumps(state.to_json()) == text


JUNK = [None, -1, 99, "x", 1.5, True, [1], {"a": 1}]


@settings(max_examples=100, deadline=None)
@given(seed=seeds, players=player_counts)
def test_junk_from_the_wire_is_refused_with_illegal_action_and_changes_nothing(seed, players):
    """Design: "Every bad input gets a clear message and changes nothing": a legal action with
    one field spoiled, sent from any seat or from something that is not a seat, raises
    IllegalAction and nothing else, as in the other games."""
    fuzz = random.Random(seed)
    for step, (state, _seat, action) in enumerate(random_hand(seed, players)):
        if step % 3:
            continue
        text = json.dumps(state.to_json())
        junk = dict(action or {"type": "next_hand"})
        junk[fuzz.choice(list(junk))] = fuzz.choice(JUNK)
        sender = fuzz.choice([*JUNK, *range(players)])
        for who, what in ((sender, junk), (fuzz.choice(JUNK), action or junk)):
            try:
                rules.apply(state, who, what, random.Random(step))
            except IllegalAction as refused:
                assert str(refused)[:1].isupper() and str(refused).endswith(".")
        assert json.dumps(state.to_json()) == text
    with pytest.raises(IllegalAction):
        rules.setup(NAMES[:players], {"target": fuzz.choice(JUNK[1:])}, random.Random(seed))


def card_ids_in(seen: dict) -> set[int]:
    """Every card id a view carries: under "id"/"ids", and in the card fields of actions."""
    found: set[int] = set()

    def walk(node: object, key: str | None = None) -> None:
        if isinstance(node, dict):
            if node.get("type") in ("cage", "animal", "hunt", "release"):
                for field in ("animal", "hunter"):
                    if field in node:
                        found.add(node[field])
                if node["type"] == "cage":
                    found.add(node["cage"])
                return
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for item in node:
                walk(item, key)
        elif key in ("id", "ids") and isinstance(node, int):
            found.add(node)

    walk(seen)
    return found


def swap_hidden(hand: HandState, seat: int | None, rng: random.Random) -> HandState | None:
    """The same position with two cards hidden from ``seat`` exchanged (None if too few)."""
    places = [(s, i) for s, h in enumerate(hand.hands) if s != seat for i in range(len(h))]
    if hand.face_down is not None:
        places.append(("face_down", 0))
    if len(places) < 2:
        return None
    (s1, i1), (s2, i2) = rng.sample(places, 2)
    other = hand.copy()

    def get(s, i):
        return other.face_down if s == "face_down" else other.hands[s][i]

    def put(s, i, card):
        if s == "face_down":
            other.face_down = card
        else:
            other.hands[s][i] = card

    a, b = get(s1, i1), get(s2, i2)
    put(s1, i1, b)
    put(s2, i2, a)
    return other


@settings(max_examples=100, deadline=None)
@given(seed=seeds, players=player_counts)
def test_no_view_ever_shows_another_seats_hand_or_the_face_down_card(seed, players):
    """Design: "Hidden cards never leave the server in another seat's view." Ruling: the
    drawer sees "that hand's backs, shuffled"."""
    rng = random.Random(seed)
    for state, _seat, _action in random_hand(seed, players):
        hand = state.hand
        for viewer in [None, *range(players)]:
            seen = rules.view(state, viewer)
            json.dumps(seen)
            hidden = {c for s, h in enumerate(hand.hands) if s != viewer for c in h}
            if hand.face_down is not None:
                hidden.add(hand.face_down)
            assert not card_ids_in(seen) & hidden
            if viewer is not None:
                assert [c["id"] for c in seen["hand"]] == sorted(hand.hands[viewer])
            else:
                assert seen["hand"] is None
            # The view cannot depend on hidden cards at all: exchange two, see the same thing.
            if rng.random() < 0.1:
                other = swap_hidden(hand, viewer, rng)
                if other is not None:
                    swapped = rules.MatchState.from_json(state.to_json())
                    swapped.hand = other
                    assert rules.view(swapped, viewer) == seen
