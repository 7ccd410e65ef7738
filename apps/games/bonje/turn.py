"""A turn: the flip, the race to take a face-up card, playing or waiting, and the waiting order.

Everything here changes a state that ``rules.apply`` has already copied.
"""

from __future__ import annotations

from typing import Any

from apps.core.i18n import _
from apps.core.protocol import IllegalAction

from .cards import KIND, MAD_KIND, NAME_OF, NUMBER, the
from .plays import (
    ELEPHANT_PLAY,
    MAD,
    PLACE,
    TRUCK_PLAY,
    can_play,
    cannot_play_reason,
    carry_out,
    check_play,
    play_type,
    plays,
)
from .state import PAUSE, RACE, BonjeState

Action = dict[str, Any]


def flip(state: BonjeState) -> None:
    """ "All players simultaneously turn over the top card of their face-down stack and place it
    on the table in front of their stack." Ruling: "A player's own card is shown to them last
    (a short delay after the others')": until the reveal, ``revealed`` is False."""
    n = len(state.players)
    state.turn += 1
    state.face_up = [stack.pop() for stack in state.stacks]
    state.took_from = [None] * n
    state.took = [None] * n
    state.held = [None] * n
    state.waiting = [False] * n
    state.take_order = []
    state.revealed = state.options["reveal_ms"] <= 0
    state.phase = RACE
    state.note({"type": "flip", "round": state.round, "turn": state.turn})


def reveal(state: BonjeState) -> None:
    """ "A player must turn the card so that it faces away from them, so that they see the card
    themselves last." Every player now sees their own card too."""
    state.revealed = True
    state.note({"type": "reveal", "round": state.round, "turn": state.turn})


# --- taking ----------------------------------------------------------------------------------


def take_actions(state: BonjeState, seat: int) -> list[Action]:
    """ "Each player must take 1 of the face-up cards as quickly as possible." One card a turn;
    a player's own card can be taken once they see it."""
    if state.took_from[seat] is not None:
        return []
    return [
        {"type": "take", "from": source}
        for source, card in enumerate(state.face_up)
        if card is not None and (source != seat or state.revealed)
    ]


def taker_of(state: BonjeState, source: int) -> int | None:
    """Who took the card flipped from ``source``'s stack this turn."""
    for seat, came_from in enumerate(state.took_from):
        if came_from == source:
            return seat
    return None


def take(state: BonjeState, seat: int, action: Action) -> None:
    """Ruling: "each player taps one face-up card; the first tap the server receives wins that
    card, and a tap can't be taken back. A player holds at most one card a turn." """
    source = action.get("from")
    if (
        not isinstance(source, int)
        or isinstance(source, bool)
        or not 0 <= source < len(state.players)
    ):
        raise IllegalAction(_("Tap one of the face-up cards."))
    if state.took_from[seat] is not None:
        raise IllegalAction(_("You already took a card this turn: one card per player per turn."))
    if state.face_up[source] is None:
        taker = taker_of(state, source)
        if taker is None:
            raise IllegalAction(_("There is no card there."))
        raise IllegalAction(_("{name} already took that card.").format(name=state.name(taker)))
    if source == seat and not state.revealed:
        raise IllegalAction(_("You don't see your own card yet: take another one, or look again."))
    _give(state, seat, source, auto=False)
    settle(state)


def _give(state: BonjeState, seat: int, source: int, auto: bool) -> None:
    card = state.face_up[source]
    assert card is not None
    state.face_up[source] = None
    state.took_from[seat] = source
    state.took[seat] = card
    state.held[seat] = card
    state.take_order.append(seat)
    state.note({"type": "take", "seat": seat, "from": source, "card": card, "auto": auto})


def _last_card(state: BonjeState) -> None:
    """ "The slowest player must take the last face-up card." Ruling: "When one card is left and
    one player has none, that card goes to that player." """
    left = [s for s, card in enumerate(state.face_up) if card is not None]
    without = [s for s, came_from in enumerate(state.took_from) if came_from is None]
    if len(left) == 1 and len(without) == 1:
        _give(state, without[0], left[0], auto=True)


# --- playing and waiting ---------------------------------------------------------------------


def due(state: BonjeState) -> int | None:
    """The waiting seat that must play now, if the waiting cards' turn has come.

    Ruling: "When everyone who has not waited has played, the waiting cards are played in the
    order of their numbers, lowest first (unnumbered first; equal numbers by take order)." """
    if state.phase != RACE:
        return None
    waiting = []
    for seat, card in enumerate(state.held):
        if state.face_up[seat] is not None:
            return None  # a card still lies face up: somebody has yet to take and play
        if card is not None:
            if not state.waiting[seat]:
                return None
            waiting.append(seat)
    if not waiting:
        return None
    return min(waiting, key=lambda s: (NUMBER[state.held[s]] or 0, state.take_order.index(s)))


def play_actions(state: BonjeState, seat: int) -> list[Action]:
    """What ``seat`` may do with its taken card now: play it on a target, or WAIT."""
    card = state.held[seat]
    if card is None:
        return []
    if state.waiting[seat]:
        return plays(state.stables, seat, card) if due(state) == seat else []
    return [*plays(state.stables, seat, card), {"type": "wait"}]


def _held_card(state: BonjeState, seat: int) -> int:
    card = state.held[seat]
    if card is None:
        if state.took_from[seat] is None:
            raise IllegalAction(_("Take a face-up card first."))
        raise IllegalAction(_("You have no card left to play this turn."))
    return card


def play(state: BonjeState, seat: int, action: Action) -> None:
    """Ruling: "a player plays the taken card as soon as they choose its target." """
    card = _held_card(state, seat)
    if state.waiting[seat] and due(state) != seat:
        raise IllegalAction(
            _(
                "You chose to wait: you play {card} when the others have played, in number order."
            ).format(card=the(NAME_OF[card]))
        )
    check_play(state.stables, state.players, seat, card, action)
    gone, entry = carry_out(state.stables, seat, card, action)
    state.held[seat] = None
    state.waiting[seat] = False
    state.removed.extend(gone)
    state.note(entry)
    settle(state)


def wait(state: BonjeState, seat: int) -> None:
    """Ruling: "A player may press WAIT instead." A WAIT, like a tap, can't be taken back."""
    card = _held_card(state, seat)
    if state.waiting[seat]:
        raise IllegalAction(_("You are already waiting; your card is played in number order."))
    state.waiting[seat] = True
    state.note({"type": "wait", "seat": seat, "card": card})
    settle(state)


def _remove(state: BonjeState, seat: int) -> None:
    """ "If a player cannot play a card, they remove it from the game." Ruling: "automatically
    and visibly"; the log says whether it waited for its turn first."""
    card = state.held[seat]
    assert card is not None
    entry = {"type": "removed", "seat": seat, "card": card, "reason": cannot_play_reason(card)}
    if state.waiting[seat]:
        entry["waited"] = True
    state.held[seat] = None
    state.waiting[seat] = False
    state.removed.append(card)
    state.note(entry)


def _order(state: BonjeState, seat: int) -> tuple[int, int]:
    """Where a held card stands in the waiting order: "the player with the card carrying the
    lowest number goes first" (unnumbered first, equal numbers by take order)."""
    return NUMBER[state.held[seat]] or 0, state.take_order.index(seat)


def _helps(helper: int, card: int) -> bool:
    """Whether playing ``helper`` could give ``card`` a target it lacks. A mad animal or a
    truck can empty a stable (for an animal or an elephant); an animal of a mad card's kind
    or a truck can make the stable it goes into; any animal, an elephant too, gives a truck
    something to move."""
    helper_kind = play_type(helper)
    kind = play_type(card)
    if kind in (PLACE, ELEPHANT_PLAY):
        return helper_kind in (MAD, TRUCK_PLAY)
    if kind == MAD:
        return helper_kind == TRUCK_PLAY or KIND[helper] == MAD_KIND[NAME_OF[card]]
    return helper_kind in (PLACE, ELEPHANT_PLAY)


def could_get_a_target(state: BonjeState, seat: int) -> bool:
    """Whether a card still to be played before ``seat``'s could give its card a target: a
    card lying face up (it will be taken and may be played at once), one held without WAIT,
    or a waiting one that comes earlier in the waiting order."""
    card = state.held[seat]
    assert card is not None
    if any(up is not None and _helps(up, card) for up in state.face_up):
        return True
    for other, held in enumerate(state.held):
        if other == seat or held is None or not _helps(held, card):
            continue
        if not state.waiting[other] or _order(state, other) < _order(state, seat):
            return True
    return False


def settle(state: BonjeState) -> None:
    """After every take, play or wait: hand out the last card, remove cards that cannot be
    played, and end the turn when every card is played. A card with no target yet stays, so
    it may WAIT like any other ("If one or more players want to wait with playing in order to
    let others go first"), while a card still to be played could give it one; it leaves when
    nothing could any more, or, waiting, when its turn comes and it still has none."""
    _last_card(state)
    while True:
        stuck = [
            seat
            for seat, card in enumerate(state.held)
            if card is not None
            and not state.waiting[seat]
            and not can_play(state.stables, seat, card)
            and not could_get_a_target(state, seat)
        ]
        if stuck:
            _remove(state, stuck[0])  # one at a time: each removal may strand another card
            continue
        next_up = due(state)
        if next_up is None:
            break
        card = state.held[next_up]
        assert card is not None
        if can_play(state.stables, next_up, card):
            break
        _remove(state, next_up)
    if all(card is None for card in state.face_up) and all(card is None for card in state.held):
        state.phase = PAUSE
