"""The awards ceremony's state and how each step settles a prize (pure: no Django imports).

``settlement.py`` is the protocol around it: who may send what, the views and the outcome.
Everything here works on a fresh copy made by ``fork``, never on a state someone holds.

Rulings ('Prizes'): 'Nobody takes two prizes. Prizes are settled in the host's order; a
player who would win a second one chooses which to keep (on their phone, with a timeout that
keeps the first), and the other goes to the runner-up. Ties for a prize are broken by
roll-off.' Ghosts win nothing; their tallies are kept.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from apps.parties.rules.attendance import is_ghost
from apps.prizes.rules.categories import (
    CONSOLATION,
    COUNTS,
    HOST_CHOICE,
    KINDS,
    TRAVELLING_BUNKO,
    TRAVELLING_WIPEOUT,
    shown,
)

HOST = -1  # the host's seat at the ceremony; None stays the system's, as in the protocol
READY, ROLLOFF, CHOICE, PICK, DONE = "ready", "rolloff", "choice", "pick", "done"
VIRTUAL, PHYSICAL = "virtual", "physical"
TALLY_KEYS = ("wins", "losses", "bunkos", "wipeouts")
# A travelling category and the list of its holders in ``State.travelling``.
TRAVELLING = {TRAVELLING_BUNKO: "bunko", TRAVELLING_WIPEOUT: "wipeout"}


@dataclass
class State:
    """The ceremony.

    ``categories`` are ``{"kind", "name", "prize"}`` in the host's order; ``tallies`` the
    night's counts by name; ``travelling`` every holder of each travelling prize by name,
    latest first; ``ghosts`` the names that win nothing. ``awards`` has one slot per category:
    None, or ``{"player", "runner_up_of", "rounds"}`` (seats; ``rounds`` the roll-off that
    decided it, each round ``[[seat, die], ...]``); ``rolloffs`` the ties the night already
    rolled off, by kind, in the same shape. ``unawarded`` lists the categories nobody
    qualified for. ``task`` is the step under way (a roll-off, a choice or the host's pick);
    ``stage`` counts the steps begun, so a timer belongs to one step. ``spotlight`` is the
    category the screens show with its candidates; ``history`` every event, in order.
    """

    players: list[str]
    categories: list[dict]
    tallies: dict[str, dict]
    travelling: dict[str, list[str]]
    ghosts: list[str]
    options: dict
    rolloffs: dict[str, list] = field(default_factory=dict)
    next: int = 0
    awards: list[dict | None] = field(default_factory=list)
    unawarded: list[int] = field(default_factory=list)
    task: dict | None = None
    stage: int = 0
    spotlight: dict | None = None
    history: list[dict] = field(default_factory=list)

    @property
    def phase(self) -> str:
        if self.task is not None:
            return self.task["step"]
        return DONE if self.next >= len(self.categories) else READY

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> State:
        return cls(**data)


def fork(state: State) -> State:
    """A copy whose lists may be changed (their items are never changed in place)."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.awards = list(state.awards)
    new.unawarded = list(state.unawarded)
    new.history = list(state.history)
    return new


def name_of(state: State, index: int) -> str:
    """A category's name tonight."""
    return state.categories[index]["name"]


def shown_name_of(state: State, index: int) -> str:
    """A category's name tonight as the viewer reads it (see categories.shown)."""
    category = state.categories[index]
    return shown(category["kind"], category["name"])


def waiting(task: dict) -> list[int]:
    """The contenders of a roll-off without a die this round."""
    rolled = {seat for seat, _die in task["dice"]}
    return [seat for seat in task["contenders"] if seat not in rolled]


# --- who may win ------------------------------------------------------------------------------


def is_ghost_seat(state: State, seat: int) -> bool:
    """Ruling: 'Ghosts (names starting "Ghost ") win nothing'."""
    name = state.players[seat]
    return is_ghost(name) or name in state.ghosts


def holdings(state: State) -> dict[int, int]:
    """Seat -> the category it holds."""
    return {a["player"]: i for i, a in enumerate(state.awards) if a is not None}


def eligible(state: State, kind: str, runner_up: bool) -> list[int]:
    """Who may win a category at this step: every player but the ghosts; only those without
    a prize for the runner-up of a prize given up, and always for the consolation ('every
    player without a prize rolls one die')."""
    people = [s for s in range(len(state.players)) if not is_ghost_seat(state, s)]
    if runner_up or kind == CONSOLATION:
        held = holdings(state)
        people = [s for s in people if s not in held]
    return people


def count(state: State, seat: int, kind: str) -> int:
    """The tally a "most" category counts (a travelling one shows the matching tally)."""
    key = COUNTS.get(kind) or {"bunko": "bunkos", "wipeout": "wipeouts"}[TRAVELLING[kind]]
    return state.tallies.get(state.players[seat], {}).get(key, 0)


def holders_in_order(state: State, kind: str, people: list[int]) -> list[int]:
    """'Passes live to whoever rolled the latest Bunko': the holders, latest first, each
    once, among ``people`` (a ghost or a name not at the ceremony is passed over)."""
    seats = {name: s for s, name in enumerate(state.players)}
    order: list[int] = []
    for name in state.travelling[TRAVELLING[kind]]:
        seat = seats.get(name)
        if seat is not None and seat in people and seat not in order:
            order.append(seat)
    return order


def candidates(state: State, kind: str, people: list[int]) -> tuple[list[dict], list[int]]:
    """What the screens list for a category (seat and count, best first) and who is still
    in it: the tied best, the travelling holder, everyone for the consolation."""
    if kind in COUNTS:
        ranked = sorted(people, key=lambda s: (-count(state, s, kind), s))
        listed = [{"seat": s, "count": count(state, s, kind)} for s in ranked]
        best = listed[0]["count"] if listed else 0
        # 'Most Bunkos' with nobody on a Bunko is nobody's: a best count of 0 qualifies none.
        return listed, [s for s in ranked if best > 0 and count(state, s, kind) == best]
    if kind in TRAVELLING:
        order = holders_in_order(state, kind, people)
        return [{"seat": s, "count": count(state, s, kind)} for s in order], order[:1]
    return [{"seat": s, "count": None} for s in people], list(people)


# --- settling ---------------------------------------------------------------------------------


def note(state: State, event: dict[str, Any]) -> None:
    state.history = [*state.history, event]


def open_category(state: State, index: int, runner_up_of: int | None) -> None:
    """Take up a category: in the host's order (``runner_up_of`` None), or again for the
    runner-up once its winner gave it up."""
    kind = state.categories[index]["kind"]
    people = eligible(state, kind, runner_up_of is not None)
    listed, contenders = candidates(state, kind, people)
    state.spotlight = {"category": index, "runner_up_of": runner_up_of, "candidates": listed}
    note(state, {"event": "opened", "category": index, "runner_up_of": runner_up_of})
    if kind == HOST_CHOICE and people:
        state.stage += 1
        state.task = {
            "step": PICK,
            "category": index,
            "runner_up_of": runner_up_of,
            "choices": people,
        }
    elif not contenders or kind == HOST_CHOICE:
        state.unawarded = [*state.unawarded, index]
        state.task = None
        note(state, {"event": "unawarded", "category": index, "runner_up_of": runner_up_of})
    elif len(contenders) == 1:
        win(state, index, contenders[0], runner_up_of, [])
    elif runner_up_of is None and kind in state.rolloffs:
        # The night already rolled off this tie (the overall winner's): the same dice decide
        # the prize, so the night names one winner, not two.
        rounds = state.rolloffs[kind]
        for dice in rounds:
            note(state, {"event": "rolloff", "category": index, "dice": dice})
        win(state, index, max(rounds[-1], key=lambda pair: pair[1])[0], None, rounds)
    else:
        start_rolloff(state, index, runner_up_of, contenders, [])


def settles(rounds: list[list[list[int]]], tied: list[int]) -> bool:
    """Whether rounds of dice are a whole roll-off among ``tied``: each round among the tied
    highest of the one before, the last with one highest."""
    contenders = sorted(tied)
    for dice in rounds:
        if sorted(seat for seat, _die in dice) != contenders:
            return False
        best = max(die for _seat, die in dice)
        contenders = sorted(seat for seat, die in dice if die == best)
    return bool(rounds) and len(contenders) == 1


def start_rolloff(
    state: State, index: int, runner_up_of: int | None, contenders: list[int], rounds: list
) -> None:
    """Ruling: 'Ties for a prize are broken by roll-off' (each round a step of its own)."""
    state.stage += 1
    state.task = {
        "step": ROLLOFF,
        "category": index,
        "runner_up_of": runner_up_of,
        "contenders": contenders,
        "dice": [],
        "rounds": rounds,
    }


def add_dice(state: State, dice: list[tuple[int, int]]) -> None:
    """Dice for contenders who had none this round. Ruling: 'highest wins (ties roll
    again)': once every contender has a die, the highest wins; the tied highest roll a new
    round."""
    task = state.task
    assert task is not None and task["step"] == ROLLOFF
    rolled = [*task["dice"], *([seat, die] for seat, die in dice)]
    if len(rolled) < len(task["contenders"]):
        state.task = {**task, "dice": rolled}
        return
    by_seat = {seat: die for seat, die in rolled}
    this_round = [[seat, by_seat[seat]] for seat in task["contenders"]]
    rounds = [*task["rounds"], this_round]
    note(state, {"event": "rolloff", "category": task["category"], "dice": this_round})
    best = max(die for _seat, die in this_round)
    tied = [seat for seat, die in this_round if die == best]
    if len(tied) > 1:
        start_rolloff(state, task["category"], task["runner_up_of"], tied, rounds)
    else:
        state.task = None
        win(state, task["category"], tied[0], task["runner_up_of"], rounds)


def win(state: State, index: int, seat: int, runner_up_of: int | None, rounds: list) -> None:
    """The category's winner is known; one who already holds a prize chooses which to keep
    ('a player who would win a second one chooses which to keep')."""
    note(state, {"event": "won", "category": index, "player": seat, "runner_up_of": runner_up_of})
    held = holdings(state).get(seat)
    if held is None:
        award(state, index, seat, runner_up_of, rounds)
        return
    state.stage += 1
    state.task = {
        "step": CHOICE,
        "category": index,
        "player": seat,
        "held": held,
        "runner_up_of": runner_up_of,
        "rounds": rounds,
    }
    note(state, {"event": "choice", "player": seat, "held": held, "new": index})


def award(state: State, index: int, seat: int, runner_up_of: int | None, rounds: list) -> None:
    state.awards[index] = {"player": seat, "runner_up_of": runner_up_of, "rounds": rounds}
    state.task = None
    note(state, {"event": "awarded", "category": index, "player": seat})


def keep(state: State, index: int, by: str) -> None:
    """The choosing player keeps ``index``; 'the other goes to the runner-up' at once,
    before the host moves on."""
    task = state.task
    assert task is not None and task["step"] == CHOICE
    seat, new, held = task["player"], task["category"], task["held"]
    given_up = held if index == new else new
    state.task = None
    note(state, {"event": "kept", "player": seat, "category": index, "gave_up": given_up, "by": by})
    if index == new:
        state.awards[held] = None
        award(state, new, seat, task["runner_up_of"], task["rounds"])
    open_category(state, given_up, runner_up_of=seat)


def next_category(state: State) -> None:
    """'Prizes are settled in the host's order.'"""
    index = state.next
    state.next += 1
    open_category(state, index, None)


def pick(state: State, seat: int) -> None:
    """The host's choice falls on ``seat``."""
    task = state.task
    assert task is not None and task["step"] == PICK
    state.task = None
    win(state, task["category"], seat, task["runner_up_of"], [])


def told(state: State, event: dict) -> dict | None:
    """A ceremony event as the night's log keeps it, in no language: what happened, the
    player's name, the category's kind (and its name only when the host typed one), the
    roll-off's dice. ``presenter.said`` says it in the reader's language; None for an event the log
    leaves out."""
    kind = event["event"]
    if kind not in ("rolloff", "unawarded", "choice", "kept", "awarded"):
        return None
    category = state.categories[event["new"] if kind == "choice" else event["category"]]
    step: dict = {"event": kind, "kind": category["kind"]}
    if category["name"] != KINDS.get(category["kind"]):
        step["category"] = category["name"]
    if "player" in event:
        step["player"] = state.players[event["player"]]
    if kind == "rolloff":
        step["dice"] = [[state.players[seat], die] for seat, die in event["dice"]]
    if kind == "kept" and event.get("by") == "timeout":
        step["timeout"] = True
    return step
