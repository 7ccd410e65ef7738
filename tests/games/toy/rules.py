"""Snap, a toy game for the framework's tests: simultaneous moves and timed system moves.

Six cards lie face down. A system move turns them face up after ``reveal_ms``; then every
seat races to take one card (several seats act at once; the first to take a card gets it).
A second system move closes the round ``close_ms`` after the reveal, whoever has taken what;
the countdown does not restart when someone takes a card. After ``rounds`` rounds the seat
with the most cards wins.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field

from apps.core.protocol import IllegalAction, Option, ranking_by

CARDS = 6
OPTIONS = (
    Option("rounds", "Rounds", 2, minimum=1, maximum=5),
    Option("reveal_ms", "Reveal after (ms)", 1500, minimum=0, maximum=60_000),
    Option("close_ms", "Close after (ms)", 2000, minimum=0, maximum=60_000),
)


@dataclass
class SnapState:
    players: list[str]
    options: dict
    round: int = 1
    phase: str = "waiting"  # waiting (face down), racing, over
    taken: list[int | None] = field(default_factory=lambda: [None] * CARDS)  # card -> seat
    scores: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> SnapState:
        return cls(**data)


def _copy(state: SnapState) -> SnapState:
    return SnapState.from_json(
        {**asdict(state), "taken": list(state.taken), "scores": list(state.scores)}
    )


def setup(players: list[str], options: dict, rng: random.Random) -> SnapState:
    opts = {o.name: options.get(o.name, o.default) for o in OPTIONS}
    return SnapState(players=list(players), options=opts, scores=[0] * len(players))


def legal_actions(state: SnapState, seat: int | None) -> list[dict]:
    if state.phase == "over":
        return []
    if seat is None:
        if state.phase == "waiting":
            return [
                {"type": "reveal", "round": state.round, "delay_ms": state.options["reveal_ms"]}
            ]
        return [{"type": "close", "round": state.round, "delay_ms": state.options["close_ms"]}]
    if state.phase != "racing" or seat in state.taken:
        return []
    return [{"type": "take", "card": c} for c, who in enumerate(state.taken) if who is None]


def apply(state: SnapState, seat: int | None, action: dict, rng: random.Random) -> SnapState:
    kind = action.get("type")
    new = _copy(state)
    if state.phase == "over":
        raise IllegalAction("The game is over.")
    if kind == "reveal" and seat is None and state.phase == "waiting":
        new.phase = "racing"
        new.log.append(f"round {state.round}: cards up")
    elif kind == "close" and seat is None and state.phase == "racing":
        new.round += 1
        new.taken = [None] * CARDS
        new.phase = "over" if state.round >= state.options["rounds"] else "waiting"
        new.log.append(f"round {state.round}: closed")
    elif kind == "take" and seat is not None:
        card = action.get("card")
        if state.phase != "racing":
            raise IllegalAction("The cards are still face down.")
        if not isinstance(card, int) or not 0 <= card < CARDS:
            raise IllegalAction("There is no such card.")
        if state.taken[card] is not None:
            raise IllegalAction(f"{state.players[state.taken[card]]} took that card first.")
        if seat in state.taken:
            raise IllegalAction("You already took a card this round.")
        new.taken[card] = seat
        new.scores[seat] += 1
        new.log.append(f"{state.players[seat]} took card {card}")
    else:
        raise IllegalAction("That is not a move in Snap now.")
    return new


def view(state: SnapState, seat: int | None) -> dict:
    data = state.to_json()
    data["seat"] = seat
    data["legal_actions"] = legal_actions(state, seat) if seat is not None else []
    data["outcome"] = outcome(state)
    return data


def outcome(state: SnapState) -> dict | None:
    if state.phase != "over":
        return None
    scores = dict(enumerate(state.scores))
    return {"ranking": ranking_by(scores), "scores": scores}
