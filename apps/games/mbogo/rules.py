"""Mbogo's rules: a pure module following apps.games.rules_protocol.

The module-level protocol functions (setup, legal_actions, apply, view, outcome) work on a
MatchState: a match of hands that wraps the hand being played. The hand's own rules are the
functions prefixed ``hand_``; they work on a HandState and know nothing of the match.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from apps.games.rules_protocol import IllegalAction

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
    deal,
    draw_source,
    next_in_hand,
    play_actions,
    plural,
    with_article,
)
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
]

ENDED_BY_CARDS, ENDED_BY_NO_PLAY = "cards", "no_play"
LOG_KEPT = 30
LOG_SHOWN = 12
DEFAULT_TARGET = 50

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
        raise IllegalAction(f"That action needs a card as its {key}.")
    return value


def _index_field(action: Action, key: str) -> int:
    value = action.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(f"That action needs a number as its {key}.")
    return value


def _own_card(state: HandState, seat: int, card: int, wanted: str) -> None:
    if card == MBOGO_ID:
        raise IllegalAction("Mbogo can never be played.")
    if card not in state.hands[seat]:
        raise IllegalAction("That card is not in your hand.")
    card_kind = KIND_OF[card]
    if wanted == "animal" and card_kind not in ANIMAL_KINDS:
        raise IllegalAction(f"That card is {with_article(card_kind)}, not an animal.")
    if wanted in (CAGE, HUNTER) and card_kind != wanted:
        raise IllegalAction(f"That card is {with_article(card_kind)}, not {with_article(wanted)}.")


def _own_cage_for(state: HandState, seat: int, index: int, animal: int) -> Cage:
    cages = state.cages[seat]
    if not 0 <= index < len(cages):
        raise IllegalAction("You have no such cage on the table.")
    cage = cages[index]
    animal_kind = KIND_OF[animal]
    if not cage.fits(animal_kind):
        raise IllegalAction(
            f"That cage holds {plural(cage.kind or '')}; {with_article(animal_kind)} can't go in."
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
            raise IllegalAction("That animal is not face up in the centre.")
        _own_cage_for(state, seat, _index_field(action, "cage"), animal)
    elif kind_of_play == "release":
        _own_card(state, seat, _card_field(action, "animal"), "animal")
        if can_place(state, seat):
            raise IllegalAction(
                "You must put an animal in a cage when you can; "
                "releasing is only allowed when no other play is possible."
            )
    elif kind_of_play == "skip":
        if play_actions(state, seat) != [{"type": "skip"}]:
            raise IllegalAction(
                "You must play a card when you can; you may pass only when no play is possible."
            )
    elif kind_of_play == "draw":
        raise IllegalAction("Play a card first; you draw after that.")
    else:
        raise IllegalAction("That is not a move in Mbogo.")


def _log(state: HandState, text: str) -> None:
    state.log.append(text)
    del state.log[:-LOG_KEPT]


def _do_play(state: HandState, seat: int, action: Action) -> None:
    """Carry out a validated play on the (already copied) state."""
    name = state.name(seat)
    hand = state.hands[seat]
    kind_of_play = action["type"]
    if kind_of_play == "skip":
        _log(state, f"{name} had nothing to play.")
        return
    animal = action["animal"]
    animal_kind = KIND_OF[animal]
    if kind_of_play == "cage":
        hand.remove(action["cage"])
        hand.remove(animal)
        state.cages[seat].append(Cage(action["cage"], [animal]))
        _log(state, f"{name} put out a cage with {with_article(animal_kind)}.")
    elif kind_of_play == "animal":
        hand.remove(animal)
        state.cages[seat][action["cage"]].animals.append(animal)
        _log(state, f"{name} caged {with_article(animal_kind)}.")
    elif kind_of_play == "hunt":
        hand.remove(action["hunter"])
        state.discarded.append(action["hunter"])
        state.centre.remove(animal)
        state.cages[seat][action["cage"]].animals.append(animal)
        _log(state, f"{name} hunted {with_article(animal_kind)} from the centre.")
    else:  # release
        hand.remove(animal)
        state.centre.append(animal)
        _log(state, f"{name} released {with_article(animal_kind)} into the centre.")
    state.acted = True


def _hand_emptied(state: HandState, seat: int) -> None:
    """ "The first player to run out of cards draws the card originally placed face down on the
    table to form a new hand of one. After this, any players who run out of cards are out of
    the current hand and do not draw or play any more cards." """
    if state.face_down is not None:
        state.hands[seat].append(state.face_down)
        state.face_down = None
        state.face_down_taker = seat
        _log(state, f"{state.name(seat)} ran out of cards and took the face-down card.")
    else:
        _log(state, f"{state.name(seat)} ran out of cards and is out of the hand.")


def _hand_over_by_cards(state: HandState) -> bool:
    """ "The game ends when there is only one player with cards remaining." """
    if sum(1 for h in state.hands if h) > 1:
        return False
    state.phase = OVER
    state.attack = None
    state.ended_by = ENDED_BY_CARDS
    _log(state, "Only one player has cards left: the hand is over.")
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
        _log(state, "Nobody has played for two rounds: the hand is over.")
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
        raise IllegalAction("Draw a card now; you play again after drawing.")
    source = draw_source(state, seat)
    assert source is not None  # the hand would be over
    position = _index_field(action, "position")
    size = len(state.hands[source])
    if not 0 <= position < size:
        raise IllegalAction(f"Pick one of the {size} cards in {state.name(source)}'s hand.")
    new = state.copy()
    backs = rng.sample(range(size), size)
    card = new.hands[source].pop(backs[position])
    new.hands[seat].append(card)
    _log(new, f"{new.name(seat)} drew from {new.name(source)}.")
    if not new.hands[source]:
        _hand_emptied(new, source)
    if card == MBOGO_ID and any(c.animals for c in new.cages[seat]):
        new.phase = ATTACK
        new.attack = {"chooser": source, "drawer": seat}
        _log(
            new,
            f"Mbogo! {new.name(source)} chooses which of {new.name(seat)}'s cages it attacks.",
        )
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
        raise IllegalAction(f"{state.name(chooser)} chooses which cage Mbogo attacks.")
    if action.get("type") != "attack":
        raise IllegalAction(f"Choose one of {state.name(drawer)}'s cages for Mbogo to attack.")
    index = _index_field(action, "cage")
    cages = state.cages[drawer]
    if not 0 <= index < len(cages) or not cages[index].animals:
        raise IllegalAction(f"Choose one of {state.name(drawer)}'s cages that holds animals.")
    new = state.copy()
    cage = new.cages[drawer][index]
    released = cage.animals
    cage.animals = []
    new.centre.extend(released)
    new.attack = None
    new.acted = True
    _log(
        new,
        f"Mbogo! {new.name(chooser)} releases {new.name(drawer)}'s "
        f"{_owned_phrase(KIND_OF[released[0]], len(released))}.",
    )
    if not _hand_over_by_cards(new):
        new.phase = PLAY2
    return new


def _owned_phrase(card_kind: str, n: int) -> str:
    """ "Ann's lion", "Ann's 3 lions"."""
    return card_kind if n == 1 else f"{n} {plural(card_kind)}"


def hand_apply(state: HandState, seat: int | None, action: Action, rng: random.Random) -> HandState:
    """Apply one action to a hand; a new state is returned and ``state`` is left as it was."""
    if not isinstance(action, dict):
        raise IllegalAction("That is not a move in Mbogo.")
    if state.phase == OVER:
        raise IllegalAction("The hand is over.")
    if seat is None or not 0 <= seat < len(state.players):
        raise IllegalAction("Only a player at the table can do that.")
    if state.phase == ATTACK:
        return _apply_attack(state, seat, action)
    if seat != state.turn:
        raise IllegalAction(f"It is {state.name(state.turn)}'s turn.")
    if state.phase == DRAW:
        return _apply_draw(state, seat, action, rng)
    return _apply_play(state, seat, action)


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
    """Options: "dealer" (seat, default 0), "target" (default 50; 0 means a single hand unless
    "hands" says otherwise) and "hands" (stop after that many hands at the latest)."""
    options = options or {}
    target = int(options.get("target", DEFAULT_TARGET))
    max_hands = options.get("hands")
    if max_hands is None and target <= 0:
        max_hands = 1
    return MatchState(
        players=list(players),
        target=max(target, 0),
        max_hands=int(max_hands) if max_hands is not None else None,
        totals=[0] * len(players),
        history=[],
        hand=deal(players, int(options.get("dealer", 0)), rng),
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
    """The hand's actions; between hands the next dealer (or the host, seat None) deals."""
    if state.hand.phase == OVER:
        if not state.over and seat in (None, _next_dealer(state)):
            return [{"type": "next_hand"}]
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
        raise IllegalAction("The hand is still being played.")
    if state.over:
        raise IllegalAction("The match is over.")
    dealer = _next_dealer(state)
    if seat is not None and seat != dealer:
        raise IllegalAction(f"{state.players[dealer]} deals the next hand.")
    return _replace(state, hand=deal(state.players, dealer, rng), hand_number=state.hand_number + 1)


def apply(state: MatchState, seat: int | None, action: Action, rng: random.Random) -> MatchState:
    """Apply a hand action, or {"type": "next_hand"} between hands; ``state`` is not changed."""
    if isinstance(action, dict) and action.get("type") == "next_hand":
        return _next_hand(state, seat, rng)
    if state.over:
        raise IllegalAction("The match is over.")
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
