"""What the rest of a night needs of a table: its marks on the score sheets, not its game.

A table's state carries every roll and every action of its round (``state.py``), which its
own phones show. Everything else that reads a table, and above all the tallies and the
travelling prizes that read every table of the night at each change of the night, needs only
this: each seat's Bunkos and wipeouts, who won, and who rolled the Bunkos and wipeouts. A
night of four hours plays thousands of rolls; its finished tables are kept in this form.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import BUNKO, WIPEOUT
from .state import DONE, TableState
from .table import outcome


@dataclass(frozen=True, slots=True)
class Prize:
    """A roll that passes a travelling prize on: 'passes live to whoever rolled the latest
    Bunko' (and the latest wipeout, RULINGS.md)."""

    kind: str  # BUNKO or WIPEOUT
    seat: int
    t: int  # when it was rolled, in milliseconds (0 for a roll of an older night)


@dataclass(frozen=True, slots=True)
class TableSummary:
    phase: str
    stopped: bool
    # Per seat: the Bunkos and wipeouts rolled ('mark them on the scoring sheet').
    bunkos: tuple[int, ...]
    wipeouts: tuple[int, ...]
    # 'Winners mark their wins on their scoring sheets, and losers mark their losses':
    # the winning seats once the table is done, else None.
    winners: tuple[int, ...] | None
    prizes: tuple[Prize, ...]

    @property
    def done(self) -> bool:
        return self.phase == DONE


# The few tuples that nearly every summary holds ((0, 0, 0, 0): nobody rolled a Bunko; the
# winning partners): one of each for the whole night, which keeps a summary per past table.
_TUPLES: dict[tuple, tuple] = {}


def _shared(values) -> tuple:
    made = tuple(values)
    if len(_TUPLES) >= 256:  # odd tallies are kept apart, each in its own summary
        return _TUPLES.get(made, made)
    return _TUPLES.setdefault(made, made)


def summary_of(state: TableState) -> TableSummary:
    result = outcome(state)
    return TableSummary(
        phase=state.phase,
        stopped=state.stopped,
        bunkos=_shared(t["bunkos"] for t in state.tallies),
        wipeouts=_shared(t["wipeouts"] for t in state.tallies),
        winners=None if result is None else _shared(result["winners"]),
        prizes=tuple(
            Prize(roll["kind"], roll["seat"], roll.get("t") or 0)
            for roll in state.rolls
            if roll["kind"] in (BUNKO, WIPEOUT)
        ),
    )
