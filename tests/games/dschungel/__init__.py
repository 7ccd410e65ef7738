"""Helpers that build Dschungelparty positions for the tests."""

from __future__ import annotations

import random

from apps.games.dschungel import rules
from apps.games.dschungel.areas import Sheet
from apps.games.dschungel.sheet import BUTTERFLIES, CRATES, DICE, FLOWERS, FOUNTAIN_COLUMNS

NAMES = ["Ann", "Bea", "Cal", "Dee"]

# Faces by what they show.
JOKER = "joker"
BANANA = "purple-banana"
ELEPHANT = "blue-elephant"
STRIPES, DOTS, ZIGZAG = "pink-half-stripes", "pink-half-dots", "pink-half-zigzag"


def butterfly(row: str) -> str:
    return f"green-butterfly-{row}"


def flower(colour: str) -> str:
    return f"green-flower-{colour}"


class FixedRng(random.Random):
    """A random source whose ``randrange`` gives the listed numbers, then 0 (for rerolls)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randrange(self, *args, **kwargs) -> int:  # type: ignore[override]
        return self.values.pop(0) if self.values else 0


def rolling(*faces: tuple[int, str]) -> FixedRng:
    """A source that rolls the given (die, face) pairs, in order."""
    return FixedRng([DICE[die].index(face) for die, face in faces])


def sheet_with(
    green: list[tuple[str, str]] = (),
    purple: list[tuple[int, int]] = (),
    blue: dict[str, int] | None = None,
    pink: int = 0,
) -> Sheet:
    """A sheet with the named crosses: green (row, flower), purple (crate, bunch), blue
    crosses per column from the bottom, the first ``pink`` coconuts."""
    sheet = Sheet.blank()
    for row, bloom in green:
        sheet.green[BUTTERFLIES.index(row)][FLOWERS.index(bloom)] = True
    for crate, bunch in purple:
        sheet.purple[crate][bunch] = True
    for column, height in (blue or {}).items():
        for row in range(height):
            sheet.blue[FOUNTAIN_COLUMNS.index(column)][row] = True
    for k in range(pink):
        sheet.pink[k] = True
    return sheet


def full_crates(*crates: int) -> list[tuple[int, int]]:
    return [(c, b) for c in crates for b in range(len(CRATES[c]))]


def table(
    dice: list[str] | None = None,
    players: int = 2,
    sheets: dict[int, Sheet] | None = None,
    active: int = 0,
    countdown: int = 60,
) -> rules.State:
    """A table where ``active`` has just rolled ``dice`` (five faces); before the roll when
    ``dice`` is None."""
    state = rules.setup(NAMES[:players], {"countdown": countdown}, random.Random(0))
    state.active = active
    for seat, sheet in (sheets or {}).items():
        state.sheets[seat] = sheet
    if dice is not None:
        assert len(dice) == 5
        state.dice = list(dice)
        state.phase = "active"
        state.choices[active] = rules.usable_colours(state, active)
    return state


def rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


def play(state: rules.State, seat: int | None, action: dict, source: random.Random | None = None):
    return rules.apply(state, seat, action, source or rng())


def choose(colour: str) -> dict:
    return {"type": "choose", "colour": colour}


CONFIRM = {"type": "confirm"}
PASS = {"type": "pass"}
UNDO = {"type": "undo"}
SKIP_BONUS = {"type": "skip_bonus"}


def green(row: str, bloom: str, kind: str = "mark") -> dict:
    return {
        "type": kind,
        "area": "green",
        "row": row,
        "flower": bloom,
        "field": f"green-{row}-{bloom}",
    }


def bunch(crate: int, index: int, kind: str = "mark") -> dict:
    return {
        "type": kind,
        "area": "purple",
        "crate": crate,
        "bunch": index,
        "field": f"purple-{crate}-{index}",
    }


def fountain(column: str, row: int, kind: str = "mark") -> dict:
    return {
        "type": kind,
        "area": "blue",
        "column": column,
        "row": row,
        "field": f"blue-{column}-{row}",
    }


def coconut(k: int, kind: str = "mark") -> dict:
    return {"type": kind, "area": "pink", "coconut": k, "field": f"pink-{k}"}


def marks_offered(state: rules.State, seat: int) -> list[str]:
    """The fields a seat may cross now (dice crosses and bonus marks), each once, though the
    active player may be offered a field with a choice of dice too."""
    fields = [a["field"] for a in rules.legal_actions(state, seat) if "field" in a]
    return list(dict.fromkeys(fields))


def dice_crosses(state: rules.State, seat: int) -> list[str]:
    """The fields a seat may cross with its dice now (bonus marks left out), each once."""
    fields = [a["field"] for a in rules.legal_actions(state, seat) if a["type"] == "mark"]
    return list(dict.fromkeys(fields))


def stars_of(state: rules.State, seat: int) -> int:
    return rules.view(state, None)["sheets"][seat]["stars"]
