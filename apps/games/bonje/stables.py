"""Stables: what one holds, whether it is complete, and what it still needs.

"A complete stable contains 1 male animal and at least 1 female animal of the same kind. Only
animals of 1 kind may be in a stable." Ruling: "A stable is complete with exactly 1 male and
1+ females of one kind, no brawl, no elephant."
"""

from __future__ import annotations

from dataclasses import dataclass, field

from apps.core.i18n import _

from .cards import (
    FEMALE_OF,
    IS_ELEPHANT,
    IS_FEMALE,
    IS_MALE,
    KIND,
    MALE_OF,
    SPECIAL_STABLE,
    capital,
    plural,
    with_article,
)

# A stable's status, as views and messages name it.
COMPLETE = "complete"
EMPTY = "empty"
ELEPHANT_INSIDE = "elephant"
BRAWL = "brawl"
NEEDS_MALE = "needs_male"
NEEDS_FEMALE = "needs_female"
WRONG_KIND = "wrong_kind"


@dataclass
class Stable:
    """A stable in front of a player: the cards in it (public) and, in the bonus variant, the
    kind a special stable shows."""

    cards: list[int] = field(default_factory=list)
    special: str | None = None

    def copy(self) -> Stable:
        return Stable(list(self.cards), self.special)

    def to_json(self) -> dict:
        return {"cards": list(self.cards), "special": self.special}

    @classmethod
    def from_json(cls, data: dict) -> Stable:
        return cls(list(data["cards"]), data["special"])

    @property
    def kind(self) -> str | None:
        """The kind of the animals in it; None when empty or when an elephant fills it."""
        return KIND[self.cards[0]] if self.cards else None

    @property
    def has_elephant(self) -> bool:
        return bool(self.cards) and IS_ELEPHANT[self.cards[0]]

    @property
    def males(self) -> int:
        return sum(1 for card in self.cards if IS_MALE[card])

    @property
    def females(self) -> int:
        return sum(1 for card in self.cards if IS_FEMALE[card])

    @property
    def brawl(self) -> bool:
        """ "If a stable holds two or more male animals, a brawl (bonje) breaks out." """
        return self.males >= 2


def stable_status(stable: Stable) -> str:
    """One of the status words above; COMPLETE only for a complete stable."""
    if not stable.cards:
        return EMPTY
    if stable.has_elephant:
        return ELEPHANT_INSIDE
    if stable.special is not None and stable.kind != stable.special:
        return WRONG_KIND
    males = stable.males
    if males >= 2:
        return BRAWL
    if males == 0:
        return NEEDS_MALE
    if stable.females == 0:
        return NEEDS_FEMALE
    return COMPLETE


def is_complete(stable: Stable) -> bool:
    return stable_status(stable) == COMPLETE


def needs(stable: Stable, short: bool = False) -> str:
    """What the stable still needs to be complete, in words ("" when it is complete): the end
    of "Your stable 2 is not complete: it needs a mare.", or ``short`` the line under a stable
    on the table ("Needs a mare")."""
    status = stable_status(stable)
    kind = stable.special or stable.kind
    if status == COMPLETE:
        return ""
    if status == EMPTY:
        if kind is None:
            if short:
                return _("Needs a male and a female of one kind")
            return _("it is empty: it needs a male and a female of one kind")
        male, female = with_article(MALE_OF[kind]), with_article(FEMALE_OF[kind])
        if short:
            return _("Needs {male} and {female}").format(male=male, female=female)
        return _("it is empty: it needs {male} and {female}").format(male=male, female=female)
    if status == ELEPHANT_INSIDE:
        if short:
            return _("An elephant fills it: only a truck can take it out")
        return _("an elephant fills it: only a transport truck can take it out")
    if status == WRONG_KIND:
        held = stable.kind
        if held:
            text = _(
                "it is a {special} holding {animals}: only {males} and {females} make it complete"
            )
        else:
            text = _(
                "it is a {special} holding other animals: only {males} and {females} make it "
                "complete"
            )
        text = text.format(
            special=_(SPECIAL_STABLE[kind]),
            animals=plural(held) if held else "",
            males=plural(MALE_OF[kind]),
            females=plural(FEMALE_OF[kind]),
        )
        return capital(text) if short else text
    assert kind is not None
    if status == BRAWL:
        text = _("there is a brawl: {count} {males} fight in it").format(
            count=stable.males, males=plural(MALE_OF[kind])
        )
        return capital(text) if short else text
    animal = with_article(MALE_OF[kind] if status == NEEDS_MALE else FEMALE_OF[kind])
    if short:
        return _("Needs {animal}").format(animal=animal)
    return _("it needs {animal}").format(animal=animal)


def stable_label(stables: list[Stable], index: int) -> str:
    """ "stable 2", or "special horse stable", in the viewer's language; numbered from 1."""
    stable = stables[index]
    if stable.special is not None:
        return _(SPECIAL_STABLE[stable.special])
    return _("stable {number}").format(number=index + 1)


def first_incomplete(stables: list[Stable]) -> int | None:
    for index, stable in enumerate(stables):
        if not is_complete(stable):
            return index
    return None


def all_complete(stables: list[Stable]) -> bool:
    return first_incomplete(stables) is None


def holds_kind(stables: list[Stable], kind: str, skip: int | None = None) -> bool:
    """Does one of these stables (but ``skip``) hold animals of ``kind``?"""
    return any(i != skip and s.cards and KIND[s.cards[0]] == kind for i, s in enumerate(stables))


def animal_fits(
    stables: list[Stable], index: int, card: int, lifted_from: int | None = None
) -> bool:
    """May this ordinary animal go into ``stables[index]``?

    "They may choose either an empty stable, or a stable that already holds animals of the same
    kind. Note: it is not allowed to place a female animal of a kind that the player already has
    in an empty stable." and "the first animal in the second and every following stable with the
    same kind must be the male of that kind."

    ``lifted_from`` is the stable a transport truck takes the animal out of: a stable it leaves
    empty no longer counts as a stable of its kind.
    """
    stable = stables[index]
    kind = KIND[card]
    if stable.cards:
        if lifted_from == index:
            return False
        return KIND[stable.cards[0]] == kind  # an elephant's kind is None: the stable is full
    if not IS_FEMALE[card]:
        return True
    for i, other in enumerate(stables):
        if i == index or not other.cards or KIND[other.cards[0]] != kind:
            continue
        if i == lifted_from and len(other.cards) == 1:
            continue  # the truck takes its only animal away
        return False
    return True
