"""Bonje in de Stal bots: two speeds, legal moves only, sensible play, no peeking."""

from __future__ import annotations

import random

import pytest

from apps.core.protocol import BotLevel, without_delay
from apps.games.bonje import bots, rules
from tests.games.bonje import (
    BULLS,
    COWS,
    ELEPHANTS,
    HENS,
    MAD_COWS,
    MARES,
    NAMES,
    RAMS,
    ROOSTERS,
    SOWS,
    STALLIONS,
    TRUCKS,
    position,
)


def bot_game(levels: list[str | None], seed: int, options: dict) -> rules.BonjeState:
    """Bots at every seat (None: uniformly random moves); at each step a random seat moves, or
    the system when a timed move is due, as the server's clock and commit order might have it."""
    engine, timing = random.Random(seed), random.Random(-seed - 1)
    n = len(levels)
    state = rules.setup(NAMES[:n], options, engine)
    for _ in range(50_000):
        if rules.outcome(state) is not None:
            return state
        seat = timing.choice([None, *range(n)])
        if seat is None:
            due = rules.legal_actions(state, None)
            if due:
                state = rules.apply(state, None, without_delay(due[0]), engine)
            continue
        level = levels[seat]
        if level is None:
            action = bots.choose_random(state, seat, timing)
        else:
            action = bots.choose(state, seat, level, timing)
        if action is None:
            assert rules.legal_actions(state, seat) == [] or level is not None
            continue
        assert action in rules.legal_actions(state, seat)
        state = rules.apply(state, seat, action, engine)
    raise AssertionError("the game did not end")


def test_bots_come_in_a_relaxed_and_a_quick_level():
    assert set(bots.LEVELS) == {"relaxed", "quick"}
    assert all(isinstance(level, BotLevel) for level in bots.LEVELS.values())
    relaxed, quick = bots.LEVELS["relaxed"].think_ms, bots.LEVELS["quick"].think_ms
    assert 2500 <= relaxed[0] <= relaxed[1] <= 4500
    assert 600 <= quick[0] <= quick[1] <= 1300


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["relaxed", "quick"])
def test_bots_play_whole_games_with_legal_moves(players, level):
    for seed in range(2):
        state = bot_game([level] * players, seed, {"bonus": True})
        assert rules.outcome(state)["winners"]


def test_a_bot_with_nothing_to_do_returns_none():
    state = rules.setup(NAMES[:3], {}, random.Random(0))
    assert bots.choose(state, 1, "quick", random.Random(0)) is None
    assert bots.choose_random(state, 1, random.Random(0)) is None


def test_a_bot_calls_complete_as_soon_as_it_can():
    rows = [[[STALLIONS[0], MARES[0]], [BULLS[0], COWS[0]], [ROOSTERS[0], HENS[0]]], [[], [], []]]
    state = position(rows, face_up=[SOWS[0], RAMS[0]], stacks=[[1], [2]])
    for level in bots.LEVELS:
        assert bots.choose(state, 0, level, random.Random(1)) == {"type": "complete"}


def test_a_bot_takes_the_card_that_completes_a_stable():
    rows = [[[STALLIONS[0]], [BULLS[0], COWS[0]], [ROOSTERS[0], HENS[0]]], [[], [], []]]
    state = position(rows, face_up=[HENS[1], MARES[0]], stacks=[[1], [2]])
    assert bots.choose(state, 0, "quick", random.Random(2)) == {"type": "take", "from": 1}


def test_a_bot_sends_an_elephant_and_a_mad_cow_to_a_rival():
    rows = [[[STALLIONS[0]], [], [BULLS[1], COWS[1]]], [[BULLS[0], COWS[0]], [], [HENS[0]]]]
    state = position(rows, held=[ELEPHANTS[0], SOWS[0]], stacks=[[1], [2]])
    assert bots.choose(state, 0, "quick", random.Random(3)) == {
        "type": "elephant",
        "seat": 1,
        "stable": 1,
    }
    state = position(rows, held=[MAD_COWS[0], SOWS[0]], stacks=[[1], [2]])
    assert bots.choose(state, 0, "quick", random.Random(3)) == {
        "type": "mad",
        "seat": 1,
        "stable": 0,
    }


def test_a_quick_bot_waits_with_an_elephant_while_a_rival_holds_a_truck():
    """The rules' example: "Because player B could still move a played elephant, player A waits
    a little before playing their elephant." """
    rows = [[[STALLIONS[0]], [], []], [[], [], [HENS[0]]]]
    state = position(rows, held=[ELEPHANTS[0], TRUCKS[0]], stacks=[[1], [2]])
    assert bots.choose(state, 0, "quick", random.Random(4)) == {"type": "wait"}


def test_a_bot_decides_from_what_its_seat_sees():
    """Exchanging cards hidden from the seat (face-down ones, its own unrevealed card) does
    not change its move."""
    state = rules.apply(
        rules.setup(NAMES[:3], {}, random.Random(9)),
        None,
        {"type": "flip", "round": 1, "turn": 1},
        random.Random(0),
    )
    other = rules.BonjeState.from_json(state.to_json())
    other.face_up[0], other.stacks[1][0] = other.stacks[1][0], other.face_up[0]
    other.stacks[2].reverse()
    for level in bots.LEVELS:
        for seed in range(5):
            mine = bots.choose(state, 0, level, random.Random(seed))
            assert bots.choose(other, 0, level, random.Random(seed)) == mine


def test_the_quick_bot_wins_more_rounds_than_random_play():
    wins = {"quick": 0, "random": 0}
    for seed in range(30):
        levels = ["quick", None] if seed % 2 else [None, "quick"]
        state = bot_game(levels, seed, {"length": "short"})
        for winner in rules.outcome(state)["winners"]:
            wins["quick" if levels[winner] == "quick" else "random"] += 1
    assert wins["quick"] > 2 * wins["random"]


def test_the_relaxed_bot_sometimes_picks_a_less_good_card():
    rows = [
        [[STALLIONS[0]], [BULLS[0], COWS[0]], [ROOSTERS[0], HENS[0]]],
        [[], [], []],
        [[], [], []],
    ]
    state = position(rows, face_up=[None, MARES[0], HENS[1]], stacks=[[1], [2], [3]])
    picks = {bots.choose(state, 0, "relaxed", random.Random(seed))["from"] for seed in range(40)}
    assert picks == {1, 2}
    quick = {bots.choose(state, 0, "quick", random.Random(seed))["from"] for seed in range(40)}
    assert quick == {1}


@pytest.mark.parametrize("level", ["quick", "relaxed"])
def test_a_bot_holding_a_card_with_no_place_yet_waits_so_the_turn_goes_on(level):
    """A card with no target yet may only WAIT while another card could still make one; a
    bot that did nothing with it would hold up the waiting order."""
    state = position(
        [[[STALLIONS[0]], [BULLS[0]], [RAMS[0]]], [[HENS[0]], [COWS[0]], [SOWS[0]]]],
        held=[ROOSTERS[0], TRUCKS[0]],  # Bea's truck could still empty a stable of Ann's
        stacks=[[1], [2]],
    )
    assert rules.legal_actions(state, 0) == [{"type": "wait"}]
    assert bots.choose(state, 0, level, random.Random(0)) == {"type": "wait"}
