"""Auch schon clever: Dschungelparty's rules: a pure module following apps.core.protocol.

A turn, tap by tap: the active player rolls; takes a colour (with every joker), or rolls all
five dice again once when nothing can be used; makes crosses one at a time; takes the bonus
marks they won one after another; confirms (or passes). Then all others at once take a colour
from the dice left and do the same; when every other has confirmed or passed, or the countdown
ends, the next player clockwise rolls. Until a seat confirms, ``undo`` takes back its crosses.

Phases: "roll" (the active player rolls), "active" (the active player takes dice and marks),
"others" (everyone else at once), "over".
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from apps.core.i18n import N_, _
from apps.core.protocol import IllegalAction, Option, clean_options, ranking_by, without_delay

from . import words
from .areas import Sheet, extra_stars, mark_counts, stars
from .seat_view import seat_view, stars_by_area
from .sheet import AREAS, DICE
from .turn import (
    ACTIVE,
    CONFIRMED,
    NOTHING,
    OTHERS,
    OVER,
    PASSED,
    ROLL,
    TIMED_OUT,
    Play,
    can_use,
    play_actions,
    roll_die,
    step,
    take,
    undo,
)

__all__ = [
    "IllegalAction",
    "OPTIONS",
    "Play",
    "Sheet",
    "State",
    "setup",
    "legal_actions",
    "apply",
    "view",
    "outcome",
    "to_act",
    "available_dice",
    "usable_colours",
]

MIN_PLAYERS, MAX_PLAYERS = 1, 4
TIMEOUT = "timeout"
LOG_KEPT = 24  # the recent log a table shows; the room's action log keeps the whole game
SIMPLE = ("roll", "reroll", "pass", "undo", "confirm", "skip_bonus")  # actions without fields
KINDS = (*SIMPLE, "choose", "mark", "bonus", TIMEOUT)

Action = dict[str, Any]

OPTIONS: tuple[Option, ...] = (
    Option(
        name="countdown",
        label=N_("Time for the others' choice (seconds)"),
        default=60,
        minimum=15,
        maximum=300,
        help=N_(
            "When the active player has confirmed, everyone else chooses at once; whoever "
            "has not confirmed when the time is up marks nothing this round."
        ),
    ),
)


@dataclass
class State:
    """The whole game: every sheet, the dice of the turn and what each seat is doing."""

    players: list[str]
    countdown: int  # seconds the others have for their simultaneous choice
    sheets: list[Sheet]  # confirmed crosses, by seat
    turn: int = 1  # counts the turns; it also names the others' countdown
    active: int = 0
    phase: str = ROLL
    dice: list[str] = field(default_factory=list)  # the five dice's faces; [] before the roll
    rerolled: bool = False  # the active player has rolled all dice a second time
    used: list[int] = field(default_factory=list)  # dice the active player used
    gone: list[int] = field(default_factory=list)  # rerolled for the fountain and not used
    elephants: list[int] = field(default_factory=list)  # elephant dice rerolled (no jokers)
    left: list[int] = field(default_factory=list)  # the dice left for the others
    plays: list[Play | None] = field(default_factory=list)  # by seat: dice taken this turn
    done: list[str | None] = field(default_factory=list)  # others: confirmed, passed, ...
    choices: list[list[str]] = field(default_factory=list)  # by seat: colours that give a cross
    ending: bool = False  # an Extra Star was circled: the game ends with this turn
    log: list[dict] = field(default_factory=list)  # the latest events, oldest first

    def to_json(self) -> dict:
        return {
            "players": list(self.players),
            "countdown": self.countdown,
            "sheets": [s.to_json() for s in self.sheets],
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "dice": list(self.dice),
            "rerolled": self.rerolled,
            "used": list(self.used),
            "gone": list(self.gone),
            "elephants": list(self.elephants),
            "left": list(self.left),
            "plays": [p.to_json() if p is not None else None for p in self.plays],
            "done": list(self.done),
            "choices": [list(c) for c in self.choices],
            "ending": self.ending,
            "log": list(self.log),  # entries are never changed once written
        }

    @classmethod
    def from_json(cls, data: dict | str) -> State:
        data = json.loads(data) if isinstance(data, str) else data
        fields = dict(data)
        fields["sheets"] = [Sheet.from_json(s) for s in data["sheets"]]
        fields["plays"] = [Play.from_json(p) if p is not None else None for p in data["plays"]]
        fields["log"] = list(data["log"])
        return cls(**fields)


def setup(players: list[str], options: dict | None, rng: random.Random) -> State:
    """ "Take one sheet from the pad and a pencil each": 1 to 4 players (one alone plays for a
    high score). Seat 0 begins ("Whoever last saw a monkey begins")."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalAction(_("Dschungelparty is for 1 to 4 players."))
    chosen = clean_options(OPTIONS, options)
    n = len(players)
    return State(
        players=list(players),
        countdown=chosen["countdown"],
        sheets=[Sheet.blank() for _ in range(n)],
        plays=[None] * n,
        done=[None] * n,
        choices=[[] for _ in range(n)],
    )


# --- who may do what -----------------------------------------------------------------------


def available_dice(state: State, seat: int) -> list[tuple[int, str]]:
    """The dice a seat may take from now: all five for the active player, "the dice that were
    not used" for the others."""
    if seat == state.active:
        return list(enumerate(state.dice))
    return [(d, state.dice[d]) for d in state.left]


def usable_colours(state: State, seat: int) -> list[str]:
    """The colours whose dice give ``seat`` at least one cross, worked out once when the dice
    are rolled or left, as neither changes while the seat chooses."""
    available = available_dice(state, seat)
    return [c for c in AREAS if can_use(c, available, state.sheets[seat])]


def _choosing(state: State, seat: int) -> bool:
    """Whether ``seat`` takes part in the current phase and has not finished."""
    if state.phase == ACTIVE:
        return seat == state.active
    return state.phase == OTHERS and seat != state.active and state.done[seat] is None


def legal_actions(state: State, seat: int | None) -> list[Action]:
    """Every action ``seat`` may take now, concretely (each cross names its field);
    ``None``: the countdown of the others' choice, while it runs."""
    if seat is None:
        if state.phase == OTHERS:
            delay = state.countdown * 1000
            return [{"type": TIMEOUT, "turn": state.turn, "delay_ms": delay}]
        return []
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        return []
    if state.phase == ROLL:
        return [{"type": "roll"}] if seat == state.active else []
    if not _choosing(state, seat):
        return []
    play = state.plays[seat]
    if play is not None:
        return play_actions(play)
    actions: list[Action] = [{"type": "choose", "colour": c} for c in state.choices[seat]]
    if not actions and seat == state.active and not state.rerolled:
        actions.append({"type": "reroll"})
    actions.append({"type": "pass"})
    return actions


def to_act(state: State) -> list[int]:
    """The seats with something to do now (several at once in the others' phase)."""
    return [s for s in range(len(state.players)) if legal_actions(state, s)]


# --- applying actions ----------------------------------------------------------------------


def _copy(state: State) -> State:
    """A new State sharing the old one's sheets, plays and log entries, which are never
    changed in place, so ``apply`` can replace them without touching its input."""
    return State(
        players=state.players,
        countdown=state.countdown,
        sheets=list(state.sheets),
        turn=state.turn,
        active=state.active,
        phase=state.phase,
        dice=list(state.dice),
        rerolled=state.rerolled,
        used=list(state.used),
        gone=list(state.gone),
        elephants=list(state.elephants),
        left=list(state.left),
        plays=list(state.plays),
        done=list(state.done),
        choices=list(state.choices),
        ending=state.ending,
        log=state.log[-LOG_KEPT:],
    )


def apply(state: State, seat: int | None, action: Action, rng: random.Random) -> State:
    """The state after ``action``; ``state`` is not changed. IllegalAction says why not."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(_("That is not a move in Dschungelparty."))
    if state.phase == OVER:
        raise IllegalAction(_("The game is over."))
    kind = action["type"]
    if kind not in KINDS:
        raise IllegalAction(_("That is not a move in Dschungelparty."))
    if seat is None:
        return _timeout(state, without_delay(action))
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalAction(_("There is no such seat at this table."))
    if kind in SIMPLE and action != {"type": kind}:
        raise IllegalAction(_("That is not a move in Dschungelparty."))
    if kind == "roll":
        return _roll(state, seat, rng)
    if not _choosing(state, seat):
        raise IllegalAction(_why_waiting(state, seat))
    play = state.plays[seat]
    if kind in ("reroll", "choose", "pass"):
        if play is not None and play.rerolled:
            raise IllegalAction(_("You have rolled the elephants again; cross or confirm."))
        if play is not None:
            raise IllegalAction(
                _("You have taken the {colour} dice; undo to choose again.").format(
                    colour=words.colour(play.colour)
                )
            )
        if kind == "reroll":
            return _reroll(state, seat, rng)
        if kind == "choose":
            return _choose(state, seat, action, rng)
        return _finish(state, seat, None, PASSED)
    if play is None:
        raise IllegalAction(_("Choose a colour first."))
    if kind == "undo":
        new = _copy(state)
        new.plays[seat] = undo(play, state.sheets[seat])
        return new
    if kind == "confirm":
        if play.bonuses:
            raise IllegalAction(_("Place or skip your bonus marks before you confirm."))
        return _finish(state, seat, play, CONFIRMED)
    new = _copy(state)
    new.plays[seat] = step(play, action)
    return new


def _why_waiting(state: State, seat: int) -> str:
    if state.phase == ACTIVE:
        return _("{name} is choosing; your turn with the dice comes next.").format(
            name=state.players[state.active]
        )
    if state.phase == OTHERS and seat == state.active:
        return _("The others are choosing from your dice now.")
    if state.phase == OTHERS:
        return _("You have finished this round.")
    return _("{name} rolls first.").format(name=state.players[state.active])


def _roll(state: State, seat: int, rng: random.Random) -> State:
    """ "When it is your turn, roll all five dice." """
    if state.phase != ROLL:
        raise IllegalAction(_("The dice have been rolled this turn."))
    if seat != state.active:
        raise IllegalAction(
            _("It is {name}'s turn to roll.").format(name=state.players[state.active])
        )
    new = _copy(state)
    new.dice = [roll_die(d, rng) for d in range(len(DICE))]
    new.phase = ACTIVE
    new.choices[seat] = usable_colours(new, seat)
    new.log.append({"turn": state.turn, "seat": seat, "rolled": list(new.dice)})
    return new


def _reroll(state: State, seat: int, rng: random.Random) -> State:
    """ "If you cannot use any of the dice at all, you may roll all the dice once more." """
    if seat != state.active:
        raise IllegalAction(_("Only the player whose turn it is may roll again."))
    if state.rerolled:
        raise IllegalAction(_("You have rolled all the dice again already this turn."))
    if state.choices[seat]:
        raise IllegalAction(_("You can use some of these dice, so you may not roll again."))
    new = _copy(state)
    new.dice = [roll_die(d, rng) for d in range(len(DICE))]
    new.rerolled = True
    new.choices[seat] = usable_colours(new, seat)
    new.log.append({"turn": state.turn, "seat": seat, "rolled": list(new.dice), "again": True})
    return new


def _choose(state: State, seat: int, action: Action, rng: random.Random) -> State:
    """ "You can take all dice of one background colour plus all rolled jokers"; the others
    "choose a background colour from the dice you did not use"."""
    colour = action.get("colour")
    if colour not in AREAS or action != {"type": "choose", "colour": colour}:
        raise IllegalAction(_("Choose green, purple, blue or pink."))
    if colour not in state.choices[seat]:
        raise IllegalAction(
            _("The {colour} dice (with the jokers) give you no cross to make.").format(
                colour=words.colour(colour)
            )
        )
    new = _copy(state)
    leaves = seat == state.active  # the others' unused dice go to nobody
    new.plays[seat] = take(colour, available_dice(state, seat), state.sheets[seat], rng, leaves)
    return new


def _finish(state: State, seat: int, play: Play | None, how: str) -> State:
    """A seat confirms its crosses or passes. The active player's unused dice go to the
    others ("Put these back with the other unused dice"), except rerolled elephants: "The
    dice you do not use after the reroll are no longer available to the other players." """
    new = _copy(state)
    entry: dict = {"turn": state.turn, "seat": seat, "how": how, "colour": None, "marks": []}
    if play is not None:
        if play.sheet.summary().extra_stars != state.sheets[seat].summary().extra_stars:
            new.ending = True  # "The game ends as soon as someone circles the Extra Star"
        new.sheets[seat] = play.sheet
        entry.update(colour=play.colour, marks=play.marks)
        if play.rolled:
            entry["rerolled"] = [
                [d, f] for d, f in zip(play.dice, play.faces, strict=True) if d in play.rolled
            ]
    new.plays[seat] = None
    new.log.append(entry)
    if seat != state.active:
        new.done[seat] = how
        return _after_others(new)
    if play is not None:
        new.used = play.used_dice()
        new.gone = [d for d in play.unused_dice() if d in play.rolled]
        new.elephants = list(play.rolled)
        for d, face in zip(play.dice, play.faces, strict=True):
            if d in play.rolled:  # the elephants rolled again now show their new faces
                new.dice[d] = face
    new.left = [d for d in range(len(DICE)) if d not in new.used and d not in new.gone]
    return _start_others(new)


def _start_others(state: State) -> State:
    """ "After you have made your marks, all other players may choose ... Several players may
    choose the same dice. If someone cannot use any of the remaining dice, that person may
    mark nothing in this round" (they are passed at once)."""
    n = len(state.players)
    state.phase = OTHERS
    state.plays = [None] * n
    state.done = [None] * n
    state.choices = [[] for _ in range(n)]
    for seat in range(n):
        if seat == state.active:
            continue
        state.choices[seat] = usable_colours(state, seat)
        if not state.choices[seat]:
            state.done[seat] = NOTHING
            state.log.append({"turn": state.turn, "seat": seat, "how": NOTHING, "marks": []})
    return _after_others(state)


def _after_others(state: State) -> State:
    """ "When everyone has made their marks, the next player clockwise is up." The game ends
    after the turn in which an Extra Star was circled: ruling, "if the active player did, the
    others still use the dice left that turn"."""
    if any(state.done[s] is None for s in range(len(state.players)) if s != state.active):
        return state
    if state.ending:
        state.phase = OVER
        return state
    n = len(state.players)
    state.turn += 1
    state.active = (state.active + 1) % n
    state.phase = ROLL
    state.dice, state.used, state.gone, state.elephants, state.left = [], [], [], [], []
    state.rerolled = False
    state.plays = [None] * n
    state.done = [None] * n
    state.choices = [[] for _ in range(n)]
    return state


def _timeout(state: State, action: Action) -> State:
    """The others' countdown ends: whoever has not confirmed passes (crosses not confirmed
    are not made)."""
    if action.get("type") != TIMEOUT:
        raise IllegalAction(_("Only the countdown moves for the table."))
    if state.phase != OTHERS or action != {"type": TIMEOUT, "turn": state.turn}:
        raise IllegalAction(_("That countdown has already ended."))
    new = _copy(state)
    for seat in range(len(state.players)):
        if seat != state.active and new.done[seat] is None:
            new.done[seat] = TIMED_OUT
            new.plays[seat] = None
            new.log.append({"turn": state.turn, "seat": seat, "how": TIMED_OUT, "marks": []})
    return _after_others(new)


# --- what a seat sees ----------------------------------------------------------------------


def view(state: State, seat: int | None) -> dict:
    """Everything in Dschungelparty is public; ``seat`` decides the legal actions ([] for the
    big screen, ``None``)."""
    return seat_view(
        state,
        seat,
        legal_actions(state, seat) if seat is not None else [],
        to_act(state),
        outcome(state),
    )


def outcome(state: State) -> dict | None:
    """ "Count your collected rainbow stars ... Whoever collected the most rainbow stars wins.
    In case of a tie, you share the victory." """
    if state.phase != OVER:
        return None
    scores = {seat: stars(sheet) for seat, sheet in enumerate(state.sheets)}
    ranking = ranking_by(scores)
    return {
        "ranking": ranking,
        "scores": scores,
        "stars": dict(scores),
        "winners": list(ranking[0]),
        "marks": {seat: mark_counts(sheet) for seat, sheet in enumerate(state.sheets)},
        "stars_by_area": {seat: stars_by_area(sheet) for seat, sheet in enumerate(state.sheets)},
        "extra_stars": {seat: extra_stars(sheet) for seat, sheet in enumerate(state.sheets)},
    }
