"""One hand of Mbogo: what a seat may do and what each action does to a HandState.

The match (apps.games.mbogo.rules) plays hands one after another; a hand knows nothing of it.
"""

from __future__ import annotations

import random
from typing import Any

from apps.core.i18n import _
from apps.core.protocol import IllegalAction

from . import words
from .cards import (
    ANIMAL_KINDS,
    ATTACK,
    CAGE,
    DRAW,
    HUNTER,
    KIND_OF,
    MBOGO_ID,
    OVER,
    PLAY1,
    PLAY2,
    Cage,
    HandState,
    can_place,
    draw_source,
    next_in_hand,
    play_actions,
)

ENDED_BY_CARDS, ENDED_BY_NO_PLAY = "cards", "no_play"
LOG_KEPT = 30

Action = dict[str, Any]


def hand_legal_actions(state: HandState, seat: int | None) -> list[Action]:
    """Every action ``seat`` may take now (an empty list when it is not that seat's move)."""
    if seat is None or state.phase == OVER:
        return []
    if state.phase == ATTACK:
        assert state.attack is not None
        if seat != state.attack["chooser"]:
            return []
        drawer = state.attack["drawer"]
        return [
            {"type": "attack", "cage": i}
            for i, cage in enumerate(state.cages[drawer])
            if cage.animals
        ]
    if seat != state.turn:
        return []
    if state.phase == DRAW:
        source = draw_source(state, seat)
        if source is None:
            return []
        return [{"type": "draw", "position": k} for k in range(len(state.hands[source]))]
    return play_actions(state, seat)


# --- applying an action --------------------------------------------------------------------


def _card_field(action: Action, key: str) -> int:
    value = action.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(_("That action needs a card as its {field}.").format(field=key))
    return value


def _index_field(action: Action, key: str) -> int:
    value = action.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(_("That action needs a number as its {field}.").format(field=key))
    return value


def _own_card(state: HandState, seat: int, card: int, wanted: str) -> None:
    if card == MBOGO_ID:
        raise IllegalAction(_("Mbogo can never be played."))
    if card not in state.hands[seat]:
        raise IllegalAction(_("That card is not in your hand."))
    card_kind = KIND_OF[card]
    if wanted == "animal" and card_kind not in ANIMAL_KINDS:
        raise IllegalAction(
            _("That card is {card}, not an animal.").format(card=words.a(card_kind))
        )
    if wanted in (CAGE, HUNTER) and card_kind != wanted:
        raise IllegalAction(
            _("That card is {card}, not {wanted}.").format(
                card=words.a(card_kind), wanted=words.a(wanted)
            )
        )


def _own_cage_for(state: HandState, seat: int, index: int, animal: int) -> Cage:
    cages = state.cages[seat]
    if not 0 <= index < len(cages):
        raise IllegalAction(_("You have no such cage on the table."))
    cage = cages[index]
    animal_kind = KIND_OF[animal]
    if not cage.fits(animal_kind):
        raise IllegalAction(
            _("That cage holds {animals}; {animal} can't go in.").format(
                animals=words.plural_of(cage.kind or ""), animal=words.a(animal_kind)
            )
        )
    return cage


def _validate_play(state: HandState, seat: int, action: Action) -> None:
    kind_of_play = action.get("type")
    if kind_of_play == "cage":
        _own_card(state, seat, _card_field(action, "cage"), CAGE)
        _own_card(state, seat, _card_field(action, "animal"), "animal")
    elif kind_of_play == "animal":
        animal = _card_field(action, "animal")
        _own_card(state, seat, animal, "animal")
        _own_cage_for(state, seat, _index_field(action, "cage"), animal)
    elif kind_of_play == "hunt":
        _own_card(state, seat, _card_field(action, "hunter"), HUNTER)
        animal = _card_field(action, "animal")
        if animal not in state.centre:
            raise IllegalAction(_("That animal is not face up in the centre."))
        _own_cage_for(state, seat, _index_field(action, "cage"), animal)
    elif kind_of_play == "release":
        _own_card(state, seat, _card_field(action, "animal"), "animal")
        if can_place(state, seat):
            raise IllegalAction(
                _(
                    "You must put an animal in a cage when you can; "
                    "releasing is only allowed when no other play is possible."
                )
            )
    elif kind_of_play == "skip":
        if play_actions(state, seat) != [{"type": "skip"}]:
            raise IllegalAction(
                _("You must play a card when you can; you may pass only when no play is possible.")
            )
    elif kind_of_play == "draw":
        raise IllegalAction(_("Play a card first; you draw after that."))
    else:
        raise IllegalAction(_("That is not a move in Mbogo."))


def _log(state: HandState, event: str, **data: Any) -> None:
    """The log keeps events, never sentences: each screen words them in its own language."""
    state.log.append({"event": event, **data})
    del state.log[:-LOG_KEPT]


def _do_play(state: HandState, seat: int, action: Action) -> None:
    """Carry out a validated play on the (already copied) state."""
    hand = state.hands[seat]
    kind_of_play = action["type"]
    if kind_of_play == "skip":
        _log(state, "nothing", seat=seat)
        return
    animal = action["animal"]
    animal_kind = KIND_OF[animal]
    if kind_of_play == "cage":
        hand.remove(action["cage"])
        hand.remove(animal)
        state.cages[seat].append(Cage(action["cage"], [animal]))
        _log(state, "new_cage", seat=seat, kind=animal_kind)
    elif kind_of_play == "animal":
        hand.remove(animal)
        state.cages[seat][action["cage"]].animals.append(animal)
        _log(state, "caged", seat=seat, kind=animal_kind)
    elif kind_of_play == "hunt":
        hand.remove(action["hunter"])
        state.discarded.append(action["hunter"])
        state.centre.remove(animal)
        state.cages[seat][action["cage"]].animals.append(animal)
        _log(state, "hunted", seat=seat, kind=animal_kind)
    else:  # release
        hand.remove(animal)
        state.centre.append(animal)
        _log(state, "released", seat=seat, kind=animal_kind)
    state.acted = True


def _hand_emptied(state: HandState, seat: int) -> None:
    """ "The first player to run out of cards draws the card originally placed face down on the
    table to form a new hand of one. After this, any players who run out of cards are out of
    the current hand and do not draw or play any more cards." """
    if state.face_down is not None:
        state.hands[seat].append(state.face_down)
        state.face_down = None
        state.face_down_taker = seat
        _log(state, "took_face_down", seat=seat)
    else:
        _log(state, "out", seat=seat)


def _hand_over_by_cards(state: HandState) -> bool:
    """ "The game ends when there is only one player with cards remaining." """
    if sum(1 for h in state.hands if h) > 1:
        return False
    state.phase = OVER
    state.attack = None
    state.ended_by = ENDED_BY_CARDS
    _log(state, "one_left")
    return True


def _end_turn(state: HandState) -> None:
    """Pass the turn to the left, and apply the ruling on hands that can no longer move:
    "the hand also ends when two full rounds of turns pass in which nobody plays a card (to the
    table or the centre) and no Mbogo attack happens; it is scored as it stands." """
    state.quiet_turns = 0 if state.acted else state.quiet_turns + 1
    state.acted = False
    still_in = sum(1 for h in state.hands if h)
    if state.quiet_turns >= 2 * still_in:
        state.phase = OVER
        state.ended_by = ENDED_BY_NO_PLAY
        _log(state, "no_play")
        return
    state.turn = next_in_hand(state, state.turn)
    state.phase = PLAY1


def _apply_play(state: HandState, seat: int, action: Action) -> HandState:
    _validate_play(state, seat, action)
    new = state.copy()
    _do_play(new, seat, action)
    if action["type"] != "skip" and not new.hands[seat]:
        _hand_emptied(new, seat)
        if _hand_over_by_cards(new):
            return new
        if not new.hands[seat]:  # out: no more draws or plays this turn
            _end_turn(new)
            return new
    if new.phase == PLAY1:
        new.phase = DRAW
    else:
        _end_turn(new)
    return new


def _apply_draw(state: HandState, seat: int, action: Action, rng: random.Random) -> HandState:
    """ "The card is drawn at random and placed in the player's hand." The position only names
    a back on the drawer's screen; it goes through a fresh shuffle, so it says nothing about
    which card is taken."""
    if action.get("type") != "draw":
        raise IllegalAction(_("Draw a card now; you play again after drawing."))
    source = draw_source(state, seat)
    assert source is not None  # the hand would be over
    position = _index_field(action, "position")
    size = len(state.hands[source])
    if not 0 <= position < size:
        raise IllegalAction(
            _("Pick one of the {count} cards in {name}'s hand.").format(
                count=size, name=state.name(source)
            )
        )
    new = state.copy()
    backs = rng.sample(range(size), size)
    card = new.hands[source].pop(backs[position])
    new.hands[seat].append(card)
    _log(new, "drew", seat=seat, **{"from": source})
    if not new.hands[source]:
        _hand_emptied(new, source)
    if card == MBOGO_ID and any(c.animals for c in new.cages[seat]):
        new.phase = ATTACK
        new.attack = {"chooser": source, "drawer": seat}
        _log(new, "mbogo", seat=seat, chooser=source)
        return new
    if not _hand_over_by_cards(new):
        new.phase = PLAY2
    return new


def _apply_attack(state: HandState, seat: int, action: Action) -> HandState:
    """ "The player from whom he drew it indicates a cage of the drawing player which is
    attacked by Mbogo. All of the animals from this cage are released and placed face up in the
    center of the table. The cage remains where it is, empty and the Mbogo card remains in the
    drawing player's hand." """
    assert state.attack is not None
    chooser, drawer = state.attack["chooser"], state.attack["drawer"]
    if seat != chooser:
        raise IllegalAction(
            _("{name} chooses which cage Mbogo attacks.").format(name=state.name(chooser))
        )
    if action.get("type") != "attack":
        raise IllegalAction(
            _("Choose one of {name}'s cages for Mbogo to attack.").format(name=state.name(drawer))
        )
    index = _index_field(action, "cage")
    cages = state.cages[drawer]
    if not 0 <= index < len(cages) or not cages[index].animals:
        raise IllegalAction(
            _("Choose one of {name}'s cages that holds animals.").format(name=state.name(drawer))
        )
    new = state.copy()
    cage = new.cages[drawer][index]
    released = cage.animals
    cage.animals = []
    new.centre.extend(released)
    new.attack = None
    new.acted = True
    _log(
        new, "attack", seat=drawer, chooser=chooser, kind=KIND_OF[released[0]], count=len(released)
    )
    if not _hand_over_by_cards(new):
        new.phase = PLAY2
    return new


def hand_apply(state: HandState, seat: int | None, action: Action, rng: random.Random) -> HandState:
    """Apply one action to a hand; a new state is returned and ``state`` is left as it was."""
    if not isinstance(action, dict):
        raise IllegalAction(_("That is not a move in Mbogo."))
    if state.phase == OVER:
        raise IllegalAction(_("The hand is over."))
    # A seat that is not a seat number is junk from the wire, refused like any other.
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalAction(_("Only a player at the table can do that."))
    if state.phase == ATTACK:
        return _apply_attack(state, seat, action)
    if seat != state.turn:
        raise IllegalAction(_("It is {name}'s turn.").format(name=state.name(state.turn)))
    if state.phase == DRAW:
        return _apply_draw(state, seat, action, rng)
    return _apply_play(state, seat, action)
