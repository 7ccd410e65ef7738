"""One seat's use of the dice in a turn: taking a colour, crosses made with the dice, the bonus
marks after them, undo. The active player and each of the others have a Play of their own.

A cross names a field; the Play decides which of the taken dice it uses: "real" dice (a die
showing that very symbol) before jokers, so a joker is spent only where nothing else fits and
stays free for the next cross. A joker is named by the cross that uses it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from apps.core.protocol import IllegalAction

from .areas import (
    Sheet,
    Won,
    free_bunches,
    mark_blue,
    mark_green,
    mark_pink,
    mark_purple,
    next_coconut,
    next_row,
)
from .sheet import (
    BUTTERFLIES,
    CRATES,
    DICE,
    FACES,
    FLOWERS,
    FOUNTAIN_COLUMNS,
    JOKER,
    blue_field,
    green_field,
    pink_field,
    purple_field,
)

Action = dict[str, Any]

# The phases of a turn: the active player rolls, takes dice and marks; then the others, all
# at once; "over" once the game has ended.
ROLL, ACTIVE, OTHERS, OVER = "roll", "active", "others", "over"
# How a seat finished its part of a turn.
CONFIRMED, PASSED, NOTHING, TIMED_OUT = "confirmed", "passed", "nothing", "timed_out"

BONUS_STEPS = ("bonus", "skip_bonus")
WHOLE_JOKER = 2  # "A joker always counts as 2 arbitrary coconut halves."


@dataclass
class Play:
    """A seat's dice and crosses in the current turn, until confirmed."""

    colour: str  # the chosen colour: every cross of the turn goes in this area
    dice: list[int]  # the dice taken, by number 0-4
    faces: list[str]  # each taken die's face as used (after the elephant reroll in blue)
    rerolled: bool  # blue: the taken dice were rolled again, so the choice cannot be undone
    sheet: Sheet  # the seat's sheet with this turn's crosses
    steps: list[Action] = field(default_factory=list)  # crosses and skips made, for undo
    spent: list[int] = field(default_factory=list)  # per taken die: how much of it is used
    names: list[str | None] = field(default_factory=list)  # per taken die: a joker's use
    rows: list[int] = field(default_factory=list)  # green: the taken die opening each row, -1
    column: str | None = None  # blue: the fountain column of this turn's dice
    bonuses: list[dict] = field(default_factory=list)  # bonus marks to take, next first
    marks: list[dict] = field(default_factory=list)  # crosses made, with the dice they used

    def to_json(self) -> dict:
        return {
            "colour": self.colour,
            "dice": list(self.dice),
            "faces": list(self.faces),
            "rerolled": self.rerolled,
            "sheet": self.sheet.to_json(),
            "steps": [dict(s) for s in self.steps],
            "spent": list(self.spent),
            "names": list(self.names),
            "rows": list(self.rows),
            "column": self.column,
            "bonuses": [dict(b) for b in self.bonuses],
            "marks": [{**m, "dice": list(m["dice"])} for m in self.marks],
        }

    @classmethod
    def from_json(cls, data: dict) -> Play:
        fields = dict(data)
        fields["sheet"] = Sheet.from_json(data["sheet"])
        return cls(**fields)

    @property
    def bonus_begun(self) -> bool:
        """Bonus marks come "at the end of your turn": once one is taken (or let go), the
        dice make no more crosses."""
        return any(step["type"] in BONUS_STEPS for step in self.steps)

    def used_dice(self) -> list[int]:
        return [d for d, spent in zip(self.dice, self.spent, strict=True) if spent]

    def unused_dice(self) -> list[int]:
        return [d for d, spent in zip(self.dice, self.spent, strict=True) if not spent]


# --- taking dice ---------------------------------------------------------------------------


def taken_dice(colour: str, available: list[tuple[int, str]]) -> tuple[list[int], list[str]]:
    """ "You can take all dice of one background colour plus all rolled jokers." """
    picked = [(d, face) for d, face in available if face == JOKER or FACES[face].colour == colour]
    return [d for d, _ in picked], [face for _, face in picked]


def fresh(colour: str, dice: list[int], faces: list[str], rerolled: bool, sheet: Sheet) -> Play:
    return Play(
        colour=colour,
        dice=list(dice),
        faces=list(faces),
        rerolled=rerolled,
        sheet=sheet,
        spent=[0] * len(dice),
        names=[None] * len(dice),
        rows=[-1] * len(BUTTERFLIES),
    )


def roll_die(die: int, rng: random.Random) -> str:
    return DICE[die][rng.randrange(len(DICE[die]))]


def take(colour: str, available: list[tuple[int, str]], sheet: Sheet, rng: random.Random) -> Play:
    """Take a colour's dice and the jokers. Blue: "If you choose the dice showing the elephant,
    you must roll again all dice that show an elephant"; ruling: "reroll every elephant die
    chosen", a joker joining them as an elephant."""
    dice, faces = taken_dice(colour, available)
    if colour != "blue":
        return fresh(colour, dice, faces, False, sheet)
    return fresh(colour, dice, [roll_die(d, rng) for d in dice], True, sheet)


def can_use(colour: str, available: list[tuple[int, str]], sheet: Sheet) -> bool:
    """Whether taking this colour allows at least one cross. Blue is judged before its reroll:
    the elephants can be used while a fountain column has room."""
    dice, faces = taken_dice(colour, available)
    if not dice:
        return False
    if colour == "blue":
        return any(next_row(sheet, c) is not None for c in range(len(FOUNTAIN_COLUMNS)))
    return bool(dice_marks(fresh(colour, dice, faces, False, sheet)))


# --- which dice a cross uses ---------------------------------------------------------------


def _free(play: Play, face: str, but: int = -1) -> int:
    """The first unused taken die showing ``face`` (not position ``but``), or -1."""
    for p, f in enumerate(play.faces):
        if f == face and not play.spent[p] and p != but:
            return p
    return -1


def _green_dice(play: Play, row: int, flower: int) -> tuple[int, int] | None:
    """(butterfly die or -1 when the row is open already, flower die). Rules: "You must always
    have at least 1 butterfly and 1 flower selected"; "Butterflies are not marked. A butterfly
    only indicates in which row you may mark the flower"."""
    butterfly = -1
    if play.rows[row] < 0:
        butterfly = _free(play, f"green-butterfly-{BUTTERFLIES[row]}")
        if butterfly < 0:
            butterfly = _free(play, JOKER)
        if butterfly < 0:
            return None
    bloom = _free(play, f"green-flower-{FLOWERS[flower]}")
    if bloom < 0:
        bloom = _free(play, JOKER, but=butterfly)
    if bloom < 0:
        return None
    return butterfly, bloom


def _banana_dice(play: Play, bananas: int) -> list[int] | None:
    """ "For each chosen die showing a banana, you may mark one banana"; bananas first, then
    jokers."""
    real = [p for p, f in enumerate(play.faces) if f != JOKER and not play.spent[p]]
    jokers = [p for p, f in enumerate(play.faces) if f == JOKER and not play.spent[p]]
    found = (real + jokers)[:bananas]
    return found if len(found) == bananas else None


def _fountain_die(play: Play, column: str) -> int:
    """ "You use pink dice to mark in the pink column, blue dice to mark in the blue column,
    and so on"; a rerolled joker joins the column."""
    for p, f in enumerate(play.faces):
        if f != JOKER and FACES[f].colour == column and not play.spent[p]:
            return p
    return _free(play, JOKER)


def _coconut_dice(play: Play) -> list[tuple[int, int]] | None:
    """(die, halves) making one coconut, or None. "To be allowed to mark a coconut, you must
    be able to place two matching coconut halves together"; "A joker always counts as 2
    arbitrary coconut halves". Pairs of real halves first, then a half completed by a joker's
    half, then a whole joker: this order makes the most coconuts from any dice."""
    halves: dict[str, int] = {}
    for p, f in enumerate(play.faces):
        if f == JOKER or play.spent[p]:
            continue
        if f in halves:
            return [(halves[f], 1), (p, 1)]
        halves[f] = p
    jokers = sorted(
        (p for p, f in enumerate(play.faces) if f == JOKER and play.spent[p] < WHOLE_JOKER),
        key=lambda p: (-play.spent[p], p),  # a joker with one half left goes first
    )
    if halves and jokers:
        return [(min(halves.values()), 1), (jokers[0], 1)]
    whole = [p for p in jokers if play.spent[p] == 0]
    if whole:
        return [(whole[0], WHOLE_JOKER)]
    if len(jokers) >= 2:
        return [(jokers[0], 1), (jokers[1], 1)]
    return None


# --- the actions a play offers -------------------------------------------------------------


def mark_action(kind: str, area: str, place: tuple[int, ...]) -> Action:
    """A cross as an action: ``kind`` is "mark" (with the dice) or "bonus"."""
    if area == "green":
        row, flower = BUTTERFLIES[place[0]], FLOWERS[place[1]]
        return {
            "type": kind,
            "area": area,
            "row": row,
            "flower": flower,
            "field": green_field(row, flower),
        }
    if area == "purple":
        crate, bunch = place
        return {
            "type": kind,
            "area": area,
            "crate": crate,
            "bunch": bunch,
            "field": purple_field(crate, bunch),
        }
    if area == "blue":
        column, row = FOUNTAIN_COLUMNS[place[0]], place[1]
        return {
            "type": kind,
            "area": area,
            "column": column,
            "row": row,
            "field": blue_field(column, row),
        }
    return {"type": kind, "area": area, "coconut": place[0], "field": pink_field(place[0])}


def dice_marks(play: Play) -> list[Action]:
    """Every cross the taken dice allow now."""
    if play.bonus_begun:
        return []
    sheet, area = play.sheet, play.colour
    found: list[Action] = []
    if area == "green":
        for r in range(len(BUTTERFLIES)):
            for f in range(len(FLOWERS)):
                if not sheet.green[r][f] and _green_dice(play, r, f) is not None:
                    found.append(mark_action("mark", area, (r, f)))
    elif area == "purple":
        left = play.spent.count(0)
        for c, b, size in free_bunches(sheet):
            if size <= left:
                found.append(mark_action("mark", area, (c, b)))
    elif area == "blue":
        for c, name in enumerate(FOUNTAIN_COLUMNS):
            if play.column not in (None, name):
                continue
            row = next_row(sheet, c)
            if row is not None and _fountain_die(play, name) >= 0:
                found.append(mark_action("mark", area, (c, row)))
    else:
        k = next_coconut(sheet)
        if k is not None and _coconut_dice(play) is not None:
            found.append(mark_action("mark", area, (k,)))
    return found


def bonus_marks(play: Play) -> list[Action]:
    """The crosses the next bonus mark allows. Ruling: "one mark in the bonus's area, free of
    dice but under that area's rules (green: any unmarked flower; purple: the bananas shown;
    blue: the next field of any column; pink: the next coconut)"."""
    if not play.bonuses:
        return []
    bonus, sheet = play.bonuses[0], play.sheet
    area = bonus["area"]
    if area == "green":
        places = [
            (r, f)
            for r in range(len(BUTTERFLIES))
            for f in range(len(FLOWERS))
            if not sheet.green[r][f]
        ]
    elif area == "purple":
        places = [(c, b) for c, b, size in free_bunches(sheet) if size <= bonus["bananas"]]
    elif area == "blue":
        rows = [(c, next_row(sheet, c)) for c in range(len(FOUNTAIN_COLUMNS))]
        places = [(c, r) for c, r in rows if r is not None]
    else:
        k = next_coconut(sheet)
        places = [] if k is None else [(k,)]
    return [mark_action("bonus", area, place) for place in places]


def play_actions(play: Play) -> list[Action]:
    """Crosses, then the next bonus mark (or letting it go), undo, and confirm once no bonus
    mark is waiting."""
    actions = dice_marks(play) + bonus_marks(play)
    if play.bonuses:
        actions.append({"type": "skip_bonus"})
    if play.steps or not play.rerolled:
        actions.append({"type": "undo"})
    if not play.bonuses:
        actions.append({"type": "confirm"})
    return actions


# --- making a cross ------------------------------------------------------------------------


def _place(area: str, action: Action, sheet: Sheet) -> tuple[int, ...]:
    """The field an action names, checked against the sheet's rules for that area."""
    try:
        if area == "green":
            r, f = BUTTERFLIES.index(action["row"]), FLOWERS.index(action["flower"])
            if sheet.green[r][f]:
                raise IllegalAction("That flower is already marked.")
            return r, f
        if area == "purple":
            c, b = int(action["crate"]), int(action["bunch"])
            if not (0 <= c < len(CRATES) and 0 <= b < len(CRATES[c])):
                raise IllegalAction("There is no such banana bunch.")
            if sheet.purple[c][b]:
                raise IllegalAction("That bunch is already marked.")
            return c, b
        if area == "blue":
            c = FOUNTAIN_COLUMNS.index(action["column"])
            row = next_row(sheet, c)
            if row is None:
                raise IllegalAction("That column of the fountain is full.")
            if action["row"] != row:
                raise IllegalAction("Crosses go into each column from bottom to top.")
            return c, row
        if area == "pink":
            k = next_coconut(sheet)
            if k is None:
                raise IllegalAction("Every coconut is marked already.")
            if action["coconut"] != k:
                raise IllegalAction(
                    f"Coconuts are marked in path order: the next one is coconut {k + 1}."
                )
            return (k,)
    except (KeyError, ValueError, TypeError):
        pass
    raise IllegalAction("There is no such field on the sheet.")


def _cross(play: Play, area: str, place: tuple[int, ...]) -> tuple[Sheet, list[Won]]:
    if area == "green":
        return mark_green(play.sheet, place[0], place[1])
    if area == "purple":
        return mark_purple(play.sheet, place[0], place[1])
    if area == "blue":
        return mark_blue(play.sheet, place[0])
    return mark_pink(play.sheet)


def _dice_for(play: Play, place: tuple[int, ...]) -> tuple[list[tuple[int, int, str]], int]:
    """The dice a cross with the dice uses, as (position, amount, what a joker stands for),
    and the green row it opens (-1). IllegalAction when the dice do not allow it."""
    area = play.colour
    if area == "green":
        r, f = place
        found = _green_dice(play, r, f)
        if found is None:
            raise IllegalAction(
                f"That flower needs a {BUTTERFLIES[r]} butterfly and a {FLOWERS[f]} flower "
                "(or jokers) among your dice."
            )
        butterfly, bloom = found
        used = [(bloom, 1, f"green-flower-{FLOWERS[f]}")]
        if butterfly >= 0:
            used.insert(0, (butterfly, 1, f"green-butterfly-{BUTTERFLIES[r]}"))
        return used, r if butterfly >= 0 else -1
    if area == "purple":
        size = CRATES[place[0]][place[1]]
        dice = _banana_dice(play, size)
        if dice is None:
            raise IllegalAction(
                f"A bunch of {size} needs {size} bananas from this turn; "
                f"you have {play.spent.count(0)} left."
            )
        return [(p, 1, "purple-banana") for p in dice], -1
    if area == "blue":
        column = FOUNTAIN_COLUMNS[place[0]]
        if play.column not in (None, column):
            raise IllegalAction(f"This turn's dice mark the {play.column} column.")
        p = _fountain_die(play, column)
        if p < 0:
            raise IllegalAction(f"None of your rerolled dice is {column} or a joker.")
        return [(p, 1, column)], -1
    halves = _coconut_dice(play)
    if halves is None:
        raise IllegalAction("A coconut needs two matching coconut halves or a joker.")
    return [(p, n, "pink-half-any") for p, n in halves], -1


def _new_bonuses(won: list[Won]) -> list[dict]:
    """ "If you mark in an area in such a way that you receive a bonus circle ..., you may
    place one more bonus mark in the corresponding colour area at the end of your turn." """
    return [
        {"area": reward.bonus, "bananas": reward.bananas, "reward": name}
        for name, reward in won
        if reward.bonus is not None
    ]


def step(play: Play, action: Action) -> Play:
    """A cross with the dice, a bonus mark, or letting the next bonus mark go; a new Play."""
    kind = action.get("type")
    if kind == "skip_bonus":
        if not play.bonuses:
            raise IllegalAction("No bonus mark is waiting.")
        return _replace(play, steps=[*play.steps, dict(action)], bonuses=play.bonuses[1:])
    area = action.get("area")
    if kind == "mark":
        if play.bonus_begun:
            raise IllegalAction("The dice's crosses come before the bonus marks.")
        if area != play.colour:
            raise IllegalAction(f"This turn you mark in the {play.colour} area.")
    elif kind == "bonus":
        if not play.bonuses:
            raise IllegalAction("No bonus mark is waiting.")
        if area != play.bonuses[0]["area"]:
            raise IllegalAction(f"Your next bonus mark goes in the {play.bonuses[0]['area']} area.")
    else:
        raise IllegalAction("That is not a move in Dschungelparty.")
    place = _place(area, action, play.sheet)
    if mark_action(kind, area, place) != action:
        raise IllegalAction("There is no such field on the sheet.")
    if kind == "bonus":
        return _bonus(play, area, place, action)
    used, opens = _dice_for(play, place)
    sheet, won = _cross(play, area, place)
    spent, names, rows = list(play.spent), list(play.names), list(play.rows)
    for p, amount, name in used:
        spent[p] += amount
        if play.faces[p] == JOKER:
            names[p] = name
    if opens >= 0:
        rows[opens] = used[0][0]
    mark = {"area": area, "field": action["field"], "dice": [play.dice[p] for p, _, _ in used]}
    return _replace(
        play,
        sheet=sheet,
        steps=[*play.steps, dict(action)],
        spent=spent,
        names=names,
        rows=rows,
        column=FOUNTAIN_COLUMNS[place[0]] if area == "blue" else play.column,
        bonuses=play.bonuses + _new_bonuses(won),
        marks=[*play.marks, {**mark, "bonus": False}],
    )


def _bonus(play: Play, area: str, place: tuple[int, ...], action: Action) -> Play:
    """A bonus mark: "The marking rules apply here too"; a purple bonus's bananas are
    "counted as rolled together", so two of them mark one 2-bunch or two single bananas."""
    head = play.bonuses[0]
    rest = play.bonuses[1:]
    if area == "purple":
        size = CRATES[place[0]][place[1]]
        if size > head["bananas"]:
            raise IllegalAction(f"This bonus gives {head['bananas']} banana(s) to mark.")
        if head["bananas"] > size:
            rest = [{**head, "bananas": head["bananas"] - size}, *rest]
    sheet, won = _cross(play, area, place)
    return _replace(
        play,
        sheet=sheet,
        steps=[*play.steps, dict(action)],
        bonuses=rest + _new_bonuses(won),
        marks=[*play.marks, {"area": area, "field": action["field"], "dice": [], "bonus": True}],
    )


def undo(play: Play, base: Sheet) -> Play | None:
    """Take back the last cross or skip; with none left, the colour choice itself (None),
    unless its dice were rerolled. Replays the remaining steps from the confirmed sheet."""
    if not play.steps:
        if play.rerolled:
            raise IllegalAction("The rerolled elephants cannot be taken back.")
        return None
    again = fresh(play.colour, play.dice, play.faces, play.rerolled, base)
    for earlier in play.steps[:-1]:
        again = step(again, earlier)
    return again


def _replace(play: Play, **changes: Any) -> Play:
    fields = {
        "colour": play.colour,
        "dice": play.dice,
        "faces": play.faces,
        "rerolled": play.rerolled,
        "sheet": play.sheet,
        "steps": play.steps,
        "spent": play.spent,
        "names": play.names,
        "rows": play.rows,
        "column": play.column,
        "bonuses": play.bonuses,
        "marks": play.marks,
    }
    fields.update(changes)
    return Play(**fields)
