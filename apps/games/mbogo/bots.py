"""Mbogo bots. They decide from the seat's view alone, so they never see a hidden card."""

from __future__ import annotations

import random
from typing import Any

from apps.core.i18n import N_
from apps.core.protocol import BotLevel

from .cards import ANIMAL_KINDS, KIND_OF, OVER
from .rules import MatchState, view

Action = dict[str, Any]

LEVELS = {
    "steady": BotLevel(N_("Steady: hunts, fills its cages, lets go of what it needs least")),
    "random": BotLevel(N_("Random: any legal move")),
}
# Between hands a bot dealer waits, so everyone can read the hand's scores first.
DEAL_PAUSE_MS = (7000, 10000)


def choose(state: MatchState, seat: int, level: str, rng: random.Random) -> Action | None:
    if level == "random":
        return choose_random(state, seat, rng)
    return choose_heuristic(state, seat, rng)


def think_ms(state: MatchState, seat: int, level: str, rng: random.Random) -> float:
    low, high = (
        DEAL_PAUSE_MS if state.hand.phase == OVER else LEVELS.get(level, LEVELS["steady"]).think_ms
    )
    return rng.uniform(low, high)


def choose_random(state: MatchState, seat: int, rng: random.Random) -> Action | None:
    """Any legal action, uniformly; None when the seat has nothing to do."""
    actions = view(state, seat)["legal_actions"]
    return rng.choice(actions) if actions else None


def _caged_by(seen: dict, seat: int) -> dict[str, int]:
    counts = {k: 0 for k in ANIMAL_KINDS}
    for cage in seen["players"][seat]["cages"]:
        if cage["kind"]:
            counts[cage["kind"]] += cage["count"]
    return counts


def _release_cost(seen: dict, seat: int) -> dict[str, float]:
    """What releasing an animal of each kind gives away: the 3-point bonus while nobody else
    has caged the kind; a kind a rival already cages is the cheapest to let go."""
    others = [_caged_by(seen, p["seat"]) for p in seen["players"] if p["seat"] != seat]
    mine = _caged_by(seen, seat)
    cost: dict[str, float] = {}
    for k in ANIMAL_KINDS:
        rival = max((o[k] for o in others), default=0)
        cost[k] = mine[k] + (3.0 if rival == 0 else -rival)
    return cost


def _play_score(action: Action, seen: dict, seat: int) -> float:
    """Hunt first (an animal caged without spending one from hand), then add to a cage that
    already holds the kind, then open a cage for a kind not yet caged; an empty cage or a
    second cage for a caged kind come last, as they use up room a new kind could have."""
    kind_of_play = action["type"]
    if kind_of_play in ("skip", "next_hand"):
        return 0.0
    animal_kind = KIND_OF[action["animal"]]
    cages = seen["players"][seat]["cages"]
    if kind_of_play == "hunt":
        return 20.0
    if kind_of_play == "animal":
        return 15.0 if cages[action["cage"]]["count"] else 8.0
    if kind_of_play == "cage":
        return 3.0 if any(c["kind"] == animal_kind for c in cages) else 10.0
    return -_release_cost(seen, seat)[animal_kind]


def choose_heuristic(state: MatchState, seat: int, rng: random.Random) -> Action | None:
    """Hunt when possible, fill cages of kinds already caged, attack the fullest cage, release
    the least useful kind; draws pick a back at random (there is nothing to know about them)."""
    seen = view(state, seat)
    actions: list[Action] = seen["legal_actions"]
    if not actions:
        return None
    first = actions[0]["type"]
    if first in ("draw", "next_hand"):
        return rng.choice(actions)
    if first == "attack":
        drawer = seen["attack"]["drawer"]
        cages = seen["players"][drawer]["cages"]
        best = max(cages[a["cage"]]["count"] for a in actions)
        return rng.choice([a for a in actions if cages[a["cage"]]["count"] == best])
    scored = [(_play_score(a, seen, seat), a) for a in actions]
    best_score = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == best_score])
