"""Dschungelparty bots. Everything on the table is public, so they read the state itself.

Every bot finishes its part of a turn: it never undoes, and once no cross is worth making it
confirms (or passes), so a table of bots always moves on.
"""

from __future__ import annotations

import random
from typing import Any

from apps.core.i18n import N_
from apps.core.protocol import BotLevel

from .areas import Sheet, extra_stars, next_coconut, rewards_won, stars
from .dice import taken_dice
from .play import Play, fresh
from .rules import State, available_dice, legal_actions
from .sheet import (
    BUTTERFLIES,
    COCONUT_REWARDS,
    CRATE_REWARDS,
    CRATES,
    GREEN_REWARDS,
    Reward,
)
from .turn import fountain_roll, play_actions, step

Action = dict[str, Any]

# The first level is the room's default: for a bot seat, and for a player who left.
LEVELS: dict[str, BotLevel] = {
    "steady": BotLevel(N_("Steady: goes for stars and bonus circles"), think_ms=(700, 1600)),
    "casual": BotLevel(N_("Casual: any cross will do"), think_ms=(500, 1200)),
}
DEFAULT_LEVEL = "steady"
READ_DICE_MS = (1800, 2800)  # before taking a colour, so the table can see the dice

STAR_VALUE = 10.0
BONUS_VALUE = 6.0  # a bonus circle is one free cross, worth a bit more than a plain one
FOUNTAIN_SAMPLES = 6  # imagined rerolls of the elephants when weighing blue


def _reward_value(reward: Reward) -> float:
    return reward.stars * STAR_VALUE + (BONUS_VALUE if reward.bonus else 0.0)


def sheet_value(sheet: Sheet) -> float:
    """Stars won, plus a share of every reward a sheet is on its way to."""
    value = sum(_reward_value(reward) for _, reward in rewards_won(sheet))
    for r, name in enumerate(BUTTERFLIES):
        row = sheet.green[r]
        value += sum(row)
        for gap, reward in enumerate(GREEN_REWARDS[name]):
            if row[gap] != row[gap + 1]:  # half way to this reward
                value += 0.4 * _reward_value(reward)
    for c, crate in enumerate(sheet.purple):
        done = sum(size for size, m in zip(CRATES[c], crate, strict=True) if m)
        if not all(crate):
            value += 0.6 * _reward_value(CRATE_REWARDS[c]) * done / sum(CRATES[c])
        value += done
    value += 2.0 * sum(f for column in sheet.blue for f in column)
    k = next_coconut(sheet)
    if k is not None:
        ahead = [r for r in COCONUT_REWARDS[k:] if r is not None]
        value += 2.5 * k + (0.3 * _reward_value(ahead[0]) if ahead else 0.0)
    return value


def _leading(state: State, seat: int, sheet: Sheet) -> bool:
    mine = stars(sheet)
    return all(mine > stars(s) for other, s in enumerate(state.sheets) if other != seat)


def _worth(state: State, seat: int, sheet: Sheet) -> float:
    """A sheet's value to the bot; circling an Extra Star ends the game, which only pays
    when the bot would be ahead."""
    value = sheet_value(sheet)
    if len(extra_stars(sheet)) > len(extra_stars(state.sheets[seat])) and not _leading(
        state, seat, sheet
    ):
        value -= 3 * STAR_VALUE
    return value


def _best_step(state: State, seat: int, play: Play, actions: list[Action]) -> Action | None:
    best, best_value = None, _worth(state, seat, play.sheet)
    for action in actions:
        if action["type"] not in ("mark", "bonus"):
            continue
        value = _worth(state, seat, step(play, action).sheet)
        if value > best_value:
            best, best_value = action, value
    return best


def _playout(state: State, seat: int, play: Play) -> float:
    """How much a turn with these dice is worth, crossing greedily to the end."""
    start = _worth(state, seat, state.sheets[seat])
    for _ in range(30):  # a turn makes a dozen crosses at most
        actions = [a for a in play_actions(play) if a["type"] in ("mark", "bonus")]
        best = _best_step(state, seat, play, actions)
        if best is None:
            if play.bonuses:
                play = step(play, {"type": "skip_bonus"})
                continue
            break
        play = step(play, best)
    return _worth(state, seat, play.sheet) - start


def _colour_value(state: State, seat: int, colour: str, rng: random.Random) -> float:
    """A colour's worth: its crosses played out greedily; blue, whose elephants are rolled
    again, as the mean of a few imagined rerolls."""
    available = available_dice(state, seat)
    sheet = state.sheets[seat]
    dice, faces = taken_dice(colour, available)
    if colour != "blue":
        return _playout(state, seat, fresh(colour, dice, faces, False, sheet))
    rolls = [fountain_roll(dice, faces, rng) for _ in range(FOUNTAIN_SAMPLES)]
    plays = [fresh(colour, dice, new, bool(rolled), sheet, rolled) for new, rolled in rolls]
    return sum(_playout(state, seat, play) for play in plays) / FOUNTAIN_SAMPLES


def choose_steady(state: State, seat: int, rng: random.Random) -> Action | None:
    """Take the colour whose crosses are worth most, cross the best field each time, take
    every useful bonus mark, then confirm."""
    actions = legal_actions(state, seat)
    if not actions:
        return None
    kinds = {a["type"] for a in actions}
    for simple in ("roll", "reroll"):
        if simple in kinds:
            return {"type": simple}
    play = state.plays[seat]
    if play is None:
        colours = [a for a in actions if a["type"] == "choose"]
        scored = [(_colour_value(state, seat, a["colour"], rng), a) for a in colours]
        best = max((v for v, _ in scored), default=0.0)
        if best <= 0:
            return {"type": "pass"}
        return rng.choice([a for v, a in scored if v == best])
    chosen = _best_step(state, seat, play, actions)
    if chosen is not None:
        return chosen
    return {"type": "skip_bonus"} if "skip_bonus" in kinds else {"type": "confirm"}


def choose_casual(state: State, seat: int, rng: random.Random) -> Action | None:
    """Any cross at all, picked at random; confirms when none is left."""
    actions = legal_actions(state, seat)
    if not actions:
        return None
    forward = [a for a in actions if a["type"] not in ("undo", "pass", "confirm", "skip_bonus")]
    if forward:
        return rng.choice(forward)
    for last in ("skip_bonus", "confirm", "pass"):
        if {"type": last} in actions:
            return {"type": last}
    return actions[0]


CHOOSERS = {"casual": choose_casual, "steady": choose_steady}


def think_ms(state: State, seat: int, level: str, rng: random.Random) -> float:
    """A bot about to take a colour waits long enough for the table to read the dice on the
    big screen; its crosses follow at its level's pace."""
    choosing = state.phase in ("active", "others") and state.plays[seat] is None
    low, high = READ_DICE_MS if choosing else LEVELS.get(level, LEVELS[DEFAULT_LEVEL]).think_ms
    return rng.uniform(low, high)


def choose(state: State, seat: int, level: str, rng: random.Random) -> Action | None:
    """One of ``legal_actions(state, seat)`` for a bot of ``level``; None with nothing to do."""
    return CHOOSERS.get(level, CHOOSERS[DEFAULT_LEVEL])(state, seat, rng)


# The names the room framework's registry calls today.
def choose_random(state: State, seat: int, rng: random.Random) -> Action | None:
    return choose_casual(state, seat, rng)


def choose_heuristic(state: State, seat: int, rng: random.Random) -> Action | None:
    return choose_steady(state, seat, rng)
