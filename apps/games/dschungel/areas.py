"""A player's sheet and the four areas' marking rules: where a mark may go, what it wins.

Which dice a mark needs is the turn's business (``turn.py``); here a mark is a field on the
sheet, and every function returns a new Sheet rather than changing one, so states can share
sheets safely.
"""

from __future__ import annotations

from dataclasses import dataclass

from .sheet import (
    AREAS,
    BLUE_EXTRA_ROW,
    BUTTERFLIES,
    COCONUT_REWARDS,
    COCONUTS,
    CRATE_REWARDS,
    CRATES,
    EXTRA_STAR,
    FLOWERS,
    FOUNTAIN_COLUMNS,
    FOUNTAIN_REWARDS,
    FOUNTAIN_ROW_REWARDS,
    FOUNTAIN_ROWS,
    GREEN_EXTRA_FLOWERS,
    GREEN_REWARDS,
    PINK_EXTRA_COCONUTS,
    PURPLE_EXTRA_CRATES,
    Reward,
    blue_field,
    coconut_reward,
    crate_reward,
    extra_star,
    fountain_field_reward,
    fountain_row_reward,
    green_field,
    green_reward,
    pink_field,
    purple_field,
)

Won = tuple[str, Reward]  # a reward's name and what it gives


@dataclass(frozen=True)
class Summary:
    """What follows from a sheet's crosses, worked out once per sheet (sheets never change)."""

    rewards: tuple[str, ...]  # the names of the rewards won, Extra Stars included
    stars: int
    extra_stars: tuple[str, ...]
    fields: tuple[str, ...]  # the names of the crossed fields
    counts: tuple[tuple[str, int], ...]  # crosses per area


@dataclass
class Sheet:
    """One player's sheet: which fields carry a cross. Never changed in place once the
    rules hold it, so what follows from it is kept beside it (``summary``)."""

    green: list[list[bool]]  # [row][flower], rows as BUTTERFLIES, flowers as FLOWERS
    purple: list[list[bool]]  # [crate][bunch]
    blue: list[list[bool]]  # [column][row], columns as FOUNTAIN_COLUMNS, bottom row first
    pink: list[bool]  # the coconut path, in path order

    @classmethod
    def blank(cls) -> Sheet:
        return cls(
            green=[[False] * len(FLOWERS) for _ in BUTTERFLIES],
            purple=[[False] * len(sizes) for sizes in CRATES],
            blue=[[False] * FOUNTAIN_ROWS for _ in FOUNTAIN_COLUMNS],
            pink=[False] * COCONUTS,
        )

    def to_json(self) -> dict:
        return {
            "green": [list(r) for r in self.green],
            "purple": [list(c) for c in self.purple],
            "blue": [list(c) for c in self.blue],
            "pink": list(self.pink),
        }

    @classmethod
    def from_json(cls, data: dict) -> Sheet:
        return cls(
            green=[list(r) for r in data["green"]],
            purple=[list(c) for c in data["purple"]],
            blue=[list(c) for c in data["blue"]],
            pink=list(data["pink"]),
        )

    def summary(self) -> Summary:
        """Rewards, stars and crossed fields, computed on first use and then kept (a cache,
        not part of the state: equality and JSON ignore it)."""
        cached = self.__dict__.get("_summary")
        if cached is None:
            won = rewards_won(self)
            cached = Summary(
                rewards=tuple(name for name, _ in won),
                stars=sum(reward.stars for _, reward in won),
                extra_stars=tuple(extra_stars(self)),
                fields=tuple(marked_fields(self)),
                counts=tuple(mark_counts(self).items()),
            )
            self.__dict__["_summary"] = cached
        return cached


# --- green ---------------------------------------------------------------------------------


def green_free(sheet: Sheet, row: int, flower: int) -> bool:
    return not sheet.green[row][flower]


def mark_green(sheet: Sheet, row: int, flower: int) -> tuple[Sheet, list[Won]]:
    """ "Bonus rings and rainbow stars are received when you have marked both flowers
    adjacent to them." """
    rows = [list(r) for r in sheet.green]
    rows[row][flower] = True
    name = BUTTERFLIES[row]
    won: list[Won] = []
    for gap in (flower - 1, flower):
        if 0 <= gap < len(FLOWERS) - 1 and rows[row][gap] and rows[row][gap + 1]:
            won.append((green_reward(name, gap), GREEN_REWARDS[name][gap]))
    new = Sheet(rows, sheet.purple, sheet.blue, sheet.pink)
    if _green_extra(new) and not _green_extra(sheet):
        won.append((extra_star("green"), EXTRA_STAR))
    return new, won


def _green_extra(sheet: Sheet) -> bool:
    return sum(f for r in sheet.green for f in r) >= GREEN_EXTRA_FLOWERS


# --- purple --------------------------------------------------------------------------------


def free_bunches(sheet: Sheet) -> list[tuple[int, int, int]]:
    """Every unmarked bunch as (crate, bunch, bananas): "You do not have to follow any order
    when marking, and you may have several partly marked crates open at the same time." """
    return [
        (c, b, size)
        for c, sizes in enumerate(CRATES)
        for b, size in enumerate(sizes)
        if not sheet.purple[c][b]
    ]


def mark_purple(sheet: Sheet, crate: int, bunch: int) -> tuple[Sheet, list[Won]]:
    """ "The bonus circles and rainbow stars above a crate are received when you have marked
    all the bananas in that crate." """
    crates = list(sheet.purple)
    crates[crate] = list(crates[crate])
    crates[crate][bunch] = True
    won: list[Won] = []
    if all(crates[crate]):
        won.append((crate_reward(crate), CRATE_REWARDS[crate]))
    new = Sheet(sheet.green, crates, sheet.blue, sheet.pink)
    if _purple_extra(new) and not _purple_extra(sheet):
        won.append((extra_star("purple"), EXTRA_STAR))
    return new, won


def full_crates(sheet: Sheet) -> int:
    return sum(1 for crate in sheet.purple if all(crate))


def _purple_extra(sheet: Sheet) -> bool:
    return full_crates(sheet) >= PURPLE_EXTRA_CRATES


# --- blue ----------------------------------------------------------------------------------


def next_row(sheet: Sheet, column: int) -> int | None:
    """ "Crosses must be placed in each column from bottom to top." None: the column is full."""
    fields = sheet.blue[column]
    for row in range(FOUNTAIN_ROWS):
        if not fields[row]:
            return row
    return None


def mark_blue(sheet: Sheet, column: int) -> tuple[Sheet, list[Won]]:
    """ "Bonus circles and rainbow stars are received when you mark the respective field.
    Further rainbow stars are received for completely marking the two bottom rows." """
    row = next_row(sheet, column)
    assert row is not None, "a full column takes no mark"
    columns = list(sheet.blue)
    columns[column] = list(columns[column])
    columns[column][row] = True
    name = FOUNTAIN_COLUMNS[column]
    won: list[Won] = []
    field_reward = FOUNTAIN_REWARDS[name][row]
    if field_reward is not None:
        won.append((fountain_field_reward(name, row), field_reward))
    row_done = all(c[row] for c in columns)
    if row_done and FOUNTAIN_ROW_REWARDS[row] is not None:
        won.append((fountain_row_reward(row), FOUNTAIN_ROW_REWARDS[row]))
    if row_done and row == BLUE_EXTRA_ROW:
        won.append((extra_star("blue"), EXTRA_STAR))
    return Sheet(sheet.green, sheet.purple, columns, sheet.pink), won


# --- pink ----------------------------------------------------------------------------------


def next_coconut(sheet: Sheet) -> int | None:
    """ "Starting at the arrow at the bottom left, you must always mark the coconuts in row
    order. You may not skip a coconut." None: the path is done."""
    for k, marked in enumerate(sheet.pink):
        if not marked:
            return k
    return None


def mark_pink(sheet: Sheet) -> tuple[Sheet, list[Won]]:
    """ "Bonus circles and rainbow stars are received as soon as you mark the coconut on which
    they stand." """
    k = next_coconut(sheet)
    assert k is not None, "a finished path takes no mark"
    path = list(sheet.pink)
    path[k] = True
    won: list[Won] = []
    reward = COCONUT_REWARDS[k]
    if reward is not None:
        won.append((coconut_reward(k), reward))
    if sum(path) >= PINK_EXTRA_COCONUTS and sum(sheet.pink) < PINK_EXTRA_COCONUTS:
        won.append((extra_star("pink"), EXTRA_STAR))
    return Sheet(sheet.green, sheet.purple, sheet.blue, path), won


# --- the whole sheet -----------------------------------------------------------------------


def rewards_won(sheet: Sheet) -> list[Won]:
    """Every reward the sheet has won so far, Extra Stars included, in sheet order."""
    won: list[Won] = []
    for r, name in enumerate(BUTTERFLIES):
        row = sheet.green[r]
        for gap, reward in enumerate(GREEN_REWARDS[name]):
            if row[gap] and row[gap + 1]:
                won.append((green_reward(name, gap), reward))
    for c, crate in enumerate(sheet.purple):
        if all(crate):
            won.append((crate_reward(c), CRATE_REWARDS[c]))
    for c, name in enumerate(FOUNTAIN_COLUMNS):
        for row, reward in enumerate(FOUNTAIN_REWARDS[name]):
            if reward is not None and sheet.blue[c][row]:
                won.append((fountain_field_reward(name, row), reward))
    for row, reward in enumerate(FOUNTAIN_ROW_REWARDS):
        if reward is not None and all(c[row] for c in sheet.blue):
            won.append((fountain_row_reward(row), reward))
    for k, reward in enumerate(COCONUT_REWARDS):
        if reward is not None and sheet.pink[k]:
            won.append((coconut_reward(k), reward))
    for area in extra_stars(sheet):
        won.append((extra_star(area), EXTRA_STAR))
    return won


def extra_stars(sheet: Sheet) -> list[str]:
    """The areas whose Extra Star the sheet has circled: "The game ends as soon as someone
    circles the larger, blue-outlined Extra Star in one of the four colour areas." """
    done = {
        "green": _green_extra(sheet),
        "purple": _purple_extra(sheet),
        "blue": all(c[BLUE_EXTRA_ROW] for c in sheet.blue),
        "pink": sum(sheet.pink) >= PINK_EXTRA_COCONUTS,
    }
    return [area for area in AREAS if done[area]]


def stars(sheet: Sheet) -> int:
    """ "Count your collected rainbow stars ... The larger, blue-outlined Extra Star counts
    too." """
    return sheet.summary().stars


def marked_fields(sheet: Sheet) -> list[str]:
    """The names of every field with a cross, in sheet order (as ``sheet.layout()`` names
    them)."""
    fields = [
        green_field(name, FLOWERS[f])
        for r, name in enumerate(BUTTERFLIES)
        for f in range(len(FLOWERS))
        if sheet.green[r][f]
    ]
    fields += [
        purple_field(c, b) for c, crate in enumerate(sheet.purple) for b, m in enumerate(crate) if m
    ]
    fields += [
        blue_field(name, row)
        for c, name in enumerate(FOUNTAIN_COLUMNS)
        for row in range(FOUNTAIN_ROWS)
        if sheet.blue[c][row]
    ]
    fields += [pink_field(k) for k, m in enumerate(sheet.pink) if m]
    return fields


def mark_counts(sheet: Sheet) -> dict[str, int]:
    """Crosses per area: flowers, banana bunches, fountain fields, coconuts."""
    return {
        "green": sum(f for r in sheet.green for f in r),
        "purple": sum(b for c in sheet.purple for b in c),
        "blue": sum(f for c in sheet.blue for f in c),
        "pink": sum(sheet.pink),
    }
