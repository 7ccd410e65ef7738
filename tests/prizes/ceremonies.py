"""Helpers for the awards ceremony's tests: nights' tallies, scripted dice, random play."""

from __future__ import annotations

import random

from apps.core.protocol import without_delay
from apps.prizes.rules import settlement
from apps.prizes.rules.categories import KINDS, MOST_BUNKOS, MOST_WINS
from apps.prizes.rules.settlement import HOST, State


class Dice(random.Random):
    """An rng whose dice show the given faces, in order, then roll at random."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def random(self) -> float:
        if self.faces:
            return (self.faces.pop(0) - 0.5) / 6
        return super().random()


def tally(wins: int = 0, losses: int = 0, bunkos: int = 0, wipeouts: int = 0) -> dict:
    return {"wins": wins, "losses": losses, "bunkos": bunkos, "wipeouts": wipeouts}


def categories(*kinds: str) -> list[dict]:
    return [{"kind": kind, "name": KINDS[kind], "prize": ""} for kind in kinds]


def start(tallies: dict[str, dict], kinds: tuple[str, ...], **options: object) -> State:
    """A ceremony for the players of ``tallies`` (in that order) with these categories."""
    given = {"categories": categories(*kinds), "tallies": tallies, **options}
    return settlement.setup(list(tallies), given, random.Random(0))


def host_next(state: State, rng: random.Random | None = None) -> State:
    return settlement.apply(state, HOST, {"type": "next"}, rng or random.Random(0))


def winners(state: State) -> dict[str, str]:
    """Category name -> the player holding it."""
    return {
        state.categories[i]["name"]: state.players[a["player"]]
        for i, a in enumerate(state.awards)
        if a is not None
    }


def moves(state: State) -> list[tuple[int | None, dict]]:
    """Every move open now: the host's, each player's, and the timers (without delay)."""
    found: list[tuple[int | None, dict]] = [
        (seat, action)
        for seat in (HOST, *range(len(state.players)))
        for action in settlement.legal_actions(state, seat)
    ]
    found += [(None, without_delay(a)) for a in settlement.legal_actions(state, None)]
    return found


ANN, BEA, CAL, DEE, EVE = range(5)  # the seats of a five-player ceremony


def roll(state: State, seat: int, rng: random.Random) -> State:
    return settlement.apply(state, seat, {"type": "roll"}, rng)


def keep(state: State, seat: int, category: int) -> State:
    return settlement.apply(state, seat, {"type": "keep", "category": category}, random.Random(0))


def award(state: State, name: str) -> dict:
    result = settlement.view(state, None)["awards"]
    return next(a for a in result if a["category"] == name)


def two_prize_night() -> State:
    """Ann has the most wins and the most Bunkos; Bea is next on wins, Cal on Bunkos."""
    tallies = {
        "Ann": tally(wins=5, bunkos=3),
        "Bea": tally(wins=4, bunkos=1),
        "Cal": tally(wins=1, bunkos=2),
    }
    state = host_next(host_next(start(tallies, (MOST_WINS, MOST_BUNKOS))))
    assert state.phase == "choice"
    return state
