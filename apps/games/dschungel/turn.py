"""One seat's part of a turn: taking a colour, crosses made with the dice, the bonus marks
after them, undo. The active player and each of the others have a Play of their own."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from apps.core.i18n import _, ngettext
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
from .choice import chosen_way, named, other_ways
from .dice import (
    coconut_dice,
    dice_for,
    fountain_die,
    green_dice,
    roll_die,
    taken_dice,
)
from .play import Play, fresh
from .sheet import (
    BUTTERFLIES,
    CRATES,
    FACES,
    FLOWERS,
    FOUNTAIN_COLUMNS,
    JOKER,
    blue_field,
    green_field,
    pink_field,
    purple_field,
)
from .words import colour

Action = dict[str, Any]

# The phases of a turn: the active player rolls, takes dice and marks; then the others, all
# at once; "over" once the game has ended.
ROLL, ACTIVE, OTHERS, OVER = "roll", "active", "others", "over"
# How a seat finished its part of a turn.
CONFIRMED, PASSED, NOTHING, TIMED_OUT = "confirmed", "passed", "nothing", "timed_out"


def take(
    colour: str,
    available: list[tuple[int, str]],
    sheet: Sheet,
    rng: random.Random,
    leaves: bool = False,
) -> Play:
    """Take a colour's dice and the jokers. Blue: "If you choose the dice showing the elephant,
    you must roll again all dice that show an elephant"; ruling: "reroll every elephant die
    chosen (a joker taken with them is no elephant die and is not rerolled)". ``leaves``: the
    active player's play, whose unused dice go to the others."""
    dice, faces = taken_dice(colour, available)
    if colour != "blue":
        return fresh(colour, dice, faces, False, sheet, leaves=leaves)
    faces, rolled = fountain_roll(dice, faces, rng)
    return fresh(colour, dice, faces, bool(rolled), sheet, rolled, leaves)


def fountain_roll(
    dice: list[int], faces: list[str], rng: random.Random
) -> tuple[list[str], list[int]]:
    """The taken dice after the elephants are rolled again, and the dice that were."""
    rolled = [d for d, face in zip(dice, faces, strict=True) if face != JOKER]
    new = [face if face == JOKER else roll_die(d, rng) for d, face in zip(dice, faces, strict=True)]
    return new, rolled


def can_use(colour: str, available: list[tuple[int, str]], sheet: Sheet) -> bool:
    """Whether taking this colour allows at least one cross (the same answer as taking it
    and asking ``dice_marks``, worked out without a Play as it is asked for every colour at
    every roll). Blue is judged before its reroll: elephants can be used while a fountain
    column has room."""
    faces = [f for _d, f in available if f == JOKER or FACES[f].colour == colour]
    if not faces:
        return False
    jokers = faces.count(JOKER)
    if colour == "blue":
        return any(next_row(sheet, c) is not None for c in range(len(FOUNTAIN_COLUMNS)))
    if colour == "purple":
        return any(size <= len(faces) for _c, _b, size in free_bunches(sheet))
    if colour == "pink":
        reals = [f for f in faces if f != JOKER]
        pair = jokers > 0 or len(set(reals)) < len(reals)
        return pair and next_coconut(sheet) is not None
    kinds = {(FACES[f].symbol, FACES[f].kind) for f in faces if f != JOKER}
    for r, row in enumerate(BUTTERFLIES):
        for f, bloom in enumerate(FLOWERS):
            if sheet.green[r][f]:
                continue
            missing = (("butterfly", row) not in kinds) + (("flower", bloom) not in kinds)
            if missing <= jokers:
                return True
    return False


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


def dice_places(play: Play) -> Iterator[tuple[int, ...]]:
    """Every field the taken dice can cross now, in sheet order."""
    if play.bonus_begun:
        return
    sheet, area = play.sheet, play.colour
    if area == "green":
        for r in range(len(BUTTERFLIES)):
            for f in range(len(FLOWERS)):
                if not sheet.green[r][f] and green_dice(play, r, f) is not None:
                    yield r, f
    elif area == "purple":
        left = play.spent.count(0)
        for c, b, size in free_bunches(sheet):
            if size <= left:
                yield c, b
    elif area == "blue":
        for c, name in enumerate(FOUNTAIN_COLUMNS):
            if play.column not in (None, name):
                continue
            row = next_row(sheet, c)
            if row is not None and fountain_die(play, name) >= 0:
                yield c, row
    else:
        k = next_coconut(sheet)
        if k is not None and coconut_dice(play) is not None:
            yield (k,)


def dice_marks(play: Play) -> list[Action]:
    """Every cross the taken dice allow now; after each, the same cross made with other dice
    where that leaves the others different dice (the active player's choice)."""
    actions = []
    for place in dice_places(play):
        action = mark_action("mark", play.colour, place)
        actions.append(action)
        actions += [{**action, "dice": named(play, used)} for used in other_ways(play, place)]
    return actions


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
                raise IllegalAction(_("That flower is already marked."))
            return r, f
        if area == "purple":
            c, b = int(action["crate"]), int(action["bunch"])
            if not (0 <= c < len(CRATES) and 0 <= b < len(CRATES[c])):
                raise IllegalAction(_("There is no such banana bunch."))
            if sheet.purple[c][b]:
                raise IllegalAction(_("That bunch is already marked."))
            return c, b
        if area == "blue":
            c = FOUNTAIN_COLUMNS.index(action["column"])
            row = next_row(sheet, c)
            if row is None:
                raise IllegalAction(_("That column of the fountain is full."))
            if action["row"] != row:
                raise IllegalAction(_("Crosses go into each column from bottom to top."))
            return c, row
        if area == "pink":
            k = next_coconut(sheet)
            if k is None:
                raise IllegalAction(_("Every coconut is marked already."))
            if action["coconut"] != k:
                raise IllegalAction(
                    _(
                        "Coconuts are marked in path order: the next one is coconut {number}."
                    ).format(number=k + 1)
                )
            return (k,)
    except (KeyError, ValueError, TypeError):
        pass
    raise IllegalAction(_("There is no such field on the sheet."))


def _cross(play: Play, area: str, place: tuple[int, ...]) -> tuple[Sheet, list[Won]]:
    if area == "green":
        return mark_green(play.sheet, place[0], place[1])
    if area == "purple":
        return mark_purple(play.sheet, place[0], place[1])
    if area == "blue":
        return mark_blue(play.sheet, place[0])
    return mark_pink(play.sheet)


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
            raise IllegalAction(_("No bonus mark is waiting."))
        return replace(play, steps=[*play.steps, dict(action)], bonuses=play.bonuses[1:])
    area = action.get("area")
    if kind == "mark":
        if play.bonus_begun:
            raise IllegalAction(_("The dice's crosses come before the bonus marks."))
        if area != play.colour:
            raise IllegalAction(
                _("This turn you mark in the {colour} area.").format(colour=colour(play.colour))
            )
    elif kind == "bonus":
        if not play.bonuses:
            raise IllegalAction(_("No bonus mark is waiting."))
        if area != play.bonuses[0]["area"]:
            raise IllegalAction(
                _("Your next bonus mark goes in the {colour} area.").format(
                    colour=colour(play.bonuses[0]["area"])
                )
            )
    else:
        raise IllegalAction(_("That is not a move in Dschungelparty."))
    place = _place(area, action, play.sheet)
    plain = {k: v for k, v in action.items() if k != "dice" or kind != "mark"}
    if mark_action(kind, area, place) != plain:
        raise IllegalAction(_("There is no such field on the sheet."))
    if kind == "bonus":
        return _bonus(play, area, place, action)
    if "dice" in action:  # the player chose the dice: "You can decide which dice you want"
        used = chosen_way(play, place, action["dice"])
        opens = place[0] if area == "green" and play.rows[place[0]] < 0 else -1
    else:
        used, opens = dice_for(play, place)
    sheet, won = _cross(play, area, place)
    spent, names, rows = list(play.spent), list(play.names), list(play.rows)
    for p, amount, name in used:
        spent[p] += amount
        if play.faces[p] == JOKER:
            names[p] = name
    if opens >= 0:
        rows[opens] = used[0][0]
    mark = {"area": area, "field": action["field"], "dice": [play.dice[p] for p, _, _ in used]}
    return replace(
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
            raise IllegalAction(
                ngettext(
                    "This bonus gives {count} banana to mark.",
                    "This bonus gives {count} bananas to mark.",
                    head["bananas"],
                ).format(count=head["bananas"])
            )
        if head["bananas"] > size:
            rest = [{**head, "bananas": head["bananas"] - size}, *rest]
    sheet, won = _cross(play, area, place)
    return replace(
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
            raise IllegalAction(_("The rerolled elephants cannot be taken back."))
        return None
    again = fresh(play.colour, play.dice, play.faces, play.rerolled, base, play.rolled, play.leaves)
    for earlier in play.steps[:-1]:
        again = step(again, earlier)
    return again
