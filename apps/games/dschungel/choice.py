"""Which dice a cross uses, when the player chooses: "You can decide which dice you want to
take".

Without a choice a cross uses the dice ``dice.dice_for`` picks (a die showing the symbol before
a joker). The active player's unused dice go to the others, so where another way to make the
same cross would leave them different dice, that way is offered too, as a cross naming its
dice ("dice": die numbers in the order the cross uses them). The others leave nothing to
anyone, so they are offered no such choice.
"""

from __future__ import annotations

from itertools import combinations

from apps.core.i18n import _
from apps.core.protocol import IllegalAction

from .dice import WHOLE_JOKER, dice_for
from .play import Play
from .sheet import BUTTERFLIES, CRATES, FACES, FLOWERS, FOUNTAIN_COLUMNS, JOKER

Used = list[tuple[int, int, str]]  # (position among the taken dice, amount, what it stands for)


def _free(play: Play, p: int) -> bool:
    return not play.spent[p]


def _ways(play: Play, place: tuple[int, ...]) -> list[Used]:
    """Every way the taken dice can make this cross now."""
    area, n = play.colour, range(len(play.dice))
    faces = play.faces
    if area == "green":
        r, f = place
        wing, bloom = f"green-butterfly-{BUTTERFLIES[r]}", f"green-flower-{FLOWERS[f]}"
        flowers = [p for p in n if _free(play, p) and faces[p] in (bloom, JOKER)]
        if play.rows[r] >= 0:  # the row is open already: no butterfly needed
            return [[(p, 1, bloom)] for p in flowers]
        wings = [p for p in n if _free(play, p) and faces[p] in (wing, JOKER)]
        return [[(b, 1, wing), (p, 1, bloom)] for b in wings for p in flowers if b != p]
    if area == "purple":
        size = CRATES[place[0]][place[1]]
        bananas = [p for p in n if _free(play, p)]
        return [[(p, 1, "purple-banana") for p in group] for group in combinations(bananas, size)]
    if area == "blue":
        column = FOUNTAIN_COLUMNS[place[0]]
        fits = [
            p
            for p in n
            if _free(play, p) and (faces[p] == JOKER or FACES[faces[p]].colour == column)
        ]
        return [[(p, 1, column)] for p in fits]
    half = "pink-half-any"
    reals = [p for p in n if faces[p] != JOKER and _free(play, p)]
    jokers = [p for p in n if faces[p] == JOKER and play.spent[p] < WHOLE_JOKER]
    ways: list[Used] = [
        [(a, 1, half), (b, 1, half)] for a, b in combinations(reals, 2) if faces[a] == faces[b]
    ]
    ways += [[(a, 1, half), (j, 1, half)] for a in reals for j in jokers]
    ways += [[(j, WHOLE_JOKER, half)] for j in jokers if play.spent[j] == 0]
    ways += [[(a, 1, half), (b, 1, half)] for a, b in combinations(jokers, 2)]
    return ways


def _left(play: Play, used: Used) -> tuple[str, ...]:
    """The faces a cross made this way leaves for the others, among the taken dice: those it
    does not touch and that are not gone (elephants rolled again are gone when unused)."""
    touched = {p for p, _amount, _name in used}
    return tuple(
        sorted(
            face
            for p, face in enumerate(play.faces)
            if p not in touched and _free(play, p) and play.kept(p)
        )
    )


def _jokers_spent(play: Play, used: Used) -> tuple[int, int]:
    """Fewer joker halves first, and a joker already half used before a fresh one."""
    halves = sum(amount for p, amount, _name in used if play.faces[p] == JOKER)
    fresh = sum(1 for p, _amount, _name in used if play.faces[p] == JOKER and _free(play, p))
    return halves, fresh


def named(play: Play, used: Used) -> list[int]:
    """A way as the action names it: its die numbers, in the order the cross uses them."""
    return [play.dice[p] for p, _amount, _name in used]


def other_ways(play: Play, place: tuple[int, ...]) -> list[Used]:
    """The ways to make this cross that leave the others different dice than the cross made
    without a choice; one way for each different set of dice left. None for the others."""
    if not play.leaves:
        return []
    try:
        default, _opens = dice_for(play, place)
    except IllegalAction:
        return []
    seen = {_left(play, default)}
    found = []
    ways = sorted(_ways(play, place), key=lambda used: _jokers_spent(play, used))
    for used in ways:
        left = _left(play, used)
        if left not in seen:
            seen.add(left)
            found.append(used)
    return found


def chosen_way(play: Play, place: tuple[int, ...], dice: object) -> Used:
    """The offered way whose dice the action names; IllegalAction for any other."""
    for used in other_ways(play, place):
        if named(play, used) == dice:
            return used
    raise IllegalAction(_("Those dice cannot make that cross any other way; tap the field."))
