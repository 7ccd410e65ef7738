"""Mbogo's deck (61 cards with stable ids), the words the table uses for them, where every
card of a hand lies (HandState), and where a card may go."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from apps.core.i18n import _
from apps.core.protocol import IllegalAction

ANIMAL_KINDS: tuple[str, ...] = (
    "antelope",
    "elephant",
    "gorilla",
    "lion",
    "rhinoceros",
    "warthog",
)
CAGE = "cage"
HUNTER = "hunter"
MBOGO = "mbogo"

# "7 Antelope, 7 Elephant, 7 Gorilla, 7 Lion, 7 Rhinoceros, 7 Wart Hog, 11 Cage, 7 Hunter,
# 1 Mbogo": ids follow this order, so a card's id never changes between deals.
KIND_OF: tuple[str, ...] = (
    tuple(kind for kind in ANIMAL_KINDS for _ in range(7)) + (CAGE,) * 11 + (HUNTER,) * 7 + (MBOGO,)
)
DECK_SIZE = len(KIND_OF)
MBOGO_ID = KIND_OF.index(MBOGO)
ALL_OF_A_KIND = 7

# Words as the rule text prints them ("Wart Hog"); the kind keys stay one word.
_WORDS = {"warthog": "wart hog"}
_PLURALS = {"rhinoceros": "rhinoceroses", "warthog": "wart hogs"}
_ARTICLES = {"antelope": "an", "elephant": "an"}


Action = dict[str, Any]
PLAY1, DRAW, PLAY2, ATTACK, OVER = "play1", "draw", "play2", "mbogo_attack", "over"


def kind(card: int) -> str:
    return KIND_OF[card]


def is_animal(card: int) -> bool:
    return KIND_OF[card] in ANIMAL_KINDS


def ids_of(card_kind: str) -> list[int]:
    """Every card id of one kind, lowest first (tests and bots build positions with it)."""
    return [card for card, k in enumerate(KIND_OF) if k == card_kind]


def plural(card_kind: str) -> str:
    return _PLURALS.get(card_kind, card_kind + "s")


def with_article(card_kind: str) -> str:
    return f"{_ARTICLES.get(card_kind, 'a')} {_WORDS.get(card_kind, card_kind)}"


@dataclass
class Cage:
    """A cage on the table: its own card id and the animals in it (public)."""

    card: int
    animals: list[int] = field(default_factory=list)

    @property
    def kind(self) -> str | None:
        return KIND_OF[self.animals[0]] if self.animals else None

    def fits(self, card_kind: str) -> bool:
        """ "This cage must be empty or contain only animals of the same type." """
        return not self.animals or KIND_OF[self.animals[0]] == card_kind


@dataclass
class HandState:
    players: list[str]
    dealer: int
    hands: list[list[int]]
    cages: list[list[Cage]]
    centre: list[int]
    face_down: int | None
    turn: int
    phase: str = PLAY1
    face_down_taker: int | None = None
    discarded: list[int] = field(default_factory=list)
    attack: dict[str, int] | None = None  # {"chooser": seat, "drawer": seat}
    acted: bool = False  # a card was played or Mbogo attacked during this turn
    quiet_turns: int = 0
    ended_by: str | None = None
    log: list[dict] = field(default_factory=list)  # events (apps.games.mbogo.words words them)

    def copy(self) -> HandState:
        # Hand-written rather than deepcopy: apply copies on every action.
        return HandState(
            players=list(self.players),
            dealer=self.dealer,
            hands=[list(h) for h in self.hands],
            cages=[[Cage(c.card, list(c.animals)) for c in row] for row in self.cages],
            centre=list(self.centre),
            face_down=self.face_down,
            turn=self.turn,
            phase=self.phase,
            face_down_taker=self.face_down_taker,
            discarded=list(self.discarded),
            attack=dict(self.attack) if self.attack else None,
            acted=self.acted,
            quiet_turns=self.quiet_turns,
            ended_by=self.ended_by,
            log=list(self.log),
        )

    def to_json(self) -> dict:
        return {
            "players": list(self.players),
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "cages": [
                [{"card": c.card, "animals": list(c.animals)} for c in r] for r in self.cages
            ],
            "centre": list(self.centre),
            "face_down": self.face_down,
            "turn": self.turn,
            "phase": self.phase,
            "face_down_taker": self.face_down_taker,
            "discarded": list(self.discarded),
            "attack": dict(self.attack) if self.attack else None,
            "acted": self.acted,
            "quiet_turns": self.quiet_turns,
            "ended_by": self.ended_by,
            "log": list(self.log),
        }

    @classmethod
    def from_json(cls, data: dict | str) -> HandState:
        data = json.loads(data) if isinstance(data, str) else data
        fields = dict(data)
        fields["cages"] = [[Cage(c["card"], list(c["animals"])) for c in r] for r in data["cages"]]
        return cls(**fields)

    def name(self, seat: int) -> str:
        return self.players[seat]

    def in_hand(self, seat: int) -> bool:
        """A player with cards is still in the hand; an empty hand is out (see hand_emptied)."""
        return bool(self.hands[seat])


def deal(players: list[str], dealer: int, rng: random.Random) -> HandState:
    """ "Shuffle and distribute all the cards but one face down equally to all the players. The
    remaining card is left face down at the center of the table. The dealer is the first to
    take a turn." """
    if not 2 <= len(players) <= 5:
        raise IllegalAction(_("Mbogo is for 2 to 5 players."))
    if not 0 <= dealer < len(players):
        raise IllegalAction(_("The dealer must be one of the players."))
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    n = len(players)
    share = (DECK_SIZE - 1) // n
    return HandState(
        players=list(players),
        dealer=dealer,
        hands=[deck[i * share : (i + 1) * share] for i in range(n)],
        cages=[[] for _ in players],
        centre=[],
        face_down=deck[-1],
        turn=dealer,
        log=[{"event": "dealt", "seat": dealer}],
    )


# --- who draws from whom -------------------------------------------------------------------


def draw_source(state: HandState, seat: int) -> int | None:
    """ "Draw a card from the player immediately to the right": play passes to the left, so that
    is the previous seat; ruling: "the nearest player to the right who still has cards"."""
    n = len(state.players)
    for step in range(1, n):
        other = (seat - step) % n
        if state.hands[other]:
            return other
    return None


def next_in_hand(state: HandState, seat: int) -> int:
    n = len(state.players)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if state.hands[other]:
            return other
    return seat


# --- where a card may go ------------------------------------------------------------------


def _placements(state: HandState, seat: int) -> list[Action]:
    """Plays a, b and c of the ruling, every card combination, cheapest to compute first."""
    hand = state.hands[seat]
    cages = state.cages[seat]
    animals = [c for c in hand if KIND_OF[c] in ANIMAL_KINDS]
    actions: list[Action] = []
    for card in hand:
        if KIND_OF[card] == CAGE:
            actions.extend({"type": "cage", "cage": card, "animal": a} for a in animals)
    for a in animals:
        actions.extend(
            {"type": "animal", "animal": a, "cage": i}
            for i, cage in enumerate(cages)
            if cage.fits(KIND_OF[a])
        )
    hunters = [c for c in hand if KIND_OF[c] == HUNTER]
    for h in hunters:
        for a in state.centre:
            actions.extend(
                {"type": "hunt", "hunter": h, "animal": a, "cage": i}
                for i, cage in enumerate(cages)
                if cage.fits(KIND_OF[a])
            )
    return actions


def can_place(state: HandState, seat: int) -> bool:
    """Is one of plays a-c possible? (The test of "only when none of a-c is possible".)"""
    hand = state.hands[seat]
    kinds = {KIND_OF[c] for c in hand}
    animal_kinds = kinds & set(ANIMAL_KINDS)
    cages = state.cages[seat]
    if animal_kinds and CAGE in kinds:
        return True
    if any(cage.fits(k) for cage in cages for k in animal_kinds):
        return True
    if HUNTER in kinds:
        return any(cage.fits(KIND_OF[a]) for cage in cages for a in state.centre)
    return False


def play_actions(state: HandState, seat: int) -> list[Action]:
    """ "To play is to do exactly one of these, and it is not optional when one is possible ...
    Only when none of a-c is possible must the player release an animal from hand face up into
    the centre. If that is impossible too, the play is skipped." """
    placements = _placements(state, seat)
    if placements:
        return placements
    releases = [
        {"type": "release", "animal": c} for c in state.hands[seat] if KIND_OF[c] in ANIMAL_KINDS
    ]
    return releases or [{"type": "skip"}]
