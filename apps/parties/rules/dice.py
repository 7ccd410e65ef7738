"""One roll of three dice: what it is worth and what happens next.

Two scorings exist. The rules' own variant (the default) scores sixes; classic Bunco, a house
option, scores the round's target number.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import product
from typing import Any

from apps.core.i18n import _
from apps.core.protocol import IllegalAction

MISS = "miss"
SCORE = "score"
BUNKO = "bunko"
WIPEOUT = "wipeout"

BUNKO_POINTS = 3
CLASSIC_BUNKO_POINTS = 21
MINI_BUNKO_POINTS = 5


@dataclass(frozen=True)
class RollResult:
    """What a roll does: its kind, its points for the roller's team, and what follows."""

    kind: str
    points: int
    rolls_again: bool
    scramble: bool = False
    mini: bool = False


def roll_die(rng: random.Random) -> int:
    """One die, 1 to 6 (random() is several times faster than randint, and as fair)."""
    return int(rng.random() * 6) + 1


# Every roll's dice, one list per throw (faces a-1, b-1, c-1): a night keeps each table's
# rolls all round, twice (the score sheet's log and the moves that replay it), and a list of
# three dice is 88 bytes, a fifth of a roll's memory. A state's lists are never changed in
# place (state.replace), so the rolls of one throw share its list.
_THROWS = [[[[a, b, c] for c in range(1, 7)] for b in range(1, 7)] for a in range(1, 7)]


def roll_dice(rng: random.Random) -> list[int]:
    """'All three dice are rolled at the same time.'"""
    rand = rng.random
    return _THROWS[int(rand() * 6)][int(rand() * 6)][int(rand() * 6)]


def shared_throw(dice: Any) -> Any:
    """The shared list of a throw read back from JSON (``dice`` as it came when it is not
    three dice)."""
    if type(dice) is list and len(dice) == 3 and all(type(d) is int and 1 <= d <= 6 for d in dice):
        return _THROWS[dice[0] - 1][dice[1] - 1][dice[2] - 1]
    return dice


def classic_target(round_number: int) -> int:
    """Classic Bunco: the target number is the round number, cycling 1-6 (round 7 -> 1)."""
    return (max(1, int(round_number)) - 1) % 6 + 1


def check_dice(dice: Any) -> list[int]:
    """Entered dice must be three whole numbers from 1 to 6."""
    if not isinstance(dice, (list, tuple)) or len(dice) != 3:
        raise IllegalAction(_("A roll is three dice."))
    checked = []
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise IllegalAction(_("Each die shows a number from 1 to 6."))
        checked.append(die)
    return shared_throw(checked)


def check_die(die: Any) -> int:
    """One entered die (a roll-off) is a whole number from 1 to 6."""
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
        raise IllegalAction(_("Each die shows a number from 1 to 6."))
    return die


def _variant(dice: tuple[int, ...]) -> RollResult:
    """The rules' variant.

    'Each 6 rolled is worth a single point. The player rolls as long as he/she keeps getting
    6s.' All 1s is a wipeout; all 6s a Bunko (3 points, then the scramble, then roll again).
    """
    sixes = dice.count(6)
    if sixes == 3:
        return RollResult(BUNKO, BUNKO_POINTS, rolls_again=True, scramble=True)
    if dice.count(1) == 3:
        return RollResult(WIPEOUT, 0, rolls_again=False)
    if sixes:
        return RollResult(SCORE, sixes, rolls_again=True)
    return RollResult(MISS, 0, rolls_again=False)


def _classic(dice: tuple[int, ...], target: int) -> RollResult:
    """Classic Bunco: each die showing the target scores 1; three of the target is a Bunko
    worth 21; three of a kind of another number is a mini Bunko worth 5. A roller keeps
    rolling while scoring. There is no wipeout and no scramble."""
    hits = dice.count(target)
    if hits == 3:
        return RollResult(BUNKO, CLASSIC_BUNKO_POINTS, rolls_again=True)
    if dice[0] == dice[1] == dice[2]:
        return RollResult(SCORE, MINI_BUNKO_POINTS, rolls_again=True, mini=True)
    if hits:
        return RollResult(SCORE, hits, rolls_again=True)
    return RollResult(MISS, 0, rolls_again=False)


_ALL = list(product(range(1, 7), repeat=3))
# Lookup tables: the engine classifies every roll of a 100-table night.
_VARIANT = {d: _variant(d) for d in _ALL}
_CLASSIC = {t: {d: _classic(d, t) for d in _ALL} for t in range(1, 7)}


def classify(dice: list[int], classic: bool = False, target: int = 6) -> RollResult:
    """Score three dice under the chosen rules (target only matters for classic)."""
    key = (dice[0], dice[1], dice[2])
    return _CLASSIC[target][key] if classic else _VARIANT[key]


REPORT_KINDS = ("miss", "sixes", "bunko", "wipeout", "mini")


def equivalent_dice(kind: str, count: int, classic: bool = False, target: int = 6) -> list[int]:
    """Dice that would score like a tapped report (used to prove reports score the same)."""
    other = 2 if target != 2 else 3
    if kind == "miss":
        return [other, other, 4 if target != 4 else 5] if classic else [2, 3, 4]
    if kind == "sixes":
        return [target] * count + [other] * (3 - count)
    if kind == "bunko":
        return [target] * 3
    if kind == "mini":
        return [other] * 3
    return [1, 1, 1]


def report_result(kind: Any, count: Any, classic: bool = False, target: int = 6) -> RollResult:
    """Physical dice: the table taps what the roller rolled; it scores like that roll."""
    if kind not in REPORT_KINDS:
        raise IllegalAction(_("Report a miss, sixes, a Bunko or a wipeout."))
    if kind == "sixes" and (isinstance(count, bool) or count not in (1, 2)):
        raise IllegalAction(_("Report one or two hits; three is a Bunko."))
    if kind == "wipeout" and classic:
        raise IllegalAction(_("Classic Bunco has no wipeout."))
    if kind == "mini" and not classic:
        raise IllegalAction(_("Only classic Bunco has a mini Bunko."))
    return classify(equivalent_dice(kind, count or 0, classic, target), classic, target)
