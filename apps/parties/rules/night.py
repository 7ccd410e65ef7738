"""A whole Bunko night: rounds of tables in lock-step, STOP, tallies, rotation, the overall
winner and loser.

The clock: step 0 is the roll-off at every table (however many times ties roll again); at
step k every table that has no winner yet makes its k-th roll (a Bunko's scramble belongs to
the roll that caused it). So a roll's step is its index in the table's roll log.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .attendance import GHOSTS, MODES, SITOUTS, SUBSTITUTES, check_attendance, is_ghost
from .dice import roll_die
from .rotation import Table
from .seating import plan_first_round, plan_next_round
from .table import DONE, SCRAMBLE, TableState, apply, outcome, setup

MAX_STEPS = 100_000
# apply never changes an action, so the night's own actions can be shared.
ROLL = {"type": "roll"}
GRAB = {"type": "grab"}
TALLY_KEYS = ("wins", "losses", "bunkos", "wipeouts", "played", "sat_out")


@dataclass
class Night:
    """What a night carries from round to round. ``play_round`` updates it in place."""

    players: list[str]
    attendance: str = GHOSTS
    classic: bool = False
    seating_mode: str = "random"
    ghosts: list[str] = field(default_factory=list)
    round_number: int = 0
    tables: list[Table] = field(default_factory=list)
    results: list[dict] = field(default_factory=list)
    resting: list[str] = field(default_factory=list)
    sitout_counts: dict[str, int] = field(default_factory=dict)
    tallies: dict[str, dict] = field(default_factory=dict)
    rounds: list[dict] = field(default_factory=list)


def new_night(
    players: Sequence[str],
    attendance: str = GHOSTS,
    classic: bool = False,
    seating_mode: str = "random",
) -> Night:
    """A night for these players (substitutes already added by the caller)."""
    check_attendance(len(players))
    if len(set(players)) != len(players):
        raise ValueError("Every player needs a different name.")
    if attendance not in MODES:
        raise ValueError(f"Unknown attendance rule: {attendance}.")
    if attendance == SUBSTITUTES and len(players) % 4:
        raise ValueError("Add substitutes until the players are a multiple of 4.")
    return Night(
        players=list(players),
        attendance=attendance,
        classic=classic,
        seating_mode=seating_mode,
        tallies={p: dict.fromkeys(TALLY_KEYS, 0) for p in players},
    )


# --- seating ----------------------------------------------------------------------------------


def next_seating(night: Night, rng: random.Random) -> tuple[list[Table], list[str]]:
    """This round's tables and who sits out, from last round's tables and results: the same
    seating engine as a live night's (``seating.plan_first_round`` / ``plan_next_round``)."""
    if not night.tables:
        seating = plan_first_round(night.players, night.attendance, rng, night.seating_mode)
    else:
        seating = plan_next_round(
            night.tables,
            night.results,
            night.players,
            night.attendance,
            rng,
            sitout_counts=night.sitout_counts,
            last_sitouts=night.resting,
        )
    night.ghosts = seating.ghosts
    return seating.tables, seating.sitouts


# --- playing one round ------------------------------------------------------------------------


def start_tables(
    seating: Sequence[Table], number: int, classic: bool, rng: random.Random
) -> list[TableState]:
    """Set up every table and roll off for the first roller (step 0)."""
    states = []
    for index, names in enumerate(seating):
        # Ghosts are not marked as such here: the lock-step clock rolls for them in their
        # step like for anyone (a live table rolls for its ghosts at once, after a tap).
        options = {"head": index == 0, "classic": classic, "round": number}
        state = setup(list(names), options, rng)
        while state.first_roller is None:
            state = apply(state, None, {"type": "rolloff"}, rng)
        states.append(state)
    return states


def play_turn(state: TableState, rng: random.Random) -> TableState:
    """One step at one table: the roller rolls; after a Bunko the three dice are grabbed
    (every seat, a ghost's too, equally quick)."""
    state = apply(state, state.roller, ROLL, rng)
    while state.phase == SCRAMBLE:
        state = apply(state, int(rng.random() * 4), GRAB, rng)
    return state


def propagate_stop(tables: Sequence[TableState]) -> list[TableState]:
    """'The head table calls "stop" and play stops at all tables.'"""
    stop = {"type": "stop"}
    return [t if t.stopped or t.phase == DONE else apply(t, None, stop, None) for t in tables]


def play_step(tables: Sequence[TableState], rng: random.Random) -> tuple[list[TableState], bool]:
    """Every table without a winner rolls once; returns the tables and whether the head
    table called STOP in this step (then every table stops after this step's rolls)."""
    head_was_stopped = tables[0].stopped
    played = [t if t.phase == DONE else play_turn(t, rng) for t in tables]
    called = played[0].stopped and not head_was_stopped
    if called:
        played = propagate_stop(played)
    return played, called


def play_tables(
    tables: Sequence[TableState], rng: random.Random
) -> tuple[list[TableState], int | None]:
    """Play steps until every table has a winner; returns the tables and the STOP step."""
    states = list(tables)
    stop_step = None
    step = 0
    while any(t.phase != DONE for t in states):
        step += 1
        if step > MAX_STEPS:
            raise RuntimeError("A round did not end.")
        states, called = play_step(states, rng)
        if called:
            stop_step = step
    return states, stop_step


def table_result(state: TableState) -> dict:
    """Names of the winning and losing team, each in seat order."""
    result = outcome(state)
    if result is None:
        raise ValueError("This table has no winner yet.")
    names = state.players
    return {
        "winners": [names[s] for s in result["winners"]],
        "losers": [names[s] for s in result["losers"]],
        "score": result["score"],
    }


def table_record(number: int, state: TableState) -> dict:
    """A table's game as the night's log keeps it."""
    names = state.players
    rolls = []
    for entry in state.rolls:
        roll = {
            "step": entry["index"],
            "player": names[entry["seat"]],
            "dice": entry["dice"],
            "points": entry["points"],
            "kind": entry["kind"],
            "scores": entry["scores"],
        }
        if "split" in entry:
            roll["scramble"] = [names[s] for s in entry["scramble"]]
            roll["split"] = entry["split"]
        if entry.get("mini"):
            roll["mini"] = True
        rolls.append(roll)
    rolloff = [
        {names[s]: d for s, d in zip(r["seats"], r["dice"], strict=True)} for r in state.rolloffs
    ]
    result = table_result(state)
    return {
        "table": number,
        "seats": list(names),
        "first_roller": names[state.first_roller] if state.first_roller is not None else None,
        "rolloff": rolloff,
        "rolls": rolls,
        "score": result["score"],
        "winners": result["winners"],
        "losers": result["losers"],
    }


def _add_tallies(night: Night, states: Sequence[TableState], leaving: Sequence[str]) -> None:
    """'Winners mark their wins on their scoring sheets, and losers mark their losses.'
    Bunkos and wipeouts count who rolled them."""
    for state in states:
        result = table_result(state)
        for name in result["winners"]:
            night.tallies[name]["wins"] += 1
        for name in result["losers"]:
            night.tallies[name]["losses"] += 1
        for seat, name in enumerate(state.players):
            tally = night.tallies[name]
            tally["played"] += 1
            tally["bunkos"] += state.tallies[seat]["bunkos"]
            tally["wipeouts"] += state.tallies[seat]["wipeouts"]
    for name in leaving:
        night.tallies[name]["sat_out"] += 1
        night.sitout_counts[name] = night.sitout_counts.get(name, 0) + 1


def play_round(night: Night, rng: random.Random) -> dict:
    """Seat, play and tally one round; returns the round's record."""
    seating, leaving = next_seating(night, rng)
    for ghost in night.ghosts:
        night.tallies.setdefault(ghost, dict.fromkeys(TALLY_KEYS, 0))
    night.round_number += 1
    states = start_tables(seating, night.round_number, night.classic, rng)
    states, stop_step = play_tables(states, rng)
    _add_tallies(night, states, leaving)
    night.tables = [list(s.players) for s in states]
    night.results = [table_result(s) for s in states]
    night.resting = list(leaving)
    record = {
        "number": night.round_number,
        "stop_step": stop_step,
        "steps": max(len(s.rolls) for s in states),
        "tables": [table_record(i + 1, s) for i, s in enumerate(states)],
    }
    if night.attendance == SITOUTS:
        record["sitouts"] = list(leaving)
    night.rounds.append(record)
    return record


# --- the end of the night ---------------------------------------------------------------------


def rolloff(names: Sequence[str], rng: random.Random) -> tuple[str, list[dict[str, int]]]:
    """Ruling: 'each tied player rolls one die, highest wins for "most", ties roll again'.
    Returns the winner and every round of dice."""
    contenders = list(names)
    rounds: list[dict[str, int]] = []
    while len(contenders) > 1:
        dice = {name: roll_die(rng) for name in contenders}
        rounds.append(dice)
        best = max(dice.values())
        contenders = [name for name in contenders if dice[name] == best]
    return contenders[0], rounds


def most(
    tallies: dict[str, dict], key: str, rng: random.Random, label: str
) -> tuple[str | None, list[dict]]:
    """The player with the most ``key`` (ghosts win nothing); a tie goes to a roll-off."""
    people = [name for name in tallies if not is_ghost(name)]
    if not people:
        return None, []
    best = max(tallies[name][key] for name in people)
    tied = [name for name in people if tallies[name][key] == best]
    winner, rounds = rolloff(tied, rng)
    return winner, [{"for": label, "rolls": dice} for dice in rounds]


def finish_night(night: Night, rng: random.Random) -> dict:
    """'The overall winner is decided by the number of wins and the overall loser is
    determined by the number of losses. Ties are broken by dice roll.'"""
    winner, winner_rolls = most(night.tallies, "wins", rng, "winner")
    loser, loser_rolls = most(night.tallies, "losses", rng, "loser")
    return {"winner": winner, "loser": loser, "rolloffs": winner_rolls + loser_rolls}
