"""A seat's dice and crosses in the current turn, until it confirms them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .areas import Sheet
from .sheet import BUTTERFLIES

Action = dict[str, Any]
BONUS_STEPS = ("bonus", "skip_bonus")


@dataclass
class Play:
    """A seat's dice and crosses in the current turn, until confirmed."""

    colour: str  # the chosen colour: every cross of the turn goes in this area
    dice: list[int]  # the dice taken, by number 0-4
    faces: list[str]  # each taken die's face as used (after the elephant reroll in blue)
    rerolled: bool  # blue: elephants were rolled again, so the choice cannot be undone
    sheet: Sheet  # the seat's sheet with this turn's crosses
    steps: list[Action] = field(default_factory=list)  # crosses and skips made, for undo
    spent: list[int] = field(default_factory=list)  # per taken die: how much of it is used
    names: list[str | None] = field(default_factory=list)  # per taken die: a joker's use
    rows: list[int] = field(default_factory=list)  # green: the taken die opening each row, -1
    column: str | None = None  # blue: the fountain column of this turn's dice
    bonuses: list[dict] = field(default_factory=list)  # bonus marks to take, next first
    marks: list[dict] = field(default_factory=list)  # crosses made, with the dice they used
    rolled: list[int] = field(default_factory=list)  # blue: the elephant dice rolled again
    leaves: bool = False  # the active player's: the dice it does not use go to the others

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
            "rolled": list(self.rolled),
            "leaves": self.leaves,
        }

    @classmethod
    def from_json(cls, data: dict) -> Play:
        fields = dict(data)
        fields["sheet"] = Sheet.from_json(data["sheet"])
        # A play saved before kept jokers were told apart rolled every die it took.
        fields.setdefault("rolled", list(data["dice"]) if data["rerolled"] else [])
        return cls(**fields)

    @property
    def bonus_begun(self) -> bool:
        """Bonus marks come "at the end of your turn": once one is taken (or let go), the
        dice make no more crosses."""
        return any(step["type"] in BONUS_STEPS for step in self.steps)

    def kept(self, p: int) -> bool:
        """Whether the taken die at position ``p`` goes back to the others when no cross uses
        it: every die but the elephants rolled again, whose unused dice are gone."""
        return self.dice[p] not in self.rolled

    def used_dice(self) -> list[int]:
        return [d for d, spent in zip(self.dice, self.spent, strict=True) if spent]

    def unused_dice(self) -> list[int]:
        return [d for d, spent in zip(self.dice, self.spent, strict=True) if not spent]


def fresh(
    colour: str,
    dice: list[int],
    faces: list[str],
    rerolled: bool,
    sheet: Sheet,
    rolled: list[int] | None = None,
    leaves: bool = False,
) -> Play:
    """A play before its first cross; ``rolled`` names the dice rolled again (all of them when
    ``rerolled`` and not given); ``leaves`` for the active player, whose unused dice go to the
    others."""
    if rolled is None:
        rolled = list(dice) if rerolled else []
    return Play(
        colour=colour,
        dice=list(dice),
        faces=list(faces),
        rerolled=rerolled,
        sheet=sheet,
        spent=[0] * len(dice),
        names=[None] * len(dice),
        rows=[-1] * len(BUTTERFLIES),
        rolled=list(rolled),
        leaves=leaves,
    )
