"""The value of stables, and who wins a round by it."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import IS_FEMALE, IS_MALE, KIND, POINTS_OF_KIND
from .stables import Stable

COUPLE_BONUS = 2


def stable_value(stable: Stable) -> int:
    """The scoring table: "Brawl in the stable (bonje): no points for the animals in this
    stable. Per stallion/mare 4 points, per bull/cow 3, per boar/sow 2, per ram/ewe 2, per
    rooster/hen 1, per elephant 0. Per couple (extra): 2 points extra (1 male and 1 female of
    the same kind in 1 stable without a brawl)." Ruling: "+2 per stable with a couple".

    Bonus variant: "When determining the value of this stable, only animals of the kind
    concerned count."
    """
    cards = stable.cards
    if not cards:
        return 0
    kind = KIND[cards[0]]
    if kind is None or (stable.special is not None and kind != stable.special):
        return 0  # an elephant is worth nothing; so are other kinds in a special stable
    males = sum(1 for card in cards if IS_MALE[card])
    if males >= 2:
        return 0
    value = POINTS_OF_KIND[kind] * len(cards)
    if males == 1 and any(IS_FEMALE[card] for card in cards):
        value += COUPLE_BONUS
    return value


def seat_value(stables: Iterable[Stable]) -> int:
    """ "The player with the most valuable stables": the values of all their stables added."""
    return sum(stable_value(stable) for stable in stables)


def most_valuable(values: list[int], among: Iterable[int]) -> list[int]:
    """The seats of ``among`` whose stables are worth the most, in the order given (ties share:
    ruling, "then the most valuable stables win (ties share the win)")."""
    seats = list(among)
    best = max(values[seat] for seat in seats)
    return [seat for seat in seats if values[seat] == best]
