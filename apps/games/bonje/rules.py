"""Bonje in de Stal's rules: a pure module following apps.core.protocol.

Seat actions (several seats may act at once; the server's commit order decides a race):
- {"type": "take", "from": s}: take the face-up card flipped from seat s's stack
- {"type": "place", "stable": i}: play a taken ordinary animal into an own stable
- {"type": "elephant", "seat": s, "stable": i}: play a taken elephant
- {"type": "mad", "seat": s, "stable": i}: play a taken mad cow or mad stallion
- {"type": "truck", "from_seat", "from_stable", "animal", "to_seat", "to_stable"}: play a taken
  transport truck (to_seat and to_stable None: the animal is removed from the game)
- {"type": "wait"}: play the taken card later, in number order
- {"type": "complete"}: call COMPLETE (listed only when every own stable is complete; any
  call is checked, and a refusal says which stable is not complete and why)
- {"type": "choose_special", "kind": "horse" | "cow"}: bonus variant, the first 5th stable

System actions (``legal_actions(state, None)``, applied as seat None once due):
- {"type": "flip", "round", "turn"}: the next turn's cards (FIRST_FLIP_MS at a round's start,
  FLIP_MS after a turn)
- {"type": "reveal", "round", "turn"}: each player sees their own card (option reveal_ms)
- {"type": "close_calls", "round"}: the window for simultaneous COMPLETE calls (CALL_WINDOW_MS)
- {"type": "count", "round"}: the stacks are used up: the most valuable stables win (FLIP_MS)
- {"type": "next_round", "round"}: the next deal, after the result was shown (RESULT_MS)
"""

from __future__ import annotations

import random
from typing import Any

from apps.core.i18n import N_, _
from apps.core.protocol import (
    DELAY,
    IllegalAction,
    Option,
    clean_options,
    ranking_by,
    without_delay,
)

from . import rounds, turn
from .cards import deal, deck_for
from .plays import PLAY_TYPES
from .rounds import STABLES_IN_BOX, START_STABLES
from .seat_view import build_view
from .stables import Stable, all_complete
from .state import CALLS, OVER, PAUSE, RACE, ROUND_OVER, BonjeState

__all__ = [
    "OPTIONS",
    "BonjeState",
    "IllegalAction",
    "Stable",
    "apply",
    "legal_actions",
    "outcome",
    "setup",
    "view",
]

Action = dict[str, Any]

FIRST_FLIP_MS = 2500  # a round's first cards: time to get a hand ready
FLIP_MS = 900  # the next cards, once every card of a turn is played or removed
CALL_WINDOW_MS = 300  # ruling: "Calls that arrive within 300 ms of the first valid call"
RESULT_MS = 6000  # the round's result stays on every screen before the next deal
DEFAULT_REVEAL_MS = 1200

OPTIONS: tuple[Option, ...] = (
    Option(
        "length",
        N_("Game length"),
        "full",
        choices=(
            ("full", N_("Full game: win a round with 5 stables")),
            ("short", N_("Short game: one round")),
        ),
    ),
    Option(
        "bonus",
        N_("Bonus variant: special stables"),
        False,
        choices=((False, N_("Off")), (True, N_("On"))),
        help=N_(
            "The first two players to earn a 5th stable get the special horse and cow stables."
        ),
    ),
    Option(
        "reveal_ms",
        N_("Your own card is shown to you after (ms)"),
        DEFAULT_REVEAL_MS,
        minimum=0,
        maximum=5000,
        help=N_("The rules have players turn cards away from themselves, so they see theirs last."),
    ),
)


def setup(players: list[str], options: dict | None, rng: random.Random) -> BonjeState:
    """ "Each player receives 3 stables ... Shuffle the deck of cards and then deal them evenly
    among the players." Missing options take their defaults."""
    n = len(players)
    if not 2 <= n <= 4:
        raise IllegalAction(_("Bonje in de Stal is for 2 to 4 players."))
    chosen = clean_options(OPTIONS, options)
    state = BonjeState(
        players=list(players),
        options=chosen,
        stables=[[Stable() for _ in range(START_STABLES)] for _ in players],
        stacks=deal(deck_for(n), n, rng),
        face_up=[None] * n,
        took_from=[None] * n,
        took=[None] * n,
        held=[None] * n,
        waiting=[False] * n,
        box=STABLES_IN_BOX - START_STABLES * n,
        special_box=rounds.special_kinds(bool(chosen["bonus"])),
        wins=[0] * n,
    )
    state.note({"type": "deal", "round": 1})
    return state


# --- legal actions ---------------------------------------------------------------------------


def system_actions(state: BonjeState) -> list[Action]:
    """The timed moves due now, each with its delay."""
    phase, r = state.phase, state.round
    if phase == PAUSE:
        if state.stacks[0]:
            delay = FIRST_FLIP_MS if state.turn == 0 else FLIP_MS
            return [{"type": "flip", "round": r, "turn": state.turn + 1, DELAY: delay}]
        return [{"type": "count", "round": r, DELAY: FLIP_MS}]
    if phase == RACE:
        if not state.revealed:
            reveal_ms = state.options["reveal_ms"]
            return [{"type": "reveal", "round": r, "turn": state.turn, DELAY: reveal_ms}]
        return []
    if phase == CALLS:
        return [{"type": "close_calls", "round": r, DELAY: CALL_WINDOW_MS}]
    if phase == ROUND_OVER and state.choosing is None:
        return [{"type": "next_round", "round": r, DELAY: RESULT_MS}]
    return []


def legal_actions(state: BonjeState, seat: int | None) -> list[Action]:
    """Every action ``seat`` may take now; ``None``: the system's timed moves."""
    if seat is None:
        return system_actions(state)
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        return []
    if state.phase == ROUND_OVER:
        return rounds.special_actions(state, seat)
    if state.phase == OVER:
        return []
    actions: list[Action] = []
    if state.phase == RACE:
        actions.extend(turn.take_actions(state, seat))
        actions.extend(turn.play_actions(state, seat))
    if seat not in state.calls and all_complete(state.stables[seat]):
        actions.append({"type": "complete"})
    return actions


# --- applying an action ----------------------------------------------------------------------


def _apply_system(state: BonjeState, action: Action, rng: random.Random) -> BonjeState:
    offered = [without_delay(a) for a in system_actions(state)]
    if without_delay(action) not in offered:
        raise IllegalAction(_("That is not due now."))
    new = state.copy()
    kind = action["type"]
    if kind == "flip":
        turn.flip(new)
    elif kind == "reveal":
        turn.reveal(new)
    elif kind == "close_calls":
        rounds.close_calls(new)
    elif kind == "count":
        rounds.stacks_used_up(new)
    else:
        rounds.next_round(new, rng)
    return new


def _refuse_outside_race(state: BonjeState, seat: int, kind: str) -> None:
    """Why a take, play or WAIT is refused outside the race for the cards."""
    if state.phase == OVER:
        raise IllegalAction(_("The game is over."))
    if state.phase == ROUND_OVER:
        raise IllegalAction(_("The round is over: the next deal is coming."))
    if state.phase == CALLS:
        caller = state.name(state.calls[0])
        raise IllegalAction(
            _("{name} called COMPLETE: the round is being decided.").format(name=caller)
        )
    if kind == "take":
        raise IllegalAction(_("Wait for the next cards to be turned over."))
    raise IllegalAction(_("You have no card to play now."))


def apply(state: BonjeState, seat: int | None, action: Action, rng: random.Random) -> BonjeState:
    """Apply one action and return the new state; ``state`` itself is never changed."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(_("That is not a move in Bonje in de Stal."))
    if seat is None:
        return _apply_system(state, action, rng)
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalAction(_("Only a player at this table can do that."))
    kind = action["type"]
    new = state.copy()
    if kind == "complete":
        rounds.call_complete(new, seat)
    elif kind == "choose_special":
        rounds.choose_special(new, seat, action.get("kind"))
    elif kind == "take" or kind == "wait" or kind in PLAY_TYPES:
        if state.phase != RACE:
            _refuse_outside_race(state, seat, kind)
        if kind == "take":
            turn.take(new, seat, action)
        elif kind == "wait":
            turn.wait(new, seat)
        else:
            turn.play(new, seat, action)
    else:
        raise IllegalAction(_("That is not a move in Bonje in de Stal."))
    return new


# --- outcome and view ------------------------------------------------------------------------


def outcome(state: BonjeState) -> dict | None:
    """None while the game runs. At the end: "winners" (the seats that won the round that ended
    the game), "winner" (the one winner, or None when several share the win), "scores" (rounds
    won), "ranking" (the winners first, then the others by rounds won), "rounds" (each round's
    winners and every seat's value), and "stables" (the stables each player played the last
    round with)."""
    if state.phase != OVER:
        return None
    n = len(state.players)
    others = {seat: state.wins[seat] for seat in range(n) if seat not in state.winners}
    return {
        "ranking": [list(state.winners), *ranking_by(others)],
        "scores": {seat: state.wins[seat] for seat in range(n)},
        "rounds": [
            {
                "round": r["round"],
                "winners": list(r["winners"]),
                "values": dict(enumerate(r["values"])),
                "ended_by": r["ended_by"],
                "callers": list(r["callers"]),
            }
            for r in state.rounds
        ],
        "stables": {seat: len(state.stables[seat]) for seat in range(n)},
        "winners": list(state.winners),
        "winner": state.winners[0] if len(state.winners) == 1 else None,
    }


def view(state: BonjeState, seat: int | None) -> dict:
    """What ``seat`` may see; None is the big screen. The face-down stacks never appear, and a
    player's own flipped card is hidden from them until the reveal."""
    actions = legal_actions(state, seat) if seat is not None else []
    timers = system_actions(state)
    return build_view(state, seat, actions, outcome(state), timers[0] if timers else None)
