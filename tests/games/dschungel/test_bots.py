"""Dschungelparty bots: legal moves, always finishing their turn, going for stars."""

from __future__ import annotations

import random

import pytest

from apps.core.protocol import BotLevel
from apps.games.dschungel import bots
from tests.games.dschungel import (
    BANANA,
    DOTS,
    ELEPHANT,
    NAMES,
    STRIPES,
    ZIGZAG,
    choose,
    flower,
    rules,
    sheet_with,
    table,
)

MAX_ACTIONS = 4000


def play_game(levels: list[str], seed: int) -> rules.State:
    """A game of bots, seats taking turns in the order they can act."""
    rng = random.Random(seed)
    state = rules.setup(NAMES[: len(levels)], {}, rng)
    for _ in range(MAX_ACTIONS):
        if rules.outcome(state) is not None:
            return state
        seat = rules.to_act(state)[0]
        action = bots.choose(state, seat, levels[seat], rng)
        assert action in rules.legal_actions(state, seat)
        state = rules.apply(state, seat, action, rng)
    raise AssertionError("a game of bots did not end")


def test_the_bot_levels_are_declared_steady_first_as_the_rooms_default():
    assert list(bots.LEVELS) == ["steady", "casual"]
    assert all(isinstance(level, BotLevel) for level in bots.LEVELS.values())


def test_a_bot_about_to_take_a_colour_pauses_so_the_table_can_read_the_dice():
    state = table([BANANA, STRIPES, DOTS, ELEPHANT, ELEPHANT], players=2)
    rng = random.Random(3)
    assert all(1800 <= bots.think_ms(state, 0, "casual", rng) <= 2800 for _ in range(20))
    crossing = rules.apply(state, 0, choose("purple"), rng)
    assert all(500 <= bots.think_ms(crossing, 0, "casual", rng) <= 1200 for _ in range(20))
    before_the_roll = table(players=2)
    assert all(700 <= bots.think_ms(before_the_roll, 0, "steady", rng) <= 1600 for _ in range(20))


@pytest.mark.parametrize("level", sorted(bots.LEVELS))
def test_bots_play_whole_games_with_legal_actions(level):
    for seed in range(8):
        play_game([level] * (1 + seed % 4), seed)


@pytest.mark.parametrize("level", sorted(bots.LEVELS))
def test_a_bot_with_nothing_to_do_returns_none(level):
    state = rules.setup(NAMES[:3], {}, random.Random(0))
    assert bots.choose(state, 1, level, random.Random(0)) is None


@pytest.mark.parametrize("level", sorted(bots.LEVELS))
def test_a_bot_always_finishes_its_part_of_the_turn(level):
    """Never undoing and confirming once nothing is worth crossing, a bot's part of a turn
    ends within a few moves, whatever the others do meanwhile."""
    for seed in range(30):
        rng = random.Random(seed)
        state = rules.setup(NAMES[:3], {}, rng)
        state = rules.apply(state, 0, {"type": "roll"}, rng)
        for _ in range(40):
            action = bots.choose(state, 0, level, rng)
            if action is None:
                break
            assert action["type"] != "undo"
            state = rules.apply(state, 0, action, rng)
        assert state.phase in ("others", "roll")


def test_the_steady_bot_completes_a_crate_for_its_star():
    """Sensible play: of the crosses a banana allows, the one that fills crate 2 wins a
    star."""
    sheet = sheet_with(purple=[(1, 1)])
    state = table([BANANA, STRIPES, DOTS, ELEPHANT, ELEPHANT], players=1, sheets={0: sheet})
    state = rules.apply(state, 0, choose("purple"), random.Random(0))
    action = bots.choose(state, 0, "steady", random.Random(0))
    assert action["field"] == "purple-1-0"


def test_the_steady_bot_takes_its_bonus_marks():
    sheet = sheet_with(purple=[(0, 0)])
    state = table([BANANA, STRIPES, DOTS, ZIGZAG, flower("red")], players=1, sheets={0: sheet})
    rng = random.Random(0)
    for _ in range(3):
        state = rules.apply(state, 0, bots.choose(state, 0, "steady", rng), rng)
    assert [(m["field"], m["bonus"]) for m in state.plays[0].marks] == [
        ("purple-0-1", False),
        ("pink-0", True),  # crate 1's pink bonus
    ]


def test_the_steady_bot_scores_better_than_the_casual_bot():
    totals = {"steady": 0, "casual": 0}
    for seed in range(12):
        levels = ["steady", "casual"] if seed % 2 else ["casual", "steady"]
        scores = rules.outcome(play_game(levels, seed))["scores"]
        for seat, level in enumerate(levels):
            totals[level] += scores[seat]
    assert totals["steady"] > totals["casual"]


def test_the_registry_names_choose_random_and_choose_heuristic_are_the_two_levels():
    state = table([BANANA, STRIPES, DOTS, ELEPHANT, ELEPHANT], players=2)
    for chooser in (bots.choose_random, bots.choose_heuristic):
        assert chooser(state, 0, random.Random(1)) in rules.legal_actions(state, 0)
