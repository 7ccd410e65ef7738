"""Where every card of a game of Bonje in de Stal lies, and where the game stands."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .stables import Stable

# Phases of a round.
PAUSE = "pause"  # between turns: the next flip (or, with the stacks used up, the count) is due
RACE = "race"  # cards lie face up: take them, play them
CALLS = "calls"  # a valid COMPLETE call opened the window for simultaneous calls
ROUND_OVER = "round_over"  # the round's result is shown; the next deal is due
OVER = "over"  # the game is over

LOG_KEPT = 40


def _entries(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of log or round entries: flat dicts whose values are plain or lists of ints."""
    return [{k: list(v) if isinstance(v, list) else v for k, v in e.items()} for e in entries]


@dataclass
class BonjeState:
    """A game of Bonje in de Stal. Lists indexed by seat unless said otherwise."""

    players: list[str]
    options: dict[str, Any]
    stables: list[list[Stable]]
    stacks: list[list[int]]  # face down; a stack's top card is its last
    phase: str = PAUSE
    round: int = 1
    turn: int = 0  # flips so far this round
    face_up: list[int | None] = field(default_factory=list)  # by the seat that flipped it
    revealed: bool = True  # whether each player now sees their own flipped card too
    took_from: list[int | None] = field(default_factory=list)  # whose card each seat took
    took: list[int | None] = field(default_factory=list)  # the card each seat took (public)
    held: list[int | None] = field(default_factory=list)  # taken, not yet played
    waiting: list[bool] = field(default_factory=list)
    take_order: list[int] = field(default_factory=list)  # seats, first taker first
    removed: list[int] = field(default_factory=list)  # out of the game until the next deal
    calls: list[int] = field(default_factory=list)  # valid COMPLETE calls, first first
    box: int = 0  # ordinary stables left in the box
    special_box: list[str] = field(default_factory=list)  # special stables not yet earned
    choosing: int | None = None  # the seat choosing a special stable now
    special_queue: list[int] = field(default_factory=list)  # seats to be given one after
    wins: list[int] = field(default_factory=list)  # rounds won
    rounds: list[dict[str, Any]] = field(default_factory=list)  # each finished round
    winners: list[int] = field(default_factory=list)  # the game's, once it is over
    log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def seats(self) -> range:
        return range(len(self.players))

    def name(self, seat: int) -> str:
        return self.players[seat]

    def note(self, entry: dict[str, Any]) -> None:
        """Add a happening to the log (as data; views turn card ids into cards)."""
        self.log.append(entry)
        del self.log[:-LOG_KEPT]

    def copy(self) -> BonjeState:
        # Hand-written rather than deepcopy: apply copies on every action.
        return BonjeState(
            players=self.players,  # never changed after setup
            options=self.options,  # never changed after setup
            stables=[[Stable(list(s.cards), s.special) for s in row] for row in self.stables],
            stacks=[list(stack) for stack in self.stacks],
            phase=self.phase,
            round=self.round,
            turn=self.turn,
            face_up=list(self.face_up),
            revealed=self.revealed,
            took_from=list(self.took_from),
            took=list(self.took),
            held=list(self.held),
            waiting=list(self.waiting),
            take_order=list(self.take_order),
            removed=list(self.removed),
            calls=list(self.calls),
            box=self.box,
            special_box=list(self.special_box),
            choosing=self.choosing,
            special_queue=list(self.special_queue),
            wins=list(self.wins),
            rounds=list(self.rounds),  # finished rounds are never changed
            winners=list(self.winners),
            log=list(self.log),  # entries are never changed once written
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "options": dict(self.options),
            "stables": [[s.to_json() for s in row] for row in self.stables],
            "stacks": [list(stack) for stack in self.stacks],
            "phase": self.phase,
            "round": self.round,
            "turn": self.turn,
            "face_up": list(self.face_up),
            "revealed": self.revealed,
            "took_from": list(self.took_from),
            "took": list(self.took),
            "held": list(self.held),
            "waiting": list(self.waiting),
            "take_order": list(self.take_order),
            "removed": list(self.removed),
            "calls": list(self.calls),
            "box": self.box,
            "special_box": list(self.special_box),
            "choosing": self.choosing,
            "special_queue": list(self.special_queue),
            "wins": list(self.wins),
            "rounds": _entries(self.rounds),
            "winners": list(self.winners),
            "log": _entries(self.log),
        }

    @classmethod
    def from_json(cls, data: dict | str) -> BonjeState:
        data = json.loads(data) if isinstance(data, str) else data
        fields = dict(data)
        fields["stables"] = [[Stable.from_json(s) for s in row] for row in data["stables"]]
        fields["stacks"] = [list(stack) for stack in data["stacks"]]
        # A state saved before "took" existed shows no taken card until the next flip.
        fields["took"] = list(data.get("took") or [None] * len(data["players"]))
        for key in ("face_up", "took_from", "held", "waiting", "take_order", "removed", "calls"):
            fields[key] = list(data[key])
        fields["players"] = list(data["players"])
        fields["options"] = dict(data["options"])
        fields["special_box"] = list(data["special_box"])
        fields["special_queue"] = list(data["special_queue"])
        fields["wins"] = list(data["wins"])
        fields["winners"] = list(data["winners"])
        fields["rounds"] = _entries(data["rounds"])
        fields["log"] = _entries(data["log"])
        return cls(**fields)

    def every_card(self) -> list[int]:
        """Every card of the game wherever it lies (a conservation check for tests)."""
        cards = [c for stack in self.stacks for c in stack]
        cards += [c for c in self.face_up if c is not None]
        cards += [c for c in self.held if c is not None]
        cards += [c for row in self.stables for s in row for c in s.cards]
        cards += self.removed
        return cards
