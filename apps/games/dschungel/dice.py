"""The dice a seat takes, and which of them a cross uses.

A cross names a field; the dice it uses are chosen here: "real" dice (a die showing that very
symbol) before jokers, so a joker is spent only where nothing else fits and stays free for the
next cross. A joker is named by the cross that uses it.
"""

from __future__ import annotations

import random

from apps.core.i18n import _, ngettext
from apps.core.protocol import IllegalAction

from .play import Play
from .sheet import BUTTERFLIES, CRATES, DICE, FACES, FLOWERS, FOUNTAIN_COLUMNS, JOKER
from .words import COLUMN_WORDS, FACE_WORDS, colour

WHOLE_JOKER = 2  # "A joker always counts as 2 arbitrary coconut halves."


def taken_dice(colour: str, available: list[tuple[int, str]]) -> tuple[list[int], list[str]]:
    """ "You can take all dice of one background colour plus all rolled jokers." """
    picked = [(d, face) for d, face in available if face == JOKER or FACES[face].colour == colour]
    return [d for d, _ in picked], [face for _, face in picked]


def roll_die(die: int, rng: random.Random) -> str:
    return DICE[die][rng.randrange(len(DICE[die]))]


def free(play: Play, face: str, but: int = -1) -> int:
    """The first unused taken die showing ``face`` (not position ``but``), or -1."""
    for p, f in enumerate(play.faces):
        if f == face and not play.spent[p] and p != but:
            return p
    return -1


def green_dice(play: Play, row: int, flower: int) -> tuple[int, int] | None:
    """(butterfly die or -1 when the row is open already, flower die). Rules: "You must always
    have at least 1 butterfly and 1 flower selected"; "Butterflies are not marked. A butterfly
    only indicates in which row you may mark the flower"."""
    butterfly = -1
    if play.rows[row] < 0:
        butterfly = free(play, f"green-butterfly-{BUTTERFLIES[row]}")
        if butterfly < 0:
            butterfly = free(play, JOKER)
        if butterfly < 0:
            return None
    bloom = free(play, f"green-flower-{FLOWERS[flower]}")
    if bloom < 0:
        bloom = free(play, JOKER, but=butterfly)
    if bloom < 0:
        return None
    return butterfly, bloom


def banana_dice(play: Play, bananas: int) -> list[int] | None:
    """ "For each chosen die showing a banana, you may mark one banana"; bananas first, then
    jokers."""
    real = [p for p, f in enumerate(play.faces) if f != JOKER and not play.spent[p]]
    jokers = [p for p, f in enumerate(play.faces) if f == JOKER and not play.spent[p]]
    found = (real + jokers)[:bananas]
    return found if len(found) == bananas else None


def fountain_die(play: Play, column: str) -> int:
    """ "You use pink dice to mark in the pink column, blue dice to mark in the blue column,
    and so on"; a joker, rolled or kept, joins the column ("jokers always join the chosen
    colour")."""
    for p, f in enumerate(play.faces):
        if f != JOKER and FACES[f].colour == column and not play.spent[p]:
            return p
    # A joker the elephants rolled before one kept from the roll: unused, the first is gone
    # and the second goes back to the others.
    jokers = [p for p, f in enumerate(play.faces) if f == JOKER and not play.spent[p]]
    return min(jokers, key=lambda p: (play.kept(p), p), default=-1)


def coconut_dice(play: Play) -> list[tuple[int, int]] | None:
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


def dice_for(play: Play, place: tuple[int, ...]) -> tuple[list[tuple[int, int, str]], int]:
    """The dice a cross with the dice uses, as (position, amount, what a joker stands for),
    and the green row it opens (-1). IllegalAction when the dice do not allow it."""
    area = play.colour
    if area == "green":
        r, f = place
        found = green_dice(play, r, f)
        if found is None:
            raise IllegalAction(
                _(
                    "That flower needs a {butterfly} and a {flower} (or jokers) among your dice."
                ).format(
                    butterfly=_(FACE_WORDS[f"butterfly-{BUTTERFLIES[r]}"]),
                    flower=_(FACE_WORDS[f"flower-{FLOWERS[f]}"]),
                )
            )
        butterfly, bloom = found
        used = [(bloom, 1, f"green-flower-{FLOWERS[f]}")]
        if butterfly >= 0:
            used.insert(0, (butterfly, 1, f"green-butterfly-{BUTTERFLIES[r]}"))
        return used, r if butterfly >= 0 else -1
    if area == "purple":
        size = CRATES[place[0]][place[1]]
        dice = banana_dice(play, size)
        if dice is None:
            raise IllegalAction(
                ngettext(
                    "A bunch of {size} needs {size} bananas from this turn; you have {left} left.",
                    "A bunch of {size} needs {size} bananas from this turn; you have {left} left.",
                    size,
                ).format(size=size, left=play.spent.count(0))
            )
        return [(p, 1, "purple-banana") for p in dice], -1
    if area == "blue":
        column = FOUNTAIN_COLUMNS[place[0]]
        if play.column not in (None, column):
            raise IllegalAction(
                _("This turn's dice mark {column}.").format(column=_(COLUMN_WORDS[play.column]))
            )
        p = fountain_die(play, column)
        if p < 0:
            raise IllegalAction(
                _("None of your rerolled dice is {colour} or a joker.").format(
                    colour=colour(column)
                )
            )
        return [(p, 1, column)], -1
    halves = coconut_dice(play)
    if halves is None:
        raise IllegalAction(_("A coconut needs two matching coconut halves or a joker."))
    return [(p, n, "pink-half-any") for p, n in halves], -1
