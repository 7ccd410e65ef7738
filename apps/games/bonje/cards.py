"""Bonje in de Stal's deck: 84 playing cards with stable ids, what each card is, the cards only
four players use, and the words the table uses for them."""

from __future__ import annotations

import random

from apps.core.i18n import N_, _, ngettext

# Card names, as keys. The rule text's words are in WORDS.
STALLION, MARE = "stallion", "mare"
BULL, COW = "bull", "cow"
BOAR, SOW = "boar", "sow"
RAM, EWE = "ram", "ewe"
ROOSTER, HEN = "rooster", "hen"
ELEPHANT = "elephant"
MAD_COW, MAD_STALLION = "mad_cow", "mad_stallion"
TRUCK = "truck"

# Ruling: "The 84 playing cards are: 4 stallions, 7 mares, 4 bulls, 7 cows, 5 boars, 10 sows,
# 5 rams, 10 ewes, 6 roosters, 12 hens, 3 elephants, 2 mad cows, 2 mad stallions, 7 transport
# trucks." Ids follow this order, so a card's id never changes between deals.
COUNTS: tuple[tuple[str, int], ...] = (
    (STALLION, 4),
    (MARE, 7),
    (BULL, 4),
    (COW, 7),
    (BOAR, 5),
    (SOW, 10),
    (RAM, 5),
    (EWE, 10),
    (ROOSTER, 6),
    (HEN, 12),
    (ELEPHANT, 3),
    (MAD_COW, 2),
    (MAD_STALLION, 2),
    (TRUCK, 7),
)

# Ruling: "18 do [bear the 4-players symbol], leaving 66 for 2 or 3 players: 1 stallion,
# 1 mare, 1 bull, 1 cow, 1 boar, 3 sows, 1 ram, 3 ewes, 1 rooster, 3 hens, 1 elephant,
# 1 transport truck." The last cards of each name carry the symbol.
FOUR_PLAYER_COUNTS: dict[str, int] = {
    STALLION: 1,
    MARE: 1,
    BULL: 1,
    COW: 1,
    BOAR: 1,
    SOW: 3,
    RAM: 1,
    EWE: 3,
    ROOSTER: 1,
    HEN: 3,
    ELEPHANT: 1,
    TRUCK: 1,
}

NAME_OF: tuple[str, ...] = tuple(name for name, count in COUNTS for _ in range(count))
DECK_SIZE = len(NAME_OF)


def ids_of(name: str) -> list[int]:
    """Every card id of one name, lowest first (tests and bots build positions with it)."""
    return [card for card, n in enumerate(NAME_OF) if n == name]


FOUR_PLAYER_CARDS: frozenset[int] = frozenset(
    card for name, count in FOUR_PLAYER_COUNTS.items() for card in ids_of(name)[-count:]
)

# The kinds of animal a stable holds: "Stallions and mares, bulls and cows, boars and sows, rams
# and ewes, roosters and hens." The rule text calls a bull-and-cow stable a "cow stable".
HORSE, CATTLE, PIG, SHEEP, CHICKEN = "horse", "cow", "pig", "sheep", "chicken"
ANIMAL_KINDS: tuple[str, ...] = (HORSE, CATTLE, PIG, SHEEP, CHICKEN)
MALE_OF: dict[str, str] = {HORSE: STALLION, CATTLE: BULL, PIG: BOAR, SHEEP: RAM, CHICKEN: ROOSTER}
FEMALE_OF: dict[str, str] = {HORSE: MARE, CATTLE: COW, PIG: SOW, SHEEP: EWE, CHICKEN: HEN}
KIND_OF_NAME: dict[str, str] = {
    **{male: kind for kind, male in MALE_OF.items()},
    **{female: kind for kind, female in FEMALE_OF.items()},
}
# The bonus variant: "the two special stables show horses and cows".
SPECIAL_KINDS: tuple[str, ...] = (HORSE, CATTLE)

# "Per stallion/mare 4 points, per bull/cow 3, per boar/sow 2, per ram/ewe 2, per rooster/hen 1,
# per elephant 0."
POINTS_OF_KIND: dict[str, int] = {HORSE: 4, CATTLE: 3, PIG: 2, SHEEP: 2, CHICKEN: 1}

# Ruling: "elephant 3, mad cow 4, mad stallion 5, transport truck 6. Ordinary animals have no
# number and count as lowest."
NUMBER_OF_NAME: dict[str, int] = {ELEPHANT: 3, MAD_COW: 4, MAD_STALLION: 5, TRUCK: 6}

# The kind of stable a mad card empties: "the cow stable", "the horse stable".
MAD_KIND: dict[str, str] = {MAD_COW: CATTLE, MAD_STALLION: HORSE}

# The words the table uses for a card, translated where shown (the card's name is the key):
# the bare noun, with "a" and with "the" (in German the form a sentence's object takes).
NOUN: dict[str, str] = {
    STALLION: N_("stallion"),
    MARE: N_("mare"),
    BULL: N_("bull"),
    COW: N_("cow"),
    BOAR: N_("boar"),
    SOW: N_("sow"),
    RAM: N_("ram"),
    EWE: N_("ewe"),
    ROOSTER: N_("rooster"),
    HEN: N_("hen"),
    ELEPHANT: N_("elephant"),
    MAD_COW: N_("mad cow"),
    MAD_STALLION: N_("mad stallion"),
    TRUCK: N_("transport truck"),
}
A: dict[str, str] = {
    STALLION: N_("a stallion"),
    MARE: N_("a mare"),
    BULL: N_("a bull"),
    COW: N_("a cow"),
    BOAR: N_("a boar"),
    SOW: N_("a sow"),
    RAM: N_("a ram"),
    EWE: N_("a ewe"),
    ROOSTER: N_("a rooster"),
    HEN: N_("a hen"),
    ELEPHANT: N_("an elephant"),
    MAD_COW: N_("a mad cow"),
    MAD_STALLION: N_("a mad stallion"),
    TRUCK: N_("a transport truck"),
}
THE: dict[str, str] = {
    STALLION: N_("the stallion"),
    MARE: N_("the mare"),
    BULL: N_("the bull"),
    COW: N_("the cow"),
    BOAR: N_("the boar"),
    SOW: N_("the sow"),
    RAM: N_("the ram"),
    EWE: N_("the ewe"),
    ROOSTER: N_("the rooster"),
    HEN: N_("the hen"),
    ELEPHANT: N_("the elephant"),
    MAD_COW: N_("the mad cow"),
    MAD_STALLION: N_("the mad stallion"),
    TRUCK: N_("the transport truck"),
}
PLURAL: dict[str, str] = {
    STALLION: N_("stallions"),
    MARE: N_("mares"),
    BULL: N_("bulls"),
    COW: N_("cows"),
    BOAR: N_("boars"),
    SOW: N_("sows"),
    RAM: N_("rams"),
    EWE: N_("ewes"),
    ROOSTER: N_("roosters"),
    HEN: N_("hens"),
    ELEPHANT: N_("elephants"),
    MAD_COW: N_("mad cows"),
    MAD_STALLION: N_("mad stallions"),
    TRUCK: N_("transport trucks"),
    # A stable of the wrong kind "holding horses" (cows are the cow's own word).
    HORSE: N_("horses"),
    PIG: N_("pigs"),
    SHEEP: N_("sheep"),
    CHICKEN: N_("chickens"),
}
COUNTED = {
    STALLION: lambda n: ngettext("{count} stallion", "{count} stallions", n),
    MARE: lambda n: ngettext("{count} mare", "{count} mares", n),
    BULL: lambda n: ngettext("{count} bull", "{count} bulls", n),
    COW: lambda n: ngettext("{count} cow", "{count} cows", n),
    BOAR: lambda n: ngettext("{count} boar", "{count} boars", n),
    SOW: lambda n: ngettext("{count} sow", "{count} sows", n),
    RAM: lambda n: ngettext("{count} ram", "{count} rams", n),
    EWE: lambda n: ngettext("{count} ewe", "{count} ewes", n),
    ROOSTER: lambda n: ngettext("{count} rooster", "{count} roosters", n),
    HEN: lambda n: ngettext("{count} hen", "{count} hens", n),
    ELEPHANT: lambda n: ngettext("{count} elephant", "{count} elephants", n),
    MAD_COW: lambda n: ngettext("{count} mad cow", "{count} mad cows", n),
    MAD_STALLION: lambda n: ngettext("{count} mad stallion", "{count} mad stallions", n),
    TRUCK: lambda n: ngettext("{count} transport truck", "{count} transport trucks", n),
}
# A stable by the kind it holds ("the cow stable" of the mad cow), and the special stables.
KIND_STABLE: dict[str, str] = {HORSE: N_("horse stable"), CATTLE: N_("cow stable")}
SPECIAL_STABLE: dict[str, str] = {
    HORSE: N_("special horse stable"),
    CATTLE: N_("special cow stable"),
}


# Per card id, for the hot paths (a tuple index is cheaper than two dict lookups).
KIND: tuple[str | None, ...] = tuple(KIND_OF_NAME.get(n) for n in NAME_OF)
IS_MALE: tuple[bool, ...] = tuple(n in MALE_OF.values() for n in NAME_OF)
IS_FEMALE: tuple[bool, ...] = tuple(n in FEMALE_OF.values() for n in NAME_OF)
IS_ELEPHANT: tuple[bool, ...] = tuple(n == ELEPHANT for n in NAME_OF)
NUMBER: tuple[int | None, ...] = tuple(NUMBER_OF_NAME.get(n) for n in NAME_OF)


def word(name: str) -> str:
    """A card name as players say it, in the viewer's language: "transport truck"."""
    return _(NOUN[name])


def with_article(name: str) -> str:
    """ "a mare", "an elephant"."""
    return _(A[name])


def the(name: str) -> str:
    """ "the mare"."""
    return _(THE[name])


def plural(name: str) -> str:
    return _(PLURAL[name])


def counted(name: str, count: int) -> str:
    """ "1 mare", "3 ewes"."""
    return COUNTED[name](count).format(count=count)


def kind_stable(kind: str) -> str:
    return _(KIND_STABLE[kind])


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def is_animal(card: int) -> bool:
    """An ordinary animal: one that belongs to a kind and goes into its player's stable."""
    return KIND[card] is not None


def card_data(card: int) -> dict:
    """A face-up card as views show it."""
    name = NAME_OF[card]
    return {
        "id": card,
        "name": name,
        "label": NOUN[name],
        "kind": KIND[card],
        "sex": "male" if IS_MALE[card] else "female" if IS_FEMALE[card] else None,
        "number": NUMBER[card],
    }


CARD_DATA: tuple[dict, ...] = tuple(card_data(card) for card in range(DECK_SIZE))


def deck_for(players: int) -> list[int]:
    """ "With 2 or 3 players, remove from the game all cards bearing this symbol ... With
    4 players, use all playing cards." """
    if players >= 4:
        return list(range(DECK_SIZE))
    return [card for card in range(DECK_SIZE) if card not in FOUR_PLAYER_CARDS]


def deal(cards: list[int], players: int, rng: random.Random) -> list[list[int]]:
    """ "Shuffle the deck of cards and then deal them evenly among the players. Each player
    places their cards in front of them as a face-down stack." Ruling: "84/4 = 21, 66/3 = 22,
    66/2 = 33." A stack's top card is its last."""
    deck = sorted(cards)  # the shuffle alone decides the order, whatever order cards came in
    rng.shuffle(deck)
    share = len(deck) // players
    return [deck[i * share : (i + 1) * share] for i in range(players)]
