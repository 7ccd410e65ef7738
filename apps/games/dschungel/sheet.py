"""The five dice and the printed sheet of Auch schon clever: Dschungelparty, as data.

Ruling: "The rules name the sheet's parts and counts but not the print. This is the product's
sheet and dice; keep them as data, so a house with the printed pad can match it." A house whose
pad differs edits this module only: the rules read every face, field and reward from here.

Positions are 0-based in code and actions (the bottom row of the fountain is row 0, the first
coconut on the path is coconut 0); the comments give the printed numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

# The four colour areas of the sheet, which are also the dice's background colours.
AREAS: tuple[str, ...] = ("green", "purple", "blue", "pink")

JOKER = "joker"


@dataclass(frozen=True)
class Face:
    """ "Every die face shows a background colour (green, blue, pink or purple) and a symbol
    (butterflies, flower, banana, coconut half or elephant). In addition, there are three die
    faces with a joker symbol." """

    key: str
    colour: str | None  # the background colour; None on a joker, which names its own
    symbol: str  # "butterfly", "flower", "banana", "elephant", "half" or "joker"
    kind: str | None = None  # the butterfly's row, the flower's colour, the half's pattern


def _face(key: str) -> Face:
    if key == JOKER:
        return Face(key, None, JOKER)
    colour, symbol, *kind = key.split("-")
    return Face(key, colour, symbol, kind[0] if kind else None)


# --- the dice ------------------------------------------------------------------------------

# Ruling: "Dice: five dice, 30 faces. A face is a background colour with a symbol, or a joker."
DICE: tuple[tuple[str, ...], ...] = (
    (
        "green-butterfly-multi",
        "green-flower-yellow",
        "purple-banana",
        "blue-elephant",
        "pink-half-stripes",
        JOKER,
    ),
    (
        "green-butterfly-blue",
        "green-flower-blue",
        "purple-banana",
        "blue-elephant",
        "pink-half-dots",
        JOKER,
    ),
    (
        "green-butterfly-yellow",
        "green-flower-red",
        "purple-banana",
        "blue-elephant",
        "pink-half-zigzag",
        JOKER,
    ),
    (
        "green-butterfly-multi",
        "green-flower-white",
        "purple-banana",
        "blue-elephant",
        "pink-half-stripes",
        "pink-half-dots",
    ),
    (
        "green-flower-blue",
        "green-flower-yellow",
        "purple-banana",
        "purple-banana",
        "blue-elephant",
        "pink-half-zigzag",
    ),
)

FACES: dict[str, Face] = {key: _face(key) for die in DICE for key in die}


# --- rewards -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reward:
    """What a printed reward gives when won: rainbow stars, or a bonus circle of an area
    ("a purple bonus circle shows how many bananas it gives")."""

    stars: int = 0
    bonus: str | None = None  # the area of the bonus mark
    bananas: int = 0  # a purple bonus circle's bananas, "counted as rolled together"


STAR = Reward(stars=1)
TWO_STARS = Reward(stars=2)
GREEN_BONUS = Reward(bonus="green")
BLUE_BONUS = Reward(bonus="blue")
PINK_BONUS = Reward(bonus="pink")
PURPLE_BONUS_1 = Reward(bonus="purple", bananas=1)
PURPLE_BONUS_2 = Reward(bonus="purple", bananas=2)
EXTRA_STAR = STAR  # "The larger, blue-outlined Extra Star counts too."


# --- green: flowers and butterflies --------------------------------------------------------

# The butterfly of each row, bottom row first ("the bottom row (the multicoloured butterfly)",
# "the second row (the blue butterfly)").
BUTTERFLIES: tuple[str, ...] = ("multi", "blue", "yellow")
# The four flowers of every row, left to right.
FLOWERS: tuple[str, ...] = ("yellow", "blue", "red", "white")
# Between neighbouring flowers of a row (yellow|blue, blue|red, red|white); won when both
# flowers beside it are marked.
GREEN_REWARDS: dict[str, tuple[Reward, ...]] = {
    "multi": (STAR, PURPLE_BONUS_1, STAR),
    "blue": (PINK_BONUS, STAR, BLUE_BONUS),
    "yellow": (STAR, GREEN_BONUS, STAR),
}
# "You end the game and additionally receive the larger Extra Star if you have marked all 12
# flowers."
GREEN_EXTRA_FLOWERS = 12


# --- purple: bananas -----------------------------------------------------------------------

# The banana bunches of each crate, by size, crate 1 first.
CRATES: tuple[tuple[int, ...], ...] = ((1, 1), (1, 2), (2, 2), (1, 3), (2, 3), (3, 3))
# What is printed above each crate, won when all its bananas are marked.
CRATE_REWARDS: tuple[Reward, ...] = (
    PINK_BONUS,
    STAR,
    BLUE_BONUS,
    STAR,
    GREEN_BONUS,
    TWO_STARS,
)
# "You end the game and additionally receive the larger Extra Star if you have completed 5
# banana crates."
PURPLE_EXTRA_CRATES = 5


# --- blue: the elephant fountain -----------------------------------------------------------

# The fountain's columns, by the dice colour that marks in them.
FOUNTAIN_COLUMNS: tuple[str, ...] = ("green", "blue", "pink", "purple")
FOUNTAIN_ROWS = 3
# The reward on each field of a column, bottom row (printed row 1) first.
FOUNTAIN_REWARDS: dict[str, tuple[Reward | None, ...]] = {
    "green": (STAR, None, GREEN_BONUS),
    "blue": (None, PINK_BONUS, None),
    "pink": (None, STAR, None),
    "purple": (PURPLE_BONUS_1, None, None),
}
# "Further rainbow stars are received for completely marking the two bottom rows."
FOUNTAIN_ROW_REWARDS: tuple[Reward | None, ...] = (STAR, STAR, None)
# "... the blue Extra Star if you have completely marked the third row of the water fountain."
BLUE_EXTRA_ROW = 2


# --- pink: the coconut path ----------------------------------------------------------------

COCONUTS = 13
# The reward on each coconut of the path, in path order (printed coconut 1 first).
COCONUT_REWARDS: tuple[Reward | None, ...] = (
    None,
    None,
    GREEN_BONUS,  # 3
    None,
    STAR,  # 5
    None,
    BLUE_BONUS,  # 7
    None,
    STAR,  # 9
    None,
    PURPLE_BONUS_2,  # 11
    None,
    None,
)
# "You end the game and additionally receive the larger Extra Star if you have marked all 13
# coconuts."
PINK_EXTRA_COCONUTS = 13


# --- names of fields and rewards (one name each, shared by actions, views and the SVG) ----


def green_field(row: str, flower: str) -> str:
    return f"green-{row}-{flower}"


def purple_field(crate: int, bunch: int) -> str:
    return f"purple-{crate}-{bunch}"


def blue_field(column: str, row: int) -> str:
    return f"blue-{column}-{row}"


def pink_field(coconut: int) -> str:
    return f"pink-{coconut}"


def green_reward(row: str, gap: int) -> str:
    """The reward between flower ``gap`` and flower ``gap + 1`` of a row."""
    return f"green-{row}-{FLOWERS[gap]}-{FLOWERS[gap + 1]}"


def crate_reward(crate: int) -> str:
    return f"purple-crate-{crate}"


def fountain_field_reward(column: str, row: int) -> str:
    return f"blue-field-{column}-{row}"


def fountain_row_reward(row: int) -> str:
    return f"blue-row-{row}"


def coconut_reward(coconut: int) -> str:
    return f"pink-coconut-{coconut}"


def extra_star(area: str) -> str:
    return f"extra-{area}"


def _reward_json(reward: Reward) -> dict:
    return {"stars": reward.stars, "bonus": reward.bonus, "bananas": reward.bananas}


def layout() -> dict:
    """The printed sheet as plain data for drawing it: every field and reward with its name.
    Static, so a presenter reads it once rather than in every view."""
    rewards: list[dict] = []
    for row, row_rewards in GREEN_REWARDS.items():
        for gap, reward in enumerate(row_rewards):
            rewards.append({"id": green_reward(row, gap), **_reward_json(reward)})
    for crate, reward in enumerate(CRATE_REWARDS):
        rewards.append({"id": crate_reward(crate), **_reward_json(reward)})
    for column, column_rewards in FOUNTAIN_REWARDS.items():
        for row, reward in enumerate(column_rewards):
            if reward is not None:
                rewards.append({"id": fountain_field_reward(column, row), **_reward_json(reward)})
    for row, reward in enumerate(FOUNTAIN_ROW_REWARDS):
        if reward is not None:
            rewards.append({"id": fountain_row_reward(row), **_reward_json(reward)})
    for coconut, reward in enumerate(COCONUT_REWARDS):
        if reward is not None:
            rewards.append({"id": coconut_reward(coconut), **_reward_json(reward)})
    for area in AREAS:
        rewards.append({"id": extra_star(area), **_reward_json(EXTRA_STAR), "extra": True})
    return {
        "dice": [list(die) for die in DICE],
        "green": {
            "rows": [
                {"row": row, "flowers": [green_field(row, f) for f in FLOWERS]}
                for row in BUTTERFLIES
            ],
            "flowers": list(FLOWERS),
            "extra_needs": GREEN_EXTRA_FLOWERS,
        },
        "purple": {
            "crates": [
                {
                    "crate": c,
                    "bunches": [
                        {"field": purple_field(c, b), "bananas": size}
                        for b, size in enumerate(sizes)
                    ],
                }
                for c, sizes in enumerate(CRATES)
            ],
            "extra_needs": PURPLE_EXTRA_CRATES,
        },
        "blue": {
            "columns": [
                {"column": col, "fields": [blue_field(col, r) for r in range(FOUNTAIN_ROWS)]}
                for col in FOUNTAIN_COLUMNS
            ],
            "extra_row": BLUE_EXTRA_ROW,
        },
        "pink": {
            "coconuts": [pink_field(k) for k in range(COCONUTS)],
            "extra_needs": PINK_EXTRA_COCONUTS,
        },
        "rewards": rewards,
    }
