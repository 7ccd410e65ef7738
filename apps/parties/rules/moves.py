"""What each move at a Bunko table does: the roll-off, a roll, a physical report, the
scramble and STOP. Each handler takes the state and a *resolved* action (its dice already in
it) and returns the new state; ``table.apply`` resolves dice, logs entries and rolls for
ghosts around them."""

from __future__ import annotations

from typing import Any

from apps.core.i18n import _
from apps.core.protocol import Action, IllegalAction

from .attendance import shown_name
from .dice import (
    BUNKO,
    WIPEOUT,
    RollResult,
    check_dice,
    check_die,
    classify,
    report_result,
)
from .state import (
    DONE,
    PLAYING,
    ROLLOFF,
    SCRAMBLE,
    SEATS,
    TableState,
    replace,
    target_number,
    team_of,
)


def seat_label(seat: Any) -> str:
    return str(seat + 1) if isinstance(seat, int) and not isinstance(seat, bool) else str(seat)


def check_seat(state: TableState, seat: Any) -> None:
    if seat is None or (type(seat) is int and 0 <= seat < SEATS):
        return
    raise IllegalAction(_("Seat {value} is not at this table.").format(value=seat_label(seat)))


def require_roller(state: TableState, seat: int | None) -> int:
    if state.phase == ROLLOFF:
        raise IllegalAction(_("Roll off first: each seat rolls one die to see who starts."))
    if state.phase == SCRAMBLE:
        raise IllegalAction(_("The dice are being scrambled: grab a die first."))
    assert state.roller is not None
    if seat != state.roller:
        raise IllegalAction(
            _("It is {name}'s turn to roll.").format(name=shown_name(state.players[state.roller]))
        )
    return seat


# --- roll-off ---------------------------------------------------------------------------------


def rolloff_dice(state: TableState, given: Any) -> list[int]:
    """The dice of one round of the roll-off, one per seat still in it."""
    if not isinstance(given, dict):
        raise IllegalAction(_("A roll-off is one die for each seat still rolling."))
    by_seat = {}
    for key, die in given.items():
        try:
            by_seat[int(key)] = check_die(die)
        except (TypeError, ValueError):
            raise IllegalAction(_("Seat {key} is not at this table.").format(key=key)) from None
    if sorted(by_seat) != state.contenders:
        names = ", ".join(shown_name(state.players[s]) for s in state.contenders)
        raise IllegalAction(
            _("The roll-off needs one die from each of: {names}.").format(names=names)
        )
    return [by_seat[s] for s in state.contenders]


def apply_rolloff(state: TableState, seat: int | None, action: Action) -> TableState:
    """'Each player rolls a die to see whom goes first.' Ruling: 'highest starts, tied
    highest roll again.' One round of dice; every round is kept."""
    if state.phase != ROLLOFF:
        raise IllegalAction(_("The first roller is already known."))
    dice = rolloff_dice(state, action.get("dice"))
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


def score(
    state: TableState,
    seat: int,
    dice: list[int] | None,
    result: RollResult,
    stamp: Any,
    app: bool = False,
) -> TableState:
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
        # The state's own scores (a new list at every roll, never changed in place): a copy
        # a roll was 72 bytes of every table's log.
        "scores": scores,
    }
    if result.mini:
        entry["mini"] = True
    if stamp is not None:
        entry["t"] = stamp  # when it was rolled: the latest Bunko of the night travels
    if app:
        entry["app"] = True  # the app rolled for a player: the log says so
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
    return settle(new) if phase == PLAYING else head_reached(new)


def head_reached(state: TableState) -> TableState:
    """Ruling: 'The head table plays until a team reaches 21 or more. At that moment the head
    table calls STOP.' Points of the same roll (a pending scramble too) still count."""
    if state.options["head"] and not state.stopped and max(state.scores) >= state.options["target"]:
        return replace(state, stopped=True)
    return state


def settle(state: TableState) -> TableState:
    """Ruling: 'A table that is tied when STOP comes plays on, normally, until the tie is
    broken; the round is over when every table has a winner.'"""
    state = head_reached(state)
    if state.stopped and state.phase == PLAYING and state.scores[0] != state.scores[1]:
        winner = 0 if state.scores[0] > state.scores[1] else 1
        return replace(state, phase=DONE, winner=winner)
    return state


def apply_roll(state: TableState, seat: int | None, action: Action) -> TableState:
    """'All three dice are rolled at the same time.'"""
    roller = require_roller(state, seat)
    dice = check_dice(action.get("dice"))
    classic = state.options["classic"]
    result = classify(dice, classic, target_number(state))
    return score(state, roller, dice, result, action.get("t"), bool(action.get("app")))


def apply_report(state: TableState, seat: int | None, action: Action) -> TableState:
    """Physical dice: the table taps what was rolled; it scores exactly like that roll."""
    roller = require_roller(state, seat)
    classic = state.options["classic"]
    result = report_result(action.get("kind"), action.get("count"), classic, target_number(state))
    return score(state, roller, None, result, action.get("t"))


# --- the scramble -----------------------------------------------------------------------------


def require_scramble(state: TableState) -> None:
    if state.phase != SCRAMBLE:
        raise IllegalAction(_("There is no scramble now: grab only after a Bunko."))


def finish_scramble(state: TableState, grabbers: list[int], split: list[int]) -> TableState:
    """'Each die collected is also worth a point.' Then the roller rolls again."""
    scores = [state.scores[0] + split[0], state.scores[1] + split[1]]
    last = dict(state.rolls[-1])
    last["scramble"] = list(grabbers)
    last["split"] = list(split)
    last["scores"] = list(scores)
    rolls = [*state.rolls[:-1], last]
    new = replace(state, scores=scores, rolls=rolls, phase=PLAYING, grabs=[])
    return settle(new)


def apply_grab(state: TableState, seat: int | None, action: Action) -> TableState:
    """Ruling: 'the first three taps, in the order the server receives them, take one die
    each' (a player may grab more than one)."""
    require_scramble(state)
    if seat is None:
        raise IllegalAction(_("Only a player at the table can grab a die."))
    grabs = [*state.grabs, seat]
    if len(grabs) < 3:
        return replace(state, grabs=grabs)
    split = [sum(1 for s in grabs if team_of(s) == 0), sum(1 for s in grabs if team_of(s) == 1)]
    return finish_scramble(state, grabs, split)


def apply_scramble(state: TableState, seat: int | None, action: Action) -> TableState:
    """Ruling: 'With physical dice, the table enters the split.'"""
    require_scramble(state)
    if state.grabs:
        raise IllegalAction(_("Dice are already being grabbed on the phones: keep grabbing."))
    grabbers = action.get("grabbers")
    if grabbers is not None:
        if not isinstance(grabbers, list) or len(grabbers) != 3:
            raise IllegalAction(_("Name who grabbed each of the three dice."))
        for grabber in grabbers:
            check_seat(state, grabber)
            if grabber is None:
                raise IllegalAction(_("Name who grabbed each of the three dice."))
        split = [sum(1 for s in grabbers if team_of(s) == t) for t in (0, 1)]
        return finish_scramble(state, grabbers, split)
    split = action.get("split")
    valid = isinstance(split, list) and len(split) == 2
    if not valid or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in split):
        raise IllegalAction(_("Enter how many dice each team grabbed: 3-0, 2-1, 1-2 or 0-3."))
    if sum(split) != 3:
        raise IllegalAction(_("Three dice are scrambled: the split must add up to 3."))
    return finish_scramble(state, [], split)


# --- STOP -----------------------------------------------------------------------------------


def apply_stop(state: TableState, seat: int | None, action: Action) -> TableState:
    """'When this happens, the head table calls "stop" and play stops at all tables. If there
    is a tie at a table when play is stopped, play continues normally until the tie is
    broken.' A pending scramble finishes first: its points count."""
    if seat is not None:
        raise IllegalAction(_("STOP is called by the head table, not from a seat."))
    if state.stopped:
        raise IllegalAction(_("STOP has already been called at this table."))
    return settle(replace(state, stopped=True))


# --- the host's way out of a stalled table ----------------------------------------------------


def apply_autoplay(state: TableState, seat: int | None, action: Action) -> TableState:
    """The host lets the app roll for a seat whose phone is gone (as for a ghost), or gives
    the seat back to its player."""
    if seat is not None:
        raise IllegalAction(_("Only the host hands a seat to the app."))
    target = action.get("seat")
    if type(target) is not int or not 0 <= target < SEATS:
        raise IllegalAction(_("Choose the seat the app plays for."))
    ghosts = set(state.ghosts)
    if action.get("on", True):
        ghosts.add(target)
    else:
        ghosts.discard(target)
    return replace(state, ghosts=sorted(ghosts))


def apply_end(state: TableState, seat: int | None, action: Action) -> TableState:
    """The host ends a stalled table's game with the score as it stands; tied, the host says
    which team wins. Ending the head table's game calls STOP, so the round can end."""
    if seat is not None:
        raise IllegalAction(_("Only the host ends a table's game."))
    leading = None if state.scores[0] == state.scores[1] else int(state.scores[1] > state.scores[0])
    winner = action.get("winner", leading)
    if winner not in (0, 1):
        raise IllegalAction(_("The scores are tied: choose which team wins."))
    if leading is not None and winner != leading:
        raise IllegalAction(_("The team ahead wins a game ended as it stands."))
    stopped = state.stopped or state.options["head"]
    return replace(state, phase=DONE, winner=winner, stopped=stopped, grabs=[])


HANDLERS = {
    "rolloff": apply_rolloff,
    "roll": apply_roll,
    "report": apply_report,
    "grab": apply_grab,
    "scramble": apply_scramble,
    "stop": apply_stop,
    "autoplay": apply_autoplay,
    "end": apply_end,
}
