"""The end of a round (COMPLETE calls or used-up stacks), the stables its winners gain, the
special stables of the bonus variant, the next deal, and the end of the game.

Everything here changes a state that ``rules.apply`` has already copied.
"""

from __future__ import annotations

import random

from apps.core.i18n import _
from apps.core.protocol import IllegalAction

from .cards import SPECIAL_KINDS, SPECIAL_STABLE, deal
from .scoring import most_valuable, seat_value
from .stables import Stable, first_incomplete, needs, stable_label
from .state import CALLS, OVER, PAUSE, RACE, ROUND_OVER, BonjeState

GOAL = 5  # "Each player tries to complete 5 stables"
START_STABLES = 3  # "Each player receives 3 stables"
STABLES_IN_BOX = 20  # "20 stables"; ruling: "up to 20 in the box"
ENDED_BY_CALL, ENDED_BY_STACKS = "complete", "stacks"


def round_running(state: BonjeState) -> bool:
    return state.phase in (PAUSE, RACE, CALLS)


def incomplete_reason(state: BonjeState, seat: int) -> str | None:
    """Why ``seat`` may not call COMPLETE now, or None when every stable is complete."""
    stables = state.stables[seat]
    index = first_incomplete(stables)
    if index is None:
        return None
    return _("Your {stable} is not complete: {needs}.").format(
        stable=stable_label(stables, index), needs=needs(stables[index])
    )


def call_complete(state: BonjeState, seat: int) -> None:
    """Ruling: "A player may press COMPLETE at any time; the server checks that moment. If every
    one of their stables is complete, the round ends and they win it; if not, nothing happens
    (a toast says which stable is not complete). Calls that arrive within 300 ms of the first
    valid call count as simultaneous." """
    if state.phase == OVER:
        raise IllegalAction(_("The game is over."))
    if not round_running(state):
        raise IllegalAction(_("The round is over: the next deal is coming."))
    if seat in state.calls:
        raise IllegalAction(_("You already called COMPLETE."))
    reason = incomplete_reason(state, seat)
    if reason is not None:
        raise IllegalAction(reason)
    state.calls.append(seat)
    state.phase = CALLS
    state.note({"type": "complete", "seat": seat})


def values(state: BonjeState) -> list[int]:
    return [seat_value(row) for row in state.stables]


def close_calls(state: BonjeState) -> None:
    """ "If several players call at the same time, the winner is the player with the most
    valuable stable." Ruling: "among those callers the most valuable stables win." """
    end_round(state, most_valuable(values(state), state.calls), ENDED_BY_CALL)


def stacks_used_up(state: BonjeState) -> None:
    """ "If, at the end of a round, none of the players has complete stables, the player with
    the most valuable stables wins the round." Ruling: "The round also ends when all stacks are
    turned and played: then the most valuable stables win (ties share the win)." """
    end_round(state, most_valuable(values(state), state.seats), ENDED_BY_STACKS)


def end_round(state: BonjeState, winners: list[int], ended_by: str) -> None:
    """Record the round; the game ends with it, or its winners gain their stables.

    "The player who first wins a round with 5 stables wins the game." Short game: "It is also
    possible to play the game in a single round." """
    worth = values(state)
    state.rounds.append(
        {
            "round": state.round,
            "winners": list(winners),
            "values": worth,
            "ended_by": ended_by,
            "callers": list(state.calls),
        }
    )
    for seat in winners:
        state.wins[seat] += 1
    state.revealed = True  # the round is over: every card on the table may be seen
    state.note(
        {
            "type": "round_won",
            "round": state.round,
            "winners": list(winners),
            "values": worth,
            "ended_by": ended_by,
        }
    )
    if state.options["length"] == "short":
        finish(state, winners)
        return
    finals = [seat for seat in winners if len(state.stables[seat]) >= GOAL]
    if finals:
        finish(state, finals)
        return
    award_stables(state, winners)
    state.phase = ROUND_OVER


def finish(state: BonjeState, winners: list[int]) -> None:
    state.phase = OVER
    state.winners = list(winners)
    state.note({"type": "game_won", "winners": list(winners)})


# --- stables won -----------------------------------------------------------------------------


def _ordinary_stable(state: BonjeState, seat: int) -> None:
    """ "The winner of a round receives an extra stable from the box." """
    if state.box <= 0:
        state.note({"type": "box_empty", "seat": seat})
        return
    state.box -= 1
    state.stables[seat].append(Stable())
    state.note({"type": "stable", "seat": seat, "special": None})


def _special_stable(state: BonjeState, seat: int, kind: str) -> None:
    state.special_box.remove(kind)
    state.stables[seat].append(Stable([], kind))
    state.note({"type": "stable", "seat": seat, "special": kind})


def award_stables(state: BonjeState, winners: list[int]) -> None:
    """ "If there are several winners, each of them receives a stable." Bonus variant: "The first
    player who earns a 5th stable chooses a special stable (instead of an ordinary one). The
    same applies to the second player, but they automatically receive the other special
    stable." Winners of one round earn in the order of ``winners`` (callers in call order)."""
    earners = []
    for seat in winners:
        if state.options["bonus"] and len(state.stables[seat]) == GOAL - 1:
            earners.append(seat)
        else:
            _ordinary_stable(state, seat)
    for seat in earners:
        promised = (state.choosing is not None) + len(state.special_queue)
        left = len(state.special_box) - promised
        if left >= 2 and state.choosing is None:
            state.choosing = seat
            state.note({"type": "choose_special", "seat": seat})
        elif left >= 1 and state.choosing is not None:
            state.special_queue.append(seat)
        elif left >= 1:
            _special_stable(state, seat, state.special_box[0])
        else:
            _ordinary_stable(state, seat)


def special_actions(state: BonjeState, seat: int) -> list[dict]:
    if state.phase != ROUND_OVER or state.choosing != seat:
        return []
    return [{"type": "choose_special", "kind": kind} for kind in state.special_box]


def choose_special(state: BonjeState, seat: int, kind: object) -> None:
    """The first player to earn a 5th stable chooses a special stable; ruling: "the two special
    stables show horses and cows"."""
    if state.choosing is None or state.phase != ROUND_OVER:
        raise IllegalAction(_("There is no special stable to choose now."))
    if state.choosing != seat:
        raise IllegalAction(
            _("{name} chooses a special stable.").format(name=state.name(state.choosing))
        )
    if kind not in state.special_box:
        shown = _(" or ").join(_(SPECIAL_STABLE[k]) for k in state.special_box)
        raise IllegalAction(_("Choose the {stables}.").format(stables=shown))
    assert isinstance(kind, str)
    _special_stable(state, seat, kind)
    state.choosing = None
    for other in state.special_queue:
        if state.special_box:
            _special_stable(state, other, state.special_box[0])
        else:
            _ordinary_stable(state, other)
    state.special_queue = []


# --- the next deal ---------------------------------------------------------------------------


def next_round(state: BonjeState, rng: random.Random) -> None:
    """Ruling: "All animals go back into the deck, which is shuffled and dealt again; players
    keep their number of stables." """
    cards = state.every_card()
    for row in state.stables:
        for stable in row:
            stable.cards = []
    n = len(state.players)
    state.stacks = deal(cards, n, rng)
    state.removed = []
    state.face_up = [None] * n
    state.took_from = [None] * n
    state.took = [None] * n
    state.held = [None] * n
    state.waiting = [False] * n
    state.take_order = []
    state.calls = []
    state.revealed = True
    state.round += 1
    state.turn = 0
    state.phase = PAUSE
    state.note({"type": "deal", "round": state.round})


def special_kinds(bonus: bool) -> list[str]:
    return list(SPECIAL_KINDS) if bonus else []
