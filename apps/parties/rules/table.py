"""One table's Bunko game, in the common rules protocol (state in ``state.py``)."""

from __future__ import annotations

import random
from typing import Any

from apps.core.protocol import Action, IllegalAction

from .dice import (
    BUNKO,
    WIPEOUT,
    RollResult,
    check_dice,
    check_die,
    classify,
    report_result,
    roll_dice,
    roll_die,
)
from .state import (
    DONE,
    PLAYING,
    ROLLOFF,
    SCRAMBLE,
    SEATS,
    SPLITS,
    TARGET,
    TableState,
    partner_of,
    recount,
    replace,
    target_number,
    team_of,
)

__all__ = [
    "BUNKO",
    "DONE",
    "PLAYING",
    "ROLLOFF",
    "SCRAMBLE",
    "WIPEOUT",
    "TableState",
    "apply",
    "ghost_action",
    "legal_actions",
    "outcome",
    "partner_of",
    "recount",
    "setup",
    "team_of",
    "view",
]


def setup(players: list[str], options: dict, rng: random.Random) -> TableState:
    """Four players in seat order; options: head, classic, round, target, ghosts."""
    if len(players) != SEATS:
        raise ValueError("A Bunko table seats exactly 4 players.")
    ghosts = sorted({int(s) for s in options.get("ghosts", [])})
    if any(not 0 <= s < SEATS for s in ghosts):
        raise ValueError("Ghost seats are 0 to 3.")
    opts = {
        "head": bool(options.get("head", False)),
        "classic": bool(options.get("classic", False)),
        "round": int(options.get("round", 1)),
        "target": int(options.get("target", TARGET)),
        "ghosts": ghosts,
    }
    tallies = [{"bunkos": 0, "wipeouts": 0} for _ in range(SEATS)]
    return TableState(players=list(players), options=opts, ghosts=ghosts, tallies=tallies)


def _name(state: TableState, seat: int) -> str:
    return state.players[seat]


def _check_seat(state: TableState, seat: Any) -> None:
    if seat is None or (type(seat) is int and 0 <= seat < SEATS):
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise IllegalAction(f"Seat {_seat_label(seat)} is not at this table.")


def _seat_label(seat: Any) -> str:
    return str(seat + 1) if isinstance(seat, int) and not isinstance(seat, bool) else str(seat)


def _require_roller(state: TableState, seat: int | None) -> int:
    if state.phase == ROLLOFF:
        raise IllegalAction("Roll off first: each seat rolls one die to see who starts.")
    if state.phase == SCRAMBLE:
        raise IllegalAction("The dice are being scrambled: grab a die first.")
    assert state.roller is not None
    if seat != state.roller:
        raise IllegalAction(f"It is {_name(state, state.roller)}'s turn to roll.")
    return seat


# --- roll-off -------------------------------------------------------------------------------


def _rolloff_dice(state: TableState, action: Action, rng: random.Random) -> list[int]:
    given = action.get("dice")
    if given is None:
        return [roll_die(rng) for _ in state.contenders]
    if not isinstance(given, dict):
        raise IllegalAction("A roll-off is one die for each seat still rolling.")
    by_seat = {}
    for key, die in given.items():
        try:
            by_seat[int(key)] = check_die(die)
        except (TypeError, ValueError):
            raise IllegalAction(f"Seat {key} is not at this table.") from None
    if sorted(by_seat) != state.contenders:
        names = ", ".join(_name(state, s) for s in state.contenders)
        raise IllegalAction(f"The roll-off needs one die from each of: {names}.")
    return [by_seat[s] for s in state.contenders]


def _apply_rolloff(state: TableState, seat: int | None, action: Action, rng) -> TableState:
    """'Each player rolls a die to see whom goes first.' Ruling: 'highest starts, tied
    highest roll again.' Every round of the roll-off is kept."""
    if state.phase != ROLLOFF:
        raise IllegalAction("The first roller is already known.")
    dice = _rolloff_dice(state, action, rng)
    rolloffs = [*state.rolloffs, {"seats": list(state.contenders), "dice": dice}]
    best = max(dice)
    tied = [s for s, d in zip(state.contenders, dice, strict=True) if d == best]
    if len(tied) > 1:
        return replace(state, rolloffs=rolloffs, contenders=tied)
    first = tied[0]
    return replace(
        state, rolloffs=rolloffs, contenders=[], first_roller=first, roller=first, phase=PLAYING
    )


# --- rolling and scoring ----------------------------------------------------------------------


def _score(state: TableState, seat: int, dice: list[int] | None, result: RollResult) -> TableState:
    team = team_of(seat)
    scores = list(state.scores)
    if result.kind == WIPEOUT:
        # 'A team loses all its points if they roll a wipeout.'
        scores[team] = 0
    else:
        scores[team] += result.points
    tallies = state.tallies
    if result.kind in (BUNKO, WIPEOUT):
        tallies = list(tallies)
        tally = dict(tallies[seat])
        tally["bunkos" if result.kind == BUNKO else "wipeouts"] += 1
        tallies[seat] = tally
    # Only a Bunko's entry gets "scramble" and "split" (once the dice are grabbed).
    entry = {
        "index": len(state.rolls) + 1,
        "seat": seat,
        "dice": dice,
        "points": result.points,
        "kind": result.kind,
        "scores": list(scores),
    }
    if result.mini:
        entry["mini"] = True
    # 'Play then rotates from player to player clockwise after a player does not roll a 6.'
    roller = seat if result.rolls_again else (seat + 1) % SEATS
    phase = SCRAMBLE if result.scramble else PLAYING
    new = replace(
        state,
        scores=scores,
        rolls=[*state.rolls, entry],
        tallies=tallies,
        roller=roller,
        phase=phase,
    )
    return _settle(new) if phase == PLAYING else _head_reached(new)


def _head_reached(state: TableState) -> TableState:
    """Ruling: 'The head table plays until a team reaches 21 or more. At that moment the head
    table calls STOP.' Points of the same roll (a pending scramble too) still count."""
    if state.options["head"] and not state.stopped and max(state.scores) >= state.options["target"]:
        return replace(state, stopped=True)
    return state


def _settle(state: TableState) -> TableState:
    """Ruling: 'A table that is tied when STOP comes plays on, normally, until the tie is
    broken; the round is over when every table has a winner.'"""
    state = _head_reached(state)
    if state.stopped and state.phase == PLAYING and state.scores[0] != state.scores[1]:
        winner = 0 if state.scores[0] > state.scores[1] else 1
        return replace(state, phase=DONE, winner=winner)
    return state


def _apply_roll(state: TableState, seat: int | None, action: Action, rng) -> TableState:
    """'All three dice are rolled at the same time.' Dice may be entered or rolled here."""
    roller = _require_roller(state, seat)
    given = action.get("dice")
    dice = roll_dice(rng) if given is None else check_dice(given)
    classic = state.options["classic"]
    return _score(state, roller, dice, classify(dice, classic, target_number(state)))


def _apply_report(state: TableState, seat: int | None, action: Action, rng) -> TableState:
    """Physical dice: the table taps what was rolled; it scores exactly like that roll."""
    roller = _require_roller(state, seat)
    classic = state.options["classic"]
    result = report_result(action.get("kind"), action.get("count"), classic, target_number(state))
    return _score(state, roller, None, result)


# --- the scramble -----------------------------------------------------------------------------


def _require_scramble(state: TableState) -> None:
    if state.phase != SCRAMBLE:
        raise IllegalAction("There is no scramble now: grab only after a Bunko.")


def _finish_scramble(state: TableState, grabbers: list[int], split: list[int]) -> TableState:
    """'Each die collected is also worth a point.' Then the roller rolls again."""
    scores = [state.scores[0] + split[0], state.scores[1] + split[1]]
    last = dict(state.rolls[-1])
    last["scramble"] = list(grabbers)
    last["split"] = list(split)
    last["scores"] = list(scores)
    rolls = [*state.rolls[:-1], last]
    new = replace(state, scores=scores, rolls=rolls, phase=PLAYING, grabs=[])
    return _settle(new)


def _apply_grab(state: TableState, seat: int | None, action: Action, rng) -> TableState:
    """Ruling: 'the first three taps, in the order the server receives them, take one die
    each' (a player may grab more than one)."""
    _require_scramble(state)
    if seat is None:
        raise IllegalAction("Only a player at the table can grab a die.")
    grabs = [*state.grabs, seat]
    if len(grabs) < 3:
        return replace(state, grabs=grabs)
    split = [sum(1 for s in grabs if team_of(s) == 0), sum(1 for s in grabs if team_of(s) == 1)]
    return _finish_scramble(state, grabs, split)


def _apply_scramble(state: TableState, seat: int | None, action: Action, rng) -> TableState:
    """Ruling: 'With physical dice, the table enters the split.'"""
    _require_scramble(state)
    if state.grabs:
        raise IllegalAction("Dice are already being grabbed on the phones: keep grabbing.")
    grabbers = action.get("grabbers")
    if grabbers is not None:
        if not isinstance(grabbers, list) or len(grabbers) != 3:
            raise IllegalAction("Name who grabbed each of the three dice.")
        for grabber in grabbers:
            _check_seat(state, grabber)
            if grabber is None:
                raise IllegalAction("Name who grabbed each of the three dice.")
        split = [sum(1 for s in grabbers if team_of(s) == t) for t in (0, 1)]
        return _finish_scramble(state, grabbers, split)
    split = action.get("split")
    valid = isinstance(split, list) and len(split) == 2
    if not valid or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in split):
        raise IllegalAction("Enter how many dice each team grabbed: 3-0, 2-1, 1-2 or 0-3.")
    if sum(split) != 3:
        raise IllegalAction("Three dice are scrambled: the split must add up to 3.")
    return _finish_scramble(state, [], split)


# --- STOP -----------------------------------------------------------------------------------


def _apply_stop(state: TableState, seat: int | None, action: Action, rng) -> TableState:
    """'When this happens, the head table calls "stop" and play stops at all tables. If there
    is a tie at a table when play is stopped, play continues normally until the tie is
    broken.' A pending scramble finishes first: its points count."""
    if seat is not None:
        raise IllegalAction("STOP is called by the head table, not from a seat.")
    if state.stopped:
        raise IllegalAction("STOP has already been called at this table.")
    return _settle(replace(state, stopped=True))


_HANDLERS = {
    "rolloff": _apply_rolloff,
    "roll": _apply_roll,
    "report": _apply_report,
    "grab": _apply_grab,
    "scramble": _apply_scramble,
    "stop": _apply_stop,
}


def apply(state: TableState, seat: int | None, action: Action, rng: random.Random) -> TableState:
    """Apply one action; never mutates ``state``; raises IllegalAction with a reason."""
    handler = _HANDLERS.get(action.get("type")) if isinstance(action, dict) else None
    if handler is None:
        raise IllegalAction("That is not something you can do at a Bunko table.")
    _check_seat(state, seat)
    if state.phase == DONE:
        raise IllegalAction("This table has finished its game.")
    new = handler(state, seat, action, rng)
    if new is state:
        new = replace(state)
    new.version = state.version + 1  # a fresh copy: changing it leaves the input intact
    return new


# --- reading the state ------------------------------------------------------------------------


def _report_actions(state: TableState) -> list[Action]:
    actions: list[Action] = [
        {"type": "report", "kind": "miss"},
        {"type": "report", "kind": "sixes", "count": 1},
        {"type": "report", "kind": "sixes", "count": 2},
        {"type": "report", "kind": "bunko"},
    ]
    extra = "mini" if state.options["classic"] else "wipeout"
    actions.append({"type": "report", "kind": extra})
    return actions


def legal_actions(state: TableState, seat: int | None) -> list[Action]:
    """What ``seat`` may do now; ``None`` is the night (STOP) or the host's screen."""
    if state.phase == DONE:
        return []
    actions: list[Action] = []
    if state.phase == ROLLOFF:
        actions.append({"type": "rolloff"})
    elif state.phase == PLAYING and seat is not None and seat == state.roller:
        actions.append({"type": "roll"})
        actions.extend(_report_actions(state))
    elif state.phase == SCRAMBLE:
        if seat is not None:
            actions.append({"type": "grab"})
        if not state.grabs:
            actions.extend({"type": "scramble", "split": list(s)} for s in SPLITS)
    if seat is None and not state.stopped:
        actions.append({"type": "stop"})
    return actions


def ghost_action(state: TableState, seat: int, rng: random.Random) -> Action | None:
    """The app plays a ghost seat: it rolls its dice (recorded) and grabs in a scramble."""
    if state.phase == PLAYING and state.roller == seat:
        return {"type": "roll", "dice": roll_dice(rng)}
    if state.phase == SCRAMBLE:
        return {"type": "grab"}
    return None


def view(state: TableState, seat: int | None) -> dict:
    """Everything is public in Bunko; the seat's own view adds who they are."""
    _check_seat(state, seat)
    data = state.to_json()
    data["target_number"] = target_number(state)
    data["roller_name"] = None if state.roller is None else state.players[state.roller]
    data["you"] = seat
    if seat is None:
        data.update(your_turn=False, team=None, partner=None)
    else:
        your_turn = (state.phase == PLAYING and state.roller == seat) or state.phase in (
            SCRAMBLE,
            ROLLOFF,
        )
        data.update(your_turn=your_turn, team=team_of(seat), partner=partner_of(seat))
    data["legal_actions"] = legal_actions(state, seat)
    data["outcome"] = outcome(state)
    return data


def outcome(state: TableState) -> dict | None:
    """'Winners mark their wins on their scoring sheets, and losers mark their losses.'"""
    if state.phase != DONE or state.winner is None:
        return None
    winners = [state.winner, state.winner + 2]
    losers = [1 - state.winner, 3 - state.winner]
    return {"winners": winners, "losers": losers, "score": list(state.scores)}
