"""Random nights and random ceremonies: the prize rulings hold at every step.

Each example draws the players (ghosts among them), their tallies, the travelling prizes'
holders, the host's categories and the dice, then plays the ceremony with random legal moves
(choices made on the phone or left to the timer). The checks recount from the tallies and the
ceremony's events, without the module's own reckoning.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.prizes.rules import settlement
from apps.prizes.rules.categories import (
    CONSOLATION,
    COUNTS,
    DEFAULT,
    HOST_CHOICE,
    TRAVELLING_BUNKO,
    TRAVELLING_WIPEOUT,
)
from apps.prizes.rules.settlement import HOST, State
from tests.prizes.ceremonies import categories, moves

NAMES = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]
SEVEN = [category.kind for category in DEFAULT]
TALLY = st.fixed_dictionaries({key: st.integers(0, 3) for key in COUNTS.values()})


@st.composite
def nights(draw: st.DrawFn) -> tuple[list[str], dict]:
    """Players, ghosts included, and the ceremony's options."""
    people = NAMES[: draw(st.integers(1, len(NAMES)))]
    ghosts = [f"Ghost {i}" for i in range(1, draw(st.integers(0, 2)) + 1)]
    players = draw(st.permutations(people + ghosts))
    # A ghost may be named in the options only ("Spare"), and a holder may have gone home.
    spare = draw(st.booleans())
    if spare:
        players = [*players, "Spare"]
    holders = st.lists(st.sampled_from([*players, "Gone"]), max_size=6)
    kinds = draw(st.lists(st.sampled_from(SEVEN), unique=True))
    for _ in range(draw(st.integers(0, 2))):
        kinds.insert(draw(st.integers(0, len(kinds))), HOST_CHOICE)
    options = {
        "categories": categories(*kinds),
        "tallies": {name: draw(TALLY) for name in players},
        "travelling": {"bunko": draw(holders), "wipeout": draw(holders)},
        "ghosts": ["Spare"] if spare else [],
        "dice": draw(st.sampled_from(["virtual", "physical"])),
    }
    return players, options


def is_ghost(state: State, seat: int) -> bool:
    name = state.players[seat]
    return name.startswith("Ghost ") or name == "Spare"


def tally_of(state: State, seat: int, kind: str) -> int:
    key = COUNTS.get(kind) or {TRAVELLING_BUNKO: "bunkos", TRAVELLING_WIPEOUT: "wipeouts"}[kind]
    return state.tallies[state.players[seat]][key]


def first_holder(state: State, kind: str, people: list[int]) -> int | None:
    names = state.travelling["bunko" if kind == TRAVELLING_BUNKO else "wipeout"]
    for name in names:
        if name in state.players and state.players.index(name) in people:
            return state.players.index(name)
    return None


def check_rounds(rounds: list[dict], winner: str) -> None:
    """Each round among the tied highest of the one before; the last has one highest."""
    for before, after in zip(rounds, rounds[1:], strict=False):
        best = max(before.values())
        assert sorted(after) == sorted(name for name, die in before.items() if die == best)
    if rounds:
        best = max(rounds[-1].values())
        assert [name for name, die in rounds[-1].items() if die == best] == [winner]


def eligible(state: State, holding: dict[int, int], index: int, runner_up: bool) -> list[int]:
    """Who may win category ``index`` now: players but ghosts; only those without a prize
    for a runner-up, and always for the consolation."""
    people = [s for s in range(len(state.players)) if not is_ghost(state, s)]
    if runner_up or state.categories[index]["kind"] == CONSOLATION:
        people = [s for s in people if s not in holding.values()]
    return people


def recount(state: State) -> dict[int, int]:
    """Replays the ceremony's events and checks each against the rulings, from the tallies
    alone; returns category -> seat as the events leave it."""
    holding: dict[int, int] = {}
    unawarded: set[int] = set()
    runner_up: dict[int, bool] = {}  # whether a category was last taken up for a runner-up
    host_order: list[int] = []
    for event in state.history:
        name = event["event"]
        index = event.get("category", -1)
        kind = state.categories[index]["kind"] if index >= 0 else ""
        if name == "opened":
            runner_up[index] = event["runner_up_of"] is not None
            assert index not in holding and index not in unawarded
            if event["runner_up_of"] is None:
                # 'Prizes are settled in the host's order': every earlier one is settled.
                assert all(i in holding or i in unawarded for i in range(index))
                host_order.append(index)
            else:
                assert event["runner_up_of"] in holding.values()
        elif name == "won":
            winner, people = event["player"], eligible(state, holding, index, runner_up[index])
            assert winner in people  # ghosts win nothing; a runner-up holds no prize
            if kind in COUNTS:
                best = max(tally_of(state, s, kind) for s in people)
                assert tally_of(state, winner, kind) == best > 0
            elif kind in (TRAVELLING_BUNKO, TRAVELLING_WIPEOUT):
                assert winner == first_holder(state, kind, people)
        elif name == "unawarded":
            unawarded.add(index)
            people = eligible(state, holding, index, runner_up[index])
            if kind in COUNTS:
                assert all(tally_of(state, s, kind) == 0 for s in people)
            elif kind in (TRAVELLING_BUNKO, TRAVELLING_WIPEOUT):
                assert first_holder(state, kind, people) is None
            else:
                assert people == []
        elif name == "kept":
            gave_up = event["gave_up"]
            assert event["player"] in holding.values()
            if gave_up in holding:
                assert holding.pop(gave_up) == event["player"]
        elif name == "awarded":
            # Nobody takes two prizes; every category is awarded at most once.
            assert index not in holding and event["player"] not in holding.values()
            holding[index] = event["player"]
    assert host_order == list(range(len(state.categories)))
    assert set(holding) | unawarded == set(range(len(state.categories)))
    assert not set(holding) & unawarded
    return holding


def play(players: list[str], options: dict, seed: int) -> tuple[State, list]:
    """A ceremony played with random legal moves (the timers now and then); checks at every
    step that nobody holds two prizes, ghosts none, and that ``apply`` leaves its input as it
    was; returns the final state and the action log."""
    rng, chooser = random.Random(seed), random.Random(~seed)
    state = settlement.setup(players, options, rng)
    log = []
    while settlement.outcome(state) is None:
        assert len(log) < 2000, "The ceremony did not end."
        held = [a["player"] for a in state.awards if a is not None]
        assert len(held) == len(set(held))
        assert not any(is_ghost(state, s) for s in held)
        seat, action = chooser.choice(moves(state))
        before = json.dumps(state.to_json())
        after = settlement.apply(state, seat, action, rng)
        assert json.dumps(state.to_json()) == before
        log.append((seat, action))
        state = after
    return state, log


@settings(max_examples=300, deadline=None)
@given(night=nights(), seed=st.integers(0, 2**32 - 1))
def test_random_ceremonies_keep_every_prize_ruling(night, seed) -> None:
    players, options = night
    state, _log = play(players, options, seed)
    holding = recount(state)
    result = settlement.outcome(state)
    awards = result["awards"]
    # The awards follow the host's order and are what the events say.
    order = sorted(holding)
    assert [a["category"] for a in awards] == [state.categories[i]["name"] for i in order]
    assert [a["player"] for a in awards] == [state.players[holding[i]] for i in order]
    assert [group for group in result["ranking"][: len(awards)]] == [[holding[i]] for i in order]
    assert result["scores"] == {s: int(s in holding.values()) for s in range(len(players))}
    names = [state.categories[i]["name"] for i in range(len(state.categories))]
    assert sorted(result["unawarded"]) == sorted(n for i, n in enumerate(names) if i not in holding)
    for award in awards:
        check_rounds(award["dice"], award["player"])
        assert award["rolloff"] == [list(dice) for dice in award["dice"]]


@settings(max_examples=60, deadline=None)
@given(night=nights(), seed=st.integers(0, 2**32 - 1))
def test_random_ceremonies_replay_from_their_log_and_survive_json(night, seed) -> None:
    """Design: a game 'replays from its seed and its action list and survives a restart'."""
    players, options = night
    state, log = play(players, options, seed)
    rng = random.Random(seed)
    again = settlement.setup(players, options, rng)
    for n, (seat, action) in enumerate(log):
        if n % 3 == 0:
            text = json.dumps(again.to_json())
            assert State.from_json(json.loads(text)) == again
            for who in (None, HOST, *range(len(players))):
                seen = settlement.view(again, who)
                json.dumps(seen)
                expected = [] if who is None else settlement.legal_actions(again, who)
                assert seen["legal_actions"] == expected
        again = settlement.apply(again, seat, action, rng)
    assert again == state
