"""Mbogo's rules: a pure module following apps.core.protocol.

The module-level protocol functions (setup, legal_actions, apply, view, outcome) work on a
MatchState: a match of hands that wraps the hand being played. The hand's own rules are the
functions prefixed ``hand_``; they work on a HandState and know nothing of the match.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from apps.core.i18n import N_, _
from apps.core.protocol import IllegalAction, Option, clean_options, ranking_by

from .cards import (
    ATTACK,
    DRAW,
    KIND_OF,
    OVER,
    PLAY1,
    PLAY2,
    Cage,
    HandState,
    deal,
    draw_source,
)
from .hand import hand_apply, hand_legal_actions
from .scoring import add_hand, hand_outcome, leaders

__all__ = [
    "IllegalAction",
    "Cage",
    "HandState",
    "MatchState",
    "setup",
    "match_setup",
    "legal_actions",
    "apply",
    "view",
    "outcome",
    "to_act",
    "deal",
    "hand_legal_actions",
    "hand_apply",
    "hand_outcome",
    "hand_result",
]

LOG_SHOWN = 12
DEFAULT_TARGET = 50

OPTIONS = (
    Option(
        "target",
        N_("Play to"),
        DEFAULT_TARGET,
        choices=(
            (0, N_("One hand")),
            (25, N_("25 points")),
            (50, N_("50 points, as the rules say")),
            (100, N_("100 points")),
        ),
        help=N_("The match ends after the hand in which someone reaches this score."),
    ),
)

Action = dict[str, Any]


# --- the end of a hand ---------------------------------------------------------------------


# --- the match: what the room framework plays ----------------------------------------------


@dataclass
class MatchState:
    """A match of hands: "Players should play several hands, rotating the dealer clockwise,
    and adding points cumulatively until someone scores 50 points or more." """

    players: list[str]
    target: int  # 0: no target, the match is max_hands long
    max_hands: int | None
    totals: list[int]
    history: list[list[int]]  # each finished hand's scores, by seat
    hand: HandState
    hand_number: int = 1
    over: bool = False

    def to_json(self) -> dict:
        return {
            "players": list(self.players),
            "target": self.target,
            "max_hands": self.max_hands,
            "totals": list(self.totals),
            "history": [list(h) for h in self.history],
            "hand": self.hand.to_json(),
            "hand_number": self.hand_number,
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: dict | str) -> MatchState:
        data = json.loads(data) if isinstance(data, str) else data
        fields = dict(data)
        fields["hand"] = HandState.from_json(data["hand"])
        return cls(**fields)


def setup(players: list[str], options: dict, rng: random.Random) -> MatchState:
    """Options: "target", one of those the lobby offers (default 50; 0 plays a single hand),
    and "dealer" (the seat that deals the first hand, default 0). A setting that is not one
    of these is refused with a sentence, like any other bad input."""
    options = options or {}
    target = clean_options(OPTIONS, options)["target"]
    dealer = options.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise IllegalAction(_("The dealer must be one of the players."))
    return MatchState(
        players=list(players),
        target=target,
        max_hands=1 if target == 0 else None,
        totals=[0] * len(players),
        history=[],
        hand=deal(players, dealer, rng),
    )


def match_setup(players: list[str], options: dict, rng: random.Random) -> MatchState:
    return setup(players, options, rng)


def _next_dealer(state: MatchState) -> int:
    """ "Rotating the dealer clockwise": ruling, "the dealer moving to the left"."""
    return (state.hand.dealer + 1) % len(state.players)


def _match_is_over(state: MatchState) -> bool:
    """Ruling: "until a player has 50 or more after a hand"."""
    if state.target and max(state.totals) >= state.target:
        return True
    return state.max_hands is not None and state.hand_number >= state.max_hands


def legal_actions(state: MatchState, seat: int | None) -> list[Action]:
    """The hand's actions; between hands the next dealer deals ("rotating the dealer
    clockwise"). Mbogo has no timed system moves."""
    if state.hand.phase == OVER:
        if not state.over and seat is not None and seat == _next_dealer(state):
            return [{"type": "next_hand"}]
        return []
    if seat is None:
        return []
    return hand_legal_actions(state.hand, seat)


def _replace(state: MatchState, **changes: Any) -> MatchState:
    fields = {
        "players": list(state.players),
        "target": state.target,
        "max_hands": state.max_hands,
        "totals": list(state.totals),
        "history": [list(h) for h in state.history],
        "hand": state.hand,
        "hand_number": state.hand_number,
        "over": state.over,
    }
    fields.update(changes)
    return MatchState(**fields)


def _next_hand(state: MatchState, seat: int | None, rng: random.Random) -> MatchState:
    if state.hand.phase != OVER:
        raise IllegalAction(_("The hand is still being played."))
    if state.over:
        raise IllegalAction(_("The match is over."))
    dealer = _next_dealer(state)
    if seat != dealer:
        raise IllegalAction(_("{name} deals the next hand.").format(name=state.players[dealer]))
    return _replace(state, hand=deal(state.players, dealer, rng), hand_number=state.hand_number + 1)


def apply(state: MatchState, seat: int | None, action: Action, rng: random.Random) -> MatchState:
    """Apply a hand action, or {"type": "next_hand"} between hands; ``state`` is not changed."""
    if isinstance(action, dict) and action.get("type") == "next_hand":
        return _next_hand(state, seat, rng)
    if state.over:
        raise IllegalAction(_("The match is over."))
    hand = hand_apply(state.hand, seat, action, rng)
    if hand.phase != OVER:
        return _replace(state, hand=hand)
    result = hand_outcome(hand)
    assert result is not None
    scores = result["scores"]
    new = _replace(
        state,
        hand=hand,
        totals=add_hand(state.totals, scores),
        history=[*state.history, [scores[s] for s in range(len(state.players))]],
    )
    new.over = _match_is_over(new)
    return new


def outcome(state: MatchState) -> dict | None:
    """None until the match is over. Then the framework's shape: "ranking" and "scores" (the
    match totals), plus "winners", each hand's scores ("hands") and the last hand's result
    ("hand")."""
    if not state.over:
        return None
    totals = {seat: total for seat, total in enumerate(state.totals)}
    return {
        "ranking": ranking_by(totals),
        "scores": totals,
        "winners": leaders(state.totals),
        "hands": [list(h) for h in state.history],
        "hand": hand_result(state),
    }


def hand_result(state: MatchState) -> dict | None:
    """None while a hand is being played. After a hand: that hand's "scores", "caged",
    "breakdown" and "ended_by", plus "match": the totals, whether the match is over, and its
    winners (empty until it is over)."""
    result = hand_outcome(state.hand)
    if result is None:
        return None
    totals = {seat: total for seat, total in enumerate(state.totals)}
    result["match"] = {
        "totals": totals,
        "hand_number": state.hand_number,
        "target": state.target,
        "leaders": leaders(state.totals),
        "winners": leaders(state.totals) if state.over else [],
        "over": state.over,
    }
    return result


# --- views ---------------------------------------------------------------------------------


def _card(card: int) -> dict:
    return {"id": card, "kind": KIND_OF[card]}


def _cage_view(index: int, cage: Cage) -> dict:
    return {
        "index": index,
        "id": cage.card,
        "kind": cage.kind,
        "count": len(cage.animals),
        "ids": list(cage.animals),
    }


def to_act(state: MatchState) -> int | None:
    """The seat that must act now; None between hands (the next dealer or the host deals)."""
    hand = state.hand
    if hand.phase == OVER:
        return None
    if hand.phase == ATTACK and hand.attack is not None:
        return hand.attack["chooser"]
    return hand.turn


def view(state: MatchState, seat: int | None) -> dict:
    """What ``seat`` may see; None is the big screen. Hands other than the seat's own, the
    face-down card and the deck order never appear, not even as card ids."""
    hand = state.hand
    drawing = hand.phase in (PLAY1, DRAW, PLAY2)
    source = draw_source(hand, hand.turn) if drawing else None
    attack = None
    if hand.attack is not None:
        drawer = hand.attack["drawer"]
        attack = {
            "chooser": hand.attack["chooser"],
            "drawer": drawer,
            "cages": [i for i, c in enumerate(hand.cages[drawer]) if c.animals],
        }
    return {
        "game": "mbogo",
        "seat": seat,
        "phase": hand.phase,
        "turn": hand.turn,
        "to_act": to_act(state),
        "dealer": hand.dealer,
        "players": [
            {
                "seat": s,
                "name": name,
                "hand_size": len(hand.hands[s]),
                "in_hand": bool(hand.hands[s]),
                "took_face_down": hand.face_down_taker == s,
                "cages": [_cage_view(i, c) for i, c in enumerate(hand.cages[s])],
                "total": state.totals[s],
            }
            for s, name in enumerate(state.players)
        ],
        "hand": sorted((_card(c) for c in hand.hands[seat]), key=lambda c: c["id"])
        if seat is not None
        else None,
        "centre": [_card(c) for c in hand.centre],
        "face_down": hand.face_down is not None,
        "hunters_discarded": len(hand.discarded),
        "draw_from": source,
        "draw_from_size": len(hand.hands[source]) if source is not None else 0,
        "attack": attack,
        "log": hand.log[-LOG_SHOWN:],
        "legal_actions": legal_actions(state, seat),
        "outcome": outcome(state),
        "hand_result": hand_result(state),
        "match": {
            "hand_number": state.hand_number,
            "target": state.target,
            "max_hands": state.max_hands,
            "totals": list(state.totals),
            "history": [list(h) for h in state.history],
            "over": state.over,
            "winners": leaders(state.totals) if state.over else [],
        },
    }
