"""Bonje in de Stal bots. They decide from the seat's own view, so they never see a face-down
card, nor their own flipped card before it is shown to them.

A bot takes the face-up card that does most for its stables (or most harm to the leader's),
plays it where it helps most, sends elephants and mad animals to rivals, waits with a low card
while a rival holds a transport truck, and calls COMPLETE the moment it can.
"""

from __future__ import annotations

import random
from typing import Any

from apps.core.i18n import N_
from apps.core.protocol import BotLevel

from .plays import PLAY_TYPES, Stables, carry_out, plays
from .rules import legal_actions, view
from .scoring import stable_value
from .stables import (
    BRAWL,
    COMPLETE,
    ELEPHANT_INSIDE,
    EMPTY,
    NEEDS_FEMALE,
    NEEDS_MALE,
    WRONG_KIND,
    Stable,
    stable_status,
)

Action = dict[str, Any]

LEVELS: dict[str, BotLevel] = {
    "relaxed": BotLevel(
        N_("Relaxed: slow and easy"),
        think_ms=(2500, 4500),
        extra={"slip": 0.3, "waits": False},
    ),
    "quick": BotLevel(
        N_("Quick: fast and sharp"),
        think_ms=(600, 1300),
        extra={"slip": 0.0, "waits": True},
    ),
}

# How far a stable is from complete, in the bot's eyes.
_PROGRESS = {
    COMPLETE: 10.0,
    NEEDS_FEMALE: 5.0,
    NEEDS_MALE: 4.0,
    WRONG_KIND: 1.0,
    EMPTY: 0.0,
    BRAWL: -3.0,
    ELEPHANT_INSIDE: -5.0,
}
ALL_COMPLETE_BONUS = 30.0
RIVAL_WEIGHT = 0.6


def progress(row: list[Stable]) -> float:
    score = 0.0
    complete = True
    for stable in row:
        status = stable_status(stable)
        complete = complete and status == COMPLETE
        score += _PROGRESS[status] + 0.5 * stable_value(stable)
    return score + (ALL_COMPLETE_BONUS if complete else 0.0)


def standing(stables: Stables, seat: int) -> float:
    """The bot's own progress against its strongest rival's."""
    rivals = [progress(row) for other, row in enumerate(stables) if other != seat]
    return progress(stables[seat]) - RIVAL_WEIGHT * max(rivals, default=0.0)


def _stables_seen(seen: dict) -> Stables:
    return [
        [Stable([c["id"] for c in s["cards"]], s["special"]) for s in player["stables"]]
        for player in seen["players"]
    ]


def _after(stables: Stables, seat: int, card: int, action: Action) -> float:
    trial = [[s.copy() for s in row] for row in stables]
    carry_out(trial, seat, card, action)
    return standing(trial, seat)


def _best_play(stables: Stables, seat: int, card: int) -> tuple[float, list[Action]]:
    """The best score reachable with ``card`` and the plays that reach it."""
    options = plays(stables, seat, card)
    if not options:
        return standing(stables, seat) - 1.0, []  # removed: a turn without gain
    scored = [(_after(stables, seat, card, action), action) for action in options]
    best = max(score for score, _ in scored)
    return best, [action for score, action in scored if score == best]


def _should_wait(seen: dict, seat: int, card: dict) -> bool:
    """The rules' example: "Because player B could still move a played elephant, player A
    waits a little before playing their elephant." Wait with a numbered card while a rival
    holds a higher one that is not yet played."""
    if card["number"] is None:
        return False
    for player in seen["players"]:
        held = player["holding"]
        if player["seat"] != seat and held and (held["number"] or 0) > card["number"]:
            return True
    return False


def choose(state: Any, seat: int, level: str, rng: random.Random) -> Action | None:
    """One of ``legal_actions(state, seat)``, or None when the seat has nothing to do."""
    seen = view(state, seat)
    actions: list[Action] = seen["legal_actions"]
    if not actions:
        return None
    extra = LEVELS[level].extra if level in LEVELS else LEVELS["quick"].extra
    if {"type": "complete"} in actions:
        return {"type": "complete"}  # "call COMPLETE as soon as complete": speed wins rounds
    specials = [a for a in actions if a["type"] == "choose_special"]
    if specials:
        return max(specials, key=lambda a: a["kind"] == "horse")  # horses are worth most
    playable = [a for a in actions if a["type"] in PLAY_TYPES]
    if rng.random() < extra["slip"]:
        return rng.choice(playable or actions)
    me = seen["players"][seat]
    stables = _stables_seen(seen)
    if me["holding"] is not None:
        card = me["holding"]
        if extra["waits"] and {"type": "wait"} in actions and _should_wait(seen, seat, card):
            return {"type": "wait"}
        if not playable:
            # No target yet: WAIT for the others' plays, or (already waiting) for its turn.
            return {"type": "wait"} if {"type": "wait"} in actions else None
        _, best = _best_play(stables, seat, card["id"])
        return rng.choice(best) if best else rng.choice(playable)
    takes = [a for a in actions if a["type"] == "take"]
    if not takes:
        return rng.choice(actions)
    face_up = {entry["seat"]: entry["card"] for entry in seen["face_up"]}
    scored = [(_best_play(stables, seat, face_up[a["from"]]["id"])[0], a) for a in takes]
    best_score = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == best_score])


def choose_random(state: Any, seat: int, rng: random.Random) -> Action | None:
    """Any legal action, uniformly; None when the seat has nothing to do."""
    actions = legal_actions(state, seat)
    return rng.choice(actions) if actions else None


def choose_heuristic(state: Any, seat: int, rng: random.Random) -> Action | None:
    """The quick bot, for a framework that asks without a level."""
    return choose(state, seat, "quick", rng)
