"""Helpers that build Bonje in de Stal positions and play random games for the tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from apps.core.protocol import without_delay
from apps.games.bonje import rules
from apps.games.bonje.cards import ids_of
from apps.games.bonje.stables import Stable
from apps.games.bonje.state import RACE, BonjeState

STALLIONS = ids_of("stallion")
MARES = ids_of("mare")
BULLS = ids_of("bull")
COWS = ids_of("cow")
BOARS = ids_of("boar")
SOWS = ids_of("sow")
RAMS = ids_of("ram")
EWES = ids_of("ewe")
ROOSTERS = ids_of("rooster")
HENS = ids_of("hen")
ELEPHANTS = ids_of("elephant")
MAD_COWS = ids_of("mad_cow")
MAD_STALLIONS = ids_of("mad_stallion")
TRUCKS = ids_of("truck")
NAMES = ["Ann", "Bea", "Cal", "Dee"]

Row = list[list[int]]


def rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


def position(
    stables: list[Row],
    *,
    face_up: list[int | None] | None = None,
    held: list[int | None] | None = None,
    took_from: list[int | None] | None = None,
    waiting: list[bool] | None = None,
    stacks: list[list[int]] | None = None,
    specials: dict[tuple[int, int], str] | None = None,
    revealed: bool = True,
    options: dict | None = None,
    phase: str = RACE,
) -> BonjeState:
    """A game in a chosen position: one list of stables per seat, each a list of card ids.
    Only the cards a test names are in play. A seat holding a card took its own by default."""
    n = len(stables)
    state = rules.setup(NAMES[:n], options or {}, rng())
    held = list(held or [None] * n)
    if took_from is None:
        took_from = [s if card is not None else None for s, card in enumerate(held)]
    specials = specials or {}
    state.stables = [
        [Stable(list(cards), specials.get((s, i))) for i, cards in enumerate(row)]
        for s, row in enumerate(stables)
    ]
    state.stacks = [list(stack) for stack in stacks] if stacks else [[] for _ in range(n)]
    state.face_up = list(face_up or [None] * n)
    state.held = held
    state.took_from = list(took_from)
    state.took = [card if took_from[s] is not None else None for s, card in enumerate(held)]
    state.waiting = list(waiting or [False] * n)
    state.take_order = [s for s in range(n) if took_from[s] is not None]
    state.revealed = revealed
    state.phase = phase
    state.turn = 1
    state.log = []
    return state


def play(state: BonjeState, seat: int | None, action: dict, seed: int = 0) -> BonjeState:
    return rules.apply(state, seat, action, rng(seed))


def due_system_move(state: BonjeState) -> dict:
    """The one timed move offered now, as the framework applies it (without its delay)."""
    (action,) = rules.legal_actions(state, None)
    return without_delay(action)


def run_system(state: BonjeState, seed: int = 0) -> BonjeState:
    return rules.apply(state, None, due_system_move(state), rng(seed))


def random_game(
    seed: int, players: int, options: dict, max_actions: int = 20_000
) -> Iterator[tuple[BonjeState, int | None, dict]]:
    """Play one game with random legal actions from every seat and the system interleaved,
    yielding (state, seat, action) before each action, then the final state with seat None and
    an empty action. The engine's rng and the players' choices are kept apart."""
    engine = random.Random(seed)
    chooser = random.Random(-seed - 1)
    state = rules.setup(NAMES[:players], options, engine)
    for _ in range(max_actions):
        if rules.outcome(state) is not None:
            yield state, None, {}
            return
        movers = [(seat, rules.legal_actions(state, seat)) for seat in (None, *range(players))]
        movers = [(seat, actions) for seat, actions in movers if actions]
        assert movers, f"nobody may act in phase {state.phase}"
        seat, actions = chooser.choice(movers)
        action = chooser.choice(actions)
        if seat is None:
            action = without_delay(action)
        yield state, seat, action
        state = rules.apply(state, seat, action, engine)
    raise AssertionError(f"the game did not end within {max_actions} actions")


# Three players, every one of the nine stables holding one animal.
FULL = [
    [[STALLIONS[0]], [BULLS[0]], [BOARS[0]]],
    [[RAMS[0]], [ROOSTERS[0]], [MARES[0]]],
    [[HENS[0]], [COWS[0]], [EWES[0]]],
]


def elephant_against_truck(players: int = 3) -> BonjeState:
    """The waiting tactic for a card with no target yet: every stable holds an animal, Bea
    (seat 1) holds a transport truck, and Ann (seat 0) has just taken the elephant from her
    own pile. No stable takes the elephant, but Bea's truck could still empty one."""
    state = position(
        FULL[:players],
        face_up=[ELEPHANTS[0], *[None] * (players - 1)],
        held=[None, TRUCKS[0], *[None] * (players - 2)],
        took_from=[None, 1, *[None] * (players - 2)],
        stacks=[[HENS[5 + seat]] for seat in range(players)],
    )
    return play(state, 0, {"type": "take", "from": 0})
