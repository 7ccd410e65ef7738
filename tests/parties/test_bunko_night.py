"""A whole night: lock-step tables, STOP, tallies and the overall winner and loser."""

from __future__ import annotations

import random

from apps.parties.rules.night import (
    most,
    new_night,
    play_round,
    play_step,
    propagate_stop,
    rolloff,
    start_tables,
)
from apps.parties.rules.table import DONE, PLAYING, apply, setup

from .test_bunko_rolls import roll, table_starting_with
from .test_bunko_table import with_scores

RNG = random.Random(5)


def test_stop_at_the_head_table_reaches_every_table_in_the_same_step() -> None:
    """'When this happens, the head table calls "stop" and play stops at all tables.'"""
    head = with_scores(table_starting_with(0, head=True), 20, 0)
    other = with_scores(table_starting_with(0), 3, 1)
    tied = with_scores(table_starting_with(0), 2, 2)
    # The head table rolls its 21st point this step; the others roll too, then STOP.
    head = apply(head, 0, {"type": "roll", "dice": [6, 2, 2]}, RNG)
    tables = propagate_stop([head, roll(other, 2, 2, 3), roll(tied, 2, 2, 3)])
    assert [t.phase for t in tables] == [DONE, DONE, PLAYING]
    assert all(t.stopped for t in tables)


def test_play_step_rolls_once_at_every_table_and_reports_the_stop() -> None:
    rng = random.Random(11)
    tables = start_tables([list("ABCD"), list("EFGH")], 1, False, rng)
    step = 0
    called = False
    while not called:
        before = [len(t.rolls) for t in tables]
        tables, called = play_step(tables, rng)
        step += 1
        assert [len(t.rolls) for t in tables] == [n + 1 for n in before]
    assert max(tables[0].scores) >= 21
    assert all(t.stopped for t in tables)
    assert len(tables[0].rolls) == step


def test_a_round_ends_when_every_table_has_a_winner_and_tallies_wins_and_losses() -> None:
    """'Winners mark their wins on their scoring sheets, and losers mark their losses.'"""
    night = new_night([f"P{i}" for i in range(12)])
    record = play_round(night, random.Random(3))
    assert len(record["tables"]) == 3
    for table in record["tables"]:
        assert table["score"][0] != table["score"][1]
        for name in table["winners"]:
            assert night.tallies[name]["wins"] == 1
        for name in table["losers"]:
            assert night.tallies[name]["losses"] == 1
    head = record["tables"][0]
    assert max(head["score"]) >= 21


def test_bunkos_and_wipeouts_are_tallied_for_who_rolled_them() -> None:
    """Ruling: 'Tallies on every score sheet: wins, losses, Bunkos (rolled, not grabbed),
    wipeouts'."""
    night = new_night([f"P{i}" for i in range(40)])
    rng = random.Random(8)
    records = [play_round(night, rng) for _ in range(3)]
    bunkos: dict[str, int] = {}
    wipeouts: dict[str, int] = {}
    for record in records:
        for table in record["tables"]:
            for entry in table["rolls"]:
                if entry["kind"] == "bunko":
                    bunkos[entry["player"]] = bunkos.get(entry["player"], 0) + 1
                if entry["kind"] == "wipeout":
                    wipeouts[entry["player"]] = wipeouts.get(entry["player"], 0) + 1
    assert sum(bunkos.values()) > 0 and sum(wipeouts.values()) > 0
    for name, tally in night.tallies.items():
        assert tally["bunkos"] == bunkos.get(name, 0)
        assert tally["wipeouts"] == wipeouts.get(name, 0)


def test_a_roll_off_lets_only_the_tied_highest_roll_again() -> None:
    """Ruling: 'each tied player rolls one die, highest wins for "most", ties roll again'."""
    rng = random.Random(0)
    for _ in range(50):
        winner, rounds = rolloff(["A", "B", "C"], rng)
        for earlier, later in zip(rounds, rounds[1:], strict=False):
            best = max(earlier.values())
            assert set(later) == {n for n, d in earlier.items() if d == best}
        assert rounds[-1][winner] == max(rounds[-1].values())
        assert list(rounds[-1].values()).count(max(rounds[-1].values())) == 1


def test_the_overall_winner_has_the_most_wins_and_ghosts_take_no_prize() -> None:
    """'The overall winner is decided by the number of wins ... Ties are broken by dice
    roll.'"""
    tallies = {
        "Ann": {"wins": 4, "losses": 2},
        "Bea": {"wins": 4, "losses": 2},
        "Cal": {"wins": 1, "losses": 5},
        "Ghost 1": {"wins": 6, "losses": 6},
    }
    winner, rolls = most(tallies, "wins", random.Random(1), "winner")
    assert winner in ("Ann", "Bea")
    assert rolls and all(set(r["rolls"]) == {"Ann", "Bea"} for r in rolls[:1])
    loser, rolls = most(tallies, "losses", random.Random(1), "loser")
    assert loser == "Cal" and rolls == []


def test_a_physical_dice_night_is_the_same_engine_fed_by_reports() -> None:
    """Tables entering reports instead of dice play the same game."""
    rng = random.Random(4)
    tables = start_tables([list("ABCD")], 1, False, rng)
    state = apply(tables[0], tables[0].roller, {"type": "report", "kind": "sixes", "count": 2}, rng)
    assert max(state.scores) == 2
    empty = setup(list("ABCD"), {"head": True}, rng)
    assert empty.phase == "rolloff"
