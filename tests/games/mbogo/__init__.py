"""Helpers that build Mbogo positions for the tests."""

from __future__ import annotations

import random

from apps.games.mbogo import rules
from apps.games.mbogo.cards import ids_of
from apps.games.mbogo.rules import Cage, HandState, MatchState
from apps.games.mbogo.words import log_line

LIONS = ids_of("lion")
ELEPHANTS = ids_of("elephant")
ANTELOPES = ids_of("antelope")
GORILLAS = ids_of("gorilla")
RHINOS = ids_of("rhinoceros")
WARTHOGS = ids_of("warthog")
CAGES = ids_of("cage")
HUNTERS = ids_of("hunter")
MBOGO = ids_of("mbogo")[0]
NAMES = ["Ann", "Bea", "Cal", "Dee", "Eve"]


def hand_state(
    hands: list[list[int]],
    *,
    cages: list[list[tuple[int, list[int]]]] | None = None,
    centre: list[int] | None = None,
    face_down: int | None = None,
    turn: int = 0,
    phase: str = "play1",
    dealer: int = 0,
) -> HandState:
    """A hand in a chosen position (only the cards a test names; the rest are out of play)."""
    n = len(hands)
    return HandState(
        players=NAMES[:n],
        dealer=dealer,
        hands=[list(h) for h in hands],
        cages=[[Cage(c, list(a)) for c, a in row] for row in (cages or [[] for _ in hands])],
        centre=list(centre or []),
        face_down=face_down,
        turn=turn,
        phase=phase,
    )


def match_of(hand: HandState, target: int = 0, totals: list[int] | None = None) -> MatchState:
    n = len(hand.players)
    return MatchState(
        players=list(hand.players),
        target=target,
        max_hands=None if target else 1,
        totals=list(totals or [0] * n),
        history=[],
        hand=hand,
    )


def rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


def lines(hand) -> list[str]:
    """The hand's log as the screens word it (in English)."""
    return [log_line(entry, hand.players) for entry in hand.log]


def play(state, seat, action, seed=0):
    return rules.apply(state, seat, action, rng(seed))
