"""Playing a taken card: its legal targets, why a target is refused, and what the card does.

Every function here works on the stables alone (a list per seat), so the bots can try a play
on a copy without a whole game state.

Actions, by the card held:
- ordinary animal: {"type": "place", "stable": i} (one of the player's own stables)
- elephant:        {"type": "elephant", "seat": s, "stable": i} (another player's stable)
- mad cow or mad stallion: {"type": "mad", "seat": s, "stable": i}
- transport truck: {"type": "truck", "from_seat": s, "from_stable": i, "animal": name,
                    "to_seat": t, "to_stable": j} (to_seat and to_stable None: removed)
"""

from __future__ import annotations

from typing import Any

from apps.core.i18n import _
from apps.core.protocol import IllegalAction

from .cards import (
    ELEPHANT,
    IS_ELEPHANT,
    KIND,
    MAD_COW,
    MAD_KIND,
    MAD_STALLION,
    NAME_OF,
    TRUCK,
    capital,
    is_animal,
    kind_stable,
    plural,
    with_article,
)
from .stables import Stable, animal_fits, stable_label

Action = dict[str, Any]
Stables = list[list[Stable]]

PLACE, ELEPHANT_PLAY, MAD, TRUCK_PLAY = "place", "elephant", "mad", "truck"
PLAY_TYPES: frozenset[str] = frozenset({PLACE, ELEPHANT_PLAY, MAD, TRUCK_PLAY})


def play_type(card: int) -> str:
    """The action type that plays this card."""
    name = NAME_OF[card]
    if is_animal(card):
        return PLACE
    if name == ELEPHANT:
        return ELEPHANT_PLAY
    if name in (MAD_COW, MAD_STALLION):
        return MAD
    return TRUCK_PLAY


# --- where a card may go ---------------------------------------------------------------------


def _mad_target(stables: Stables, seat: int, card: int, owner: int, index: int) -> bool:
    """ "Place it in the cow stable of another player (a stable holding at least 1 bull and/or
    cow), or ... in their own stable (to resolve a brawl in that stable)." Ruling: "into
    another player's cow stable (any bull or cow in it), or into an own cow stable with a
    brawl". The same for mad stallions and horse stables."""
    stable = stables[owner][index]
    if not stable.cards or KIND[stable.cards[0]] != MAD_KIND[NAME_OF[card]]:
        return False
    return owner != seat or stable.brawl


def plays(stables: Stables, seat: int, card: int) -> list[Action]:
    """Every legal way for ``seat`` to play ``card``; empty when it cannot be played."""
    kind = play_type(card)
    if kind == PLACE:
        own = stables[seat]
        return [{"type": PLACE, "stable": i} for i in range(len(own)) if animal_fits(own, i, card)]
    if kind == ELEPHANT_PLAY:
        # "A player who takes an elephant must place it in an empty stable of another player."
        return [
            {"type": ELEPHANT_PLAY, "seat": owner, "stable": i}
            for owner, row in enumerate(stables)
            if owner != seat
            for i, stable in enumerate(row)
            if not stable.cards
        ]
    if kind == MAD:
        return [
            {"type": MAD, "seat": owner, "stable": i}
            for owner, row in enumerate(stables)
            for i in range(len(row))
            if _mad_target(stables, seat, card, owner, i)
        ]
    return truck_plays(stables)


def _truck_destinations(stables: Stables, card: int, owner: int, index: int) -> list[tuple]:
    """ "As long as they follow the rules (an elephant to an empty stable; ordinary animals to a
    stable holding animals of the same kind, or to an empty stable)." """
    found = []
    for to_owner, row in enumerate(stables):
        lifted = index if to_owner == owner else None
        for j, target in enumerate(row):
            if to_owner == owner and j == index:
                continue
            if IS_ELEPHANT[card]:
                if not target.cards:
                    found.append((to_owner, j))
            elif animal_fits(row, j, card, lifted):
                found.append((to_owner, j))
    return found


def truck_plays(stables: Stables) -> list[Action]:
    """ "Move one animal of their choice (from one of their own stables or from the stable of
    another player) to another stable, or remove it from the game." Animals of one name in one
    stable are alike, so each is offered once."""
    found: list[Action] = []
    for owner, row in enumerate(stables):
        for index, stable in enumerate(row):
            seen: set[str] = set()
            for card in stable.cards:
                name = NAME_OF[card]
                if name in seen:
                    continue
                seen.add(name)
                base = {
                    "type": TRUCK_PLAY,
                    "from_seat": owner,
                    "from_stable": index,
                    "animal": name,
                }
                for to_owner, j in _truck_destinations(stables, card, owner, index):
                    found.append({**base, "to_seat": to_owner, "to_stable": j})
                found.append({**base, "to_seat": None, "to_stable": None})
    return found


def can_play(stables: Stables, seat: int, card: int) -> bool:
    """Whether ``plays`` would offer anything, without listing it all."""
    kind = play_type(card)
    if kind == PLACE:
        own = stables[seat]
        return any(animal_fits(own, i, card) for i in range(len(own)))
    if kind == ELEPHANT_PLAY:
        return any(not s.cards for o, row in enumerate(stables) if o != seat for s in row)
    if kind == MAD:
        return any(
            _mad_target(stables, seat, card, owner, i)
            for owner, row in enumerate(stables)
            for i in range(len(row))
        )
    return any(s.cards for row in stables for s in row)


def cannot_play_reason(card: int) -> str:
    """Why a card with no legal play is removed, for the log."""
    name = NAME_OF[card]
    if is_animal(card):
        return "no_stable"  # every own stable holds another kind or an elephant
    if name == ELEPHANT:
        return "no_empty_stable"
    if name == TRUCK:
        return "no_animal"
    return "no_" + MAD_KIND[name] + "_stable"


# --- checking a chosen target ----------------------------------------------------------------


def _int_field(action: Action, key: str) -> int:
    value = action.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(_("Choose where your card goes."))
    return value


def _stable_at(stables: Stables, names: list[str], owner: int, index: int) -> Stable:
    if not 0 <= owner < len(stables):
        raise IllegalAction(_("There is no such player at this table."))
    if not 0 <= index < len(stables[owner]):
        raise IllegalAction(_("{name} has no such stable.").format(name=names[owner]))
    return stables[owner][index]


def _whose(names: list[str], seat: int, owner: int, label: str) -> str:
    """ "your stable 2", "Bea's stable 2"."""
    if owner == seat:
        return _("your {stable}").format(stable=label)
    return _("{name}'s {stable}").format(name=names[owner], stable=label)


def check_play(stables: Stables, names: list[str], seat: int, card: int, action: Action) -> None:
    """Raise IllegalAction, with a sentence the player reads, unless ``action`` is a legal
    play of ``card`` by ``seat``."""
    kind = play_type(card)
    if action.get("type") != kind:
        raise IllegalAction(
            _("You hold {card}: play it where it may go.").format(card=with_article(NAME_OF[card]))
        )
    if kind == TRUCK_PLAY:
        _check_truck(stables, names, seat, action)
        return
    owner = seat if kind == PLACE else _int_field(action, "seat")
    index = _int_field(action, "stable")
    stable = _stable_at(stables, names, owner, index)
    # Compared field by field, so a stray key in a sent action changes nothing.
    if kind == PLACE:
        wanted = {"type": kind, "stable": index}
    else:
        wanted = {"type": kind, "seat": owner, "stable": index}
    if wanted in plays(stables, seat, card):
        return
    label = _whose(names, seat, owner, stable_label(stables[owner], index))
    if stable.has_elephant and kind in (PLACE, ELEPHANT_PLAY):
        raise IllegalAction(
            _("An elephant fills {stable}: nothing else fits in.").format(stable=label)
        )
    if kind == PLACE:
        if stable.cards:
            raise IllegalAction(
                _(
                    "{card} can't go into {stable}: only animals of one kind may be in a stable."
                ).format(card=capital(with_article(NAME_OF[card])), stable=label)
            )
        raise IllegalAction(
            _(
                "{card} can't open an empty stable while you have a stable of her kind: a second "
                "stable of a kind must start with the male."
            ).format(card=capital(with_article(NAME_OF[card])))
        )
    if kind == ELEPHANT_PLAY:
        if owner == seat:
            raise IllegalAction(_("An elephant goes into an empty stable of another player."))
        raise IllegalAction(
            _("An elephant goes only into an empty stable; {stable} is not empty.").format(
                stable=label
            )
        )
    mad_kind = MAD_KIND[NAME_OF[card]]
    if owner == seat:
        raise IllegalAction(
            _("In your own stables {card} may only end a brawl in a {stable}.").format(
                card=with_article(NAME_OF[card]), stable=kind_stable(mad_kind)
            )
        )
    raise IllegalAction(
        _("{cards} go only into a {stable}.").format(
            cards=capital(plural(NAME_OF[card])), stable=kind_stable(mad_kind)
        )
    )


def _check_truck(stables: Stables, names: list[str], seat: int, action: Action) -> None:
    owner = _int_field(action, "from_seat")
    index = _int_field(action, "from_stable")
    source = _stable_at(stables, names, owner, index)
    name = action.get("animal")
    card = next((c for c in source.cards if NAME_OF[c] == name), None)
    if card is None:
        raise IllegalAction(
            _("There is no such animal in {stable}.").format(
                stable=_whose(names, seat, owner, stable_label(stables[owner], index))
            )
        )
    to_owner, to_index = action.get("to_seat"), action.get("to_stable")
    if to_owner is None and to_index is None:
        return  # removing an animal from the game is always allowed
    to_owner, to_index = _int_field(action, "to_seat"), _int_field(action, "to_stable")
    target = _stable_at(stables, names, to_owner, to_index)
    if (to_owner, to_index) in _truck_destinations(stables, card, owner, index):
        return
    if to_owner == owner and to_index == index:
        raise IllegalAction(_("The transport truck must take the animal to another stable."))
    if IS_ELEPHANT[card]:
        raise IllegalAction(_("An elephant goes only into an empty stable."))
    if target.has_elephant:
        raise IllegalAction(_("An elephant fills that stable: nothing else fits in."))
    if target.cards:
        raise IllegalAction(
            _("{card} can't go there: only animals of one kind may be in a stable.").format(
                card=capital(with_article(name))
            )
        )
    if to_owner == seat:
        text = _(
            "{cards} can't open an empty stable for you: a second stable of a kind must start "
            "with the male."
        )
    else:
        text = _(
            "{cards} can't open an empty stable for {name}: a second stable of a kind must "
            "start with the male."
        )
    raise IllegalAction(text.format(cards=capital(plural(name)), name=names[to_owner]))


# --- carrying a play out ---------------------------------------------------------------------


def carry_out(stables: Stables, seat: int, card: int, action: Action) -> tuple[list[int], dict]:
    """Carry out a checked play on ``stables`` (changed in place). Returns the cards it removes
    from the game and the log entry (ids as data)."""
    kind = action["type"]
    if kind == PLACE:
        stables[seat][action["stable"]].cards.append(card)
        return [], {"type": "placed", "seat": seat, "card": card, "stable": action["stable"]}
    if kind == ELEPHANT_PLAY:
        owner, index = action["seat"], action["stable"]
        stables[owner][index].cards.append(card)
        entry = {"type": "elephant", "seat": seat, "card": card, "to_seat": owner, "stable": index}
        return [], entry
    if kind == MAD:
        # "Remove all animals from that stable (including the mad cow) from the game. The
        # stable is then immediately available for new animals."
        owner, index = action["seat"], action["stable"]
        stable = stables[owner][index]
        gone = stable.cards
        stable.cards = []
        entry = {
            "type": "mad",
            "seat": seat,
            "card": card,
            "to_seat": owner,
            "stable": index,
            "cards": list(gone),
        }
        return [*gone, card], entry
    owner, index = action["from_seat"], action["from_stable"]
    source = stables[owner][index]
    animal = next(c for c in source.cards if NAME_OF[c] == action["animal"])
    source.cards.remove(animal)
    # check_play reads a truck sent without a target as "out of the game"; so does this.
    to_seat, to_stable = action.get("to_seat"), action.get("to_stable")
    entry = {
        "type": "truck",
        "seat": seat,
        "card": card,
        "animal": animal,
        "from_seat": owner,
        "from_stable": index,
        "to_seat": to_seat,
        "to_stable": to_stable,
    }
    if to_seat is None:
        return [animal, card], entry  # a used transport truck leaves the game too
    stables[to_seat][to_stable].cards.append(animal)
    return [card], entry
